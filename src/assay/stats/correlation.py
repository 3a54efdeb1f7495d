"""Correlation coefficients with p-values and confidence intervals: Pearson's r, Spearman's ρ,
Kendall's τ (b and c; computed in
:mod:`assay.stats.concordance`), the AP correlation τ_AP, and the correlation of the system rankings
induced by two metrics.

Conventions shared by every function here:

- Inputs are two one-dimensional sequences of the same length holding finite numbers; a
  mismatch, a NaN or an infinity is an :class:`~assay.errors.InputError` naming it. Every
  coefficient needs n ≥ 3 pairs, and a Fisher-z confidence interval needs more (n ≥ 4 for
  Pearson and Spearman, n ≥ 5 for Kendall); pass ``confidence=None`` (or a bootstrap
  interval) to get the coefficient and p-value of smaller samples.
- An input whose values are all equal has no ranking and no variance: the coefficient and
  p-value are NaN (scipy returns NaN as well), the interval is (NaN, NaN), and
  ``details["constant_input"]`` is True. No warning is emitted, here or anywhere else in this
  module.
- Bad options (an unknown ``alternative``, ``confidence`` outside (0, 1), a negative
  ``seed``, ...) raise :class:`~assay.errors.OptionError`. Options are keyword-only.
- ``alternative`` is "two-sided", "greater" (positive association) or "less"; with a
  one-sided alternative the interval is one-sided too: (low, 1) for "greater", (-1, high) for
  "less", as :meth:`scipy.stats._result_classes.PearsonRResult.confidence_interval`.
- Bootstrap intervals resample the n pairs with replacement, ``n_resamples`` times, with
  ``numpy.random.default_rng(seed)`` drawing the indices row by row (as
  ``rng.integers(0, n, size=(n_resamples, n))``; drawn in chunks that continue the same
  stream, so the result depends only on the data, ``n_resamples`` and ``seed``). The interval
  is the percentile interval: the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
  quantiles of the resampled coefficients (NumPy's default linear interpolation). Resamples on
  which the coefficient is undefined (all resampled x or all resampled y equal) are left out
  and counted in ``details["n_degenerate"]``.
- ``details`` records n, the method, the p-value method, the interval method and its settings
  (standard error on the z scale, number of resamples, seed).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .._options import Alternative, SpearmanCI, SystemCorrelation, TauAPTies
from ..errors import InputError, OptionError
from . import _checks as check
from ._coefficients import (
    NAN,
    bootstrap_interval,
    dense_codes,
    fisher_ci,
    interval_settings,
    is_constant,
    pearson_r,
    rowwise_r,
    t_pvalue,
)
from .concordance import count_greater_before, kendall
from .result import StatResult

__all__ = ["kendall", "pearson", "spearman", "system_rank_correlation", "tau_ap"]


# --------------------------------------------------------------------------- Pearson


def pearson(
    x: ArrayLike,
    y: ArrayLike,
    *,
    confidence: float | None = 0.95,
    alternative: Alternative = "two-sided",
) -> StatResult:
    """Pearson's product-moment correlation r, its p-value and a Fisher-z confidence interval.

    r = Σ (x_i - x̄)(y_i - ȳ) / sqrt(Σ (x_i - x̄)² Σ (y_i - ȳ)²), computed as
    :func:`scipy.stats.pearsonr` computes it.

    p-value: H0 r = 0, with t = r sqrt((n - 2) / (1 - r²)) ~ Student t with n - 2 degrees of
    freedom (exact for independent normal variables), as :func:`scipy.stats.pearsonr`.

    Interval: Fisher (1921): z = atanh(r) is approximately normal with standard error
    1/sqrt(n - 3); the interval is tanh(z ∓ z_{(1+c)/2} / sqrt(n - 3)) (one-sided with
    z_c for a one-sided ``alternative``), as ``PearsonRResult.confidence_interval()``.

    Constant x or y: r, p and the interval are NaN, without a warning.

    Parameters
    ----------
    x, y : array_like
        Two 1-D sequences of finite numbers of the same length (n ≥ 3 pairs).
    confidence : float or None, default 0.95
        Level of the Fisher-z interval (needs n ≥ 4); None for no interval.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": positive association (the interval is then (low, 1)); "less": negative.

    Returns
    -------
    StatResult
        ``statistic`` r, ``pvalue``, ``ci`` (None when ``confidence`` is None); ``details``:
        n, method, alternative, pvalue_method, constant_input, confidence, ci_method, se.

    Examples
    --------
    >>> from assay.stats import pearson
    >>> x = [0.31, 0.35, 0.28, 0.40, 0.33, 0.37, 0.25, 0.39]
    >>> y = [0.52, 0.55, 0.50, 0.61, 0.51, 0.58, 0.47, 0.60]
    >>> res = pearson(x, y)
    >>> print(f"r={res.statistic:.4f} p={res.pvalue:.2g} ci=({res.ci[0]:.3f}, {res.ci[1]:.3f})")
    r=0.9703 p=6.4e-05 ci=(0.840, 0.995)
    """
    alternative = check.alternative(alternative, "pearson")
    confidence = check.optional_confidence(confidence, "pearson")
    xa, ya = check.pair(x, y)
    n = xa.size
    check.fisher_n(n, 4, "Fisher-z", confidence)
    constant = is_constant(xa) or is_constant(ya)
    r = NAN if constant else pearson_r(xa, ya)
    p = t_pvalue(r, n, alternative)
    details: dict[str, Any] = {
        "n": n,
        "method": "pearson",
        "alternative": alternative,
        "pvalue_method": "t",
        "constant_input": constant,
        **interval_settings(confidence, "fisher"),
    }
    ci = None
    if confidence is not None:
        se = 1.0 / math.sqrt(n - 3)
        ci = fisher_ci(r, se, confidence, alternative)
        details["se"] = se
    return StatResult.of(r, p, ci, "Pearson r", details)


# --------------------------------------------------------------------------- Spearman


def _average_ranks(a: np.ndarray) -> np.ndarray:
    from scipy import stats

    return np.asarray(stats.rankdata(a, axis=-1), dtype=np.float64)


#: Largest n for which Spearman's sums of products of doubled centred mid-ranks (at most n³
#: in size) fit int64.
_SPEARMAN_EXACT_MAX_N = 2_000_000


def _spearman_rho(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r of the mid-ranks, from exact integer sums: doubled mid-ranks are integers,
    and so are their deviations 2r - (n + 1) from the doubled mean rank."""
    n = x.size
    if n > _SPEARMAN_EXACT_MAX_N:
        return pearson_r(_average_ranks(x), _average_ranks(y))
    cx = (2.0 * _average_ranks(x) - (n + 1)).astype(np.int64)
    cy = (2.0 * _average_ranks(y) - (n + 1)).astype(np.int64)
    sxy = int(np.dot(cx, cy))
    sxx = int(np.dot(cx, cx))
    syy = int(np.dot(cy, cy))
    return min(1.0, max(-1.0, sxy / math.sqrt(sxx * syy)))


def spearman(
    x: ArrayLike,
    y: ArrayLike,
    *,
    confidence: float | None = 0.95,
    ci_method: SpearmanCI = "fisher",
    n_resamples: int = 9999,
    seed: int = 0,
    alternative: Alternative = "two-sided",
) -> StatResult:
    """Spearman's rank correlation ρ, its p-value and a confidence interval.

    ρ is Pearson's r of the ranks, tied values sharing the mean of their ranks (mid-ranks), as
    :func:`scipy.stats.spearmanr`. It is computed from exact integer sums of the doubled
    mid-ranks, so a perfectly monotone relation gives exactly ±1 (scipy's floating-point sums
    can give 1 - 2⁻⁵², which at n = 3 moves the p-value from 0 to about 1e-8).

    p-value: the t approximation t = ρ sqrt((n - 2) / (1 - ρ²)) with n - 2 degrees of freedom,
    as :func:`scipy.stats.spearmanr` (not exact for small n).

    Intervals (``ci_method``):

    - "fisher": Fisher's z = atanh(ρ) with the standard error of Bonett & Wright (2000),
      sqrt((1 + ρ²/2) / (n - 3)); the interval is tanh(z ∓ z_{(1+c)/2}·SE). Needs n ≥ 4.
      D. G. Bonett and T. A. Wright (2000), "Sample size requirements for estimating Pearson,
      Kendall and Spearman correlations", Psychometrika 65(1), 23-28.
    - "bootstrap": percentile bootstrap over resampled pairs (see the module docstring),
      reproducible with ``seed``.

    Constant x or y: ρ, p and the interval are NaN, without a warning.

    Parameters
    ----------
    x, y : array_like
        Two 1-D sequences of finite numbers of the same length (n ≥ 3 pairs).
    confidence : float or None, default 0.95
        Level of the interval; None for no interval.
    ci_method : {"fisher", "bootstrap"}, default "fisher"
        How the interval is computed.
    n_resamples : int, default 9999
        Resamples of the bootstrap interval.
    seed : int, default 0
        Seed of the bootstrap interval.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": positive association (the interval is then (low, 1)); "less": negative.

    Returns
    -------
    StatResult
        ``statistic`` ρ, ``pvalue``, ``ci`` (None when ``confidence`` is None); ``details``:
        n, method, alternative, pvalue_method, ties, constant_input and the interval's
        settings (se; or n_resamples, seed, n_degenerate).

    Examples
    --------
    >>> from assay.stats import spearman
    >>> x = [0.31, 0.35, 0.28, 0.40, 0.33, 0.37, 0.25, 0.39]
    >>> y = [0.52, 0.55, 0.50, 0.61, 0.51, 0.58, 0.47, 0.60]
    >>> res = spearman(x, y)
    >>> print(f"rho={res.statistic:.4f} p={res.pvalue:.2g} ci=({res.ci[0]:.3f}, {res.ci[1]:.3f})")
    rho=0.9762 p=3.3e-05 ci=(0.816, 0.997)
    >>> res = spearman(x, y, ci_method="bootstrap", n_resamples=1000, seed=0)
    >>> print(f"({res.ci[0]:.3f}, {res.ci[1]:.3f})")
    (0.795, 1.000)
    """
    where = "spearman"
    alternative = check.alternative(alternative, where)
    confidence = check.optional_confidence(confidence, where)
    ci_method = check.option(ci_method, SpearmanCI, "ci_method", where)
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    xa, ya = check.pair(x, y)
    n = xa.size
    if ci_method == "fisher":
        check.fisher_n(n, 4, "Fisher-z (Bonett-Wright)", confidence)
    constant = is_constant(xa) or is_constant(ya)
    rho = NAN if constant else _spearman_rho(xa, ya)
    p = t_pvalue(rho, n, alternative)
    details: dict[str, Any] = {
        "n": n,
        "method": "spearman",
        "alternative": alternative,
        "pvalue_method": "t",
        "ties": "mid-ranks",
        "constant_input": constant,
        **interval_settings(confidence, ci_method),
    }
    ci = None
    if confidence is not None:
        ci, extra = _spearman_interval(
            rho, xa, ya, ci_method, confidence, alternative, n_resamples, seed
        )
        details.update(extra)
    return StatResult.of(rho, p, ci, "Spearman rho", details)


def _spearman_interval(
    rho: float,
    xa: np.ndarray,
    ya: np.ndarray,
    ci_method: str,
    confidence: float,
    alternative: str,
    n_resamples: int,
    seed: int,
) -> tuple[tuple[float, float], dict[str, Any]]:
    """The Fisher-z (Bonett-Wright) or bootstrap interval of ρ, and its details."""
    n = xa.size
    constant = math.isnan(rho)
    if ci_method == "fisher":
        se = NAN if constant else math.sqrt((1.0 + rho * rho / 2.0) / (n - 3))
        return fisher_ci(rho, se, confidence, alternative), {"se": se}
    return bootstrap_interval(
        lambda idx: rowwise_r(_average_ranks(xa[idx]), _average_ranks(ya[idx])),
        n,
        n_resamples,
        seed,
        confidence,
        alternative,
        constant,
    )


# --------------------------------------------------------------------------- tau_AP


def _count_in_group_greater(group: np.ndarray, value: np.ndarray) -> np.ndarray:
    """For each item b: #{a : group[a] == group[b] and value[a] > value[b]}."""
    kv = int(value.max()) + 1
    key = group * kv + value
    keys = np.sort(key)
    run_end = np.searchsorted(keys, key, side="right")
    group_end = np.searchsorted(keys, (group + 1) * kv, side="left")
    return cast(np.ndarray, group_end - run_end)


def _tau_ap_directed(ref: np.ndarray, est: np.ndarray) -> float:
    """Expected τ_AP of the ranking by ``est`` against the reference ranking by ``ref``
    (integer codes, higher = ranked first) over uniformly random orders of tied items; the
    plain τ_AP when there are no ties."""
    n = ref.size
    # Positions come from the estimated ranking: sort by est descending; within a tie
    # group of est, ref ascending, so that earlier items of the same group never have a
    # strictly larger ref (they must not count as "strictly above").
    order = np.lexsort((ref, -est))
    above_both, above_tied, within_above, within_tied = _concordances(ref, est, order)
    h, t = _position_weights(est[order], order)
    total = (h * (above_both + 0.5 * above_tied) + t * (within_above + 0.5 * within_tied)).sum()
    return float(2.0 * total / (n - 1) - 1.0)


def _concordances(
    ref: np.ndarray, est: np.ndarray, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each item, how many items are concordant with it, by kind: strictly above in est
    and in ref; strictly above in est and tied in ref (concordant with probability 1/2); tied
    in est and above in ref (probability 1); tied in both (1/2)."""
    n = ref.size
    above_both = np.empty(n, dtype=np.int64)
    above_both[order] = count_greater_before(ref[order][None, :])[0]
    above_tied = _count_in_group_greater(ref, est)
    within_above = _count_in_group_greater(est, ref)
    joint = dense_codes(est * (int(ref.max()) + 1) + ref)
    within_tied = np.bincount(joint)[joint] - 1
    return above_both, above_tied, within_above, within_tied


def _position_weights(est_sorted: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each item's weights (h, t) from the positions p = 1..n of the sorted list: an item of
    an est tie group spanning positions s+1..s+g sits at each with probability 1/g;
    h = E[1/(p-1)] for items strictly above (s ≥ 1), t = E[(k-1)/(g-1) · 1/(p-1)], k = p - s,
    for an item of the same group (g ≥ 2)."""
    n = est_sorted.size
    starts = np.flatnonzero(np.r_[True, est_sorted[1:] != est_sorted[:-1]])
    size = np.diff(np.r_[starts, n]).astype(np.float64)
    pos = np.arange(1, n + 1, dtype=np.float64)
    inv = np.zeros(n)
    inv[1:] = 1.0 / (pos[1:] - 1.0)
    k_minus_1 = pos - 1.0 - np.repeat(starts, np.diff(np.r_[starts, n]))
    h_group = np.add.reduceat(inv, starts) / size
    h_group[0] = 0.0  # the top group has nothing strictly above it
    with np.errstate(divide="ignore", invalid="ignore"):
        t_group = np.where(
            size > 1, np.add.reduceat(k_minus_1 * inv, starts) / (size * (size - 1.0)), 0.0
        )
    group_of = np.empty(n, dtype=np.int64)
    group_of[order] = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n]))
    return h_group[group_of], t_group[group_of]


def tau_ap(
    x: ArrayLike,
    y: ArrayLike,
    *,
    symmetric: bool = False,
    ties: TauAPTies = "error",
) -> StatResult:
    """AP correlation τ_AP of the ranking induced by ``y`` against the reference ranking
    induced by ``x`` (higher value = ranked first), Yilmaz, Aslam & Robertson (2008).

    Order the items by ``y`` (the ranking being evaluated, e.g. by a cheaper metric); for the
    item at position i, C(i) is the number of the i - 1 items above it that are also above it
    in the reference ranking by ``x``:

        τ_AP = 2/(N - 1) · Σ_{i=2..N} C(i)/(i - 1) - 1.

    Like Kendall's τ it lies in [-1, 1] (1: same ranking, -1: reversed), but a swap near the
    top of the ``y`` ranking costs more than one near the bottom. It is **not symmetric**:
    ``tau_ap(x, y) != tau_ap(y, x)`` in general; ``x`` is the reference ("true") ranking, as
    ``tauAP(x, y)`` of the R package ircor. Constant x or y (a single tie group): the
    statistic is NaN, with either ``ties``. τ_AP has no standard test.

    E. Yilmaz, J. A. Aslam and S. Robertson (2008), "A new rank correlation coefficient for
    information retrieval", SIGIR, 587-594. J. Urbano and M. Marrero (2017), "The treatment of
    ties in AP correlation", ICTIR, 321-324.

    Parameters
    ----------
    x : array_like
        Values inducing the reference ranking.
    y : array_like
        Values inducing the evaluated ranking, one per item of ``x``.
    symmetric : bool, default False
        Return the mean of both directions, (τ_AP(y | x) + τ_AP(x | y)) / 2.
    ties : {"error", "average"}, default "error"
        "error": tied values in x or y raise an InputError. "average": the expected τ_AP when
        the tied items of each ranking are put in a uniformly random order (computed exactly,
        in closed form); with a tie-free ``x`` this is τ_AP,a of Urbano & Marrero (2017), their
        coefficient for an estimated ranking with ties compared with a true one (ircor's
        ``tauAP_a``).

    Returns
    -------
    StatResult
        ``statistic`` τ_AP, ``pvalue`` NaN, ``ci`` None; ``details``: n, method, symmetric,
        ties, reference, n_tied_x, n_tied_y, constant_input.

    Examples
    --------
    Swapping the top two items costs more than swapping the bottom two (Kendall's τ: 0.8
    for both):

    >>> from assay.stats import tau_ap
    >>> print(tau_ap([1, 2, 3, 4, 5], [1, 2, 3, 5, 4]).statistic)
    0.5
    >>> print(tau_ap([1, 2, 3, 4, 5], [2, 1, 3, 4, 5]).statistic)
    0.875
    """
    symmetric = check.flag(symmetric, "symmetric", "tau_ap")
    ties = check.option(ties, TauAPTies, "ties", "tau_ap")
    xa, ya = check.pair(x, y)
    n = xa.size
    xc = dense_codes(xa)
    yc = dense_codes(ya)
    x_groups = int(xc.max()) + 1
    y_groups = int(yc.max()) + 1
    constant = x_groups == 1 or y_groups == 1
    details: dict[str, Any] = {
        "n": n,
        "method": "tau_ap",
        "symmetric": symmetric,
        "ties": ties,
        "reference": "both (mean)" if symmetric else "x",
        "n_tied_x": n - x_groups,
        "n_tied_y": n - y_groups,
        "constant_input": constant,
    }
    if constant:
        return StatResult.of(NAN, NAN, None, "tau_AP", details)
    if ties == "error" and (x_groups < n or y_groups < n):
        which = " and ".join(name for name, g in (("x", x_groups), ("y", y_groups)) if g < n)
        raise InputError(
            f"tau_ap: {which} hold tied values; tau_AP is defined for rankings "
            "without ties (pass ties='average' for its expected value over "
            "random orders of the tied items)"
        )
    value = _tau_ap_directed(xc, yc)
    if symmetric:
        value = (value + _tau_ap_directed(yc, xc)) / 2.0
    return StatResult.of(value, NAN, None, "tau_AP", details)


# --------------------------------------------------------------------------- system rankings


def _system_values(
    scores_a: Mapping[Any, float] | ArrayLike, scores_b: Mapping[Any, float] | ArrayLike
) -> tuple[np.ndarray, np.ndarray, list[Any] | None]:
    """The two metrics' values of the runs, and the run names when mappings were given."""
    if not isinstance(scores_a, Mapping) and not isinstance(scores_b, Mapping):
        return (
            check.real_vector(scores_a, "scores_a"),
            check.real_vector(scores_b, "scores_b"),
            None,
        )
    if not (isinstance(scores_a, Mapping) and isinstance(scores_b, Mapping)):
        raise InputError(
            "scores_a and scores_b must both be mappings (run -> value) or both sequences"
        )
    names = list(scores_a)
    missing_b = [k for k in names if k not in scores_b]
    missing_a = [k for k in scores_b if k not in scores_a]
    if missing_a or missing_b:
        parts = []
        if missing_b:
            parts.append(f"missing from scores_b: {', '.join(map(str, missing_b))}")
        if missing_a:
            parts.append(f"missing from scores_a: {', '.join(map(str, missing_a))}")
        raise InputError("scores_a and scores_b must hold the same runs; " + "; ".join(parts))
    return _values(scores_a, names, "scores_a"), _values(scores_b, names, "scores_b"), names


def _values(mapping: Mapping[Any, float], names: list[Any], label: str) -> np.ndarray:
    """The finite values of ``mapping`` for ``names``, in that order."""
    out = np.empty(len(names))
    for i, name in enumerate(names):
        try:
            out[i] = float(mapping[name])
        except (TypeError, ValueError):
            raise InputError(f"{label}[{name!r}] is {mapping[name]!r}, not a number") from None
        if not math.isfinite(out[i]):
            raise InputError(
                f"{label}[{name!r}] is {float(out[i])!r}; correlations need finite values"
            )
    return out


def _known_options(function: Callable[..., StatResult], options: Mapping[str, Any]) -> None:
    """An OptionError for an option ``function`` does not take (rather than a TypeError)."""
    known = [
        name
        for name, p in inspect.signature(function).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    for name in options:
        if name not in known:
            raise OptionError(
                f"system_rank_correlation: {function.__name__} takes no option {name!r}; "
                f"its options: {', '.join(known)}",
                option=name,
            )


def system_rank_correlation(
    scores_a: Mapping[str, float] | ArrayLike,
    scores_b: Mapping[str, float] | ArrayLike,
    *,
    method: SystemCorrelation = "kendall",
    **options: float | str | None,
) -> StatResult:
    """Correlation of the rankings of systems (runs) induced by two metrics.

    Higher values rank a run higher. ``method``:

    - "kendall" (default): Kendall's τ-b with its p-value (:func:`kendall`);
    - "spearman": Spearman's ρ with its p-value (:func:`spearman`);
    - "tau_ap": τ_AP (:func:`tau_ap`) with ``scores_a`` as the reference ranking and the
      ranking by ``scores_b`` evaluated against it; p-value NaN, no interval.

    Note that the Fisher-z intervals of Kendall and Spearman need at least 5 and 4 runs; with
    fewer, pass ``confidence=None``.

    Parameters
    ----------
    scores_a, scores_b : mapping of str to float, or array_like
        Each run's aggregate value under the two metrics: either two mappings run name →
        value with the same keys (any order; a run missing from either is an InputError
        naming it), or two sequences of the same length in the same run order.
    method : {"kendall", "spearman", "tau_ap"}, default "kendall"
        The coefficient.
    **options
        Passed on to that function (``confidence``, ``ci_method``, ``seed``, ``alternative``,
        ``ties``, ``symmetric``, ...); one it does not take is an OptionError.

    Returns
    -------
    StatResult
        That function's result; ``details`` adds ``runs`` (the run names, in the order of
        ``scores_a``, when mappings were given) and ``system_method``.

    Examples
    --------
    >>> from assay.stats import system_rank_correlation
    >>> map_ = {"bm25": 0.31, "dense": 0.35, "splade": 0.40, "tfidf": 0.25, "colbert": 0.39}
    >>> ndcg = {"bm25": 0.52, "dense": 0.58, "splade": 0.61, "tfidf": 0.47, "colbert": 0.55}
    >>> res = system_rank_correlation(map_, ndcg, confidence=None)
    >>> print(res.statistic, f"{res.pvalue:.4f}")
    0.8 0.0833
    >>> print(system_rank_correlation(map_, ndcg, method="tau_ap").statistic)
    0.75
    """
    method = check.option(method, SystemCorrelation, "method", "system_rank_correlation")
    functions: dict[str, Callable[..., StatResult]] = {
        "kendall": kendall,
        "spearman": spearman,
        "tau_ap": tau_ap,
    }
    function = functions[method]
    _known_options(function, options)
    a, b, names = _system_values(scores_a, scores_b)
    res = function(a, b, **options)
    details = {**res.details, "runs": names, "system_method": method}
    return StatResult.of(res.statistic, res.pvalue, res.ci, res.method, details)
