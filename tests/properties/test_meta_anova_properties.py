"""Invariances of the two-way ANOVA without replication and of the replicability analysis.

ANOVA: adding a constant to a topic (a row) changes nothing but the topic means and the topic
sum of squares' share of it (the systems' table, V_E, the intervals' width and every effect
size stay); adding a constant to a system moves its mean and its interval only through the
mean; scaling every score by c > 0 scales SS by c², MOE by c and keeps F, p and the effect
sizes; permuting topics changes nothing; permuting systems permutes the means and the
effect-size matrices. Replicability: the count does not depend on the datasets' order, grows
with alpha, never falls when a p-value falls, and is at most N; Holm names as many datasets
as the Bonferroni count.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.stats import anova_two_way, replicability
from strategies.meta import score_matrices

SETTINGS = settings(max_examples=60, deadline=None)


def _close(a: float, b: float) -> bool:
    return bool(np.isclose(a, b, rtol=1e-7, atol=1e-9) or (np.isnan(a) and np.isnan(b)))


def _generic(x: np.ndarray) -> bool:
    """V_E clearly away from 0 (an exact additive fit makes F a ratio of rounding errors)."""
    return anova_two_way(x).residual_variance > 1e-6


@SETTINGS
@given(x=score_matrices(min_topics=2), data=st.data())
def test_adding_a_constant_to_a_topic_keeps_the_systems_analysis(
    x: np.ndarray, data: st.DataObject
) -> None:
    shift = np.array(
        data.draw(
            st.lists(
                st.sampled_from([-0.5, 0.0, 0.25, 2.0]), min_size=x.shape[0], max_size=x.shape[0]
            )
        )
    )
    a, b = anova_two_way(x), anova_two_way(x + shift[:, None])
    assert _close(a.ss["systems"], b.ss["systems"]) and _close(
        a.residual_variance, b.residual_variance
    )
    assert _close(a.moe, b.moe)
    if _generic(x):
        assert _close(a.f["systems"], b.f["systems"]) and _close(a.p["systems"], b.p["systems"])
        assert np.allclose(a.effect_residual, b.effect_residual, rtol=1e-7, atol=1e-9)


@SETTINGS
@given(x=score_matrices(min_topics=2), data=st.data())
def test_adding_a_constant_to_a_system_moves_its_mean_only(
    x: np.ndarray, data: st.DataObject
) -> None:
    i = data.draw(st.integers(0, x.shape[1] - 1))
    c = data.draw(st.sampled_from([-1.0, 0.5, 3.0]))
    y = x.copy()
    y[:, i] += c
    a, b = anova_two_way(x), anova_two_way(y)
    assert b.system_means[i] == pytest.approx(a.system_means[i] + c)
    assert _close(a.residual_variance, b.residual_variance) and _close(a.moe, b.moe)
    assert np.allclose(np.delete(a.system_means, i), np.delete(b.system_means, i))
    assert np.allclose(np.delete(a.hedges_g, i, 0)[:, [j for j in range(x.shape[1]) if j != i]],
                       np.delete(b.hedges_g, i, 0)[:, [j for j in range(x.shape[1]) if j != i]],
                       equal_nan=True)  # fmt: skip


@SETTINGS
@given(x=score_matrices(min_topics=2), c=st.sampled_from([0.01, 0.5, 3.0, 1000.0]))
def test_scaling_keeps_f_p_and_effect_sizes(x: np.ndarray, c: float) -> None:
    a, b = anova_two_way(x), anova_two_way(c * x)
    for k in ("systems", "topics", "residual"):
        assert b.ss[k] == pytest.approx(c * c * a.ss[k], rel=1e-7, abs=1e-12 * c * c)
    assert b.moe == pytest.approx(c * a.moe, rel=1e-7, abs=1e-12 * c)
    if _generic(x):
        assert _close(a.f["systems"], b.f["systems"]) and _close(a.p["topics"], b.p["topics"])
        for name in ("effect_residual", "hedges_g", "glass_delta"):
            assert np.allclose(getattr(a, name), getattr(b, name), rtol=1e-7, equal_nan=True)


@SETTINGS
@given(x=score_matrices(min_topics=2), data=st.data())
def test_permutations_of_topics_and_systems(x: np.ndarray, data: st.DataObject) -> None:
    rows = np.array(data.draw(st.permutations(range(x.shape[0]))))
    cols = np.array(data.draw(st.permutations(range(x.shape[1]))))
    a, b = anova_two_way(x), anova_two_way(x[rows][:, cols])
    assert _close(a.f["systems"], b.f["systems"]) and _close(
        a.residual_variance, b.residual_variance
    )
    assert np.allclose(a.system_means[cols], b.system_means)
    for name in ("effect_residual", "hedges_g", "glass_delta"):
        assert np.allclose(getattr(a, name)[np.ix_(cols, cols)], getattr(b, name), equal_nan=True)


PVALUES = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=10)
METHODS = st.sampled_from(["bonferroni", "fisher"])


@settings(max_examples=200, deadline=None)
@given(p=PVALUES, method=METHODS, data=st.data())
def test_the_count_is_order_free_and_monotone(
    p: list[float], method: str, data: st.DataObject
) -> None:
    res = replicability(p, method=method)  # type: ignore[arg-type]
    assert 0 <= res.count <= len(p)
    shuffled = data.draw(st.permutations(p))
    assert replicability(shuffled, method=method).count == res.count  # type: ignore[arg-type]
    assert replicability(p, alpha=0.2, method=method).count >= res.count  # type: ignore[arg-type]
    i = data.draw(st.integers(0, len(p) - 1))
    lower = [*p[:i], p[i] * data.draw(st.sampled_from([0.0, 0.1, 0.5])), *p[i + 1 :]]
    assert replicability(lower, method=method).count >= res.count  # type: ignore[arg-type]
    assert np.all(np.diff(res.adjusted) >= 0)
    if method == "bonferroni":
        assert len(res.identified) == res.count
