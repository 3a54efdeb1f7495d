"""The prepared evaluator (``assay.prepare``) gives exactly what ``assay.evaluate`` gives for
the same pairs and scores: every registry metric setting of the ranking harness, under every
convention, with ties, unjudged and unpooled documents, queries on one side only, depth cuts
and subtopic judgments. And its segment sort is the stable two-key sort it replaces."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from assay.data import Qrels
from assay.data.prepared_join import SegmentSorter
from strategies.diversity import diversity_case
from strategies.ranking import Qrels as QrelsDict
from strategies.ranking import RunRows, reference_collections
from support.ranking import GROUPS, MISSING, NO_RELEVANT, PROPS, TIES, average_ok, build, to_metric

DIVERSITY = {"alpha_dcg", "alpha_ndcg", "err_ia", "nerr_ia", "nrbp", "nnrbp", "p_ia"}
DIVERSITY |= {"subtopic_recall", "map_ia"}


def _same_values(a: assay.MetricValues, b: assay.MetricValues) -> None:
    assert a.queries.tolist() == b.queries.tolist()
    if a.values.dtype == object:
        assert a.values.tolist() == b.values.tolist()
    else:
        assert np.array_equal(a.values, b.values, equal_nan=True)  # bit for bit, not close
        assert np.array_equal(a.aggregate, b.aggregate, equal_nan=True)
    assert (a.undefined, a.skipped) == (b.undefined, b.skipped)


def _both(qrels: Qrels, rows: RunRows, metrics: list[Any], **conv: Any) -> None:
    """evaluate() on the Run and the prepared evaluator on the same rows agree."""
    queries = [r[0] for r in rows]
    docs = [r[1] for r in rows]
    scores = np.array([r[2] for r in rows])
    run = assay.Run.from_columns(queries, docs, scores, name="run")
    with warnings.catch_warnings(record=True) as said_by_evaluate:
        warnings.simplefilter("always")
        expected = assay.evaluate(qrels, run, metrics, **conv)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        ev = assay.prepare(qrels, metrics, queries=queries, docs=docs, **conv)
        got = ev.values(scores)
        # The same evaluator, called again with other scores first, is not changed by it.
        ev.values(scores[::-1].copy())
        again = ev.values(scores)
    for m in metrics:
        _same_values(expected[("run", str(m))], got[str(m)])
        _same_values(expected[("run", str(m))], again[str(m)])
    # repr: NaN (every query skipped) equals NaN.
    assert repr(ev(scores)) == repr({str(m): float(got[str(m)].aggregate) for m in metrics})
    with warnings.catch_warnings(record=True) as said_by_prepared:
        warnings.simplefilter("always")
        full = ev.evaluate(scores)
    assert repr(full.records(per_query=True)) == repr(expected.records(per_query=True))
    assert full.warnings == expected.warnings
    assert [str(w.message) for w in said_by_prepared] == [str(w.message) for w in said_by_evaluate]
    assert full.provenance == expected.provenance
    assert full.inputs is not None and expected.inputs is not None
    kept, original = full.inputs.runs["run"], expected.inputs.runs["run"]
    assert isinstance(kept, assay.Run) and isinstance(original, assay.Run)
    assert kept.to_dict() == original.to_dict()
    assert np.array_equal(kept.ranks(), original.ranks())
    assert np.array_equal(kept.order("input"), original.order("input"))


#: Each example checks every setting of its group under six conventions at once.
EXAMPLES = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("group", sorted(g for g in GROUPS if g not in DIVERSITY))
@EXAMPLES
@given(
    data=reference_collections(),
    ties=st.sampled_from(TIES),
    missing=st.sampled_from(MISSING),
    no_relevant=st.sampled_from(NO_RELEVANT),
    judged_only=st.booleans(),
    short_queries=st.sampled_from(("score", "skip")),
    depth=st.sampled_from((None, 1, 3)),
)
def test_prepared_equals_evaluate(
    group: str,
    data: tuple[QrelsDict, RunRows],
    ties: str,
    missing: str,
    no_relevant: str,
    judged_only: bool,
    short_queries: str,
    depth: int | None,
) -> None:
    metrics = [to_metric(s) for s in GROUPS[group] if ties != "average" or average_ok(s)]
    if not metrics:
        return
    qrels, _ = build(*data)
    conv = dict(
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
        depth=depth,
    )
    _both(qrels, data[1], metrics, **conv)


@pytest.mark.parametrize("seed", range(12))
def test_prepared_equals_evaluate_with_subtopics(seed: int) -> None:
    rng = np.random.default_rng(seed)
    case = diversity_case(rng)
    qrels = Qrels.from_subtopics(*(list(col) for col in zip(*case.qrels, strict=True)))
    metrics = [to_metric(s) for g in sorted(DIVERSITY) for s in GROUPS[g]]
    metrics += [to_metric(s) for s in GROUPS["ndcg"][:2]]
    if not case.run:
        return
    for ties in ("docno", "input"):
        _both(qrels, case.run, metrics, ties=ties, missing="zero")


@PROPS
@given(
    sizes=st.lists(st.integers(1, 70), min_size=1, max_size=25),
    levels=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    equal=st.booleans(),
)
def test_segment_sort_is_the_stable_two_key_sort(
    sizes: list[int], levels: int, seed: int, equal: bool
) -> None:
    """Segments padded into matrices and sorted row by row, ties put back in row order,
    equal ``np.lexsort`` (stable) by (segment, value descending, row)."""
    rng = np.random.default_rng(seed)
    if equal:
        sizes = [sizes[0]] * len(sizes)
    segments = np.repeat(np.arange(len(sizes)) * 3, sizes)  # codes need not be contiguous
    values = rng.integers(0, levels, size=len(segments)).astype(np.float64) * 0.5
    values[rng.random(len(values)) < 0.1] = -0.0  # -0.0 ties with 0.0
    expected = np.lexsort((np.arange(len(values)), -values, segments))
    assert np.array_equal(SegmentSorter(segments).order(values), expected)


def test_wrong_scores_are_refused() -> None:
    qrels = {"q1": {"d1": 1}}
    ev = assay.prepare(qrels, "P@1", queries=["q1", "q1"], docs=["d1", "d2"])
    with pytest.raises(assay.InputError, match="3 scores for 2"):
        ev([0.1, 0.2, 0.3])
    with pytest.raises(assay.InputError, match="not finite"):
        ev([0.1, float("nan")])
    with pytest.raises(assay.DuplicateError, match=r"at row 2 \(first at row 1\)"):
        assay.prepare(qrels, "P@1", queries=["q1", "q1"], docs=["d1", "d1"])
    with pytest.raises(assay.MissingQueryError):
        assay.prepare(
            {"q1": {"d1": 1}, "q2": {"d2": 1}}, "P@1", queries=["q1"], docs=["d1"], missing="error"
        )
    assert ev([1, 0]) == {"P@1": 1.0}  # integers are scores too


def test_the_join_is_said_once_when_prepared() -> None:
    qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    with pytest.warns(assay.InputWarning, match="1 query not in the qrels"):
        ev = assay.prepare(qrels, "P@1", queries=["q1", "q9"], docs=["d1", "d1"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ev([0.5, 0.5]) == {"P@1": 0.5}
    assert "2 pairs, 2 queries" in repr(ev)
