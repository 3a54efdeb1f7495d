"""assay.compare: structure, agreement with the single tests, markers, corrections,
reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay.stats import correct, paired_pvalues, randomization_test
from support.ranking import three_systems


@pytest.fixture(scope="module")
def collection() -> tuple[assay.Qrels, dict[str, assay.Run]]:
    return three_systems()


def test_baseline_comparison_matches_single_tests(collection: tuple) -> None:
    qrels, runs = collection
    cmp = assay.compare(qrels, runs, ["ndcg@10", "map"], baseline="bad", n_resamples=2000, seed=3)
    assert cmp.baseline == "bad" and {p.baseline for p in cmp.pairs} == {"bad"}
    assert len(cmp.pairs) == 2 * 2  # two runs vs the baseline, two metrics
    res = assay.evaluate(qrels, runs, ["ndcg@10", "map"])
    for metric in ("ndcg@10", "AP"):
        raw = []
        for run in ("good", "mid"):
            a = res[run, metric].values
            b = res["bad", metric].values
            p = cmp.pair(run, "bad", metric)
            d = a - b
            assert p.diff == pytest.approx(d.mean(), abs=1e-12)
            assert (p.wins, p.ties, p.losses) == (
                int((d > 0).sum()),
                int((d == 0).sum()),
                int((d < 0).sum()),
            )
            assert p.n == len(d) == 40
            single = randomization_test(a, b, n_resamples=2000, seed=3)
            assert p.p_value == pytest.approx(single.pvalue, abs=1e-12)
            assert p.effect_size == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-9)
            assert p.ci_low <= p.diff <= p.ci_high
            raw.append(p.p_value)
        adjusted = correct(np.array(raw), correction="holm")
        assert [cmp.pair(r, "bad", metric).p_adjusted for r in ("good", "mid")] == pytest.approx(
            list(adjusted), abs=1e-15
        )
    # The good run is far better than the bad one: marked, and its mean CI holds its mean.
    assert cmp.markers("good", "ndcg@10") == "▲"
    s = cmp.summary("good", "ndcg@10")
    assert s.ci_low <= s.mean <= s.ci_high and s.n == 40


def test_all_pairs_letters_and_reproducibility(collection: tuple) -> None:
    qrels, runs = collection
    a = assay.compare(qrels, runs, "ndcg@10", n_resamples=1000, seed=11)
    b = assay.compare(qrels, runs, "ndcg@10", n_resamples=1000, seed=11)
    assert len(a.pairs) == 3
    assert [p.p_value for p in a.pairs] == [p.p_value for p in b.pairs]
    assert a.letters() == {"good": "a", "mid": "b", "bad": "c"}
    assert "c" in a.markers("good", "ndcg@10")
    assert a.markers("bad", "ndcg@10") == ""
    # Batch p-values equal the stand-alone batch function on the same differences.
    res = a.results
    d = np.vstack([res["mid", "ndcg@10"].values - res["good", "ndcg@10"].values])
    assert a.pair("mid", "good", "ndcg@10").p_value == pytest.approx(
        float(paired_pvalues(d, n_resamples=1000, seed=11)[0]), abs=1e-12
    )


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "bootstrap", "tukey"])
def test_every_test_runs(collection: tuple, test: str) -> None:
    qrels, runs = collection
    cmp = assay.compare(qrels, runs, ["P@10"], test=test, n_resamples=500, seed=1)
    for p in cmp.pairs:
        assert 0.0 <= p.p_value <= 1.0 and 0.0 <= p.p_adjusted <= 1.0
        assert p.p_adjusted >= p.p_value - 1e-15


def test_lower_is_better_metric_markers_follow_direction(collection: tuple) -> None:
    qrels, runs = collection
    cmp = assay.compare(qrels, runs, ["discordant_pairs"], baseline="bad", n_resamples=1000)
    # Fewer discordant pairs is better: the good run has fewer, and is marked better.
    p = cmp.pair("good", "bad", "discordant_pairs")
    assert p.diff < 0 and p.significant
    assert cmp.markers("good", "discordant_pairs") == "▲"


def test_different_query_sets_are_paired_on_the_intersection() -> None:
    qrels = assay.Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}})
    r1 = assay.Run.from_dict({"q1": {"a": 1.0}, "q2": {"b": 1.0}, "q3": {"x": 1.0}}, name="r1")
    r2 = assay.Run.from_dict({"q1": {"x": 1.0}, "q2": {"b": 1.0}}, name="r2")
    cmp = assay.compare(qrels, [r1, r2], "RR", missing="skip", n_resamples=100)
    assert cmp.pair("r2", "r1", "RR").n == 2


def test_bad_arguments() -> None:
    qrels, runs = assay.datasets.synthetic(n_queries=5, docs_per_query=5)
    with pytest.raises(assay.InputError, match="baseline"):
        assay.compare(qrels, runs, "P@5", baseline="nope")
    with pytest.raises(assay.ConventionError, match="test"):
        assay.compare(qrels, runs, "P@5", test="magic")
    with pytest.raises(assay.ConventionError, match="correction"):
        assay.compare(qrels, runs, "P@5", correction="magic")
    with pytest.raises(assay.InputError, match="two runs"):
        assay.compare(qrels, runs["run1"], "P@5")


def test_wins_and_losses_follow_the_metric_direction() -> None:
    # A run with fewer discordant pairs on every query wins everywhere, although its
    # per-query differences are all negative.
    qrels = assay.Qrels.from_dict({f"q{i}": {"a": 2, "b": 1, "c": 0} for i in range(6)})
    ordered = {f"q{i}": {"a": 3.0, "b": 2.0, "c": 1.0} for i in range(6)}
    reversed_ = {f"q{i}": {"a": 1.0, "b": 2.0, "c": 3.0} for i in range(6)}
    runs = {
        "good": assay.Run.from_dict(ordered, name="good"),
        "bad": assay.Run.from_dict(reversed_, name="bad"),
    }
    cmp = assay.compare(qrels, runs, ["discordant_pairs"], baseline="bad", seed=1)
    p = cmp.pair("good", "bad", "discordant_pairs")
    assert p.diff < 0
    assert (p.wins, p.ties, p.losses) == (6, 0, 0)


def test_too_few_queries_to_reach_alpha_warns() -> None:
    """3 queries: the exact randomization test's smallest p is 2/2^3 = 0.25 > alpha, so no
    difference can be significant: said with a typed warning, not left to the reader."""
    qrels = assay.Qrels.from_dict({q: {"d1": 1, "d2": 0} for q in ("q1", "q2", "q3")})
    good = assay.Run.from_dict({q: {"d1": 2.0, "d2": 1.0} for q in ("q1", "q2", "q3")}, name="a")
    bad = assay.Run.from_dict({q: {"d1": 1.0, "d2": 2.0} for q in ("q1", "q2", "q3")}, name="b")
    with pytest.warns(assay.PowerWarning, match="cannot give a p-value below"):
        cmp = assay.compare(qrels, [good, bad], ["map"], n_resamples=1000, seed=0)
    (pair,) = cmp.pairs
    assert pair.p_value >= 0.25 and not pair.significant
