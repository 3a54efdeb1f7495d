"""``assay.clustering.compare`` against slow, obvious reference implementations: Python loops
over the same resamples (the same bootstrap indices, the same swap patterns), the measures
computed by the library's own one-clustering functions or by brute force over pairs of
items, and the tests' p-values and intervals counted by hand."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from assay import clustering as C
from assay.clustering._core import codes
from assay.clustering._resampled import HARD_MEASURES, CellStatistic, cell_codes, records
from assay.errors import InputError, OptionError
from assay.stats import _resampling as rs


def _data(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, int(rng.integers(1, 6)), n)
    a = np.where(rng.random(n) < 0.6, gold, rng.integers(0, 5, n))
    b = np.where(rng.random(n) < 0.4, gold + 10, rng.integers(0, 7, n))
    return gold, a, b


def _distinct_pair_measure(
    metric: str, gold: np.ndarray, pred: np.ndarray, ids: np.ndarray
) -> float:
    """A pair-counting measure by brute force over the pairs of positions holding distinct
    items (two copies of one item are not a pair)."""
    tp = fp = fn = tn = 0
    for i, j in itertools.combinations(range(len(ids)), 2):
        if ids[i] == ids[j]:
            continue
        same_g, same_p = gold[i] == gold[j], pred[i] == pred[j]
        tp += same_g and same_p
        fp += same_p and not same_g
        fn += same_g and not same_p
        tn += not same_g and not same_p
    total = tp + fp + fn + tn
    if metric == "pairwise_precision":
        return tp / (tp + fp) if tp + fp else 0.0
    if metric == "pairwise_recall":
        return tp / (tp + fn) if tp + fn else 0.0
    if metric == "pairwise_f":
        return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
    if metric == "rand_index":
        return 1.0 if total == 0 or fp + fn == 0 else (tp + tn) / total
    if metric == "fowlkes_mallows":
        return math.sqrt(tp / (tp + fp)) * math.sqrt(tp / (tp + fn)) if tp else 0.0
    assert metric == "adjusted_rand_index"
    if fp == 0 and fn == 0:
        return 1.0
    return 2 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


PAIR_MEASURES = {
    "pairwise_precision",
    "pairwise_recall",
    "pairwise_f",
    "rand_index",
    "adjusted_rand_index",
    "fowlkes_mallows",
}


def _slow(metric: str, gold: np.ndarray, pred: np.ndarray, ids: np.ndarray) -> float:
    """The measure of a resample: brute force over distinct pairs, or the library's function
    of the resampled labels (information and purity measures take copies as they are)."""
    if metric in PAIR_MEASURES:
        return _distinct_pair_measure(metric, gold, pred, ids)
    return float(getattr(C, metric)(gold, pred))


def _namespaced(labels: np.ndarray, system: str) -> np.ndarray:
    return np.array([f"{system}:{v}" for v in labels.tolist()], dtype=object)


@pytest.mark.parametrize("seed", range(12))
def test_resampled_measures_equal_the_slow_ones(seed: int) -> None:
    """Every measure of bootstrap resamples and of swapped clusterings, vectorised, against a
    loop over the same resamples."""
    n = 5 + seed * 2
    gold, a, b = _data(seed, n)
    g_codes, _ = codes(gold, "g")
    cells, (ca, cb) = cell_codes(g_codes, [codes(a, "a")[0], codes(b, "b")[0]])
    rec_a, rec_b = records(ca), records(cb)
    rng = np.random.default_rng(100 + seed)
    idx = rng.integers(0, n, (6, n))
    swap = rng.integers(0, 2, (6, n)).astype(bool)
    ns_a, ns_b = _namespaced(a, "A"), _namespaced(b, "B")
    for metric in HARD_MEASURES:
        stat = CellStatistic(cells, metric, n)
        observed = float(stat(rec_a, axis=0))
        assert observed == pytest.approx(getattr(C, metric)(gold, a), abs=1e-12), metric
        boot = stat(rec_a[idx], axis=1)
        want = [_slow(metric, gold[i], a[i], i) for i in idx]
        np.testing.assert_allclose(boot, want, atol=1e-12, err_msg=metric)
        swapped = stat(np.where(swap[:, :, None], rec_b, rec_a), axis=1)
        ids = np.arange(n)
        want = [_slow(metric, gold, np.where(s, ns_b, ns_a), ids) for s in swap]
        np.testing.assert_allclose(swapped, want, atol=1e-12, err_msg=metric)
        two = stat(rec_a[idx, 0], rec_a[idx, 1], axis=-1)  # bootstrap_ci's call
        np.testing.assert_allclose(two, boot, atol=0, err_msg=metric)


def _reference(
    gold: np.ndarray,
    systems: dict[str, np.ndarray],
    base: str,
    metric: str,
    test: str,
    n_resamples: int,
    seed: int,
    confidence: float,
) -> dict[str, tuple[float, float, float, float, float]]:
    """Per system but the baseline: (p-value, diff low, diff high), and every system's score
    interval (low, high), computed by loops over the resamples the stats functions draw."""
    n = gold.size
    ids = np.arange(n)
    ci_resamples = n_resamples if test == "bootstrap" else 1000
    draws = np.concatenate(list(rs.index_blocks(seed, n, ci_resamples)))
    boot = {
        s: np.array([_slow(metric, gold[i], labels[i], i) for i in draws])
        for s, labels in systems.items()
    }
    score = {s: _slow(metric, gold, labels, ids) for s, labels in systems.items()}
    alpha = 1 - confidence
    out = {}
    for s in systems:
        low, high = np.percentile(boot[s], [100 * alpha / 2, 100 * (1 - alpha / 2)])
        out[s] = (math.nan, math.nan, math.nan, float(low), float(high))
    for s in systems:
        if s == base:
            continue
        theta = score[s] - score[base]
        dist = boot[s] - boot[base]
        tol = rs.tolerance(n, max(abs(theta), abs(score[s]), abs(score[base])))
        d_low, d_high = np.percentile(dist, [100 * alpha / 2, 100 * (1 - alpha / 2)])
        if test == "bootstrap":
            hits = np.count_nonzero(np.abs(dist - theta) >= abs(theta) - tol)
        else:
            flips = np.concatenate(list(rs.flip_blocks(seed, n, n_resamples))).astype(bool)
            ns_s, ns_b = _namespaced(systems[s], "S"), _namespaced(systems[base], "B")
            values = [
                _slow(metric, gold, np.where(f, ns_b, ns_s), ids)
                - _slow(metric, gold, np.where(f, ns_s, ns_b), ids)
                for f in flips
            ]
            hits = np.count_nonzero(np.abs(values) >= abs(theta) - tol)
        p = (hits + 1) / (n_resamples + 1)
        out[s] = (p, float(d_low), float(d_high), *out[s][3:])
    return out


@pytest.mark.parametrize(
    ("seed", "metric", "test"),
    [
        (0, "adjusted_rand_index", "bootstrap"),
        (1, "nmi", "bootstrap"),
        (2, "purity_f1", "randomization"),
        (3, "fowlkes_mallows", "randomization"),
        (4, "ami", "bootstrap"),
        (5, "pairwise_f", "bootstrap"),
    ],
)
def test_compare_equals_the_slow_reference(seed: int, metric: str, test: str) -> None:
    gold, a, b = _data(seed, 14)
    c = np.where(np.arange(14) % 3 == 0, 99, a)
    systems = {"a": a, "b": b, "c": c}
    cmp = C.compare(gold, systems, metrics=metric, test=test, n_resamples=150, seed=seed)
    ref = _reference(gold, systems, "a", metric, test, 150, seed, 0.95)
    for s in systems:
        low, high = cmp.intervals[metric][s]
        assert (low, high) == pytest.approx(ref[s][3:], abs=1e-12), s
        assert cmp.scores[metric][s] == pytest.approx(getattr(C, metric)(gold, systems[s]))
    for s in ("b", "c"):
        pair = cmp.pair(s, metric)
        assert pair.p_value == pytest.approx(ref[s][0], abs=1e-12), s
        assert (pair.ci_low, pair.ci_high) == pytest.approx(ref[s][1:3], abs=1e-12), s
        assert pair.diff == pytest.approx(cmp.scores[metric][s] - cmp.scores[metric]["a"])
        assert (pair.n, pair.wins, pair.ties, pair.losses) == (0, 0, 0, 0)
        assert math.isnan(pair.effect_size)


def test_holm_corrects_within_each_metric() -> None:
    from assay.stats import correct

    gold, a, b = _data(7, 30)
    c = gold.copy()
    cmp = C.compare(gold, [a, b, c], metrics=["adjusted_rand_index", "purity"], n_resamples=200)
    assert cmp.baseline == "system1" and cmp.systems == ("system1", "system2", "system3")
    for metric in cmp.metrics:
        pairs = [cmp.pair(s, metric) for s in ("system2", "system3")]
        adjusted = correct([p.p_value for p in pairs], correction="holm")
        assert [p.p_adjusted for p in pairs] == pytest.approx(list(adjusted))
        assert all(p.significant == (p.p_adjusted < 0.05) for p in pairs)


def test_a_perfect_clustering_beats_a_random_one_and_identical_ones_tie() -> None:
    rng = np.random.default_rng(3)
    gold = np.repeat(np.arange(6), 10)
    noise = rng.integers(0, 6, gold.size)
    for test in ("bootstrap", "randomization"):
        cmp = C.compare(
            gold,
            {"noise": noise, "perfect": gold + 1, "same": noise.copy()},
            test=test,
            n_resamples=300,
        )
        for metric in cmp.metrics:
            assert cmp.pair("perfect", metric).direction == 1
            same = cmp.pair("same", metric)
            # the two scores are summed over differently numbered cells: equal up to rounding
            assert abs(same.diff) < 1e-12 and same.p_value == 1.0 and not same.significant


def test_the_bootstrap_holds_its_level_for_equally_good_systems() -> None:
    """Two clusterings drawn alike from the gold one: over many such pairs the paired
    bootstrap on ARI rejects at about its level (copies of an item are not pairs)."""
    rejected = 0
    for t in range(60):
        rng = np.random.default_rng(1000 + t)
        gold = rng.integers(0, 4, 40)
        a, b = (np.where(rng.random(40) < 0.5, gold, rng.integers(0, 4, 40)) for _ in range(2))
        cmp = C.compare(gold, [a, b], metrics="adjusted_rand_index", n_resamples=199, seed=t)
        rejected += cmp.pairs[0].p_value < 0.05
    assert rejected <= 8  # 5% of 60 is 3; P(binomial(60, 0.05) > 8) < 0.5%


def test_a_swap_and_its_complement_give_opposite_differences() -> None:
    """The null distribution of the swap test is symmetric: the clusterings' ids are kept
    apart, so swapping the complement of the items gives the two clusterings exchanged."""
    gold, a, b = _data(11, 25)
    cells, (ca, cb) = cell_codes(codes(gold, "g")[0], [codes(a, "a")[0], codes(b, "b")[0]])
    rec_a, rec_b = records(ca), records(cb)
    swap = np.random.default_rng(0).integers(0, 2, (20, 25)).astype(bool)[:, :, None]
    for metric in HARD_MEASURES:
        stat = CellStatistic(cells, metric, 25)

        def theta(s: np.ndarray, stat: CellStatistic = stat) -> np.ndarray:
            return stat(np.where(s, rec_b, rec_a), axis=1) - stat(np.where(s, rec_a, rec_b), axis=1)

        np.testing.assert_allclose(theta(swap), -theta(~swap), atol=1e-12, err_msg=metric)
    cmp = C.compare(gold, [a, b], test="randomization", n_resamples=50)
    assert any("prefer the bootstrap" in note for note in cmp.notes)


def test_bad_options_and_inputs_are_refused() -> None:
    gold, a, b = _data(0, 10)
    with pytest.raises(OptionError, match="use test='bootstrap' or test='randomization'"):
        C.compare(gold, [a, b], test="t")
    for bad in ("wilcoxon", "sign"):
        with pytest.raises(OptionError, match="needs a value per item"):
            C.compare(gold, [a, b], test=bad)
    with pytest.raises(OptionError, match="must be one of bootstrap, randomization"):
        C.compare(gold, [a, b], test="permutation")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="choose from pairwise_precision"):
        C.compare(gold, [a, b], metrics=["ari"])
    with pytest.raises(OptionError, match="at least one measure"):
        C.compare(gold, [a, b], metrics=[])
    with pytest.raises(InputError, match="labels_true has 10 items but clustering 'system2' has 9"):
        C.compare(gold, [a, b[:9]])
    with pytest.raises(InputError, match="baseline 'zzz' is not one of the systems"):
        C.compare(gold, {"a": a, "b": b}, baseline="zzz")
    with pytest.raises(InputError, match="at least two clusterings, got 1"):
        C.compare(gold, {"a": a})
    with pytest.raises(InputError, match="at least 2 items"):
        C.compare([0], [[0], [1]])
    with pytest.raises(InputError, match="every item needs a cluster label"):
        C.compare(gold, [a, [None, *b[1:].tolist()]])
    with pytest.raises(OptionError, match="n_resamples"):
        C.compare(gold, [a, b], n_resamples=0)


def test_the_result_reports_and_renders() -> None:
    gold, a, b = _data(2, 20)
    cmp = C.compare(gold, {"a": a, "b": b}, n_resamples=100)
    assert cmp.family == "clustering" and cmp.unit == "items" and cmp.n == 20
    rec = cmp.records()
    assert [r["kind"] for r in rec] == ["score"] * 4 + ["difference"] * 2
    assert {r["n"] for r in rec if r["kind"] == "difference"} == {0}
    assert "W/T/L" in cmp.report().more[0].columns[5].name
    report = cmp.report()
    for fmt in ("table", "tsv", "csv", "jsonl", "json", "markdown", "latex"):
        text = report.render(fmt)
        assert "nmi" in text and f"{cmp.pairs[0].diff:.4f}"[:5] in text, fmt
    page = cmp.html(title="clusterings")
    assert "<svg" in page and "adjusted_rand_index" in page
    assert "PairedComparison(family='clustering'" in repr(cmp)
