"""assay.meta's results, edge cases and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assay
from assay import meta
from assay.data import Qrels
from assay.errors import InputError, OptionError


def _collection():
    qrels, runs = assay.datasets.synthetic(n_queries=15, docs_per_query=12, seed=2)
    return qrels, list(runs.values()) if isinstance(runs, dict) else list(runs)


def test_rbo_is_the_function_even_after_its_module_is_imported():
    import assay.meta.overlap  # noqa: F401

    assert callable(meta.rbo) and meta.rbo(["a"], ["a"]).ext == 1.0


def test_results_follow_the_protocol():
    qrels, runs = _collection()
    res = assay.evaluate(qrels, runs, ["map", "P@5"])
    results = [
        meta.discriminative_power(res, n_resamples=50),
        meta.topic_set_size(res),
        meta.rbo(list("abc"), list("acb")),
        meta.rbo_runs(runs[0], runs[1]),
        meta.reproducibility(qrels, runs[0], runs[1], runs[1], runs[2], ["map"]),
        meta.assessor_agreement(qrels, qrels, runs=runs, metrics=["map"]),
        meta.ktau_union(runs[0], runs[1]),
    ]
    for r in results:
        rows = r.records()
        assert rows and all(isinstance(row, dict) for row in rows)
        assert "assay_version" in r.provenance
        assert len(r.to_pandas()) == len(rows)


def test_discpower_records_ASL_curve_and_provenance():
    rng = np.random.default_rng(1)
    x = rng.random((30, 4)) + np.array([0, 0.02, 0.3, 0.6])
    dp = meta.discriminative_power({"m": x}, n_resamples=300, seed=9, alpha=0.1)
    assert dp.provenance["seed"] == 9 and dp.provenance["n_resamples"] == 300
    assert dp.provenance["alpha"] == 0.1
    curve = dp.curve("bootstrap", "m")
    assert list(curve) == sorted(dp.asl[("bootstrap", "m")])
    assert len(dp.pair_records()) == 2 * 6
    assert {r["test"] for r in dp.records()} == {"bootstrap", "tukey"}
    again = meta.discriminative_power({"m": x}, n_resamples=300, seed=9, alpha=0.1)
    assert np.array_equal(again.asl[("bootstrap", "m")], dp.asl[("bootstrap", "m")])


def test_identical_runs_are_never_significant_and_constant_differences_always():
    base = np.linspace(0, 1, 12)
    x = np.column_stack([base, base, base + 0.1])
    dp = meta.discriminative_power({"m": x}, test="bootstrap", n_resamples=200)
    asl = dict(zip(dp.pairs, dp.asl[("bootstrap", "m")], strict=True))
    assert asl[("0", "1")] == 1.0
    assert asl[("0", "2")] == 0.0 and asl[("1", "2")] == 0.0


def test_discpower_refuses_ragged_or_unaligned_scores():
    with pytest.raises(InputError, match="different numbers of topics"):
        meta.discriminative_power({"m": {"a": [0.1, 0.2], "b": [0.1]}})
    with pytest.raises(InputError, match="at least 2 runs"):
        meta.discriminative_power({"m": np.zeros((5, 1))})
    with pytest.raises(InputError, match="finite"):
        meta.discriminative_power({"m": np.array([[0.1, np.nan], [0.2, 0.3]])})
    with pytest.raises(OptionError, match="test"):
        meta.discriminative_power({"m": np.eye(3)}, test=[])


def test_topic_set_size_rows_and_unreachable_power():
    ts = meta.topic_set_size(0.05, min_diff=[0.1, 0.2], n_topics=50, n_systems=5)
    assert [r["min_diff"] for r in ts.records()] == [0.1, 0.2]
    assert ts.row("", 0.2)["n_ttest"] < ts.row("", 0.1)["n_ttest"]
    assert ts.row("", 0.1)["n_systems_anova"] == 5
    tiny = meta.topic_set_size(1.0, min_diff=1e-6)
    assert tiny.records()[0]["n_ttest"] is None  # beyond 10^7 topics


def test_topic_set_size_refuses_a_constant_matrix():
    with pytest.raises(InputError, match="residual variance is 0"):
        meta.topic_set_size({"m": np.ones((4, 3))})


def test_ktau_union_cuts_uneven_lists_and_says_so():
    _, runs = _collection()
    short = assay.Run.from_columns(["q1", "q1"], ["d0", "d1"], [2.0, 1.0], name="short")
    with pytest.warns(UserWarning):
        res = meta.ktau_union(runs[0], short)
    assert res.topics == ("q1",) and res.warnings


def test_voorhees_overlap_and_kappa_by_hand():
    a = Qrels.from_columns(["t"] * 6, list("abcdef"), [1, 1, 1, 0, 0, 0])
    b = Qrels.from_columns(["t"] * 6, list("abcdef"), [1, 1, 0, 1, 0, 0])
    agr = meta.assessor_agreement(a, b)
    row = agr.topics[0]
    assert row["overlap"] == pytest.approx(2 / 4)  # {a,b} of {a,b,c,d}
    # p_o = 4/6, p_e = 0.5: kappa = (2/3 - 1/2) / (1/2) = 1/3
    assert row["kappa"] == pytest.approx(1 / 3)
    assert agr.overall["mean_overlap"] == pytest.approx(0.5)
    assert not math.isnan(row["alpha"])


def test_assessor_judgments_only_one_side_has_are_counted():
    a = Qrels.from_columns(["t", "t", "u"], ["x", "y", "z"], [1, 0, 1])
    b = Qrels.from_columns(["t", "t"], ["x", "y"], [1, 1])
    with pytest.warns(UserWarning, match="only in qrels a"):
        agr = meta.assessor_agreement(a, b)
    assert agr.overall["n_docs"] == 2 and len(agr.warnings) == 2


def test_assessor_rankings_under_the_same_qrels_agree_perfectly():
    qrels, runs = _collection()
    agr = meta.assessor_agreement(qrels, qrels, runs=runs, metrics=["map", "P@5"])
    for r in agr.rankings:
        assert r["kendall_tau"] == pytest.approx(1.0)
        assert r["tau_ap"] == pytest.approx(1.0)
        assert r["rbo_ext"] == pytest.approx(1.0)
