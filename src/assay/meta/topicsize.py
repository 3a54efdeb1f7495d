"""Topic-set size design (Sakai 2016, "Topic set size design", Information Retrieval 19(3)).

How many topics a test collection needs so that a test has power 1 − β to detect a
difference of ``min_diff`` between systems at significance level α, and what power the
current topic set has. The variance comes from existing runs: σ̂² is the residual variance
V_E of a two-way ANOVA without replication on the topic × run matrix (Sakai's within-system
variance estimate),

    V_E = Σ_ij (x_ij − x̄_i· − x̄_·j + x̄)² / ((n − 1)(m − 1)).

- Paired t-test: the variance of a difference is σ̂_t² = 2σ̂², the minimum detectable effect
  size Δ_t = min_diff / σ̂_t; with n topics (φ = n − 1 degrees of freedom) and the
  noncentrality λ = √n·Δ_t, the power of the two-sided test is
  P(t'(φ, λ) ≥ t_{α/2}(φ)) + P(t'(φ, λ) ≤ −t_{α/2}(φ)).
- One-way ANOVA over m systems (the worst case in which two systems differ by min_diff and
  the others sit at the grand mean): Δ = min_diff² / (2σ̂²), λ = nΔ, φ_A = m − 1,
  φ_E = m(n − 1), power P(F'(φ_A, φ_E, λ) ≥ F_α(φ_A, φ_E)).

The required n is the smallest n ≥ 2 whose power reaches 1 − β (the iteration of Sakai's
Excel tools, which start from Nagata's approximate n and step until the power is reached).
``power_method="exact"`` (default) computes the power with scipy's noncentral t and F
distributions; ``"normal"`` with the normal approximations of Sakai's tools (Nagata 2003):
for t, Φ-terms in (w(1 − 1/(4φ)) ∓ λ)/√(1 + w²/(2φ)); for F, Fisher's √(2χ²)
approximation of Patnaik's scaled χ² (c_A = (φ_A + 2λ)/(φ_A + λ), φ_A* = (φ_A + λ)²/(φ_A + 2λ)).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from .._result import Result, provenance
from ..errors import InputError, OptionError
from ..report.reported import Reported
from ..results import Results
from ..stats.anova import anova_two_way
from ._scores import score_matrices
from .options import PowerMethod

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = [
    "PowerMethod",
    "TopicSetSize",
    "anova_power",
    "residual_variance",
    "topic_set_size",
    "ttest_power",
]


#: Largest topic set size searched; beyond it the requirement is reported as unreachable.
_MAX_TOPICS = 10_000_000
#: Largest count of topics or systems taken: SciPy's distributions need them as machine
#: numbers (a 23-digit count was a TypeError), and no study has a billion of either.
_MAX_COUNT = 1_000_000_000


def residual_variance(scores: ArrayLike) -> float:
    """V_E of a two-way ANOVA without replication on a topic × system matrix (n ≥ 2, m ≥ 2):
    Sakai's estimate σ̂² of the within-system variance (Sakai 2016).

    V_E = Σ_ij (x_ij − x̄_i· − x̄_·j + x̄)² / ((n − 1)(m − 1)).

    Parameters
    ----------
    scores : array_like, shape (n_topics, n_systems)
        Per-topic scores of every system (finite).

    Returns
    -------
    float
        The residual variance V_E.

    Examples
    --------
    >>> from assay import meta
    >>> meta.residual_variance([[0.2, 0.6, 0.0], [0.4, 0.8, 0.2], [0.6, 1.0, 0.2],
    ...                         [0.8, 1.0, 0.4]])
    0.005555555555555556
    """
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise InputError(
            f"residual_variance: needs an (n_topics, n_systems) matrix with n, m >= 2, got shape {x.shape}"
        )
    if not np.isfinite(x).all():
        raise InputError("residual_variance: scores must be finite")
    # One definition of V_E: the ANOVA's (assay.meta.anova reports the same figure).
    return anova_two_way(x).residual_variance


def ttest_power(
    n: int,
    min_diff: float,
    variance: float,
    *,
    alpha: float = 0.05,
    power_method: PowerMethod = "exact",
) -> float:
    """Power of the two-sided paired t-test with ``n`` topics to detect ``min_diff`` when the
    per-system variance is ``variance`` (σ̂_t² = 2·variance; Sakai 2016).

    With Δ_t = min_diff / √(2·variance), φ = n − 1 and λ = √n·Δ_t, the power is
    P(t'(φ, λ) ≥ t_{α/2}(φ)) + P(t'(φ, λ) ≤ −t_{α/2}(φ)).

    Parameters
    ----------
    n : int
        The number of topics (at least 2).
    min_diff : float
        The minimum detectable difference (> 0).
    variance : float
        The within-system variance σ̂² (> 0), e.g. :func:`residual_variance`.
    alpha : float
        The significance level.
    power_method : {"exact", "normal"}
        Noncentral t, or the normal approximation of Sakai's Excel tools (Nagata 2003).

    Returns
    -------
    float
        The power, in [0, 1].

    Examples
    --------
    >>> from assay import meta
    >>> round(meta.ttest_power(50, 0.1, 0.05), 4)
    0.5918
    """
    where = "ttest_power"
    n = opt.integer(n, "n", minimum=2, maximum=_MAX_COUNT, where=where)
    alpha = opt.alpha(alpha, where=where)
    power_method = opt.choice(power_method, PowerMethod, "power_method", where=where)
    effect = _effect_t(min_diff, variance, where)
    return _t_power(n, effect, alpha, power_method)


def anova_power(
    n: int,
    min_diff: float,
    variance: float,
    *,
    n_systems: int = 2,
    alpha: float = 0.05,
    power_method: PowerMethod = "exact",
) -> float:
    """Power of one-way ANOVA over ``n_systems`` systems with ``n`` topics each to detect a
    range ``min_diff`` between the best and the worst system (Sakai 2016).

    With Δ = min_diff² / (2·variance), λ = nΔ, φ_A = m − 1 and φ_E = m(n − 1), the power is
    P(F'(φ_A, φ_E, λ) ≥ F_α(φ_A, φ_E)).

    Parameters
    ----------
    n : int
        The number of topics (at least 2).
    min_diff : float
        The minimum detectable range (> 0).
    variance : float
        The within-system variance σ̂² (> 0), e.g. :func:`residual_variance`.
    n_systems : int
        The systems compared m (at least 2).
    alpha : float
        The significance level.
    power_method : {"exact", "normal"}
        Noncentral F, or the normal approximation of Sakai's Excel tools (Nagata 2003).

    Returns
    -------
    float
        The power, in [0, 1].

    Examples
    --------
    >>> from assay import meta
    >>> round(meta.anova_power(50, 0.1, 0.05, n_systems=3), 4)
    0.4951
    """
    where = "anova_power"
    n = opt.integer(n, "n", minimum=2, maximum=_MAX_COUNT, where=where)
    m = opt.integer(n_systems, "n_systems", minimum=2, maximum=_MAX_COUNT, where=where)
    alpha = opt.alpha(alpha, where=where)
    power_method = opt.choice(power_method, PowerMethod, "power_method", where=where)
    delta = _effect_anova(min_diff, variance, where)
    return _f_power(n, m, delta, alpha, power_method)


def _effect_t(min_diff: float, variance: float, where: str) -> float:
    d = opt.number(min_diff, "min_diff", low=0, low_open=True, where=where)
    v = opt.number(variance, "variance", low=0, low_open=True, where=where)
    return d / math.sqrt(2.0 * v)


def _effect_anova(min_diff: float, variance: float, where: str) -> float:
    d = opt.number(min_diff, "min_diff", low=0, low_open=True, where=where)
    v = opt.number(variance, "variance", low=0, low_open=True, where=where)
    return d * d / (2.0 * v)


def _t_power(n: int, effect: float, alpha: float, method: str) -> float:
    from scipy import stats

    phi = n - 1
    lam = math.sqrt(n) * effect
    w = float(stats.t.isf(alpha / 2, phi))
    if method == "exact":
        return float(stats.nct.sf(w, phi, lam) + stats.nct.cdf(-w, phi, lam))
    scale = math.sqrt(1.0 + w * w / (2.0 * phi))
    shrink = 1.0 - 1.0 / (4.0 * phi)
    upper = stats.norm.sf((w * shrink - lam) / scale)
    lower = stats.norm.cdf((-w * shrink - lam) / scale)
    return float(upper + lower)


def _f_power(n: int, m: int, delta: float, alpha: float, method: str) -> float:
    from scipy import stats

    phi_a, phi_e = m - 1, m * (n - 1)
    lam = n * delta
    w = float(stats.f.isf(alpha, phi_a, phi_e))
    if method == "exact":
        return float(stats.ncf.sf(w, phi_a, phi_e, lam))
    c_a = (phi_a + 2.0 * lam) / (phi_a + lam)
    phi_star = (phi_a + lam) ** 2 / (phi_a + 2.0 * lam)
    num = math.sqrt(w / phi_e) * math.sqrt(2.0 * phi_e - 1.0) - math.sqrt(c_a / phi_a) * math.sqrt(
        2.0 * phi_star - 1.0
    )
    return float(stats.norm.sf(num / math.sqrt(c_a / phi_a + w / phi_e)))


def _smallest_n(power: Callable[[int], float], target: float) -> int | None:
    """The smallest n ≥ 2 with power(n) ≥ target (power grows with n), None past the cap."""
    if power(2) >= target:
        return 2
    hi = 4
    while power(hi) < target:
        if hi >= _MAX_TOPICS:
            return None
        hi = min(hi * 2, _MAX_TOPICS)
    lo = hi // 2  # power(lo) < target
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if power(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


@dataclass(frozen=True, eq=False, repr=False)
class TopicSetSize(Result, Reported):
    """Topic-set size design for every metric × minimum detectable difference (Sakai 2016).

    Made by :func:`topic_set_size`; ``records()`` returns the rows, :meth:`row` one of them.

    Parameters
    ----------
    rows : tuple of mapping
        One mapping per metric × ``min_diff`` with ``variance`` (σ̂² = V_E), ``n_topics`` and
        ``n_systems`` of the data it came from, ``effect_t`` (Δ_t), ``n_ttest`` (topics
        required by the paired t-test; None if beyond 10⁷), ``power_ttest`` (power of the
        current topic set), ``n_anova``, ``power_anova`` (one-way ANOVA over
        ``n_systems_anova`` systems).
    alpha, beta : float
        Type I and type II error rates.
    power_method : str
        ``exact`` or ``normal``.
    provenance : mapping
        Alpha, beta, the minimum differences, the power method and the systems count.

    Examples
    --------
    >>> from assay import meta
    >>> ts = meta.topic_set_size(0.05, min_diff=[0.1, 0.2], n_topics=50)
    >>> ts.row("", 0.2)["n_ttest"], len(ts.records())
    (22, 2)
    """

    family = "meta"

    rows: tuple[Mapping[str, Any], ...]  # Any: str, float, int or None per column
    alpha: float
    beta: float
    power_method: str
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    def records(self) -> list[dict[str, Any]]:
        """The rows, as dicts (one per metric × minimum difference)."""
        return [dict(r) for r in self.rows]

    def report(self) -> Report:
        """The table ``assay meta`` prints and the records."""
        from .report import topicsize_report

        return topicsize_report(self)

    def document(self) -> Document:
        """The ``--report`` content: :meth:`report`'s tables under "Topic set size"."""
        from ..report.sections_tasks import tables_document

        return tables_document("Topic set size", self.family, self.report())

    def row(self, metric: str, min_diff: float) -> Mapping[str, Any]:
        """The row of one metric and minimum difference.

        Parameters
        ----------
        metric : str
            The metric ("" for a bare variance).
        min_diff : float
            One of the minimum differences asked for.

        Returns
        -------
        mapping
            The row (see :attr:`rows`); a :class:`KeyError` if there is none.

        Examples
        --------
        >>> from assay import meta
        >>> meta.topic_set_size(0.05, min_diff=0.1).row("", 0.1)["n_ttest"]
        81
        """
        for r in self.rows:
            if r["metric"] == metric and math.isclose(r["min_diff"], min_diff):
                return r
        raise KeyError(f"no row for metric {metric!r} and min_diff {min_diff}")


def topic_set_size(
    scores: Results | Mapping[str, Mapping[str, ArrayLike] | ArrayLike] | float,
    *,
    min_diff: float | Sequence[float] = 0.1,
    alpha: float = 0.05,
    beta: float = 0.2,
    n_systems: int | None = None,
    n_topics: int | None = None,
    power_method: PowerMethod = "exact",
) -> TopicSetSize:
    """Topics needed by the paired t-test and by one-way ANOVA to detect ``min_diff`` with
    power 1 − ``beta`` at level ``alpha`` (Sakai 2016), and the power of the current topic set.

    ``scores``: :func:`assay.evaluate`'s Results or a mapping metric → topic × run matrix
    (σ̂² is each metric's V_E), or a variance σ̂² itself (then ``n_topics`` gives the current
    topic set size for the power columns). ``n_systems``: systems compared by the ANOVA
    (default: the number of runs, 2 for a bare variance). ``min_diff``: one value or several.
    ``power_method``: "exact" (noncentral t and F) or "normal" (Nagata's approximations, as
    Sakai's Excel tools). See the module documentation for the formulas.

    Parameters
    ----------
    scores : Results, mapping or float
        An evaluation, ``{metric: topic x run matrix}`` (or ``{metric: {run: per-topic
        values}}``), or a variance estimate.
    min_diff : float or sequence of float
        The minimum detectable difference(s).
    alpha, beta : float
        Type I and type II error rates (power 1 − beta).
    n_systems : int, optional
        Systems compared by the ANOVA (default: the number of runs, 2 for a variance).
    n_topics : int, optional
        The current topic set size (with a bare variance; default: the data's topics).
    power_method : {"exact", "normal"}
        ``exact`` or ``normal``.

    Returns
    -------
    TopicSetSize
        One row per metric and minimum difference; ``report()`` is the table
        ``assay meta topicsize`` prints.

    Examples
    --------
    >>> from assay import meta
    >>> row = meta.topic_set_size(0.05, min_diff=0.1, n_topics=50).records()[0]
    >>> row["n_ttest"], row["n_anova"], round(row["power_ttest"], 3)
    (81, 80, 0.592)
    """
    where = "topic_set_size"
    alpha = opt.alpha(alpha, where=where)
    beta = opt.number(beta, "beta", low=0, high=1, low_open=True, high_open=True, where=where)
    power_method = opt.choice(power_method, PowerMethod, "power_method", where=where)
    diffs = [min_diff] if isinstance(min_diff, int | float) else list(min_diff)
    if not diffs:
        raise OptionError(f"{where}: min_diff must give at least one value", option="min_diff")
    diffs = [opt.number(d, "min_diff", low=0, low_open=True, where=where) for d in diffs]
    if n_systems is not None:
        n_systems = opt.integer(n_systems, "n_systems", minimum=2, maximum=_MAX_COUNT, where=where)
    if n_topics is not None:
        n_topics = opt.integer(n_topics, "n_topics", minimum=2, maximum=_MAX_COUNT, where=where)
    sources = _variances(scores, n_topics, where)
    rows = []
    for metric, variance, n_now, m_now in sources:
        m = n_systems if n_systems is not None else max(2, m_now or 2)
        for d in diffs:
            rows.append(_row(metric, variance, n_now, m_now, m, d, alpha, beta, power_method))
    return TopicSetSize(
        rows=tuple(rows),
        alpha=alpha,
        beta=beta,
        power_method=power_method,
        provenance=provenance(
            alpha=alpha,
            beta=beta,
            min_diff=diffs,
            n_systems=n_systems,
            power_method=power_method,
            variance="residual variance V_E of two-way ANOVA without replication",
        ),
    )


def _variances(
    scores: Any, n_topics: int | None, where: str
) -> list[tuple[str, float, int | None, int | None]]:
    """(metric, σ̂², current topics, runs) for every metric of ``scores``."""
    if isinstance(scores, int | float) and not isinstance(scores, bool):
        v = opt.number(scores, "variance", low=0, low_open=True, where=where)
        return [("", v, n_topics, None)]
    out = []
    for s in score_matrices(scores, where):
        n, m = s.values.shape
        v = residual_variance(s.values)
        if v <= 0:
            raise InputError(f"{where}: {s.metric}: the residual variance is 0 (no variation)")
        out.append((s.metric, v, n if n_topics is None else n_topics, m))
    return out


def _row(
    metric: str,
    variance: float,
    n_now: int | None,
    m_now: int | None,
    m: int,
    d: float,
    alpha: float,
    beta: float,
    method: str,
) -> dict[str, Any]:
    effect = d / math.sqrt(2.0 * variance)
    delta = d * d / (2.0 * variance)
    target = 1.0 - beta
    return {
        "metric": metric,
        "min_diff": d,
        "variance": variance,
        "n_topics": n_now,
        "n_systems": m_now,
        "effect_t": effect,
        "n_ttest": _smallest_n(lambda n: _t_power(n, effect, alpha, method), target),
        "power_ttest": None if n_now is None else _t_power(n_now, effect, alpha, method),
        "n_systems_anova": m,
        "n_anova": _smallest_n(lambda n: _f_power(n, m, delta, alpha, method), target),
        "power_anova": None if n_now is None else _f_power(n_now, m, delta, alpha, method),
    }
