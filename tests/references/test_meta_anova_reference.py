"""The two-way ANOVA without replication and the replicability analysis against slow
references written cell by cell from the formulas (Sakai 2018; Dror et al. 2017), on seeded
random inputs and on hypothesis' coarse-grid matrices (ties, equal columns, zero residuals)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from assay.stats import anova_two_way, partial_conjunction, replicability
from strategies.meta import score_matrices


def slow_anova(x: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """Sums of squares by loops over the cells, then the table, the MOE and ES_E."""
    n, m = len(x), len(x[0])
    cells = [float(v) for row in x for v in row]
    grand = sum(cells) / (n * m)
    sys_mean = [sum(float(x[j][i]) for j in range(n)) / n for i in range(m)]
    top_mean = [sum(float(x[j][i]) for i in range(m)) / m for j in range(n)]
    s_a = n * sum((sys_mean[i] - grand) ** 2 for i in range(m))
    s_b = m * sum((top_mean[j] - grand) ** 2 for j in range(n))
    s_e = sum(
        (float(x[j][i]) - sys_mean[i] - top_mean[j] + grand) ** 2
        for j in range(n)
        for i in range(m)
    )
    phi_e = (m - 1) * (n - 1)
    v_e = s_e / phi_e
    out = {
        "s_a": s_a,
        "s_b": s_b,
        "s_e": s_e,
        "v_e": v_e,
        "f_a": (s_a / (m - 1)) / v_e,
        "f_b": (s_b / (n - 1)) / v_e,
        "moe": stats.t.ppf(0.5 + confidence / 2, phi_e) * math.sqrt(v_e / n),
    }
    out["p_a"] = stats.f.sf(out["f_a"], m - 1, phi_e)
    out["p_b"] = stats.f.sf(out["f_b"], n - 1, phi_e)
    return out


def slow_effects(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hedges' g and Glass's Δ pair by pair with the sample variances written out."""
    n, m = x.shape
    mean = [sum(x[:, i]) / n for i in range(m)]
    var = [sum((v - mean[i]) ** 2 for v in x[:, i]) / (n - 1) for i in range(m)]
    g = np.zeros((m, m))
    d = np.zeros((m, m))
    for i in range(m):
        for j in range(m):
            if i != j:
                g[i, j] = (mean[i] - mean[j]) / math.sqrt((var[i] + var[j]) / 2)
                d[i, j] = (mean[i] - mean[j]) / math.sqrt(var[j])
    return g, d


@pytest.mark.parametrize("seed", range(60))
def test_the_anova_equals_the_formulas_cell_by_cell(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 30)), int(rng.integers(2, 8))
    x = rng.random((n, m)) + rng.normal(0, 0.3, m) + rng.normal(0, 0.3, (n, 1))
    confidence = float(rng.choice([0.9, 0.95, 0.99]))
    res = anova_two_way(x, confidence=confidence)
    ref = slow_anova(x, confidence)
    assert res.ss["systems"] == pytest.approx(ref["s_a"], rel=1e-9, abs=1e-12)
    assert res.ss["topics"] == pytest.approx(ref["s_b"], rel=1e-9, abs=1e-12)
    assert res.ss["residual"] == pytest.approx(ref["s_e"], rel=1e-9)
    assert res.residual_variance == pytest.approx(ref["v_e"], rel=1e-9)
    assert res.f["systems"] == pytest.approx(ref["f_a"], rel=1e-9, abs=1e-12)
    assert res.f["topics"] == pytest.approx(ref["f_b"], rel=1e-9, abs=1e-12)
    assert res.p["systems"] == pytest.approx(ref["p_a"], rel=1e-8, abs=1e-14)
    assert res.p["topics"] == pytest.approx(ref["p_b"], rel=1e-8, abs=1e-14)
    assert res.moe == pytest.approx(ref["moe"], rel=1e-9)
    assert res.ss["total"] == pytest.approx(ref["s_a"] + ref["s_b"] + ref["s_e"], rel=1e-9)
    means = x.mean(axis=0)
    es = (means[:, None] - means[None, :]) / math.sqrt(ref["v_e"])
    assert res.effect_residual == pytest.approx(es, rel=1e-9, abs=1e-12)
    g, d = slow_effects(x)
    assert res.hedges_g == pytest.approx(g, rel=1e-9, abs=1e-12)
    assert res.glass_delta == pytest.approx(d, rel=1e-9, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(x=score_matrices(min_topics=2))
def test_the_anova_of_coarse_grids_equals_the_formulas(x: np.ndarray) -> None:
    """Ties, equal columns and exact fits (V_E = 0: F is inf or NaN, never a rounding ratio)."""
    res = anova_two_way(x)
    ref = slow_anova(x) if not _exact_fit(x) else None
    if ref is None:
        assert res.residual_variance == 0.0
        for k in ("systems", "topics"):
            if res.ss[k] > 0:
                assert (res.f[k], res.p[k]) == (math.inf, 0.0)
            else:
                assert math.isnan(res.f[k]) and math.isnan(res.p[k])
        return
    assert res.residual_variance == pytest.approx(ref["v_e"], rel=1e-9)
    assert res.f["systems"] == pytest.approx(ref["f_a"], rel=1e-9, abs=1e-12)
    assert res.p["systems"] == pytest.approx(ref["p_a"], rel=1e-8, abs=1e-14)
    assert res.moe == pytest.approx(ref["moe"], rel=1e-9)


def _exact_fit(x: np.ndarray) -> bool:
    """Every cell is a system effect plus a topic effect (the residuals are 0 exactly in
    rationals; the grid's values are exact binary fractions but their means are not)."""
    r = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    return bool(np.abs(r).max() < 1e-12)


# ---------------------------------------------------------------- replicability


def slow_partial(p: list[float], u: int, method: str) -> float:
    """p^(u/N) from the N − u + 1 largest p-values, as the paper defines it."""
    largest = sorted(p, reverse=True)[: len(p) - u + 1]
    if method == "bonferroni":
        return min(1.0, len(largest) * min(largest))
    if min(largest) == 0:
        return 0.0
    return float(stats.combine_pvalues(largest, method="fisher").pvalue)


def slow_count(p: list[float], alpha: float, method: str) -> int:
    """k̂: the u's accepted one after the other while the running maximum stays ≤ alpha."""
    k, worst = 0, 0.0
    for u in range(1, len(p) + 1):
        worst = max(worst, slow_partial(p, u, method))
        if worst <= alpha:
            k = u
    return k


def slow_holm(p: list[float], alpha: float) -> set[int]:
    """Holm's step-down: reject the i-th smallest while p_(i) ≤ alpha / (N − i + 1)."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out: set[int] = set()
    for rank, i in enumerate(order):
        if p[i] * (len(p) - rank) > alpha:
            break
        out.add(i)
    return out


PVALUES = st.lists(
    st.one_of(
        st.sampled_from([0.0, 0.001, 0.01, 0.02, 0.05, 0.2, 0.5, 1.0]),
        st.floats(0, 1, allow_nan=False),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(p=PVALUES, alpha=st.sampled_from([0.01, 0.05, 0.1, 0.3]))
def test_replicability_equals_the_slow_procedure(p: list[float], alpha: float) -> None:
    for method in ("bonferroni", "fisher"):
        partial = partial_conjunction(p, method=method)
        expected = [slow_partial(p, u, method) for u in range(1, len(p) + 1)]
        assert partial == pytest.approx(expected, rel=1e-9, abs=1e-300)
        res = replicability(p, alpha=alpha, method=method)
        assert res.count == slow_count(p, alpha, method)
        assert {int(d) for d in res.identified} == slow_holm(p, alpha)
    assert len(replicability(p, alpha=alpha).identified) == slow_count(p, alpha, "bonferroni")


@pytest.mark.usefixtures("gc_collect_skipped")  # multipletests' gc.collect() per call
def test_holm_equals_statsmodels() -> None:
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(5)
    for _ in range(60):
        p = rng.random(int(rng.integers(1, 15))) ** 3
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        reject = multitest.multipletests(p, alpha=alpha, method="holm")[0]
        names = replicability(p, alpha=alpha).identified
        assert {int(d) for d in names} == set(np.flatnonzero(reject).tolist())
