"""Integer scores beyond 2**53 lose precision as 64-bit floats, and two distinct scores can
become a tie: every reader says so in a counted warning naming the source, the count and an
example (issue 25) -- Parquet int64 and uint64, decimal columns, CSV/TSV text, pandas and
dicts. Scores that a float holds exactly give no warning."""

from __future__ import annotations

import decimal
import warnings
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from assay import Run
from assay.errors import InputError, InputWarning

BIG = 2**53


def _warned(make) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
    return [str(w.message) for w in caught if issubclass(w.category, InputWarning)]


def _parquet(tmp_path: Path, scores: pa.Array) -> Path:
    path = tmp_path / "run.parquet"
    n = len(scores)
    pq.write_table(
        pa.table({"query": ["q"] * n, "doc": [f"d{i}" for i in range(n)], "score": scores}), path
    )
    return path


def test_parquet_int64_beyond_2_53(tmp_path: Path) -> None:
    path = _parquet(tmp_path, pa.array([BIG + 1, BIG + 3, BIG + 4, 5], pa.int64()))
    (message,) = _warned(lambda: Run.from_parquet(path))
    assert str(path.name) in message
    assert "2 integer scores beyond 2**53 lost precision" in message
    assert f"e.g. {BIG + 1} read as {float(BIG + 1)!r} at row 1" in message


def test_parquet_uint64_and_negative_int64(tmp_path: Path) -> None:
    path = _parquet(tmp_path, pa.array([2**64 - 1, 7], pa.uint64()))
    assert "1 integer score beyond 2**53" in _warned(lambda: Run.from_parquet(path))[0]
    path = _parquet(tmp_path, pa.array([-(BIG + 1), 2**63 - 1], pa.int64()))
    assert "2 integer scores beyond 2**53" in _warned(lambda: Run.from_parquet(path))[0]


def test_parquet_decimal_scores_that_merge(tmp_path: Path) -> None:
    values = [
        decimal.Decimal("0.1234567890123456789012"),
        decimal.Decimal("0.1234567890123456789013"),
    ]
    path = _parquet(tmp_path, pa.array([*values, decimal.Decimal("0.5")], pa.decimal128(30, 22)))
    (message,) = _warned(lambda: Run.from_parquet(path))
    assert "1 distinct decimal score lost precision" in message


def test_csv_and_tsv_text_integers(tmp_path: Path) -> None:
    for name, sep in (("run.csv", ","), ("run.tsv", "\t")):
        path = tmp_path / name
        path.write_text(f"query{sep}doc{sep}score\nq{sep}a{sep}{BIG + 1}\nq{sep}b{sep}1.5\n")
        (message,) = _warned(lambda p=path: Run.from_csv(p))
        assert name in message and f"e.g. {BIG + 1} read as" in message and "at line 2" in message


def test_pandas_and_dicts(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [BIG + 1, BIG + 3]})
    assert "<pandas>: 2 integer scores" in _warned(lambda: Run.from_pandas(frame))[0]
    assert (
        "<dict>: 1 integer score"
        in _warned(lambda: Run.from_dict({"q": {"a": BIG + 1, "b": 1}}))[0]
    )
    huge = {"q": {"a": 2**70 + 1, "b": 2**70}}  # beyond int64: NumPy keeps Python ints
    assert "<dict>: 1 integer score" in _warned(lambda: Run.from_dict(huge))[0]
    with pytest.raises(InputError, match="is beyond a 64-bit float"):
        Run.from_dict({"q": {"a": 10**400}})


def test_exact_scores_do_not_warn(tmp_path: Path) -> None:
    path = _parquet(tmp_path, pa.array([BIG, BIG + 2, -BIG, 2**60, 3], pa.int64()))
    assert _warned(lambda: Run.from_parquet(path)) == []
    csv = tmp_path / "ok.csv"
    csv.write_text(f"query,doc,score\nq,a,{BIG}\nq,b,1e300\nq,c,0.1\n")
    assert _warned(lambda: Run.from_csv(csv)) == []
    assert _warned(lambda: Run.from_dict({"q": {"a": 2**80, "b": 0.5}})) == []
