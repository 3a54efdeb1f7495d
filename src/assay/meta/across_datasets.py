"""Replicability analysis across datasets (Dror et al. 2017, TACL 5): given the same
comparison on N datasets, on how many does the effect hold, and on which?

The p-values come either as numbers (one per dataset) or as comparisons: an
:class:`assay.stats.PairResult`, a list of them, or anything with a ``pairs`` list of them
(:func:`assay.compare`'s :class:`~assay.ranking.Comparison`, the families' comparisons). From a
comparison the pair of ``system`` against ``baseline`` on ``metric`` is taken (each may be
left out when only one pair matches); its ``p_value`` (before any correction within the
dataset) is the dataset's p-value. The counting and identification are
:func:`assay.stats.replicability`'s.

The partial conjunction tests read each p-value as evidence for the effect in the direction
claimed: use one-sided p-values (``alternative="greater"``), or check that every ``diff``
has the claimed sign; a two-sided p-value of a dataset where the system lost counts as
evidence too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _options as opt
from .._options import Combination
from .._result import Result, provenance
from ..errors import InputError, shown
from ..report.reported import Reported
from ..stats.across_datasets import ReplicabilityResult
from ..stats.across_datasets import replicability as _count
from ..stats.pairs import PairResult

if TYPE_CHECKING:
    from ..report.output import Report

__all__ = ["Replicability", "replicability"]


@dataclass(frozen=True, eq=False, repr=False)
class Replicability(Result, Reported):
    """The replicability analysis of one comparison over several datasets (made by
    :func:`replicability`).

    ``records()``: ``kind`` "dataset" (one row per dataset: the pair compared where known,
    its p-value and whether Holm's procedure names it) and "u" (one row per u = 1..N: the
    partial conjunction p-value, its running maximum, whether the effect is accepted in at
    least u datasets).

    Parameters
    ----------
    analysis : ReplicabilityResult
        The count k̂, the datasets named and the partial conjunction p-values.
    pairs : tuple
        Per dataset, the :class:`~assay.stats.PairResult` its p-value came from (None for a
        bare p-value).
    provenance : mapping of str to any, optional
        The options and the data's size.

    Examples
    --------
    >>> from assay import meta
    >>> res = meta.replicability({"news": 0.001, "web": 0.019, "bio": 0.3}, method="fisher")
    >>> res.count, res.identified
    (2, ('news', 'web'))
    """

    family = "meta"

    analysis: ReplicabilityResult
    pairs: tuple[PairResult | None, ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    @property
    def count(self) -> int:
        """k̂: the number of datasets the effect is shown to hold in."""
        return self.analysis.count

    @property
    def identified(self) -> tuple[str, ...]:
        """The datasets Holm's procedure names, smallest p-value first."""
        return self.analysis.identified

    def records(self) -> list[dict[str, Any]]:
        """One row per dataset, then one row per u (see the class)."""
        a = self.analysis
        named = set(a.identified)
        rows: list[dict[str, Any]] = []
        for name, p, pair in zip(a.datasets, a.pvalues, self.pairs, strict=True):
            rows.append(
                {
                    "kind": "dataset",
                    "dataset": name,
                    "system": None if pair is None else pair.system,
                    "baseline": None if pair is None else pair.baseline,
                    "metric": None if pair is None else pair.metric,
                    "diff": None if pair is None else float(pair.diff),
                    "p_value": float(p),
                    "identified": name in named,
                }
            )
        rows += [{"kind": "u", **r} for r in a.records()]
        return rows

    def report(self) -> Report:
        """The datasets and the partial conjunction table (what ``assay meta replicability``
        prints); the legend gives the count."""
        from .report import replicability_report

        return replicability_report(self)


def replicability(
    data: Mapping[str, Any] | Sequence[float],  # Any: a p-value or a comparison per dataset
    *,
    alpha: float = 0.05,
    method: Combination = "bonferroni",
    system: str | None = None,
    baseline: str | None = None,
    metric: str | None = None,
) -> Replicability:
    """On how many datasets does the effect hold, and on which (Dror et al. 2017)? The count
    k̂ from the partial conjunction p-values (Bonferroni for any dependence between datasets,
    Fisher for independent ones), the datasets from Holm's procedure.

    Parameters
    ----------
    data : mapping or sequence
        Per dataset (a mapping dataset → value, or a sequence named "0", "1", ...): a
        p-value, a :class:`~assay.stats.PairResult`, a list of them, or a comparison with a
        ``pairs`` list (:func:`assay.compare`'s result).
    alpha : float, default 0.05
        The significance level.
    method : {"bonferroni", "fisher"}, default "bonferroni"
        How the partial conjunction combines the p-values.
    system, baseline, metric : str, optional
        Which pair of a comparison to take (needed only when several pairs match).

    Returns
    -------
    Replicability
        ``count``, ``identified`` and the table; ``report()`` is what ``assay meta
        replicability`` prints.

    Examples
    --------
    >>> from assay import meta
    >>> from assay.stats import PairResult
    >>> def pair(p):
    ...     return PairResult(system="new", baseline="old", metric="f1", diff=0.02, ci_low=0.0,
    ...                       ci_high=0.04, p_value=p, p_adjusted=p, significant=p < 0.05)
    >>> res = meta.replicability({"en": pair(0.004), "de": pair(0.01), "fi": pair(0.4)})
    >>> res.count, res.identified
    (2, ('en', 'de'))
    """
    where = "replicability"
    level = opt.alpha(alpha, where=where)
    method = opt.choice(method, Combination, "method", ignore_case=True, where=where)
    for name, value in (("system", system), ("baseline", baseline), ("metric", metric)):
        if value is not None and not isinstance(value, str):
            raise InputError(f"{where}: {name} must be a string, got {type(value).__name__}")
    items = _items(data, where)
    pvalues: list[float] = []
    pairs: list[PairResult | None] = []
    for name, value in items:
        pair = _pair(name, value, system, baseline, metric, where)
        pairs.append(pair)
        pvalues.append(_number(name, value, where) if pair is None else float(pair.p_value))
    analysis = _count(pvalues, alpha=level, method=method, names=[n for n, _ in items])
    return Replicability(
        analysis=analysis,
        pairs=tuple(pairs),
        provenance=provenance(
            alpha=level,
            method=method,
            n_datasets=len(items),
            system=system,
            baseline=baseline,
            metric=metric,
            identification="Holm",
        ),
    )


def _items(data: Any, where: str) -> list[tuple[str, Any]]:  # Any: the user's input
    if isinstance(data, Mapping):
        items = [(str(k), v) for k, v in data.items()]
        if len({k for k, _ in items}) != len(items):
            raise InputError(f"{where}: dataset names must be distinct as text")
    elif isinstance(data, str | bytes) or not isinstance(data, Sequence | np.ndarray):
        raise InputError(
            f"{where}: expected a mapping dataset -> p-value or comparison, or a sequence of "
            f"p-values; got {type(data).__name__}"
        )
    else:
        items = [(str(i), v) for i, v in enumerate(data)]
    if not items:
        raise InputError(f"{where}: no datasets given")
    return items


def _number(name: str, value: Any, where: str) -> float:  # Any: a p-value
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise InputError(
            f"{where}: dataset {shown(name)}: expected a p-value or a comparison, got "
            f"{type(value).__name__}"
        )
    p = float(value)
    if math.isnan(p) or not 0.0 <= p <= 1.0:
        raise InputError(f"{where}: dataset {shown(name)}: p-value {p} is not in [0, 1]")
    return p


def _pair(
    name: str,
    value: Any,  # Any: a p-value or a comparison
    system: str | None,
    baseline: str | None,
    metric: str | None,
    where: str,
) -> PairResult | None:
    """The one pair of ``value`` that matches the selection (None for a bare number)."""
    if isinstance(value, PairResult):
        candidates = [value]
    elif isinstance(value, Sequence) and value and all(isinstance(v, PairResult) for v in value):
        candidates = list(value)
    elif isinstance(getattr(value, "pairs", None), Sequence):
        candidates = [v for v in value.pairs if isinstance(v, PairResult)]
    else:
        return None
    matching = [
        c
        for c in candidates
        if (system is None or c.system == system)
        and (baseline is None or c.baseline == baseline)
        and (metric is None or c.metric == metric)
    ]
    if len(matching) == 1:
        return matching[0]
    listed = ", ".join(f"{c.system} vs {c.baseline} on {c.metric}" for c in candidates[:6])
    what = "no pair matches" if not matching else f"{len(matching)} pairs match"
    raise InputError(
        f"{where}: dataset {shown(name)}: {what} the selection (system={system!r}, "
        f"baseline={baseline!r}, metric={metric!r}); its pairs: {listed or 'none'}"
    )
