"""Result types shared by assay's statistical tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TestResult:
    """A test or estimate: ``statistic``, ``pvalue`` (NaN where not a test) and, where
    defined, ``ci`` as a (low, high) pair. ``details`` records the method's settings (number
    of resamples, seed, exact or Monte Carlo, alternative, ...) for provenance.

    ``float(result)`` is the p-value for tests and the statistic for estimates.
    """

    statistic: float
    pvalue: float
    ci: tuple[float, float] | None = None
    method: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    __test__ = False  # not a pytest test class

    def __float__(self) -> float:
        import math

        return float(self.statistic if math.isnan(self.pvalue) else self.pvalue)
