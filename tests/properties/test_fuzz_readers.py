"""Fuzzing the ranking readers: TREC qrels and runs (fast and exact paths, and the block
reader), CSV, TSV, JSON Lines, Parquet, dicts and pandas frames.

For every reader, two properties:

- a valid input written in an awkward way is read whole: the rows read are the rows
  written (every accepted row accounted for);
- hostile bytes never end in a traceback: the reader returns, or raises one
  :class:`assay.AssayError` naming the file (and the line, for a line of a text format); when
  it returns, it has read as many rows as an independent count of the file's records finds.

Examples per test: ``ASSAY_FUZZ_EXAMPLES`` (default small, so that the whole fuzz suite
stays within about a minute under ``make test``); hypothesis runs derandomized.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import tempfile
import warnings
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay import AssayError, Qrels, Run
from assay.errors import AssayWarning, EmptyInputError, InputError, ParseError
from strategies.fuzz import (
    Written,
    delimited,
    feature_file,
    fuzz_settings,
    jsonl,
    mutated,
    nested_dicts,
    packaging,
    parquet_columns,
    trec,
)

READERS = {"qrels": Qrels, "run": Run}


@contextmanager
def written(data: bytes, name: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        yield path


def attempt(read: Callable[[], Any]) -> Any:
    """``read()``'s result or the AssayError it raised; any other exception propagates (a
    traceback is a failure), and every warning must be one of assay's typed warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = read()
        except AssayError as exc:
            result = exc
    stray = [w for w in caught if not issubclass(w.category, AssayWarning)]
    assert not stray, [str(w.message) for w in stray]
    return result


#: Refusals that concern the file as a whole, not one of its lines (a field missing from a
#: JSON Lines or Parquet file is missing from every row).
_FILE_LEVEL = re.compile(
    r"gzip|empty|no data|no \w+ lines|holds no results|no column|no qid: fields|no embeddings"
)


def check_refusal(exc: AssayError, path: Path, *, lines: bool) -> None:
    """One AssayError naming the file, and (``lines``) the line unless the whole file is
    at fault."""
    assert isinstance(exc, InputError), repr(exc)
    assert exc.source == str(path), str(exc)
    if lines and not isinstance(exc, EmptyInputError) and not _FILE_LEVEL.search(str(exc)):
        assert exc.line is not None, str(exc)


def logical_text(data: bytes, *, strict: bool = True) -> str | None:
    """The text a reader sees in ``data`` (gzip undone, one BOM dropped); None when it is
    not valid gzip or (``strict``) not valid UTF-8."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            return None
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8", "strict" if strict else "replace")
    except UnicodeDecodeError:
        return None


def trec_records(text: str) -> int:
    """Data lines of TREC text by trec_eval's rules: lines end at \\n; a line that is blank
    (ASCII white space) or starts with '#' holds no record."""
    return sum(
        1 for line in text.split("\n") if line.strip(" \t\r\x0b\x0c") and not line.startswith("#")
    )


def csv_records(text: str, delimiter: str) -> int:
    """Non-empty CSV records after the header, by Python's csv module."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return max(0, sum(1 for row in reader if row) - 1)


def json_values(text: str) -> int:
    """Top-level JSON values (Arrow's JSON reader skips one more byte order mark)."""
    decoder, pos, n = json.JSONDecoder(), 1 if text.startswith("\ufeff") else 0, 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text):
            return n
        _, pos = decoder.raw_decode(text, pos)
        n += 1


def as_rows(table: Any) -> dict[tuple[str, str], Any]:
    return {(q, d): v for q, docs in table.to_dict().items() for d, v in docs.items()}


# ---------------------------------------------------------------- TREC


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(60)
def test_trec_valid_inputs_are_read_whole(kind: str, data: st.DataObject) -> None:
    w: Written = data.draw(trec(kind))
    with written(w.data, f"{kind}.txt") as path:
        got = attempt(lambda: READERS[kind].read(path))
    assert not isinstance(got, AssayError), str(got)
    assert as_rows(got) == w.rows


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(40)
def test_trec_fast_and_exact_paths_agree(kind: str, data: st.DataObject) -> None:
    w: Written = data.draw(trec(kind, fast=True))
    with written(w.data, f"{kind}.txt") as fast, written(b"#\n" + w.data, "x.txt") as exact:
        a, b = attempt(lambda: READERS[kind].read(fast)), attempt(lambda: READERS[kind].read(exact))
    assert not isinstance(a, AssayError) and not isinstance(b, AssayError), (str(a), str(b))
    assert as_rows(a) == as_rows(b) == w.rows


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(100)
def test_trec_hostile_bytes(kind: str, data: st.DataObject) -> None:
    w: Written = data.draw(trec(kind))
    raw = data.draw(mutated(w.data))
    stored = data.draw(packaging(raw, hostile=True))
    with written(stored, f"{kind}.txt") as path:
        got = attempt(lambda: READERS[kind].read(path))
        if kind == "run":
            blocks = attempt(lambda: _block_rows(path))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=True)
    else:
        text = logical_text(stored)
        assert text is not None
        assert len(got) == trec_records(text)
    if kind == "run":
        if isinstance(blocks, AssayError):
            check_refusal(blocks, path, lines=True)
        elif not isinstance(got, AssayError):
            assert blocks == len(got)


def _block_rows(path: Path) -> int:
    from assay.io.blocks import iter_run_blocks

    return sum(len(b.query) for b in iter_run_blocks(path, block_bytes=64))


# ---------------------------------------------------------------- CSV, TSV, JSON Lines


@pytest.mark.parametrize(("kind", "ext"), [("qrels", "csv"), ("run", "csv"), ("run", "tsv")])
@given(data=st.data())
@fuzz_settings(50)
def test_delimited_valid_inputs_are_read_whole(kind: str, ext: str, data: st.DataObject) -> None:
    w: Written = data.draw(delimited(kind, "," if ext == "csv" else "\t"))
    with written(w.data, f"{kind}.{ext}") as path:
        got = attempt(lambda: READERS[kind].read(path))
    assert not isinstance(got, AssayError), str(got)
    assert as_rows(got) == w.rows


@pytest.mark.parametrize(("kind", "ext"), [("qrels", "csv"), ("run", "csv"), ("run", "tsv")])
@given(data=st.data())
@fuzz_settings(80)
def test_delimited_hostile_bytes(kind: str, ext: str, data: st.DataObject) -> None:
    delimiter = "," if ext == "csv" else "\t"
    w: Written = data.draw(delimited(kind, delimiter))
    stored = data.draw(packaging(data.draw(mutated(w.data)), hostile=True))
    with written(stored, f"{kind}.{ext}") as path:
        got = attempt(lambda: READERS[kind].read(path))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=True)
    else:
        # Columns that are not read may hold anything, invalid UTF-8 included.
        text = logical_text(stored, strict=False)
        assert text is not None
        assert len(got) == csv_records(text, delimiter)


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(50)
def test_jsonl_valid_inputs_are_read_whole(kind: str, data: st.DataObject) -> None:
    w: Written = data.draw(jsonl(kind))
    with written(w.data, f"{kind}.jsonl") as path:
        got = attempt(lambda: READERS[kind].read(path))
    assert not isinstance(got, AssayError), str(got)
    assert as_rows(got) == w.rows


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(80)
def test_jsonl_hostile_bytes(kind: str, data: st.DataObject) -> None:
    w: Written = data.draw(jsonl(kind))
    stored = data.draw(packaging(data.draw(mutated(w.data)), hostile=True))
    with written(stored, f"{kind}.jsonl") as path:
        got = attempt(lambda: READERS[kind].read(path))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=True)
    else:
        text = logical_text(stored)
        assert text is not None
        assert len(got) == json_values(text)


# ---------------------------------------------------------------- Parquet


def _parquet_bytes(cols: dict[str, Any]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    pq.write_table(pa.table(cols), sink)
    return sink.getvalue()


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(40)
def test_parquet_valid_inputs_are_read_whole(kind: str, data: st.DataObject) -> None:
    cols = data.draw(parquet_columns(kind, hostile=False))
    with written(_parquet_bytes(cols), f"{kind}.parquet") as path:
        got = attempt(lambda: READERS[kind].read(path))
    assert not isinstance(got, AssayError), str(got)
    assert len(got) == len(cols["doc"])


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(60)
def test_parquet_hostile_columns_and_bytes(kind: str, data: st.DataObject) -> None:
    stored = _parquet_bytes(data.draw(parquet_columns(kind, hostile=True)))
    if data.draw(st.booleans()):
        stored = data.draw(mutated(stored))
    with written(stored, f"{kind}.parquet") as path:
        got = attempt(lambda: READERS[kind].read(path))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=False)
    else:
        import pyarrow.parquet as pq

        assert len(got) == pq.read_metadata(io.BytesIO(stored)).num_rows


# ---------------------------------------------------------------- dicts and frames


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(value=nested_dicts())
@fuzz_settings(150)
def test_dicts(kind: str, value: Any) -> None:
    got = attempt(lambda: READERS[kind].from_dict(value))
    if isinstance(got, AssayError):
        assert isinstance(got, InputError) and got.source == "<dict>", repr(got)
    else:
        assert len(got) == sum(len(inner) for inner in value.values())


_CELLS = st.one_of(
    st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
    st.binary(max_size=2),
)


@pytest.mark.parametrize("kind", ["qrels", "run"])
@given(data=st.data())
@fuzz_settings(80)
def test_pandas_frames(kind: str, data: st.DataObject) -> None:
    pd = pytest.importorskip("pandas")
    n = data.draw(st.integers(0, 5))
    names = ["query", "doc", "relevance" if kind == "qrels" else "score"]
    cols = {name: data.draw(st.lists(_CELLS, min_size=n, max_size=n)) for name in names}
    frame = pd.DataFrame(cols)
    if n and data.draw(st.booleans()):
        frame[names[0]] = frame[names[0]].astype("category")
    got = attempt(lambda: READERS[kind].from_pandas(frame))
    if isinstance(got, AssayError):
        assert isinstance(got, InputError) and got.source == "<pandas>", repr(got)
    else:
        assert len(got) == n


# ---------------------------------------------------------------- feature-family readers


def feature_readers() -> dict[str, Callable[[Path], Any]]:
    """The readers of the feature families, by the kind :func:`feature_file` draws."""
    from assay.embeddings.reader import read_embeddings
    from assay.ltr.letor import read_letor
    from assay.tagging.conll import read_conll

    return {"letor": read_letor, "conll": read_conll, "embeddings": read_embeddings}


@pytest.mark.parametrize("kind", ["letor", "conll", "embeddings"])
@given(data=st.data())
@fuzz_settings(80)
def test_feature_family_readers_hostile_bytes(kind: str, data: st.DataObject) -> None:
    read = feature_readers()[kind]
    clean, file_name = data.draw(feature_file(kind))
    stored = data.draw(packaging(data.draw(mutated(clean)), hostile=True))
    with written(stored, file_name) as path:
        got = attempt(lambda: read(path))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=True)


@given(data=st.data())
@fuzz_settings(60)
def test_trec_runs_evaluate_the_same_streamed(data: st.DataObject) -> None:
    """Any TREC run text, valid or mangled: evaluated block by block (blocks of a few lines,
    several threads) it gives the in-memory values, or the same kind of refusal."""
    import assay
    import assay.io.blocks as blocks
    from support.contracts import assert_same_results

    w: Written = data.draw(trec("run"))
    raw = data.draw(mutated(w.data)) if data.draw(st.booleans()) else w.data
    stored = data.draw(packaging(raw, hostile=False))
    grades = data.draw(st.lists(st.integers(-1, 3), min_size=len(w.rows), max_size=len(w.rows)))
    judged: dict[str, dict[str, int]] = {}
    for (q, d), g in zip(w.rows, grades, strict=True):
        judged.setdefault(q, {})[d] = g
    qrels = Qrels.from_dict(judged)
    metrics = ["map", "ndcg@3", "P@2", "recip_rank", "R@5", "bpref"]
    original = blocks.DEFAULT_BLOCK_BYTES
    blocks.DEFAULT_BLOCK_BYTES = data.draw(st.sampled_from([16, 64, 200]))
    try:
        with written(stored, "run.txt") as path, warnings.catch_warnings():
            warnings.simplefilter("ignore", AssayWarning)
            whole = attempt(lambda: assay.evaluate(qrels, Run.read(path), metrics))
            streamed = attempt(lambda: assay.evaluate(qrels, path, metrics, stream=True))
    finally:
        blocks.DEFAULT_BLOCK_BYTES = original
    if isinstance(whole, AssayError) or isinstance(streamed, AssayError):
        assert isinstance(whole, AssayError) and isinstance(streamed, AssayError)
        # Read whole, every line is parsed before any is judged; streamed, a block is judged
        # before the next is parsed: a repeated pair may then be refused before a bad line
        # further on. Either way the refusal names a line, the streamed one not a later one.
        lines = (streamed.line, whole.line)
        earlier = isinstance(whole, ParseError) and None not in lines and lines[0] < lines[1]
        assert type(whole) is type(streamed) or earlier, (str(whole), str(streamed))
        check_refusal(streamed, path, lines=True)
    else:
        assert_same_results(whole, streamed)
