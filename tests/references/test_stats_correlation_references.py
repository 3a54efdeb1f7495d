"""Correlations against slow literal forms: tau_AP by Yilmaz et al.'s formula and by every tie
breaking, pair counts and tau-b by looking at every pair, the bootstrap by naive resampling,
and the kendall_tau ranking metric against stats.kendall."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import stats as sps

from assay.stats import _coefficients, concordance, kendall, spearman, tau_ap
from references.slow_stats import naive_tau_ap
from strategies.stats import correlated_pairs


def test_tau_ap_matches_naive_formula() -> None:
    rng = np.random.default_rng(7)
    for n in (3, 4, 10, 57):
        for _ in range(5):
            x = rng.permutation(n).astype(float)
            y = x + rng.normal(scale=n / 3, size=n)
            assert tau_ap(x, y).statistic == pytest.approx(naive_tau_ap(x, y), abs=1e-12)


def tie_breakings(v: np.ndarray) -> list[np.ndarray]:
    """Every strict score vector obtained by ordering the tied items of v in all ways."""
    groups = [np.flatnonzero(v == u) for u in np.unique(v)]
    out = []
    for perms in itertools.product(*(itertools.permutations(g) for g in groups)):
        scores = v.astype(float).copy()
        for perm in perms:
            for k, item in enumerate(perm):
                scores[item] += k * 1e-3  # within the group, below the next value
        out.append(scores)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_tau_ap_average_ties_is_expectation_over_tie_breakings(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, size=7).astype(float)  # ties in the reference too
    y = rng.integers(0, 4, size=7).astype(float)
    if len(np.unique(x)) == 1 or len(np.unique(y)) == 1:
        pytest.skip("constant draw")
    values = [naive_tau_ap(xs, ys) for xs in tie_breakings(x) for ys in tie_breakings(y)]
    got = tau_ap(x, y, ties="average")
    assert got.statistic == pytest.approx(float(np.mean(values)), abs=1e-12)
    assert got.details["ties"] == "average"


def test_count_greater_before_matches_brute_force() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 7, 16, 33):
        v = rng.integers(0, 5, size=(4, n))
        want = np.array([[int((row[:j] > row[j]).sum()) for j in range(n)] for row in v])
        np.testing.assert_array_equal(concordance.count_greater_before(v), want)


def _brute_pair_counts(x: np.ndarray, y: np.ndarray) -> tuple[int, int, int, int]:
    """S = C - D, n0, and the pairs tied in x and in y, by looking at every pair."""
    s = tx = ty = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        s += int(dx * dy)
        tx += int(dx == 0)
        ty += int(dy == 0)
    return s, len(x) * (len(x) - 1) // 2, tx, ty


def test_pair_counts_and_tau_b_match_brute_force() -> None:
    rng = np.random.default_rng(17)
    for _ in range(60):
        n = int(rng.integers(3, 25))
        x, y = rng.integers(0, 4, n), rng.integers(0, 6, n)
        s, n0, tx, ty = _brute_pair_counts(x, y)
        counts = concordance.pair_counts(
            np.unique(x, return_inverse=True)[1][None, :],
            np.unique(y, return_inverse=True)[1][None, :],
        )
        assert (int(counts.score(n)[0]), int(counts.tied_x[0]), int(counts.tied_y[0])) == (
            s,
            tx,
            ty,
        )
        got = concordance.tau_b(s, n0, tx, ty)
        if tx == n0 or ty == n0:
            assert math.isnan(got)
            continue
        assert got == s / math.sqrt((n0 - tx) * (n0 - ty))  # one rounding of the product
        assert kendall(x, y, confidence=None).statistic == got
    # vectorised over rows, integer or float counts alike
    out = concordance.tau_b([2, 0, 3], [6.0, 3, 3], [1, 3, 0], [1, 0, 0])
    np.testing.assert_array_equal(out, [2 / 5, np.nan, 1.0])


def test_one_tau_b_for_stats_and_the_ranking_metric() -> None:
    """stats.kendall of (scores, grades) is the kendall_tau ranking metric, bit for bit."""
    import assay

    rng = np.random.default_rng(23)
    grades = {f"q{i}": rng.integers(0, 4, int(rng.integers(3, 30))) for i in range(40)}
    scores = {q: np.round(rng.normal(size=g.size), 1) for q, g in grades.items()}
    qrels = assay.Qrels.from_dict(
        {q: {f"d{j}": int(v) for j, v in enumerate(g)} for q, g in grades.items()}
    )
    run = assay.Run.from_dict(
        {q: {f"d{j}": float(v) for j, v in enumerate(s)} for q, s in scores.items()}
    )
    res = assay.evaluate(qrels, run, ["kendall_tau"])
    per_query = res.per_query(res.runs[0], "kendall_tau")
    checked = 0
    for q in grades:
        want = kendall(scores[q], grades[q], confidence=None).statistic
        if math.isnan(want):
            assert math.isnan(per_query[q])
        else:
            assert per_query[q] == want, q
            checked += 1
    assert checked > 30


def naive_bootstrap(
    x: np.ndarray, y: np.ndarray, stat: str, n_resamples: int, seed: int, confidence: float
) -> tuple[float, float]:
    idx = np.random.default_rng(seed).integers(0, len(x), size=(n_resamples, len(x)))
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row in idx:
            if stat == "spearman":
                v = sps.spearmanr(x[row], y[row]).statistic
            else:
                v = sps.kendalltau(x[row], y[row], variant=stat[-1]).statistic
            values.append(v)
    arr = np.array(values)
    arr = arr[~np.isnan(arr)]
    lo, hi = np.quantile(arr, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(lo), float(hi)


@pytest.mark.parametrize("stat", ["spearman", "kendall-b", "kendall-c"])
def test_bootstrap_matches_naive_resampling(stat: str, monkeypatch: pytest.MonkeyPatch) -> None:
    x, y = correlated_pairs(21, 12, ties=True)
    want = naive_bootstrap(x, y, stat, 300, 5, 0.9)

    def run() -> tuple[float, float] | None:
        if stat == "spearman":
            return spearman(x, y, confidence=0.9, ci_method="bootstrap", n_resamples=300, seed=5).ci
        return kendall(
            x, y, confidence=0.9, variant=stat[-1], ci_method="bootstrap", n_resamples=300, seed=5
        ).ci

    assert run() == pytest.approx(want, abs=1e-12)
    # The chunking of the resamples does not change the result.
    monkeypatch.setattr(_coefficients, "_CHUNK_ELEMENTS", 7 * 12 + 5)
    assert run() == pytest.approx(want, abs=1e-12)
