"""Two-way ANOVA without replication over a topic × system matrix (Sakai, "Laboratory
Experiments in Information Retrieval", Springer 2018, ch. 3 and 5).

With n topics (rows), m systems (columns), x̄_i· the mean of system i, x̄_·j the mean of topic
j and x̄ the grand mean:

- S_A = n Σ_i (x̄_i· − x̄)² (systems, φ_A = m − 1), S_B = m Σ_j (x̄_·j − x̄)² (topics,
  φ_B = n − 1), S_E = Σ_ij (x_ij − x̄_i· − x̄_·j + x̄)² (residual, φ_E = (m − 1)(n − 1));
- V = S/φ, F_A = V_A/V_E and F_B = V_B/V_E with upper-tail p-values of F(φ, φ_E);
- the system means' intervals x̄_i· ± MOE with MOE = t_{α/2}(φ_E)·√(V_E/n), the same width
  for every system (Sakai's Eq. for the two-way ANOVA; elinor's ``margin_of_error``);
- pairwise effect sizes of system i over system j: Sakai's ES_E = (x̄_i· − x̄_j·)/√V_E (the
  effect size he reports beside Tukey HSD), Hedges' g = (x̄_i· − x̄_j·)/√((s_i² + s_j²)/2)
  (the pooled variance of the two systems' per-topic scores, n − 1 in each variance, no
  small-sample correction) and Glass's Δ = (x̄_i· − x̄_j·)/s_j (the standard deviation of
  the baseline j only).

Conventions where the sources are silent: when V_E is 0 (every score is a system effect plus a
topic effect), an F with a non-zero numerator is +inf with p 0 and a zero numerator gives F
and p NaN; the effect sizes then follow the same 0/0 → NaN, x/0 → ±inf rule. Values within
rounding of zero ((64·eps·max|x|)² per cell) count as zero, so a
constant shift never turns an exact 0 into a tiny positive variance.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._result import Result, provenance
from ..errors import InputError
from . import _checks as check
from .result import _without_header

__all__ = ["AnovaResult", "anova_two_way"]

_EPS = float(np.finfo(np.float64).eps)


@dataclass(frozen=True, eq=False, repr=False)
class AnovaResult(Result):
    """Result of :func:`anova_two_way`: the ANOVA table, the system means with their
    intervals and the pairwise effect sizes.

    Parameters
    ----------
    systems : tuple of str
        The m system names, in column order.
    n_topics : int
        The topics n (rows).
    system_means, topic_means : numpy.ndarray
        x̄_i· (m,) and x̄_·j (n,).
    ss, df, ms : mapping of str to float
        Sums of squares, degrees of freedom and mean squares of ``"systems"``, ``"topics"``,
        ``"residual"`` (and ``"total"`` for ss and df).
    f, p : mapping of str to float
        F statistic and its p-value for ``"systems"`` and ``"topics"``.
    confidence : float
        The level of the intervals.
    moe : float
        The margin of error t_{α/2}(φ_E)·√(V_E/n) of every system mean.
    effect_residual, hedges_g, glass_delta : numpy.ndarray
        (m, m) effect sizes of row system i over column system j (see the module).
    provenance : mapping of str to any, optional
        Versions, confidence, n_topics, n_systems.

    Examples
    --------
    >>> from assay.stats import anova_two_way
    >>> res = anova_two_way({"a": [0.2, 0.4, 0.6, 0.8], "b": [0.6, 0.8, 1.0, 1.0],
    ...                      "c": [0.0, 0.2, 0.2, 0.4]})
    >>> round(res.residual_variance, 6), round(res.f["systems"], 2)
    (0.005556, 76.2)
    >>> [r["source"] for r in res.records()]
    ['systems', 'topics', 'residual', 'total']
    """

    systems: tuple[str, ...]
    n_topics: int
    system_means: NDArray[np.float64]
    topic_means: NDArray[np.float64]
    ss: Mapping[str, float]
    df: Mapping[str, int]
    ms: Mapping[str, float]
    f: Mapping[str, float]
    p: Mapping[str, float]
    confidence: float
    moe: float
    effect_residual: NDArray[np.float64]
    hedges_g: NDArray[np.float64]
    glass_delta: NDArray[np.float64]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def details(self) -> dict[str, Any]:
        """The options and counts: ``provenance`` without the version header."""
        return _without_header(self.provenance)

    @property
    def residual_variance(self) -> float:
        """V_E, the residual mean square (Sakai's within-system variance estimate)."""
        return float(self.ms["residual"])

    @property
    def ci_low(self) -> NDArray[np.float64]:
        """x̄_i· − MOE for every system."""
        return np.asarray(self.system_means - self.moe, dtype=np.float64)

    @property
    def ci_high(self) -> NDArray[np.float64]:
        """x̄_i· + MOE for every system."""
        return np.asarray(self.system_means + self.moe, dtype=np.float64)

    def records(self) -> list[dict[str, Any]]:
        """The ANOVA table: one row per source (systems, topics, residual, total) with ss, df,
        ms, f and p (None where the table has no entry)."""
        rows = []
        for source in ("systems", "topics", "residual", "total"):
            rows.append(
                {
                    "source": source,
                    "ss": float(self.ss[source]),
                    "df": int(self.df[source]),
                    "ms": float(self.ms[source]) if source in self.ms else None,
                    "f": float(self.f[source]) if source in self.f else None,
                    "p": float(self.p[source]) if source in self.p else None,
                }
            )
        return rows


def anova_two_way(
    scores: ArrayLike | Mapping[str, ArrayLike],
    *,
    confidence: float = 0.95,
    names: Sequence[str] | None = None,
) -> AnovaResult:
    """Two-way ANOVA without replication of systems × topics (Sakai 2018, ch. 3): the table,
    the residual variance V_E, the system means with t-based margins of error and the
    pairwise effect sizes. The formulas and the V_E = 0 convention are in the module's
    documentation.

    Parameters
    ----------
    scores : array_like or mapping of str to array_like
        An (n_topics, n_systems) matrix, one column per system, or a mapping system name →
        per-topic scores (equal lengths); n ≥ 2 topics and m ≥ 2 systems, finite.
    confidence : float, default 0.95
        Level of the system means' intervals.
    names : sequence of str, optional
        The system names of a matrix's columns (default "0", "1", ...); not with a mapping.

    Returns
    -------
    AnovaResult
        The table (``ss``, ``df``, ``ms``, ``f``, ``p``), ``residual_variance``, the means
        with ``moe``, ``ci_low`` and ``ci_high``, and the (m, m) effect-size matrices.

    Examples
    --------
    Sakai's Table 5.1 (the first 5 of its 20 topics here):

    >>> from assay.stats import anova_two_way
    >>> res = anova_two_way([[0.7, 0.5, 0.0], [0.3, 0.1, 0.0], [0.2, 0.0, 0.2],
    ...                      [0.6, 0.2, 0.1], [0.4, 0.4, 0.3]], names=["A", "B", "C"])
    >>> res.df["systems"], res.df["residual"], round(res.moe, 4)
    (2, 8, 0.1705)
    >>> print(f"F={res.f['systems']:.4f} p={res.p['systems']:.4f}")
    F=4.7805 p=0.0431
    """
    from scipy import stats as sps

    where = "anova_two_way"
    level = check.confidence(confidence, where)
    x, labels = _matrix(scores, names, where)
    n, m = x.shape
    grand = x.mean()
    sys_means = x.mean(axis=0)
    top_means = x.mean(axis=1)
    resid = x - sys_means[None, :] - top_means[:, None] + grand
    zero = n * m * (64.0 * _EPS * float(np.abs(x).max())) ** 2
    ss = {
        "systems": _snap(n * float(((sys_means - grand) ** 2).sum()), zero),
        "topics": _snap(m * float(((top_means - grand) ** 2).sum()), zero),
        "residual": _snap(float((resid**2).sum()), zero),
        "total": _snap(float(((x - grand) ** 2).sum()), zero),
    }
    df = {"systems": m - 1, "topics": n - 1, "residual": (m - 1) * (n - 1), "total": n * m - 1}
    ms = {k: ss[k] / df[k] for k in ("systems", "topics", "residual")}
    f: dict[str, float] = {}
    p: dict[str, float] = {}
    for k in ("systems", "topics"):
        f[k] = _ratio(ms[k], ms["residual"])
        p[k] = _f_pvalue(f[k], df[k], df["residual"], sps)
    t = float(sps.t.ppf(0.5 + level / 2.0, df["residual"]))
    moe = t * math.sqrt(ms["residual"] / n)
    diff = sys_means[:, None] - sys_means[None, :]
    sd = x.std(axis=0, ddof=1)
    sd = np.where(sd**2 * (n - 1) <= zero, 0.0, sd)
    effect_residual = _divide(diff, np.full_like(diff, math.sqrt(ms["residual"])))
    hedges = _divide(diff, np.sqrt((sd[:, None] ** 2 + sd[None, :] ** 2) / 2.0))
    glass = _divide(diff, np.broadcast_to(sd[None, :], diff.shape))
    return AnovaResult(
        systems=tuple(labels),
        n_topics=n,
        system_means=sys_means,
        topic_means=top_means,
        ss=ss,
        df=df,
        ms=ms,
        f=f,
        p=p,
        confidence=level,
        moe=moe,
        effect_residual=effect_residual,
        hedges_g=hedges,
        glass_delta=glass,
        provenance=provenance(confidence=level, n_topics=n, n_systems=m),
    )


def _matrix(
    scores: ArrayLike | Mapping[str, ArrayLike], names: Sequence[str] | None, where: str
) -> tuple[NDArray[np.float64], list[str]]:
    """The (n_topics, n_systems) matrix, at least 2 × 2, and the distinct system names."""
    if isinstance(scores, Mapping):
        if names is not None:
            raise InputError(f"{where}: names are taken from the mapping's keys; do not pass names")
        labels = [str(key) for key in scores]
        columns = [check.vector(v, f"scores[{key!r}]", where) for key, v in scores.items()]
        if len({c.shape[0] for c in columns}) > 1:
            lengths = ", ".join(f"{k}={c.shape[0]}" for k, c in zip(labels, columns, strict=True))
            raise InputError(
                f"{where}: every system needs one score per topic (lengths: {lengths})"
            )
        x = np.column_stack(columns) if columns else np.zeros((0, 0))
    else:
        x = check.matrix(scores, "scores", where)
        labels = [str(i) for i in range(x.shape[1])] if names is None else [str(s) for s in names]
        if len(labels) != x.shape[1]:
            raise InputError(
                f"{where}: {len(labels)} names for {x.shape[1]} systems (columns of scores)"
            )
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise InputError(
            f"{where}: needs at least 2 topics (rows) and 2 systems (columns), got shape "
            f"{tuple(x.shape)}"
        )
    if len(set(labels)) != len(labels):
        raise InputError(f"{where}: system names must be distinct (got {labels})")
    return np.asarray(x, dtype=np.float64), labels


def _snap(value: float, zero: float) -> float:
    """A sum of squares within rounding of 0 is 0."""
    return 0.0 if value <= zero else value


def _ratio(num: float, den: float) -> float:
    if den > 0:
        return num / den
    return math.inf if num > 0 else math.nan


def _f_pvalue(f: float, df1: int, df2: int, sps: Any) -> float:  # Any: scipy.stats
    if math.isnan(f):
        return math.nan
    if math.isinf(f):
        return 0.0
    return float(sps.f.sf(f, df1, df2))


def _divide(num: NDArray[np.float64], den: NDArray[np.float64]) -> NDArray[np.float64]:
    """num / den elementwise with 0/0 → NaN, x/0 → ±inf, and an exact 0 on the diagonal."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.sign(num) * np.inf)
    out = np.where((den <= 0) & (num == 0), np.nan, out)
    np.fill_diagonal(out, 0.0)
    return np.asarray(out, dtype=np.float64)
