"""Two-way ANOVA without replication of runs × topics, per metric (Sakai, "Laboratory
Experiments in Information Retrieval", 2018, ch. 3 and 5): the ANOVA table, the run means with
t-based margins of error and the pairwise effect sizes, computed by
:func:`assay.stats.anova_two_way` on each metric's topic × run matrix. It sits beside the
randomised Tukey HSD (:func:`assay.meta.discriminative_power`) and the topic-set size design
(:func:`assay.meta.topic_set_size`), which take the same residual variance V_E.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from .._result import Result, provenance
from ..errors import InputError
from ..report.reported import Reported
from ..results import Results
from ..stats.anova import AnovaResult, anova_two_way
from ._scores import score_matrices

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["Anova", "anova"]

#: The metric name of scores given without one (one matrix, or one mapping run → scores).
_ONE_METRIC = "score"


@dataclass(frozen=True, eq=False, repr=False)
class Anova(Result, Reported):
    """Two-way ANOVA without replication of every metric (made by :func:`anova`).

    ``tables[metric]`` is the :class:`~assay.stats.AnovaResult` of one metric; ``records()``
    flattens them: ``kind`` "anova" (one row per source of variation), "mean" (one row per
    run: mean, margin of error and interval) and "effect" (one row per ordered pair of runs:
    the difference and the three effect sizes).

    Parameters
    ----------
    metrics : tuple of str
        The metrics, in input order.
    runs : tuple of str
        The runs (systems), in column order.
    n_topics : int
        The topics every metric is compared on.
    confidence : float
        The level of the run means' intervals.
    tables : mapping of str to AnovaResult
        Each metric's ANOVA.
    provenance : mapping of str to any, optional
        The options and the data's size.

    Examples
    --------
    >>> from assay import meta
    >>> res = meta.anova({"a": [0.2, 0.4, 0.6, 0.8], "b": [0.6, 0.8, 1.0, 1.0],
    ...                   "c": [0.0, 0.2, 0.2, 0.4]})
    >>> res.metrics, round(res.tables["score"].p["systems"], 6)
    (('score',), 5.4e-05)
    >>> sorted({r["kind"] for r in res.records()})
    ['anova', 'effect', 'mean']
    """

    family = "meta"

    metrics: tuple[str, ...]
    runs: tuple[str, ...]
    n_topics: int
    confidence: float
    tables: Mapping[str, AnovaResult]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    def records(self) -> list[dict[str, Any]]:
        """The ANOVA rows, then the run means, then the effect sizes, metric by metric."""
        rows: list[dict[str, Any]] = []
        for m in self.metrics:
            rows += [{"kind": "anova", "metric": m, **r} for r in self.tables[m].records()]
        for m in self.metrics:
            t = self.tables[m]
            for i, run in enumerate(self.runs):
                rows.append(
                    {
                        "kind": "mean",
                        "metric": m,
                        "run": run,
                        "mean": float(t.system_means[i]),
                        "moe": float(t.moe),
                        "ci_low": float(t.ci_low[i]),
                        "ci_high": float(t.ci_high[i]),
                    }
                )
        for m in self.metrics:
            rows += self._effects(m)
        return rows

    def _effects(self, metric: str) -> list[dict[str, Any]]:
        t = self.tables[metric]
        out = []
        for i, run in enumerate(self.runs):
            for j, base in enumerate(self.runs):
                if i == j:
                    continue
                out.append(
                    {
                        "kind": "effect",
                        "metric": metric,
                        "run": run,
                        "baseline": base,
                        "diff": float(t.system_means[i] - t.system_means[j]),
                        "effect_residual": float(t.effect_residual[i, j]),
                        "hedges_g": float(t.hedges_g[i, j]),
                        "glass_delta": float(t.glass_delta[i, j]),
                    }
                )
        return out

    def report(self) -> Report:
        """The ANOVA table of every metric, then the run means with their margins of error
        and the effect sizes of every ordered pair of runs (what ``assay meta anova``
        prints)."""
        from .report import anova_report

        return anova_report(self)

    def document(self) -> Document:
        """The ``--report`` content: :meth:`report`'s tables, then for each metric a plot of
        the run means with their intervals and a heatmap of the effect sizes ES_E."""
        from ..report.document import section
        from ..report.sections_tasks import heatmap, tables_document

        plots = [
            section(
                f"Run means: {m}",
                self._interval_plot(m),
                heatmap(
                    f"{m}: effect sizes ES_E",
                    self.runs,
                    self.runs,
                    np.nan_to_num(self.tables[m].effect_residual, nan=0.0, posinf=0.0, neginf=0.0),
                    xlabel="baseline",
                    ylabel="run",
                    caption="(mean of the run − mean of the baseline) / √V_E (Sakai's ES_E); "
                    "an undefined value (V_E = 0) is drawn as 0.",
                ),
            )
            for m in self.metrics
        ]
        return tables_document(
            "Two-way ANOVA without replication", self.family, self.report(), sections=plots
        )

    def _interval_plot(self, metric: str) -> dict[str, Any]:
        t = self.tables[metric]
        level = round(100 * self.confidence, 2)
        return {
            "kind": "interval",
            "title": f"{metric}: run means",
            "caption": (
                f"Each run's mean over {self.n_topics} topics with its {level:g}% interval "
                "(mean ± MOE, MOE = t(φ_E)·√(V_E/n), the same width for every run)."
            ),
            "columns": 1,
            "panels": [
                {
                    "labels": list(self.runs),
                    "values": [float(v) for v in t.system_means],
                    "low": [float(v) for v in t.ci_low],
                    "high": [float(v) for v in t.ci_high],
                    "xlabel": metric,
                }
            ],
        }


def anova(
    scores: Results | Mapping[str, Any] | ArrayLike,  # Any: per-topic scores or a matrix
    *,
    confidence: float = 0.95,
) -> Anova:
    """Two-way ANOVA without replication of runs × topics for every metric (Sakai 2018): the
    table (sums of squares, degrees of freedom, mean squares, F and p for runs and topics),
    the residual variance V_E, each run's mean with its margin of error t_{α/2}(φ_E)·√(V_E/n)
    and the effect sizes of every pair of runs (Sakai's ES_E = diff/√V_E, Hedges' g, Glass's
    Δ; see :mod:`assay.stats.anova`).

    Parameters
    ----------
    scores : Results, mapping or array_like
        The :class:`~assay.results.Results` of :func:`assay.evaluate` (every run with a value
        for the same topics), a mapping metric → (mapping run → per-topic scores, or an
        (n_topics, n_runs) matrix), a mapping run → per-topic scores (one metric, "score") or
        one (n_topics, n_runs) matrix.
    confidence : float, default 0.95
        Level of the run means' intervals.

    Returns
    -------
    Anova
        ``tables[metric]``: the :class:`~assay.stats.AnovaResult`; ``report()`` is the table
        ``assay meta anova`` prints, ``document()`` adds the plot of the means.

    Examples
    --------
    >>> from assay import meta
    >>> res = meta.anova({"P@5": {"bm25": [0.2, 0.4, 0.6, 0.8], "dense": [0.4, 0.4, 0.8, 1.0]}})
    >>> t = res.tables["P@5"]
    >>> t.df["residual"], round(t.f["systems"], 2), round(float(t.effect_residual[1, 0]), 3)
    (3, 9.0, 2.121)
    """
    where = "anova"
    level = opt.confidence(confidence, where=where)
    matrices = score_matrices(_by_metric(scores, where), where)
    runs, n = matrices[0].runs, matrices[0].values.shape[0]
    for s in matrices[1:]:
        if s.runs != runs or s.values.shape[0] != n:
            raise InputError(f"{where}: every metric must cover the same runs and topics")
    tables = {s.metric: anova_two_way(s.values, confidence=level, names=runs) for s in matrices}
    return Anova(
        metrics=tuple(s.metric for s in matrices),
        runs=tuple(runs),
        n_topics=n,
        confidence=level,
        tables=tables,
        provenance=provenance(
            confidence=level,
            n_topics=n,
            n_runs=len(runs),
            interval="mean ± t(φ_E)·√(V_E/n) (Sakai 2018)",
        ),
    )


def _by_metric(scores: Any, where: str) -> Results | Mapping[str, Any]:  # Any: any input
    """``scores`` as what :func:`score_matrices` takes: one matrix or one mapping run →
    per-topic scores becomes the single metric "score"."""
    if isinstance(scores, Results):
        return scores
    if isinstance(scores, Mapping):
        if scores and all(_is_vector(v) for v in scores.values()):
            return {_ONE_METRIC: scores}
        return scores
    if isinstance(scores, str | bytes) or scores is None:
        raise InputError(
            f"{where}: scores must be assay.evaluate's Results, a mapping or a matrix; got "
            f"{type(scores).__name__}"
        )
    return {_ONE_METRIC: scores}


def _is_vector(value: Any) -> bool:  # Any: a value of the user's mapping
    if isinstance(value, Mapping | str | bytes):
        return False
    try:
        return bool(np.ndim(value) == 1)
    except (TypeError, ValueError):
        return False
