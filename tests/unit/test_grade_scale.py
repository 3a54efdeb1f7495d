"""The grade scale ERR and pFound normalise by is a property of the collection, fixed
explicitly and recorded, so a subset of queries (a block, a partition) keeps its values."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay import OptionError, Qrels, Run

QRELS = {"q1": {"a": 1, "b": 0}, "q2": {"c": 3, "d": 1}}
RUN = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"d": 2.0, "c": 1.0}}
METRICS = ["err@10", "pfound@10"]


def _per_query(qrels: Qrels, run: Run, query: str) -> dict[str, float]:
    res = assay.evaluate(qrels, run, METRICS)
    rows = [r for r in res.records(per_query=True) if r["query"] == query]
    return {r["metric"]: r["value"] for r in rows}


def test_subset_of_queries_keeps_err_and_pfound_values():
    qrels, run = Qrels.from_dict(QRELS), Run.from_dict(RUN)
    whole = _per_query(qrels, run, "q1")
    alone = _per_query(qrels.restrict(["q1"]), run, "q1")
    assert alone == whole
    # q1 only has grade 1 while the collection's scale is 0..3: R = (2^1 - 1) / 2^3.
    assert whole["err@10"] == pytest.approx(1 / 8)


def test_qrels_built_from_a_subset_alone_differ_unless_the_scale_is_declared():
    run = Run.from_dict(RUN)
    subset = Qrels.from_dict({"q1": QRELS["q1"]})
    assert subset.max_grade == 1
    assert _per_query(subset, run, "q1")["err@10"] == pytest.approx(1 / 2)
    declared = subset.with_max_grade(3)
    assert _per_query(declared, run, "q1")["err@10"] == pytest.approx(1 / 8)


def test_grade_scale_is_recorded_in_provenance():
    qrels = Qrels.from_dict(QRELS).with_max_grade(4)
    res = assay.evaluate(qrels, Run.from_dict(RUN), METRICS)
    assert res.provenance["qrels"]["max_grade"] == 4


def test_declared_scale_below_observed_grades_is_refused():
    with pytest.raises(OptionError, match="max_grade"):
        Qrels.from_dict(QRELS).with_max_grade(2)


def test_restrict_keeps_scale_and_drops_other_queries():
    qrels = Qrels.from_dict(QRELS).restrict(["q1", "unknown"])
    assert qrels.queries == ["q1"]
    assert qrels.max_grade == 3
    np.testing.assert_array_equal(qrels.grades, [1, 0])


def test_err_with_grades_beyond_float_powers_is_finite():
    # 2^g overflows float64 from g = 1024; ERR's stopping probability must not form it.
    qrels = Qrels.from_dict({"q": {"a": 2000, "b": 1999, "c": 0}})
    run = Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}})
    value = assay.evaluate(qrels, run, ["err"], no_relevant="zero").mean()[run.name]["err"]
    # R_a = 1 - 2^-2000 (= 1 in float64): the user stops at rank 1 with certainty.
    assert value == pytest.approx(1.0)


def test_exponential_gain_overflow_is_an_error_not_a_silent_zero():
    qrels = Qrels.from_dict({"q": {"a": 1024}})
    run = Run.from_dict({"q": {"a": 1.0}})
    with pytest.raises(assay.MetricError, match="overflows"):
        assay.evaluate(qrels, run, ["ndcg(gain='exp')@10"], no_relevant="zero")
    linear = assay.evaluate(qrels, run, ["ndcg@10"]).mean()[run.name]["ndcg@10"]
    assert linear == 1.0
