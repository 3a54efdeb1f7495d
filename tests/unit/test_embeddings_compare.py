"""``assay.embeddings.compare``: every number equals the one the stats functions give on the
per-query values of separate evaluations (``retrieval_metrics`` of each embedding), and the
wins, ties and losses are counted by a plain loop over the queries."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay.embeddings import compare, retrieval_metrics
from assay.errors import InputError, OptionError
from assay.stats import bootstrap_mean_ci, cohens_d_paired, correct, paired_pvalues


def _space(seed: int, n: int = 60, noise: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 4, n)
    centers = rng.normal(size=(4, 6))
    return labels, centers[labels] + rng.normal(scale=noise, size=(n, 6))


@pytest.mark.parametrize("test", ["randomization", "t", "wilcoxon", "sign", "bootstrap"])
def test_every_number_is_the_stats_of_separate_evaluations(test: str) -> None:
    labels, a = _space(0)
    rng = np.random.default_rng(1)
    systems = {"a": a, "b": a + rng.normal(scale=0.8, size=a.shape), "c": a[:, ::-1] * 2.0}
    metrics = ["precision@1", "map@r", "ndcg@5"]
    cmp = compare(
        systems,
        labels,
        baseline="b",
        metrics=metrics,
        backend="numpy",
        test=test,
        n_resamples=300,
        seed=4,
        correction="bh",
        ci_method="percentile",
    )
    separate = {
        s: retrieval_metrics(x, labels, metrics=metrics, backend="numpy")
        for s, x in systems.items()
    }
    assert cmp.metrics == separate["a"].metrics and cmp.baseline == "b"
    for metric in cmp.metrics:
        values = {s: r[metric] for s, r in separate.items()}
        low, high = bootstrap_mean_ci(
            np.vstack([values[s] for s in systems]), n_resamples=300, seed=4, ci_method="percentile"
        )
        for i, s in enumerate(systems):
            assert cmp.scores[metric][s] == pytest.approx(values[s].mean(), abs=1e-15)
            assert cmp.intervals[metric][s] == pytest.approx((low[i], high[i]), abs=1e-15)
        others = ["a", "c"]
        diffs = np.vstack([values[s] - values["b"] for s in others])
        p = paired_pvalues(diffs, test=test, n_resamples=300, seed=4)
        q = correct(p, correction="bh")
        d_low, d_high = bootstrap_mean_ci(diffs, n_resamples=300, seed=4, ci_method="percentile")
        for i, s in enumerate(others):
            pair = cmp.pair(s, metric)
            assert pair.p_value == pytest.approx(p[i], abs=1e-15)
            assert pair.p_adjusted == pytest.approx(q[i], abs=1e-15)
            assert (pair.ci_low, pair.ci_high) == pytest.approx((d_low[i], d_high[i]), abs=1e-15)
            d = cohens_d_paired(values[s], values["b"])
            assert pair.effect_size == pytest.approx(d, abs=1e-12, nan_ok=True)
            wins = ties = losses = 0
            for x, y in zip(values[s].tolist(), values["b"].tolist(), strict=True):
                wins, ties, losses = wins + (x > y), ties + (x == y), losses + (x < y)
            assert (pair.wins, pair.ties, pair.losses, pair.n) == (wins, ties, losses, 60)
            assert pair.significant == (pair.p_adjusted < 0.05)


def test_a_better_space_wins_and_a_copy_ties() -> None:
    labels, clean = _space(2, noise=0.5)
    noisy = clean + np.random.default_rng(3).normal(scale=2.0, size=clean.shape)
    cmp = compare([noisy, clean, noisy.copy()], labels, backend="numpy", n_resamples=500)
    assert cmp.systems == ("system1", "system2", "system3") and cmp.unit == "queries"
    for metric in cmp.metrics:
        assert cmp.pair("system2", metric).direction == 1
        same = cmp.pair("system3", metric)
        assert same.diff == 0 and same.p_value == 1.0 and same.ties == 60
        assert math.isnan(same.effect_size)  # sd of the differences is 0


def test_lone_queries_are_left_out_alike() -> None:
    labels, a = _space(5)
    labels = np.array([f"c{v}" for v in labels])
    labels[7] = "alone"  # no other item of its class: R = 0
    cmp = compare({"a": a, "b": a * 0.5 + 1}, labels, backend="numpy", n_resamples=100)
    assert cmp.n == 59 and cmp.pairs[0].n == 59
    assert any("1 of 60 queries left out" in note for note in cmp.notes)


def test_references_per_system() -> None:
    labels, a = _space(6, n=40)
    r_labels, ref = _space(7, n=50)
    b = a + 0.3
    cmp = compare(
        {"a": a, "b": b},
        labels,
        {"b": ref + 0.3, "a": ref},
        r_labels,
        metrics="map@r",
        backend="numpy",
        n_resamples=100,
    )
    alone = retrieval_metrics(b, labels, ref + 0.3, r_labels, metrics="map@r", backend="numpy")
    assert cmp.scores["map_at_r"]["b"] == pytest.approx(alone.mean("map_at_r"))
    same = compare(
        [a, b],
        labels,
        [ref, ref + 0.3],
        r_labels,
        metrics="map@r",
        backend="numpy",
        n_resamples=100,
    )
    assert same.scores["map_at_r"]["system2"] == cmp.scores["map_at_r"]["b"]


def test_bad_inputs_are_refused() -> None:
    labels, a = _space(8, n=20)
    with pytest.raises(InputError, match="at least two embeddings, got 1"):
        compare({"a": a}, labels)
    with pytest.raises(InputError, match="mapping of system names to embeddings"):
        compare(a, labels)
    with pytest.raises(InputError, match="baseline 'z' is not one of the systems"):
        compare({"a": a, "b": a}, labels, baseline="z", backend="numpy")
    with pytest.raises(InputError):  # 19 rows for 20 labels
        compare({"a": a, "b": a[:19]}, labels, backend="numpy")
    with pytest.raises(InputError, match="one reference set per system"):
        compare([a, a], labels, [a], labels)
    with pytest.raises(InputError, match="name the same systems"):
        compare({"a": a, "b": a}, labels, {"a": a, "c": a}, labels)
    with pytest.raises(OptionError, match="test must be one of"):
        compare([a, a], labels, test="mcnemar")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="alpha"):
        compare([a, a], labels, alpha=2.0)


def test_the_result_renders_in_every_format() -> None:
    labels, a = _space(9, n=30)
    b = a + np.random.default_rng(10).normal(scale=2.0, size=a.shape)
    cmp = compare({"a": a, "b": b}, labels, backend="numpy", n_resamples=100)
    report = cmp.report()
    for fmt in ("table", "tsv", "csv", "jsonl", "json", "markdown", "latex"):
        text = report.render(fmt)
        assert ("precision@1" in text and "difference" in text.lower()) or fmt == "table", fmt
        assert f"{cmp.pairs[0].diff:.4f}" in text or fmt in ("tsv", "csv", "jsonl", "json"), fmt
    assert "<svg" in cmp.html(title="embeddings")
