"""The result of :func:`assay.compare_seeds`: several systems, several runs (seeds) each,
with its report (a table of the seed-score distributions and of every system against the
baseline) and its HTML document (with a box plot of the seed scores)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .._result import REPR_LIMIT, Result
from ..report.reported import Reported
from ..stats.pairs import PairResult
from ..stats.result import StatResult
from ..stats.seeds import ScoreDistribution

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["SEED_COLUMNS", "SeedComparison"]

FloatArray = NDArray[np.float64]

#: The columns of the machine formats (one row per system).
SEED_COLUMNS = (
    "system",
    "baseline",
    "metric",
    "n",
    "mean",
    "sd",
    "min",
    "q25",
    "median",
    "q75",
    "max",
    "diff",
    "ci_low",
    "ci_high",
    "pvalue",
    "p_adjusted",
    "significant",
    "eps_min",
    "eps_min_reverse",
)
_MARK = {1: "▲", -1: "▼", 0: ""}


@dataclass(frozen=True, eq=False, repr=False)
class SeedComparison(Result, Reported):
    """Several systems, several runs (seeds) each: the distribution of each system's scores
    over its seeds, and every system against ``baseline``. Built by :func:`compare_seeds`.

    ``pairs`` holds one :class:`~assay.stats.PairResult` per system but the baseline (the
    classical test, corrected across pairs); ``aso[system]`` is the ASO result of the system
    over the baseline (ε_min < 0.5: the system almost stochastically dominates the
    baseline) and ``aso_reverse[system]`` the baseline over the system.
    ``records()``: one row per system.

    Parameters
    ----------
    systems : list of str
        The systems, in input order.
    baseline : str
        The system every other is compared with.
    metric : str
        What the scores are (a metric's name; "score" when not given).
    design : {"per-unit", "per-seed"}
        ``per-unit``: per-unit scores per seed were given, the classical test is paired over
        the units of the seed-averaged scores; ``per-seed``: one score per seed, Welch's
        t-test of the seed scores.
    test, correction : str
        The classical test and the correction of its p-values across pairs.
    alpha : float
        Significance level of ``significant``.
    confidence_level : float
        ASO's confidence level before the Bonferroni adjustment (the adjusted one is in each
        ASO result's ``details``).
    scores : mapping of str to numpy.ndarray
        Each system's score per seed (the mean over units for per-unit scores).
    distributions : mapping of str to ScoreDistribution
        Each system's seed scores summarised.
    pairs : list of PairResult
        Every system but the baseline against it.
    aso, aso_reverse : mapping of str to StatResult
        ASO of each system over the baseline, and of the baseline over each system.
    provenance : mapping
        Versions and the settings that produced the result.

    Examples
    --------
    >>> import assay
    >>> cmp = assay.compare_seeds(
    ...     {"bm25": [0.30, 0.31, 0.29, 0.30], "dense": [0.36, 0.35, 0.38, 0.37]},
    ...     n_bootstrap=200,
    ... )
    >>> cmp.baseline, cmp.design, cmp.eps_min("dense")
    ('bm25', 'per-seed', 0.0)
    >>> pair = cmp.pair("dense")
    >>> pair.significant, round(pair.diff, 4)
    (True, 0.065)
    """

    family = "ranking"

    systems: list[str]
    baseline: str
    metric: str
    design: str
    test: str
    correction: str
    alpha: float
    confidence_level: float
    scores: Mapping[str, FloatArray]
    distributions: Mapping[str, ScoreDistribution]
    pairs: list[PairResult]
    aso: Mapping[str, StatResult]
    aso_reverse: Mapping[str, StatResult]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def pair(self, system: str) -> PairResult:
        """``system`` against the baseline (``KeyError`` for the baseline or an unknown name)."""
        for p in self.pairs:
            if p.system == system:
                return p
        raise KeyError(system)

    def eps_min(self, system: str) -> float:
        """ASO's ε_min of ``system`` over the baseline (< 0.5: it almost dominates)."""
        if system not in self.aso:
            raise KeyError(system)
        return float(self.aso[system].statistic)

    def __repr__(self) -> str:
        parts = []
        for name in self.systems:
            d = self.distributions[name]
            text = f"{name}: {d.mean:.4g}±{d.sd:.2g} (n={d.n})"
            if name != self.baseline:
                p = self.pair(name)
                mark = "*" if p.significant else ""
                text += f" p_adjusted={p.p_adjusted:.4g}{mark} eps_min={self.eps_min(name):.3g}"
            parts.append(text)
        shown = (
            f"SeedComparison(metric={self.metric!r}, baseline={self.baseline!r}, "
            f"design={self.design!r}, test={self.test!r}, {'; '.join(parts)})"
        )
        return shown if len(shown) <= REPR_LIMIT else shown[: REPR_LIMIT - 1] + "…"

    def records(self) -> list[dict[str, Any]]:
        rows = []
        for name in self.systems:
            row: dict[str, Any] = self.distributions[name].records()[0]
            row["baseline"] = name == self.baseline
            row["metric"] = self.metric
            nan = math.nan
            if name == self.baseline:
                row |= dict.fromkeys(("diff", "ci_low", "ci_high", "pvalue", "p_adjusted"), nan)
                row |= {"significant": False, "eps_min": nan, "eps_min_reverse": nan}
            else:
                p = self.pair(name)
                row |= {
                    "diff": p.diff,
                    "ci_low": p.ci_low,
                    "ci_high": p.ci_high,
                    "pvalue": p.p_value,
                    "p_adjusted": p.p_adjusted,
                    "significant": p.significant,
                    "eps_min": self.eps_min(name),
                    "eps_min_reverse": float(self.aso_reverse[name].statistic),
                }
            rows.append({k: row[k] for k in SEED_COLUMNS})
        return rows

    def report(self) -> Report:
        """Systems: seeds, mean ± sd, min, median, max; against the baseline: the
        difference, the corrected p-value (▲/▼ significant) and ASO's ε_min both ways."""
        from ..report.output import Report
        from ..report.table import Cell, Column, DisplayTable
        from ..report.values import short

        columns = [
            Column("system", latex="System", style="bold"),
            Column("seeds", align="right"),
            Column("mean", align="right"),
            Column("sd", align="right"),
            Column("min", align="right"),
            Column("median", align="right"),
            Column("max", align="right"),
            Column("diff", align="right"),
            Column("p_adj", align="right"),
            Column("ε_min", align="right"),
            Column("ε_min rev", align="right"),
        ]
        rows: list[list[Cell | str]] = []
        for rec in self.records():
            name = rec["system"]
            cells: list[Cell | str] = [
                f"{name} (baseline)" if rec["baseline"] else name,
                str(rec["n"]),
                *(short(rec[k], ".4f") for k in ("mean", "sd", "min", "median", "max")),
            ]
            if rec["baseline"]:
                cells += ["", "", "", ""]
            else:
                direction = self.pair(name).direction
                note = f"[{short(rec['ci_low'], '.4f')}, {short(rec['ci_high'], '.4f')}]"
                cells += [
                    Cell(short(rec["diff"], "+.4f"), note=note),
                    Cell(short(rec["p_adjusted"]), marks=_MARK[direction]),
                    Cell(short(rec["eps_min"], ".3f"), strong=rec["eps_min"] < 0.5),
                    short(rec["eps_min_reverse"], ".3f"),
                ]
            rows.append(cells)
        table = DisplayTable(
            columns, rows, title=f"{self.metric} over seeds", legend=self._legend(), keys=1
        )
        return Report(
            table=table,
            records=self.records(),
            columns=SEED_COLUMNS,
            key="records",
            document={"provenance": dict(self.provenance)},
        )

    def _legend(self) -> str:
        if self.design == "per-unit":
            test = f"paired {self.test} test over units of the seed-averaged scores"
            interval = "bootstrap of the mean difference over units"
        else:
            test = "Welch's t-test of the seed scores"
            interval = "Welch"
        levels = {float(r.details["confidence_level"]) for r in self.aso.values()}
        level = f"{min(levels):.4g}" if levels else f"{self.confidence_level:.4g}"
        return (
            f"diff: system − {self.baseline} (interval: {interval}); p_adj: {test}, "
            f"{self.correction} correction across {len(self.pairs)} pairs, ▲/▼ at "
            f"alpha={self.alpha}; ε_min: ASO of the system over {self.baseline} (< 0.5: almost "
            f"stochastically dominates; 0: dominates), ε_min rev: of {self.baseline} over the "
            f"system; confidence {level} (Bonferroni over the pairs)"
        )

    def plot(self) -> dict[str, Any]:
        """The box plot of every system's seed scores (a plot specification,
        :mod:`assay.report.plots`)."""
        return {
            "kind": "box",
            "title": f"{self.metric} over seeds",
            "caption": "Box: quartiles; whiskers: 1.5 IQR; diamond: the mean; one box per "
            "system, one value per seed.",
            "panels": [
                {
                    "title": self.metric,
                    "groups": list(self.systems),
                    "values": [self.scores[s].tolist() for s in self.systems],
                }
            ],
        }

    def document(self) -> Document:
        from ..report.document import section
        from ..report.sections_tasks import tables_document

        sections = [section("Score distributions over seeds", self.plot())]
        return tables_document(
            "Several runs per system", self.family, self.report(), sections=sections
        )
