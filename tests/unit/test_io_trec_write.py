"""Writing TREC text: bit-exact round trips, ranks and tie order, tags, and ids that stay
distinct."""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from assay import Qrels, Run
from strategies.io import hard_doubles
from support.io import assert_same_qrels, assert_same_run, expected_qrels, expected_run


@pytest.mark.parametrize("target", ["path", "gz", "stream"])
def test_run_to_trec_round_trip_is_bit_exact(target: str, tmp_path: Path) -> None:
    scores = hard_doubles(20_000)
    n = len(scores)
    queries = np.where(np.arange(n) % 3 == 0, "q1", np.where(np.arange(n) % 3 == 1, "q2", "q10"))
    run = Run.from_columns(queries, [f"doc-{i}" for i in range(n)], scores, name="exact")
    if target == "stream":
        buf = io.BytesIO()
        run.to_trec(buf)
        back = Run.from_trec(io.BytesIO(buf.getvalue()), name="exact")
        text = buf.getvalue().decode()
    else:
        path = tmp_path / ("run.txt.gz" if target == "gz" else "run.txt")
        run.to_trec(path)
        back = Run.from_trec(path, name="exact")
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if target == "gz" else raw).decode()
    a, b = run.to_arrow(), back.to_arrow()
    np.testing.assert_array_equal(
        a["score"].to_numpy().view(np.uint64), b["score"].to_numpy().view(np.uint64)
    )
    assert a.equals(b)
    # The rank column written is the rank in trec_eval order.
    first = text.splitlines()[:3]
    written = [ln.split() for ln in first]
    assert [w[3] for w in written] == ["1", "2", "3"]
    assert all(w[1] == "Q0" and w[5] == "exact" and len(w) == 6 for w in written)


def test_run_round_trip_keeps_ranks_and_tie_order(tmp_path: Path) -> None:
    # Ties on score are ordered by docno descending (trec_eval); the order survives writing.
    run = Run.from_columns(
        ["q"] * 5, ["a", "c", "b", "e", "d"], [1.0, 2.0, 2.0, 0.5, 2.0], name="r"
    )
    run.to_trec(tmp_path / "r.txt")
    lines = (tmp_path / "r.txt").read_text().splitlines()
    assert [ln.split()[2:4] for ln in lines] == [
        ["d", "1"],
        ["c", "2"],
        ["b", "3"],
        ["a", "4"],
        ["e", "5"],
    ]
    back = Run.from_trec(tmp_path / "r.txt")
    np.testing.assert_array_equal(back.ranks(), run.ranks())
    assert back.to_arrow().equals(run.to_arrow())


def test_run_to_trec_tag(tmp_path: Path) -> None:
    run = Run.from_columns(["q"], ["d"], [1.0], name="my run.txt")
    run.to_trec(tmp_path / "a")
    assert (tmp_path / "a").read_text().split() == ["q", "Q0", "d", "1", "1", "my_run.txt"]
    run.to_trec(tmp_path / "b", tag="bm25")
    assert Run.from_trec(tmp_path / "b").tag == "bm25"


def test_run_to_trec_stdout(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    expected_run().to_trec("-")
    out = capsysbinary.readouterr().out
    assert_same_run(Run.from_trec(io.BytesIO(out)), expected_run(), same_input=False)


def test_qrels_to_trec_round_trip(tmp_path: Path) -> None:
    qrels = expected_qrels()
    for name in ("q.txt", "q.txt.gz"):
        qrels.to_trec(tmp_path / name)
        assert_same_qrels(Qrels.from_trec(tmp_path / name), qrels)
    assert "2 0 d1 -1" in (tmp_path / "q.txt").read_text().splitlines()


def test_real_files_round_trip(trec_dir: Path, tmp_path: Path) -> None:
    run = Run.from_trec(trec_dir / "results.comment.test")
    run.to_trec(tmp_path / "r")
    assert_same_run(Run.from_trec(tmp_path / "r"), run.rename("r"), same_input=False)
    qrels = Qrels.from_trec(trec_dir / "qrels.test.with-comments")
    qrels.to_trec(tmp_path / "q")
    assert_same_qrels(Qrels.from_trec(tmp_path / "q"), qrels)


def test_many_distinct_ids_stay_distinct() -> None:
    # 200k doc ids: any small (say 16-bit) hash must collide, exact ids never do.
    n = 200_000
    docs = [f"d{i}" for i in range(n)]
    scores = np.arange(n, dtype=np.float64)
    run = Run.from_columns(["q"] * n, docs, scores)
    got = run.to_dict()["q"]
    assert len(got) == n
    np.testing.assert_array_equal(np.array([got[d] for d in docs]), scores)
    qrels = Qrels.from_columns(["q"] * n, docs, np.arange(n) % 5)
    assert len(qrels) == n and len({d for _, d, _ in qrels}) == n


def test_ids_that_look_alike_stay_distinct() -> None:
    docs = ["1", "01", "1.0", "001", "a", "A", "\u00e9", "e\u0301", "a ", "doc", "doc\u200b"]
    run = Run.from_columns(["q"] * len(docs), docs, np.arange(len(docs), dtype=float))
    assert run.to_dict() == {"q": {d: float(i) for i, d in enumerate(docs)}}


def test_integer_ids_become_strings() -> None:
    run = Run.from_columns(
        np.array([1, 1, 20], dtype=np.int64), np.array([7, 8, 7], dtype=np.int32), [1.0, 2.0, 3.0]
    )
    assert run.to_dict() == {"1": {"7": 1.0, "8": 2.0}, "20": {"7": 3.0}}
    assert run.queries == ["1", "20"]
    qrels = Qrels.from_dict({301: {1: 1, 2: 0}})
    assert qrels.to_dict() == {"301": {"1": 1, "2": 0}}
    # The same collection with string ids compares equal.
    assert qrels == Qrels.from_dict({"301": {"1": 1, "2": 0}})


def test_query_ids_in_byte_order() -> None:
    run = Run.from_columns(["b", "a", "10", "9", "B"], ["d"] * 5, [1.0] * 5)
    assert run.queries == ["10", "9", "B", "a", "b"]


def _iter_lines(path: Path) -> Iterator[list[str]]:
    for line in path.read_text().splitlines():
        yield line.split()


def test_written_trec_is_trec_eval_readable(tmp_path: Path) -> None:
    # Exactly 6 (run) and 4 (qrels) white-space separated fields on every line.
    expected_run().to_trec(tmp_path / "r")
    expected_qrels().to_trec(tmp_path / "q")
    assert {len(f) for f in _iter_lines(tmp_path / "r")} == {6}
    assert {len(f) for f in _iter_lines(tmp_path / "q")} == {4}
