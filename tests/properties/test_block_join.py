"""The block join (assay.data.blockjoin, how a streamed run is ranked) gives exactly the values
of the Run-based join (assay.data.rank) on the same rows: every ranking metric group, every
tie convention, depth and judged_only, with groups of a few rows so that group boundaries,
documents judged for several queries of a group and tied docnos across them all occur."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
import assay.data.blockjoin as blockjoin
from assay.data import Conventions, Run
from assay.evaluation import BlockValues, block_values
from assay.io.trec import TrecColumns
from strategies.ranking import Qrels, RunRows, reference_collections
from support.ranking import GROUPS, NO_RELEVANT, TIES, average_ok, build, to_metric


def _columns(rows: RunRows) -> TrecColumns:
    return TrecColumns(
        pa.array([r[0] for r in rows], pa.string()),
        pa.array([r[1] for r in rows], pa.string()),
        np.array([r[2] for r in rows], dtype=np.float64),
        np.arange(1, len(rows) + 1, dtype=np.int64),
        "run.txt",
    )


def _by_query(values: BlockValues) -> dict[tuple[int, str], object]:
    return {
        (int(code), key): v[i]
        for key, v in values.values.items()
        for i, code in enumerate(values.codes)
    }


def _same(a: BlockValues, b: BlockValues) -> None:
    assert sorted(a.codes.tolist()) == sorted(b.codes.tolist())
    x, y = _by_query(a), _by_query(b)
    assert x.keys() == y.keys()
    for key, value in x.items():
        nan = isinstance(value, float) and np.isnan(value) and np.isnan(y[key])
        assert value == y[key] or nan, key
    assert (sorted(a.unknown), a.unknown_rows, a.dropped, a.results) == (
        sorted(b.unknown),
        b.unknown_rows,
        b.dropped,
        b.results,
    )


@pytest.mark.parametrize("group", sorted(GROUPS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=reference_collections(),
    ties=st.sampled_from(TIES),
    no_relevant=st.sampled_from(NO_RELEVANT),
    judged_only=st.booleans(),
    depth=st.sampled_from([None, 1, 3]),
    group_rows=st.integers(1, 8),
)
def test_block_join_equals_the_run_join(
    group: str,
    data: tuple[Qrels, RunRows],
    ties: str,
    no_relevant: str,
    judged_only: bool,
    depth: int | None,
    group_rows: int,
) -> None:
    metrics = [to_metric(s) for s in GROUPS[group] if ties != "average" or average_ok(s)]
    if not metrics:
        return
    qrels_dict, rows = data
    order = {q: i for i, q in enumerate(dict.fromkeys(r[0] for r in rows))}
    rows = sorted(rows, key=lambda r: order[r[0]])  # queries together, input order kept
    qrels, _ = build(qrels_dict, rows)
    conv = Conventions(ties=ties, no_relevant=no_relevant, judged_only=judged_only)
    original = blockjoin.GROUP_ROWS
    blockjoin.GROUP_ROWS = group_rows
    try:
        block = block_values(qrels, _columns(rows), metrics, conv, depth=depth)
    finally:
        blockjoin.GROUP_ROWS = original
    cols = _columns(rows)
    run = Run.from_columns(cols.query, cols.doc, cols.value, lines=cols.lines)
    _same(block, block_values(qrels, run, metrics, conv, depth=depth))


def test_queries_apart_in_a_block_are_left_to_the_run_join() -> None:
    rows = [("q1", "a", 2.0), ("q2", "a", 1.0), ("q1", "b", 1.0)]
    qrels = assay.Qrels.from_dict({"q1": {"a": 1}, "q2": {"a": 1}})
    assert blockjoin.rank_block(qrels, _columns(rows), Conventions()) is None


def test_a_repeated_pair_is_refused_at_its_line() -> None:
    rows = [("q1", "a", 3.0), ("q1", "b", 2.0), ("q2", "b", 2.0), ("q2", "b", 1.0)]
    qrels = assay.Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}})
    with pytest.raises(assay.DuplicateError, match="'q2', document 'b'") as err:
        blockjoin.rank_block(qrels, _columns(rows), Conventions())
    assert err.value.line == 4 and "first at line 3" in str(err.value)


def test_documents_judged_for_two_queries_of_a_group_get_each_querys_grade() -> None:
    rows = [("q1", "a", 2.0), ("q1", "b", 1.0), ("q2", "b", 2.0), ("q2", "a", 1.0)]
    qrels = assay.Qrels.from_dict({"q1": {"a": 0, "b": 3}, "q2": {"a": 2, "b": -1}})
    done = blockjoin.rank_block(qrels, _columns(rows), Conventions())
    assert done is not None
    assert done.ranked.grade.tolist() == [0, 3, -2, 2]


def test_a_repeated_pair_of_a_query_unknown_to_the_qrels_is_refused_too() -> None:
    rows = [("q1", "a", 3.0), ("zz", "b", 2.0), ("zz", "b", 1.0)]
    qrels = assay.Qrels.from_dict({"q1": {"a": 1}})
    with pytest.raises(assay.DuplicateError, match="'zz', document 'b'"):
        blockjoin.rank_block(qrels, _columns(rows), Conventions())
