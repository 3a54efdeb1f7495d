"""Result types of :mod:`assay.stats`. Like every assay result they are frozen dataclasses with
a ``provenance`` mapping and ``records()`` (flat rows); ``to_pandas()`` comes from the base.

``provenance`` holds assay's and Python's versions, then what produced the value: the
options (alternative, seed, number of resamples, confidence, method choices, ...) and the
counts that explain it (wins and losses, discordant pairs, degrees of freedom, ...).
``details`` is the same mapping without the version header.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._result import Result, provenance
from ..errors import InputError

__all__ = ["StatResult", "TukeyHSDResult"]

#: Keys every provenance starts with (assay's and Python's versions).
_HEADER = frozenset(provenance())


def _without_header(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in mapping.items() if key not in _HEADER}


@dataclass(frozen=True, repr=False)
class StatResult(Result):
    """A test or an estimate: ``statistic``, ``pvalue`` (NaN where not a test) and, where
    defined, ``ci`` as a (low, high) pair; ``method`` names the procedure.

    ``float(result)`` is the p-value for tests and the statistic for estimates; ``details`` is
    ``provenance`` without the version header; ``records()`` is one row.

    Parameters
    ----------
    statistic : float
        The test statistic or the estimate.
    pvalue : float
        The p-value; NaN for an estimate.
    ci : tuple of float, optional
        Confidence interval (low, high); None without one.
    method : str, default ""
        The procedure, e.g. "paired t-test".
    provenance : mapping of str to any, optional
        assay's and Python's versions, then the options and counts that produced the value.

    Examples
    --------
    >>> import math
    >>> from assay.stats import StatResult
    >>> res = StatResult(statistic=2.5, pvalue=0.04, ci=(0.1, 0.9), method="demo")
    >>> float(res)
    0.04
    >>> res.records()
    [{'method': 'demo', 'statistic': 2.5, 'pvalue': 0.04, 'ci_low': 0.1, 'ci_high': 0.9}]
    >>> float(StatResult(statistic=0.7, pvalue=math.nan))
    0.7
    """

    statistic: float
    pvalue: float
    ci: tuple[float, float] | None = None
    method: str = ""
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @classmethod
    def of(
        cls,
        statistic: float,
        pvalue: float,
        ci: tuple[float, float] | None,
        method: str,
        details: Mapping[str, Any],
    ) -> StatResult:
        """A result whose provenance is the version header followed by ``details``."""
        return cls(statistic, pvalue, ci, method, provenance(**details))

    @property
    def details(self) -> dict[str, Any]:
        """The method's settings and counts: ``provenance`` without the version header."""
        return _without_header(self.provenance)

    def __float__(self) -> float:
        return float(self.statistic if math.isnan(self.pvalue) else self.pvalue)

    def records(self) -> list[dict[str, Any]]:
        """One row: method, statistic, pvalue, ci_low, ci_high (None without an interval)."""
        low, high = (None, None) if self.ci is None else self.ci
        return [
            {
                "method": self.method,
                "statistic": float(self.statistic),
                "pvalue": float(self.pvalue),
                "ci_low": None if low is None else float(low),
                "ci_high": None if high is None else float(high),
            }
        ]


@dataclass(frozen=True, eq=False, repr=False)
class TukeyHSDResult(Result):
    """Result of :func:`assay.stats.tukey_hsd`.

    ``result.pvalue("bm25", "dense")`` looks a pair up by names (or column indices);
    ``records()`` is one row per pair; ``details`` is ``provenance`` without the versions.

    Parameters
    ----------
    names : tuple of str
        The k system names, in column order.
    means : numpy.ndarray
        Mean score of each system (k,).
    pvalues : numpy.ndarray
        (k, k) symmetric matrix of pairwise p-values, 1 on the diagonal.
    pairs : tuple of tuple
        One ``(i, j, diff, p)`` per pair i < j, ``diff = means[i] - means[j]``.
    provenance : mapping of str to any, optional
        Versions, n_resamples, seed, n_items.

    Examples
    --------
    >>> from assay.stats import tukey_hsd
    >>> res = tukey_hsd([[0.40, 0.42, 0.45], [0.45, 0.51, 0.52], [0.39, 0.38, 0.41],
    ...                  [0.52, 0.60, 0.61], [0.41, 0.47, 0.50]], names=["a", "b", "c"],
    ...                 n_resamples=1000, seed=0)
    >>> res.names
    ('a', 'b', 'c')
    >>> print(f"{res.pvalue('a', 'c'):.4f} {res.pvalue(0, 2):.4f}")
    0.0050 0.0050
    >>> print(res.records()[0]["first"], res.records()[0]["second"])
    a b
    """

    names: tuple[str, ...]
    means: NDArray[np.float64]
    pvalues: NDArray[np.float64]
    pairs: tuple[tuple[int, int, float, float], ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def details(self) -> dict[str, Any]:
        """n_resamples, seed, n_items: ``provenance`` without the version header."""
        return _without_header(self.provenance)

    def pvalue(self, first: str | int, second: str | int) -> float:
        """The p-value of one pair, given by names or column indices."""
        i, j = (self._index(s) for s in (first, second))
        return float(self.pvalues[i, j])

    def records(self) -> list[dict[str, Any]]:
        """One row per pair i < j: first, second (names), diff (mean_i - mean_j), pvalue."""
        return [
            {"first": self.names[i], "second": self.names[j], "diff": diff, "pvalue": p}
            for i, j, diff, p in self.pairs
        ]

    def _index(self, system: str | int) -> int:
        if isinstance(system, str):
            if system not in self.names:
                raise InputError(f"tukey_hsd: unknown system {system!r}; known: {list(self.names)}")
            return self.names.index(system)
        k = len(self.names)
        if not -k <= int(system) < k:
            raise InputError(f"tukey_hsd: system index {system} out of range for {k} systems")
        return int(system) % k
