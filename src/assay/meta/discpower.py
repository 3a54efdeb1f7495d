"""Discriminative power of evaluation metrics (Sakai 2006; Sakai 2012; Carterette 2012).

For a set of runs evaluated by several metrics on the same topics, every pair of runs is
tested with each metric; a metric's *discriminative power* is the share of pairs whose
difference is significant at ``alpha``. Two tests:

- ``"bootstrap"`` — Sakai's paired bootstrap test (SIGIR 2006, Fig. 1): with z the per-topic
  differences of a pair, t(z) = z̄ / (σ̂(z)/√n) (σ̂ with n − 1), w = z − z̄ (the differences
  shifted to mean 0, so that H0 holds), B resamples w*ᵇ of w with replacement, and the
  achieved significance level ASL = #{|t(w*ᵇ)| ≥ |t(z)|} / B. The estimated difference
  required (Sakai 2006, Fig. 5): for each pair, take the resample whose |t(w*ᵇ)| is the
  ⌈αB⌉-th largest (the first such resample if several tie) and its |w̄*ᵇ|; the estimate is
  the largest of these over the pairs. One resample matrix (B × n topic indices, drawn from
  ``np.random.default_rng(seed).integers(0, n, (B, n))``) is shared by every pair and every
  metric, as in Sakai's tools; the resampled statistics of all pairs are computed at once.
- ``"tukey"`` — the randomised Tukey HSD test over all runs at once
  (:func:`assay.stats.tukey_hsd`: within-topic permutations, the range of the run means,
  p = (c + 1)/(B + 1)). Every pair is compared with the same critical range, so the difference
  required lies between the largest non-significant and the smallest significant observed
  difference; both are reported (``diff_required`` is the latter).

Conventions where the paper is silent: a pair whose differences are all zero has ASL 1 (t(z)
is 0/0; not significant); a pair whose differences are a non-zero constant has t(z) = ∞ and
ASL 0 (only resamples with t = ∞ reach it, and w is all zeros); a resample with σ̂ = 0 has
t = ∞ if its mean is non-zero and counts as not reaching t(z) if both are zero. Means and
standard deviations within 8·n·eps·max|z| of zero are zero (differences constant up to
rounding are constant), and statistics are compared with a tolerance of 8·n·eps·|t(z)|, so
that the order of floating-point summation cannot flip a count.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from .._result import Result, provenance
from ..errors import InputError, OptionError
from ..report.reported import Reported
from ..results import Results
from ._scores import ScoreMatrix, pairs_of, score_matrices
from .options import DiscPowerTest

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["DiscPowerTest", "DiscriminativePower", "discriminative_power"]


_EPS = float(np.finfo(np.float64).eps)
_BLOCK = 1 << 22  # resampled (resample, topic, pair) entries held at once


@dataclass(frozen=True, eq=False, repr=False)
class DiscriminativePower(Result, Reported):
    """Discriminative power of each metric under each test (Sakai 2006).

    Made by :func:`discriminative_power`. :meth:`curve` gives the ASL curve (ASLs sorted
    ascending), :meth:`records` one row per test × metric, :meth:`pair_records` one row per
    test × metric × pair.

    Parameters
    ----------
    metrics, tests, runs : tuple of str
        What was compared.
    pairs : tuple of (str, str)
        The run pairs (run_a, run_b), a before b in ``runs``, in the order of every
        per-pair array.
    n_topics : int
        The topics every pair is compared on.
    alpha : float
        The significance level.
    diffs : mapping of str to numpy.ndarray
        ``diffs[metric]``: mean(run_a) − mean(run_b) per pair.
    t_statistic : mapping of str to numpy.ndarray
        ``t_statistic[metric]``: Sakai's |t(z)| = |z̄| / (σ̂/√n) per pair (the paired t
        statistic).
    asl : mapping of (str, str) to numpy.ndarray
        ``asl[(test, metric)]``: the achieved significance level of every pair (bootstrap:
        Sakai's count/B; tukey: the randomised Tukey HSD p-value).
    power : mapping of (str, str) to float
        Share of pairs with ASL < alpha.
    n_significant : mapping of (str, str) to int
        Count of pairs with ASL < alpha.
    diff_required : mapping of (str, str) to float
        Estimated difference required for significance (bootstrap: Sakai's estimate;
        tukey: smallest significant |diff|, NaN if none).
    diff_not_significant : mapping of (str, str) to float
        ``[("tukey", metric)]``: largest non-significant |diff| (NaN for the bootstrap).
    provenance : mapping
        The options (tests, alpha, resamples, seed) and the data's size.

    Examples
    --------
    >>> from assay import meta
    >>> scores = {"P@5": {"a": [0.2, 0.4, 0.6, 0.8], "b": [0.6, 0.8, 1.0, 1.0],
    ...                   "c": [0.0, 0.2, 0.2, 0.4]}}
    >>> dp = meta.discriminative_power(scores, test="tukey", n_resamples=200)
    >>> dp.pairs
    (('a', 'b'), ('a', 'c'), ('b', 'c'))
    >>> dp.curve("tukey", "P@5").round(3)
    array([0.01 , 0.368, 0.547])
    """

    family = "meta"

    metrics: tuple[str, ...]
    tests: tuple[str, ...]
    runs: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    n_topics: int
    alpha: float
    diffs: Mapping[str, np.ndarray]
    t_statistic: Mapping[str, np.ndarray]
    asl: Mapping[tuple[str, str], np.ndarray]
    power: Mapping[tuple[str, str], float]
    n_significant: Mapping[tuple[str, str], int]
    diff_required: Mapping[tuple[str, str], float]
    diff_not_significant: Mapping[tuple[str, str], float]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    def curve(self, test: str, metric: str) -> np.ndarray:
        """The ASL curve: the ASLs of all pairs sorted ascending (Sakai's plots).

        Parameters
        ----------
        test : str
            ``bootstrap`` or ``tukey`` (one of :attr:`tests`).
        metric : str
            One of :attr:`metrics`.

        Returns
        -------
        numpy.ndarray
            The ASL of every pair, ascending (the class's example shows one).
        """
        return np.sort(self.asl[(test, metric)])

    def records(self) -> list[dict[str, Any]]:
        """One row per test × metric: discriminative power, counts, difference required."""
        return [
            {
                "test": t,
                "metric": m,
                "discriminative_power": float(self.power[(t, m)]),
                "n_significant": int(self.n_significant[(t, m)]),
                "n_pairs": len(self.pairs),
                "diff_required": float(self.diff_required[(t, m)]),
                "alpha": self.alpha,
                "n_topics": self.n_topics,
            }
            for t in self.tests
            for m in self.metrics
        ]

    def report(self, *, pairs: bool = False) -> Report:
        """The table ``assay meta discpower`` prints and its records (``pairs``: every
        pair's difference and ASL instead of the metrics x tests table)."""
        from .report import discpower_report

        return discpower_report(self, pairs=pairs)

    def document(self, *, pairs: bool = False) -> Document:
        """The ``--report`` content: :meth:`report`'s tables under "Discriminative power"."""
        from ..report.sections_tasks import tables_document

        return tables_document("Discriminative power", self.family, self.report(pairs=pairs))

    def pair_records(self) -> list[dict[str, Any]]:
        """One row per test × metric × pair: the difference, its ASL, whether significant."""
        rows = []
        for t in self.tests:
            for m in self.metrics:
                asl, diffs = self.asl[(t, m)], self.diffs[m]
                for k, (a, b) in enumerate(self.pairs):
                    rows.append(
                        {
                            "test": t,
                            "metric": m,
                            "run_a": a,
                            "run_b": b,
                            "diff": float(diffs[k]),
                            "t": float(self.t_statistic[m][k]),
                            "asl": float(asl[k]),
                            "significant": bool(asl[k] < self.alpha),
                        }
                    )
        return rows


def discriminative_power(
    scores: Results | Mapping[str, Mapping[str, ArrayLike] | ArrayLike],
    *,
    test: DiscPowerTest | Sequence[DiscPowerTest] = ("bootstrap", "tukey"),
    alpha: float = 0.05,
    n_resamples: int = 1000,
    seed: int = 0,
) -> DiscriminativePower:
    """Discriminative power of every metric of ``scores`` (Sakai 2006, "Evaluating evaluation
    metrics based on the bootstrap", SIGIR; Sakai 2012, WWW; Carterette 2012, TOIS 30(1)).

    ``scores``: the :class:`~assay.results.Results` of :func:`assay.evaluate` (every run with
    a value for the same topics, e.g. ``missing="zero"``), or a mapping metric → (mapping run
    → per-topic values, or an (n_topics, n_runs) array). ``test``: "bootstrap" (Sakai's
    studentised paired bootstrap test), "tukey" (randomised Tukey HSD) or both. The same
    ``seed`` and ``n_resamples`` (default B = 1000, as Sakai) drive both tests. See the module
    documentation for the procedures and the edge cases.

    Parameters
    ----------
    scores : Results or mapping
        An evaluation, or ``{metric: {run: per-topic values}}`` (or ``{metric: array}`` of
        shape (n_topics, n_runs)).
    test : {"bootstrap", "tukey"} or a sequence of them
        ``bootstrap``, ``tukey`` or both.
    alpha : float
        The significance level.
    n_resamples : int
        The resamples B of both tests.
    seed : int
        The seed of both tests.

    Returns
    -------
    DiscriminativePower
        Per test and metric: the ASL of every pair, the power, the difference required;
        ``report()`` is the table ``assay meta discpower`` prints.

    Examples
    --------
    >>> from assay import meta
    >>> scores = {"P@5": {"a": [0.2, 0.4, 0.6, 0.8], "b": [0.6, 0.8, 1.0, 1.0],
    ...                   "c": [0.0, 0.2, 0.2, 0.4]}}
    >>> dp = meta.discriminative_power(scores, n_resamples=200)
    >>> dp.tests, len(dp.pairs), dp.power[("tukey", "P@5")]
    (('bootstrap', 'tukey'), 3, 0.3333333333333333)
    """
    where = "discriminative_power"
    tests = _tests(test, where)
    alpha = opt.alpha(alpha, where=where)
    n_resamples = opt.n_resamples(n_resamples, where=where)
    seed = opt.seed(seed, where=where)
    matrices = score_matrices(scores, where)
    runs = matrices[0].runs
    n = matrices[0].values.shape[0]
    for s in matrices[1:]:
        if s.runs != runs or s.values.shape[0] != n:
            raise InputError(f"{where}: every metric must cover the same runs and topics")
    i, j = pairs_of(len(runs))
    out: dict[str, dict[tuple[str, str], Any]] = {
        "asl": {},
        "power": {},
        "n_sig": {},
        "need": {},
        "not_sig": {},
    }
    diffs = {s.metric: s.values.mean(axis=0)[i] - s.values.mean(axis=0)[j] for s in matrices}
    t_stat = {s.metric: _t_observed(s.values[:, i] - s.values[:, j]) for s in matrices}
    for t in tests:
        for s in matrices:
            if t == "bootstrap":
                asl, need = _bootstrap(s.values, i, j, n_resamples, seed, alpha)
                not_sig = math.nan
            else:
                asl = _tukey(s, i, j, n_resamples, seed)
                need, not_sig = _tukey_bounds(np.abs(diffs[s.metric]), asl, alpha)
            key = (t, s.metric)
            out["asl"][key] = asl
            out["n_sig"][key] = int(np.count_nonzero(asl < alpha))
            out["power"][key] = out["n_sig"][key] / len(i) if len(i) else math.nan
            out["need"][key] = need
            out["not_sig"][key] = not_sig
    names = tuple(runs)
    return DiscriminativePower(
        metrics=tuple(s.metric for s in matrices),
        tests=tests,
        runs=names,
        pairs=tuple((names[a], names[b]) for a, b in zip(i, j, strict=True)),
        n_topics=n,
        alpha=alpha,
        diffs=diffs,
        t_statistic=t_stat,
        asl=out["asl"],
        power=out["power"],
        n_significant=out["n_sig"],
        diff_required=out["need"],
        diff_not_significant=out["not_sig"],
        provenance=provenance(
            tests=list(tests),
            alpha=alpha,
            n_resamples=n_resamples,
            seed=seed,
            n_topics=n,
            n_runs=len(runs),
            asl={"bootstrap": "count/B (Sakai 2006)", "tukey": "(count+1)/(B+1)"},
        ),
    )


def _tests(test: Any, where: str) -> tuple[str, ...]:
    items = [test] if isinstance(test, str) else list(test)
    if not items:
        raise OptionError(f"{where}: test must name at least one test", option="test")
    chosen = [opt.choice(t, DiscPowerTest, "test", where=where) for t in items]
    return tuple(dict.fromkeys(chosen))


# ----------------------------------------------------------------------------- bootstrap


def _index_blocks(seed: int, n: int, n_resamples: int, rows: int) -> Iterator[np.ndarray]:
    """Blocks of bootstrap topic indices; concatenated they are one
    ``default_rng(seed).integers(0, n, (n_resamples, n))`` draw (whatever ``rows`` is)."""
    rng = np.random.default_rng(seed)
    for start in range(0, n_resamples, rows):
        yield rng.integers(0, n, size=(min(rows, n_resamples - start), n))


def _studentised(mean: np.ndarray, ss: np.ndarray, n: int, tol: np.ndarray) -> np.ndarray:
    """|mean| / (σ̂/√n) with σ̂² = ss/(n − 1): ∞ when σ̂ = 0 and the mean is not, NaN when both.
    A mean or σ̂ within ``tol`` (the rounding error of sums of the column's values) is 0, so
    that differences constant up to rounding are constant."""
    sd = np.sqrt(ss / (n - 1))
    sd = np.where(sd <= tol, 0.0, sd)
    size = np.where(np.abs(mean) <= tol, 0.0, np.abs(mean))
    with np.errstate(divide="ignore", invalid="ignore"):
        return size / (sd / math.sqrt(n))


def _tolerance(z: np.ndarray) -> np.ndarray:
    """8·n·eps·max|z| per column: the worst rounding error of a sum of its values."""
    return cast(np.ndarray, 8.0 * z.shape[0] * _EPS * np.abs(z).max(axis=0))


def _t_observed(z: np.ndarray) -> np.ndarray:
    """|t(z)| of every column of per-topic differences z (n, P)."""
    zbar = z.mean(axis=0)
    return _studentised(zbar, ((z - zbar) ** 2).sum(axis=0), z.shape[0], _tolerance(z))


def _bootstrap(
    x: np.ndarray, i: np.ndarray, j: np.ndarray, n_resamples: int, seed: int, alpha: float
) -> tuple[np.ndarray, float]:
    """Sakai's ASL of every pair and the estimated difference required (see the module)."""
    n = x.shape[0]
    z = x[:, i] - x[:, j]  # (n, P)
    zbar = z.mean(axis=0)
    t_obs = _t_observed(z)
    tol = _tolerance(z)
    w = z - zbar
    asl = np.empty(z.shape[1])
    delta = np.empty(z.shape[1])
    rank = max(1, math.ceil(alpha * n_resamples))  # the ⌈αB⌉-th largest |t*|
    width = max(1, _BLOCK // max(n_resamples * n, 1))
    for lo in range(0, z.shape[1], width):
        cols = slice(lo, min(lo + width, z.shape[1]))
        t_star, m_star = _resampled(w[:, cols], tol[cols], n_resamples, seed)
        asl[cols] = _asl(t_star, t_obs[cols], n, n_resamples)
        delta[cols] = _threshold_means(t_star, m_star, rank)
    delta_max = float(np.nanmax(delta)) if np.isfinite(delta).any() else math.nan
    return asl, delta_max


def _resampled(
    w: np.ndarray, tol: np.ndarray, n_resamples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """(B, P) studentised statistics and means of the resamples of every column of ``w``.
    Sums are numpy reductions over gathered rows, so the bits do not depend on a BLAS."""
    n, p = w.shape
    rows = max(1, _BLOCK // max(n * p, 1))
    t_parts, m_parts = [], []
    for idx in _index_blocks(seed, n, n_resamples, rows):
        g = w[idx]  # (b, n, P)
        mean = g.sum(axis=1) / n
        ss = ((g - mean[:, None, :]) ** 2).sum(axis=1)
        t_parts.append(_studentised(mean, ss, n, tol))
        m_parts.append(mean)
    return np.concatenate(t_parts), np.concatenate(m_parts)


def _asl(t_star: np.ndarray, t_obs: np.ndarray, n: int, n_resamples: int) -> np.ndarray:
    tol = 8.0 * n * _EPS * np.where(np.isfinite(t_obs), t_obs, 0.0)
    with np.errstate(invalid="ignore"):
        reach = t_star >= (t_obs - tol)  # NaN t* never reaches; ∞ reaches ∞
    asl = np.count_nonzero(reach, axis=0) / n_resamples
    return np.where(np.isnan(t_obs), 1.0, asl)  # all differences zero: nothing to detect


def _threshold_means(t_star: np.ndarray, m_star: np.ndarray, rank: int) -> np.ndarray:
    """|mean| of the first resample whose |t*| is the ``rank``-th largest, per column."""
    ranked = np.where(np.isnan(t_star), -np.inf, t_star)
    b = ranked.shape[0]
    threshold = np.partition(ranked, b - rank, axis=0)[b - rank]
    first = np.argmax(ranked == threshold, axis=0)
    out = np.abs(m_star[first, np.arange(ranked.shape[1])])
    return np.where(np.isneginf(threshold), np.nan, out)


# ----------------------------------------------------------------------------- Tukey HSD


def _tukey(s: ScoreMatrix, i: np.ndarray, j: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    from ..stats import tukey_hsd

    res = tukey_hsd(s.values, n_resamples=n_resamples, seed=seed, names=list(s.runs))
    return cast(np.ndarray, np.asarray(res.pvalues, dtype=np.float64)[i, j])


def _tukey_bounds(abs_diff: np.ndarray, asl: np.ndarray, alpha: float) -> tuple[float, float]:
    sig = asl < alpha
    need = float(abs_diff[sig].min()) if sig.any() else math.nan
    not_sig = float(abs_diff[~sig].max()) if (~sig).any() else math.nan
    return need, not_sig
