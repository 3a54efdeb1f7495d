"""Encoding of id columns from NumPy (issue 30): the fast paths -- ``<U`` text built from its
code points, a query column encoded once per run of equal ids, the run's documents kept per
row with their distinct dictionary made on first use, the duplicate check a group of queries at
a time, the Arrow sort into trec_eval order -- against a slow obvious reference (Python dicts
and sorted byte strings), and against the row-by-row path (the same columns as Python lists)
for every error and warning, on random text with unicode, empty ids, repeats, None and NaN."""

from __future__ import annotations

import warnings
from functools import cmp_to_key
from typing import Any, cast
from unittest import mock

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import Qrels, Run
from assay.data._columns import _ascii_unicode, as_ids, run_heads
from assay.errors import AssayError

_TEXT = st.text(
    alphabet=st.sampled_from(["a", "b", "Z", "0", "9", "-", " ", "é", "ß", "日", "\x00", "😀"]),
    max_size=5,
)
_IDS = st.one_of(st.sampled_from(["q1", "q10", "q2", "Q", "a", "é", "日本"]), _TEXT)


def _byte_codes(values: list[str]) -> tuple[list[int], list[str]]:
    """The reference: codes into the distinct values sorted by their UTF-8 bytes."""
    distinct = sorted(set(values), key=lambda v: v.encode())
    index = {v: i for i, v in enumerate(distinct)}
    return [index[v] for v in values], distinct


def _numpy(values: list[Any], kind: str) -> np.ndarray:
    if kind == "U":
        return np.array(values, dtype=str)
    if kind == "T":
        return np.array(values, dtype=np.dtypes.StringDType())
    return np.array(values, dtype=object)


def _as_text(arr: Any) -> list[Any]:  # Any: a NumPy or Arrow column
    """What the ids of a column are: Arrow's conversion of fixed and variable width text
    (which ends ``<U`` text at a NUL), each object itself otherwise."""
    if isinstance(arr, np.ndarray) and arr.dtype == object:
        return cast(list[Any], arr.tolist())
    return cast(list[Any], pa.array(arr).to_pylist())


def _row_path(build: Any) -> tuple[str, Any, list[str]]:  # Any: as _outcome
    """``build`` with the query column converted and encoded row by row (no runs)."""
    with mock.patch("assay.data._table.run_heads", lambda values: None):
        return _outcome(build)


def _outcome(build: Any) -> tuple[str, Any, list[str]]:  # Any: a constructor and its result
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = build()
        except AssayError as exc:
            return type(exc).__name__, str(exc), [str(w.message) for w in caught]
    return "ok", value, [str(w.message) for w in caught]


@st.composite
def _runs_of_queries(draw: st.DrawFn) -> list[str]:
    """A query column of at least 64 rows whose queries come in runs (a query may come back
    in a later run), as files and data frames hold them."""
    ids = draw(st.lists(_IDS, min_size=1, max_size=8))
    runs = draw(
        st.lists(st.tuples(st.sampled_from(ids), st.integers(1, 40)), min_size=1, max_size=6)
    )
    column = [q for q, size in runs for _ in range(size)]
    while len(column) < 64:
        column += column
    return column


@settings(max_examples=300, deadline=None)
@given(st.lists(_TEXT, min_size=1, max_size=40))
def test_unicode_arrays_convert_as_arrow_does(values: list[str]) -> None:
    arr = np.array(values, dtype=str)
    fast = _ascii_unicode(arr)
    expected = pa.array(arr)  # Arrow's conversion (it ends text at a NUL)
    if all(0 < ord(c) < 128 for v in arr.tolist() for c in v):
        assert fast is not None and fast.equals(expected)
        assert fast.to_pylist() == arr.tolist()  # the reference: Python's own strings
    else:
        assert fast is None
    if "" not in expected.to_pylist():
        assert as_ids(arr, "document", None).equals(expected)


@settings(max_examples=200, deadline=None)
@given(_runs_of_queries(), st.sampled_from(["U", "T", "O"]))
def test_query_runs_give_the_codes_of_every_row(column: list[str], kind: str) -> None:
    arr = _numpy(column, kind)
    heads = run_heads(arr)
    values = arr.tolist()
    if heads is not None:  # every run starts at a head and holds one value
        assert heads[0] == 0
        assert all(values[i] != values[i - 1] for i in heads[1:])
        starts = set(heads.tolist())
        assert all(values[i] == values[i - 1] for i in range(1, len(values)) if i not in starts)
    docs = [f"d{i}" for i in range(len(column))]
    got = _outcome(lambda: Run.from_columns(arr, docs, np.zeros(len(column))))
    want = _row_path(lambda: Run.from_columns(arr, docs, np.zeros(len(column))))
    assert got[0] == want[0] and got[2] == want[2]
    if got[0] != "ok":
        assert got[1] == want[1]
        return
    codes, distinct = _byte_codes(_as_text(arr))
    run = got[1]
    assert run.query_ids.to_pylist() == distinct
    stored = run.query_codes[np.argsort(run.input_positions)].tolist()
    assert stored == codes


@st.composite
def _run_columns(draw: st.DrawFn) -> tuple[list[Any], list[Any], list[float]]:
    queries = draw(_runs_of_queries())
    if draw(st.booleans()):
        queries = draw(st.permutations(queries))  # a query's rows apart
    pool = draw(st.lists(_IDS, min_size=1, max_size=30))
    docs: list[Any] = [draw(st.sampled_from(pool)) for _ in queries]
    if draw(st.booleans()):  # distinct pairs, as most runs have
        docs = [f"{doc}{i}" for i, doc in enumerate(docs)]
    if draw(st.integers(0, 9)) == 0:  # a missing id somewhere
        where = draw(st.integers(0, len(docs) - 1))
        column = draw(st.sampled_from(["q", "d"]))
        bad = draw(st.sampled_from([None, float("nan")]))
        (queries if column == "q" else docs)[where] = bad
    scores = [draw(st.sampled_from([0.0, -0.0, 0.5, 1.0, 2.0, -3.0])) for _ in queries]
    return queries, docs, scores


def _reference_dict(q: list[str], d: list[str], s: list[float]) -> dict[str, dict[str, float]]:
    """{query: {doc: score}} in trec_eval order (query and docno by bytes), by comparing
    Python values row against row."""

    def before(i: int, j: int) -> int:
        a, b = (q[i].encode(), -s[i]), (q[j].encode(), -s[j])
        if a != b:
            return -1 if a < b else 1
        di, dj = d[i].encode(), d[j].encode()
        if di != dj:
            return -1 if di > dj else 1
        return i - j

    out: dict[str, dict[str, float]] = {}
    for i in sorted(range(len(q)), key=cmp_to_key(before)):
        out.setdefault(q[i], {})[d[i]] = s[i]
    return out


@settings(max_examples=200, deadline=None)
@given(_run_columns(), st.sampled_from(["U", "T", "O", "arrow"]))
def test_runs_from_numpy_match_the_row_path_and_a_dict_reference(
    columns: tuple[list[Any], list[Any], list[float]], kind: str
) -> None:
    q, d, s = columns
    if kind != "O" and any(not isinstance(v, str) for v in q + d):
        kind = "O"  # missing values: only an object array holds None and NaN
    if kind == "arrow":
        qa, da = pa.array(q, pa.string()), pa.array(d, pa.string())
    else:
        qa, da = _numpy(q, kind), _numpy(d, kind)
    got = _outcome(lambda: Run.from_columns(qa, da, np.array(s)))
    want = _row_path(lambda: Run.from_columns(qa, da, np.array(s)))
    assert got[0] == want[0], (got, want)
    assert got[2] == want[2]
    if got[0] != "ok":
        assert got[1] == want[1]
        if got[0] == "DuplicateError":  # it names the first row that repeats a pair
            text = _as_text(qa), _as_text(da)
            seen: set[tuple[Any, Any]] = set()
            for i, pair in enumerate(zip(*text, strict=True)):
                if pair in seen:
                    assert f"query {pair[0]!r}, document {pair[1]!r} at row {i + 1} " in got[1]
                    break
                seen.add(pair)
            else:
                pytest.fail("no pair repeats")
        return
    run, ref = got[1], want[1]
    if kind != "arrow":
        q, d = _as_text(qa), _as_text(da)
    pairs = list(zip(q, d, strict=True))
    if len(set(pairs)) == len(pairs) and "" not in q + d:
        reference = _reference_dict(q, d, s)
        assert {k: list(v.items()) for k, v in run.to_dict().items()} == {
            k: list(v.items()) for k, v in reference.items()
        }
        assert list(run.to_dict()) == list(reference)
    assert run.to_dict() == ref.to_dict()
    assert run.input_positions.tolist() == ref.input_positions.tolist()
    # The distinct documents, made on first use, are those of a dict and index every row.
    assert sorted(run.doc_ids.to_pylist()) == sorted(set(d))
    assert run.doc_ids.take(pa.array(run.doc_codes)).to_pylist() == [
        d[i] for i in run.input_positions.tolist()
    ]
    qrels = Qrels.from_columns(qa, da, np.ones(len(q), dtype=np.int64))
    assert qrels.to_dict() == {k: dict.fromkeys(v, 1) for k, v in ref.to_dict().items()}


@pytest.mark.parametrize("kind", ["U", "T", "O"])
def test_a_repeated_pair_is_named_as_the_row_path_names_it(kind: str) -> None:
    q = ["q2"] * 40 + ["q1"] * 40
    d = [f"d{i % 37}" for i in range(80)]
    got = _outcome(lambda: Run.from_columns(_numpy(q, kind), _numpy(d, kind), np.arange(80.0)))
    want = _row_path(lambda: Run.from_columns(_numpy(q, kind), d, list(np.arange(80.0))))
    assert got[0] == want[0] == "DuplicateError"
    assert got[1] == want[1]
    assert "document 'd0'" in got[1] and "row 38" in got[1]


@pytest.mark.parametrize("layout", ["byte order", "queries moved", "queries apart"])
@pytest.mark.parametrize("seed", [0, 1])
def test_large_sorts_split_by_queries_match_one_three_key_sort(layout: str, seed: int) -> None:
    """Above :data:`SPLIT_ROWS` rows the sort into trec_eval order runs a group of queries at a
    time; the reference is one stable sort by query, score descending and docno descending."""
    from assay.data.run import SPLIT_ROWS, trec_order

    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 3000, size=200)
    q = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    if layout == "queries moved":
        q = np.repeat(rng.permutation(len(sizes)).astype(np.int32), sizes)
    elif layout == "queries apart":
        q = rng.permutation(q)
    assert len(q) > SPLIT_ROWS
    score = rng.choice([0.0, -0.0, 0.25, 1.0, 3.5], size=len(q)) + rng.integers(0, 50, len(q))
    docs = pa.array([f"d{x}" for x in rng.integers(0, 10**6, size=len(q))])
    keys = pa.table({"q": q, "s": score, "d": docs})
    want = pa.compute.sort_indices(
        keys, sort_keys=[("q", "ascending"), ("s", "descending"), ("d", "descending")]
    ).to_numpy()
    got = trec_order(q, score, docs)
    assert got is not None
    assert np.array_equal(got, want)


def test_document_dictionary_is_made_on_first_use_and_survives_pickling() -> None:
    import pickle

    run = Run.from_dict({"q1": {"d1": 0.5, "d2": 0.9}, "q2": {"d1": 1.0, "d3": 0.1}})
    copy = pickle.loads(pickle.dumps(run))
    for r in (run, copy):
        assert r.doc_ids.to_pylist() == ["d1", "d2", "d3"]  # distinct, first seen first
        assert r.doc_ids.take(pa.array(r.doc_codes)).to_pylist() == ["d2", "d1", "d1", "d3"]
        assert r.to_dict() == {"q1": {"d2": 0.9, "d1": 0.5}, "q2": {"d1": 1.0, "d3": 0.1}}
    assert pickle.loads(pickle.dumps(run)).doc_ids.to_pylist() == ["d1", "d2", "d3"]
