"""Replicability analysis across datasets (Dror, Baumer, Bogomolov & Reichart 2017,
"Replicability Analysis for Natural Language Processing: Testing Significance with Multiple
Datasets", TACL 5): on how many of N datasets does one algorithm beat another?

Given one p-value per dataset (of the same comparison), sorted p_(1) ≤ … ≤ p_(N), the partial
conjunction null "the effect holds in fewer than u datasets" is tested with

- Bonferroni (valid for any dependence between datasets): p^(u/N) = min(1, (N − u + 1)·p_(u));
- Fisher (independent datasets): p^(u/N) = P(χ²_{2(N−u+1)} ≥ −2 Σ_{i ≥ u} ln p_(i)).

The count estimate k̂ is the number of u whose monotone p-value max_{v ≤ u} p^(v/N) is at most
α (the authors' code takes the running maximum so that the rejections are nested: rejecting
"fewer than u" implies rejecting every smaller u). The datasets where the effect is declared
to hold are those Holm's procedure rejects at α, i.e. the k̂_Bonferroni smallest p-values
(the authors identify with Holm under either combination, so a Fisher count can exceed the
datasets named). A p-value of 0 gives Fisher's statistic +inf and p^(u/N) = 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import _options as opt
from .._options import Combination
from .._result import Result, provenance
from ..errors import InputError
from .result import _without_header

__all__ = ["ReplicabilityResult", "partial_conjunction", "replicability"]


@dataclass(frozen=True, eq=False, repr=False)
class ReplicabilityResult(Result):
    """Result of :func:`replicability`.

    Parameters
    ----------
    datasets : tuple of str
        The N dataset names, in input order.
    pvalues : numpy.ndarray
        The N per-dataset p-values, in input order.
    method : {"bonferroni", "fisher"}
        How the partial conjunction combines them.
    alpha : float
        The significance level.
    partial : numpy.ndarray
        p^(u/N) for u = 1..N.
    adjusted : numpy.ndarray
        The running maximum of ``partial`` (what is compared with alpha).
    count : int
        k̂: the number of u with ``adjusted`` ≤ alpha.
    identified : tuple of str
        The datasets Holm's procedure rejects at alpha (smallest p-value first).
    provenance : mapping of str to any, optional
        Versions, method, alpha, n_datasets.

    Examples
    --------
    >>> from assay.stats import replicability
    >>> res = replicability([0.01, 0.2, 0.03], method="bonferroni")
    >>> res.count, res.identified
    (1, ('0',))
    >>> [r["u"] for r in res.records()]
    [1, 2, 3]
    """

    datasets: tuple[str, ...]
    pvalues: NDArray[np.float64]
    method: str
    alpha: float
    partial: NDArray[np.float64]
    adjusted: NDArray[np.float64]
    count: int
    identified: tuple[str, ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def details(self) -> dict[str, Any]:
        """The options and counts: ``provenance`` without the version header."""
        return _without_header(self.provenance)

    def records(self) -> list[dict[str, Any]]:
        """One row per u = 1..N: u, the u-th smallest p-value, p^(u/N), its running maximum
        and whether "the effect holds in at least u datasets" is accepted (adjusted ≤ alpha)."""
        ordered = np.sort(self.pvalues)
        return [
            {
                "u": u + 1,
                "p_sorted": float(ordered[u]),
                "p_partial": float(self.partial[u]),
                "p_adjusted": float(self.adjusted[u]),
                "holds": bool(self.adjusted[u] <= self.alpha),
            }
            for u in range(self.pvalues.shape[0])
        ]


def partial_conjunction(
    pvalues: ArrayLike, *, method: Combination = "bonferroni"
) -> NDArray[np.float64]:
    """The partial conjunction p-values p^(u/N), u = 1..N, of N per-dataset p-values (Dror et
    al. 2017, section 4; the formulas are in the module's documentation).

    Parameters
    ----------
    pvalues : array_like
        One p-value per dataset, each in [0, 1].
    method : {"bonferroni", "fisher"}, default "bonferroni"
        ``bonferroni`` (any dependence between datasets) or ``fisher`` (independent datasets).

    Returns
    -------
    numpy.ndarray
        p^(u/N) for u = 1..N (not made monotone; :func:`replicability` does).

    Examples
    --------
    >>> from assay.stats import partial_conjunction
    >>> partial_conjunction([0.04, 0.01, 0.3]).round(4).tolist()
    [0.03, 0.08, 0.3]
    >>> partial_conjunction([0.04, 0.01, 0.3], method="fisher").round(4).tolist()
    [0.0061, 0.0651, 0.3]
    """
    where = "partial_conjunction"
    method = opt.choice(method, Combination, "method", ignore_case=True, where=where)
    p = np.sort(_pvalues(pvalues, where))
    n = p.shape[0]
    remaining = n - np.arange(n, dtype=np.float64)  # N − u + 1 for u = 1..N
    if method == "bonferroni":
        return np.asarray(np.minimum(1.0, remaining * p), dtype=np.float64)
    from scipy import stats as sps

    with np.errstate(divide="ignore"):
        logs = -2.0 * np.log(p)
    # Σ_{i ≥ u} −2 ln p_(i): the sums of the N − u + 1 largest p-values' terms.
    tails = np.cumsum(logs[::-1])[::-1]
    infinite = np.isinf(tails)  # a p-value of 0 among them: the combined p-value is 0
    out = np.where(infinite, 0.0, sps.chi2.sf(np.where(infinite, 0.0, tails), 2 * remaining))
    return np.asarray(out, dtype=np.float64)


def replicability(
    pvalues: ArrayLike,
    *,
    alpha: float = 0.05,
    method: Combination = "bonferroni",
    names: Sequence[str] | None = None,
) -> ReplicabilityResult:
    """Count and identify the datasets where an effect holds (Dror et al. 2017): k̂ from the
    monotone partial conjunction p-values, the datasets from Holm's procedure. See the
    module's documentation.

    Parameters
    ----------
    pvalues : array_like
        One p-value per dataset (the same comparison on every dataset), each in [0, 1].
    alpha : float, default 0.05
        The significance level.
    method : {"bonferroni", "fisher"}, default "bonferroni"
        How the partial conjunction combines the p-values.
    names : sequence of str, optional
        The dataset names (default "0", "1", ...).

    Returns
    -------
    ReplicabilityResult
        ``count`` (k̂), ``identified`` (the datasets), ``partial`` and ``adjusted``.

    Examples
    --------
    The example of the authors' code (six datasets, α = 0.05):

    >>> from assay.stats import replicability
    >>> p = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]
    >>> replicability(p).count, replicability(p, method="fisher").count
    (1, 2)
    >>> replicability(p, names=["d1", "d2", "d3", "d4", "d5", "d6"]).identified
    ('d6',)
    """
    from .corrections import correct

    where = "replicability"
    level = opt.alpha(alpha, where=where)
    method = opt.choice(method, Combination, "method", ignore_case=True, where=where)
    p = _pvalues(pvalues, where)
    labels = [str(i) for i in range(p.shape[0])] if names is None else [str(s) for s in names]
    if len(labels) != p.shape[0]:
        raise InputError(f"{where}: {len(labels)} names for {p.shape[0]} p-values")
    if len(set(labels)) != len(labels):
        raise InputError(f"{where}: dataset names must be distinct (got {labels})")
    partial = partial_conjunction(p, method=method)
    adjusted = np.maximum.accumulate(partial)
    count = int((adjusted <= level).sum())
    holm = correct(p, correction="holm")
    order = np.argsort(p, kind="stable")
    identified = tuple(labels[i] for i in order if holm[i] <= level)
    return ReplicabilityResult(
        datasets=tuple(labels),
        pvalues=p,
        method=method,
        alpha=level,
        partial=partial,
        adjusted=np.asarray(adjusted, dtype=np.float64),
        count=count,
        identified=identified,
        provenance=provenance(method=method, alpha=level, n_datasets=int(p.shape[0])),
    )


def _pvalues(pvalues: ArrayLike, where: str) -> NDArray[np.float64]:
    try:
        p = np.asarray(pvalues, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: p-values must be numbers ({exc})") from None
    if p.ndim != 1:
        raise InputError(
            f"{where}: expected one p-value per dataset (a 1-d array), got shape {p.shape}"
        )
    if p.shape[0] == 0:
        raise InputError(f"{where}: no p-values given")
    if not np.isfinite(p).all() or ((p < 0) | (p > 1)).any():
        bad = next(float(v) for v in p if not (0.0 <= v <= 1.0))
        raise InputError(f"{where}: p-values must lie in [0, 1] (got {bad})")
    return p
