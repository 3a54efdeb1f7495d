"""Almost Stochastic Order (ASO): is A's score distribution (almost) stochastically larger
than B's? The test of Dror, Shlomov & Reichart (2019) on the violation ratio of del Barrio,
Cuesta-Albertos & Matrán (2018), computed as deepsig 1.2.8 computes it (Ulmer et al. 2022),
with the bootstrap vectorised."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from ..errors import OptionError
from . import _checks as check
from ._checks import FloatArray
from .result import StatResult

__all__ = ["aso"]

#: Largest seed of the legacy Mersenne Twister (``numpy.random.RandomState``): 2**32 - 1.
_MAX_SEED = 2**32 - 1
#: Resampled values held at once (rows x scores): blocks of bootstrap iterations stay
#: under ~32 MB of float64 whatever the number of scores.
_BLOCK_VALUES = 1 << 22


def aso(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    confidence_level: float = 0.95,
    num_comparisons: int = 1,
    num_samples: int = 1000,
    num_bootstrap_iterations: int = 1000,
    dt: float = 0.005,
    seed: int = 0,
) -> StatResult:
    r"""Almost Stochastic Order of ``scores_a`` over ``scores_b``: ε_min, an upper bound on
    how far A's scores violate stochastic dominance over B's (higher scores are better).

    With F⁻¹ and G⁻¹ the empirical quantile functions of A and B (F⁻¹(t) is the
    ⌈n·t⌉-th smallest score), the violation ratio (del Barrio et al. 2018) is

    .. math:: \varepsilon_{W_2}(F, G) = \frac{\int_{V} (G^{-1}(t) - F^{-1}(t))^2\,dt}
              {\int_0^1 (G^{-1}(t) - F^{-1}(t))^2\,dt}, \quad V = \{t : F^{-1}(t) < G^{-1}(t)\}

    (the share of the squared Wasserstein-2 distance where B is above A), integrated on the
    grid t = dt, 2·dt, … < 1 (0.5 when the distance is 0). Its spread is estimated by a
    bootstrap: each of ``num_bootstrap_iterations`` iterations draws n_a scores from F and
    n_b from G (inverse transform of uniforms) and recomputes the ratio; σ̂ is the standard
    deviation of √(n_a·n_b/(n_a+n_b))·(ratio* − ratio). Then (Dror et al. 2019, eq. 6)

    .. math:: \varepsilon_{\min} = \mathrm{clip}\Big(\varepsilon_{W_2} -
              \sqrt{\tfrac{n_a + n_b}{n_a n_b}}\,\hat\sigma\,\Phi^{-1}(1 - \gamma), 0, 1\Big)

    at confidence level γ. Reading it: ε_min < 0.5 says A almost stochastically dominates
    B (A is better; the smaller, the more clearly), ε_min = 0 is (empirical) stochastic
    dominance of A, and ε_min ≥ 0.5 says nothing of the kind can be claimed; ε_min of B over
    A is not 1 − ε_min of A over B (σ̂ enters both with the same sign). With
    ``num_comparisons`` = m > 1 the level is Bonferroni-adjusted to 1 − (1 − γ)/m (m: the
    number of pairs compared, as deepsig's ``multi_aso`` counts them).

    Everything is deepsig 1.2.8's ``aso`` to the last detail, including its quirks: the
    numerator of the ratio leaves out the grid's first point t = dt (so total dominance of B
    gives (T − 1)/T on T grid points, 198/199 ≈ 0.995 at dt = 0.005, not 1), the i-th bootstrap iteration (i = 1, 2, …)
    reseeds the legacy Mersenne Twister with ``seed + i`` and draws A's uniforms then B's,
    and ``num_samples`` is accepted and ignored (deepsig deprecated it: each bootstrap
    sample has the size of the scores). Hence for the same seed, deepsig's ``aso(...,
    seed=seed)`` and this function give the same ε_min (to rounding). One deliberate
    difference: deepsig adjusts the level to γ + (1 − γ)/m, which is Bonferroni's level
    only for m ≤ 2 and weaker beyond (m = 5 at γ = 0.95: 0.96 where Bonferroni asks 0.99);
    deepsig's value for m > 2 is ``aso(..., confidence_level=γ + (1 − γ)/m)``. deepsig's
    ``seed=None`` (unseeded) has no counterpart: here a result is always reproducible. The
    iterations are computed as matrices in blocks (the only loop left draws each
    iteration's uniforms, as deepsig's seeding requires).

    References: R. Dror, S. Shlomov, R. Reichart, "Deep Dominance – How to Properly Compare
    Deep Neural Models", ACL 2019; E. del Barrio, J. A. Cuesta-Albertos, C. Matrán, "An
    optimal transportation approach for assessing almost stochastic order", 2018;
    D. Ulmer, C. Hardmeier, J. Frellsen, "deep-significance: Easy and Meaningful
    Significance Testing in the Age of Neural Networks", 2022 (the deepsig package).

    Parameters
    ----------
    scores_a : array_like
        Scores of system A (e.g. one per training seed), the one suspected better; finite.
    scores_b : array_like
        Scores of system B; finite, any length.
    confidence_level : float, default 0.95
        The confidence level γ in (0, 1) before the Bonferroni adjustment.
    num_comparisons : int, default 1
        Comparisons made (pairs of systems); above 1 the level is adjusted.
    num_samples : int, default 1000
        Ignored, as in deepsig 1.2.8 (kept for its signature); a positive integer.
    num_bootstrap_iterations : int, default 1000
        Bootstrap iterations estimating σ̂.
    dt : float, default 0.005
        Step of the integration grid, in (0, 0.5).
    seed : int, default 0
        Seed: iteration i reseeds with ``seed + i`` (so ``seed + num_bootstrap_iterations``
        must stay below 2**32).

    Returns
    -------
    StatResult
        ``statistic`` = ε_min, ``pvalue`` NaN (``float(result)`` is ε_min), ``method``
        "ASO"; ``details``: ``violation_ratio``, ``sigma_hat``, ``confidence_level`` (the
        level used, after the adjustment), ``confidence_level_asked``, ``num_comparisons``,
        ``num_samples``, ``num_bootstrap_iterations``, ``dt``, ``seed``, ``n_a``, ``n_b``.

    Examples
    --------
    >>> from assay.stats import aso
    >>> better = [0.71, 0.74, 0.69, 0.75, 0.73, 0.72]
    >>> worse = [0.66, 0.70, 0.64, 0.68, 0.67, 0.69]
    >>> aso(better, worse).statistic
    0.0
    >>> res = aso(worse, better, num_bootstrap_iterations=200)
    >>> round(res.statistic, 4), round(res.details["violation_ratio"], 4)
    (0.9997, 0.995)
    >>> round(aso(better, worse, num_comparisons=5).details["confidence_level"], 4)
    0.99
    """
    where = "aso"
    a = check.vector(scores_a, "scores_a", where)
    b = check.vector(scores_b, "scores_b", where)
    level = opt.number(
        confidence_level,
        "confidence_level",
        low=0,
        high=1,
        low_open=True,
        high_open=True,
        where=where,
    )
    m = opt.integer(num_comparisons, "num_comparisons", minimum=1, where=where)
    num_samples = opt.integer(num_samples, "num_samples", minimum=1, where=where)
    n_boot = opt.n_resamples(num_bootstrap_iterations, name="num_bootstrap_iterations", where=where)
    dt = opt.number(dt, "dt", low=0, high=0.5, low_open=True, high_open=True, where=where)
    seed = opt.seed(seed, where=where)
    if seed + n_boot > _MAX_SEED:
        raise OptionError(
            f"{where}: seed + num_bootstrap_iterations must be at most {_MAX_SEED} (each "
            f"iteration reseeds the Mersenne Twister with seed + i), got {seed + n_boot}",
            option="seed",
        )
    # Bonferroni: each of the m comparisons at the error rate (1 - level) / m
    used = 1 - (1 - level) / m if m > 1 else level
    eps, ratio, sigma = _eps_min(a, b, used, n_boot, dt, seed)
    details: dict[str, Any] = {  # Any: counts, levels and settings
        "violation_ratio": ratio,
        "sigma_hat": sigma,
        "confidence_level": used,
        "confidence_level_asked": level,
        "num_comparisons": m,
        "num_samples": num_samples,
        "num_bootstrap_iterations": n_boot,
        "dt": dt,
        "seed": seed,
        "n_a": int(a.shape[0]),
        "n_b": int(b.shape[0]),
    }
    return StatResult.of(eps, math.nan, None, "ASO", details)


def _eps_min(
    a: FloatArray, b: FloatArray, level: float, n_boot: int, dt: float, seed: int
) -> tuple[float, float, float]:
    """(ε_min, violation ratio, σ̂) at the (already adjusted) confidence ``level``."""
    from scipy.special import ndtri  # scipy.stats.norm.ppf's kernel, without its import cost

    grid = np.arange(dt, 1, dt)
    sa, sb = np.sort(a), np.sort(b)
    na, nb = sa.shape[0], sb.shape[0]
    ratio = float(_ratios(sa[None, :], sb[None, :], grid, dt)[0])
    samples = _bootstrap_ratios(sa, sb, grid, dt, n_boot, seed)
    const = math.sqrt(na * nb / (na + nb))
    sigma = float(np.std(const * (samples - ratio)))
    eps = ratio - (1 / const) * sigma * float(ndtri(1 - level))
    return float(np.clip(eps, 0, 1)), ratio, sigma


def _quantile_positions(n: int, p: FloatArray) -> np.ndarray:
    """0-based positions in n sorted scores of the empirical quantiles at ``p``:
    ⌈n·p⌉ − 1, clipped to the scores."""
    return np.clip(np.ceil(n * p).astype(np.int64) - 1, 0, n - 1)


def _ratios(sa: FloatArray, sb: FloatArray, grid: FloatArray, dt: float) -> FloatArray:
    """The violation ratio of every row pair of row-sorted score matrices (r, n_a), (r, n_b)."""
    f = sa[:, _quantile_positions(sa.shape[1], grid)]
    g = sb[:, _quantile_positions(sb.shape[1], grid)]
    diff = g - f
    # The same operations in the same order as deepsig (diff ** 2 * dt, summed per row), so
    # that the ratios agree with it to the last bit or nearly.
    total = np.sum(diff**2 * dt, axis=1)
    diff[f >= g] = 0
    violated = np.sum(diff[:, 1:] ** 2 * dt, axis=1)
    out = np.full(total.shape, 0.5)
    nonzero = total != 0
    out[nonzero] = violated[nonzero] / total[nonzero]
    return out


def _bootstrap_ratios(
    sa: FloatArray, sb: FloatArray, grid: FloatArray, dt: float, n_boot: int, seed: int
) -> FloatArray:
    """The violation ratios of the bootstrap samples, iteration i drawn from the legacy
    Mersenne Twister seeded ``seed + i`` (i from 1), A's uniforms first."""
    na, nb = sa.shape[0], sb.shape[0]
    rng = np.random.RandomState()  # reseeded per iteration; the global state is untouched
    rows = max(1, _BLOCK_VALUES // (na + nb))
    out = np.empty(n_boot, dtype=np.float64)
    for start in range(0, n_boot, rows):
        stop = min(n_boot, start + rows)
        uniforms = np.empty((stop - start, na + nb), dtype=np.float64)
        for row, i in enumerate(range(start + 1, stop + 1)):
            rng.seed(seed + i)
            uniforms[row] = rng.random_sample(na + nb)
        # A sample drawn through the nondecreasing quantile function is sorted by sorting
        # its uniforms: the sorted sample is the quantile function of the sorted uniforms.
        ua = np.sort(uniforms[:, :na], axis=1)
        ub = np.sort(uniforms[:, na:], axis=1)
        out[start:stop] = _ratios(
            sa[_quantile_positions(na, ua)], sb[_quantile_positions(nb, ub)], grid, dt
        )
    return out
