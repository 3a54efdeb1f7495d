"""What :func:`~assay.judgments.crowd_qrels` returns: :class:`CrowdQrels`, the qrels from crowd
grades with their posteriors, the agreement per topic and the ranking change, and its
report (a summary, the per-topic agreement table and the ranking-change table; on the
``--report`` page, plots of the agreement per topic and of the runs' scores under both
qrels)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from .._result import REPR_LIMIT, Result
from ..errors import OptionError
from ..report.reported import Reported

if TYPE_CHECKING:
    from ..data import Qrels
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["CROWD_QRELS_COLUMNS", "CrowdQrels"]

#: The columns of the records (TSV, CSV): ``kind`` is summary, topic, overall or system.
CROWD_QRELS_COLUMNS = (
    "kind",
    "name",
    "value",
    "n_docs",
    "n_labels",
    "n_units",
    "defined",
    "majority_vote",
    "aggregated",
    "difference",
    "rank_majority_vote",
    "rank_aggregated",
)
#: Most topics the agreement plot shows (those with the lowest α first).
PLOT_TOPICS = 60


@dataclass(frozen=True, eq=False, repr=False)
class CrowdQrels(Result, Reported):
    """Qrels aggregated from crowd relevance judgments, made by
    :func:`~assay.judgments.crowd_qrels`.

    Per judged (query, document), aligned: ``query`` and ``doc`` (ids), ``posterior``
    (judged documents x ``grades``: the method's probability of each grade), ``grade`` (the
    aggregated grade: the qrels'), ``majority_grade`` (majority vote's) and ``n_labels``
    (the grades the workers gave it).

    ``records()``: the summary (kind ``summary``), the agreement per topic (``topic``) and
    over every topic (``overall``), and each run's scores (``system``);
    :meth:`pair_records` has one row per judged document with its posterior.

    Parameters
    ----------
    qrels : Qrels
        The aggregated qrels.
    majority_qrels : Qrels
        The majority-vote qrels (the ranking change's reference).
    query, doc : pyarrow.Array
        The query and document id of each judged document.
    grades : tuple of int
        The grade scale, increasing: the posterior's columns.
    posterior : numpy.ndarray
        Judged documents x grades; rows sum to 1.
    grade, majority_grade, n_labels : numpy.ndarray
        Per judged document: the aggregated grade, majority vote's, and the labels given.
    agreement : tuple of mapping
        Per topic: query, n_docs, n_labels, alpha, n_units, n_pairable, defined.
    overall : mapping
        The same over every topic (query None).
    scores : tuple of mapping
        Per run: system, majority_vote, aggregated, difference, rank_majority_vote,
        rank_aggregated (empty without runs).
    ranking : mapping, optional
        metric, n_runs, kendall_tau, kendall_pvalue, tau_ap, rbo_ext, p (None without runs).
    aggregation : LabelAggregation
        The label aggregation behind the qrels (worker skills, convergence).
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.judgments import crowd_qrels
    >>> rows = {"query": ["q1"] * 4, "doc": ["d1", "d1", "d2", "d2"],
    ...         "worker": ["a", "b", "a", "b"], "grade": [1, 1, 0, 0]}
    >>> res = crowd_qrels(rows, method="majority_vote")
    >>> res.grades, res.grade.tolist(), res.n_labels.tolist()
    ((0, 1), [1, 0], [2, 2])
    """

    family = "judgments"

    qrels: Qrels
    majority_qrels: Qrels
    query: pa.Array
    doc: pa.Array
    grades: tuple[int, ...]
    posterior: NDArray[np.float64]
    grade: NDArray[np.int64]
    majority_grade: NDArray[np.int64]
    n_labels: NDArray[np.int64]
    agreement: tuple[Mapping[str, Any], ...]  # Any: str, int, float or bool per column
    overall: Mapping[str, Any]  # Any: str, int, float or bool per column
    scores: tuple[Mapping[str, Any], ...] = ()  # Any: str, int or float per column
    ranking: Mapping[str, Any] | None = None  # Any: str, int or float per column
    aggregation: Any = None  # Any: a LabelAggregation (its module loads on use)
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def method(self) -> str:
        """The aggregation method."""
        return str(self.provenance.get("method", ""))

    @property
    def n_changed(self) -> int:
        """The judged documents whose aggregated grade differs from majority vote's."""
        return int(np.count_nonzero(self.grade != self.majority_grade))

    def __repr__(self) -> str:
        prov = self.provenance
        parts = [
            f"{prov.get('source', '')!r}",
            f"method={self.method!r}",
            f"{len(self.grade)} judged documents of {self.qrels.n_queries} queries",
            f"{prov.get('n_workers', 0)} workers",
            f"grades={self.grades!r}",
            f"changed_vs_majority={self.n_changed}",
            f"alpha={self.overall.get('alpha', math.nan):.4g}",
        ]
        if self.ranking is not None:
            r = self.ranking
            parts.append(
                f"{r['metric']}: kendall_tau={r['kendall_tau']:.4g}, tau_ap={r['tau_ap']:.4g}, "
                f"rbo_ext={r['rbo_ext']:.4g} ({r['n_runs']} runs)"
            )
        text = f"CrowdQrels({', '.join(parts)})"
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 1] + "…"

    def summary(self) -> dict[str, Any]:
        """The headline values by name, in the printed order.

        Returns
        -------
        dict
            Method, counts, documents whose grade changed, overall α and, with runs, the
            rankings' τ, τ_AP and RBO.

        Examples
        --------
        >>> from assay.judgments import crowd_qrels
        >>> rows = {"query": ["q1", "q1"], "doc": ["d1", "d1"], "worker": ["a", "b"],
        ...         "grade": [1, 1]}
        >>> crowd_qrels(rows, method="majority_vote").summary()["judged documents"]
        1
        """
        prov = self.provenance
        values: dict[str, Any] = {
            "method": self.method,
            "grade rule": prov.get("grade_rule"),
            "judged documents": len(self.grade),
            "queries": self.qrels.n_queries,
            "workers": prov.get("n_workers"),
            "labels": prov.get("n_labels"),
            "grades changed vs majority vote": self.n_changed,
            **self._convergence(),
            f"alpha ({prov.get('level')}), all topics": self.overall.get("alpha"),
        }
        if self.ranking is not None:
            r = self.ranking
            values[f"runs ranked by {r['metric']}"] = r["n_runs"]
            values["Kendall tau (vs majority vote)"] = r["kendall_tau"]
            values["tau_AP (vs majority vote)"] = r["tau_ap"]
            values[f"RBO_ext (p={r['p']:g})"] = r["rbo_ext"]
        return values

    def _convergence(self) -> dict[str, Any]:
        """An iterative method's iterations and whether it converged (nothing for a vote)."""
        fit = self.provenance.get("aggregation", {})
        if not fit.get("iterations"):
            return {}
        return {"iterations": fit["iterations"], "converged": fit.get("converged")}

    def records(self) -> list[dict[str, Any]]:
        """The summary, the agreement per topic and overall, and each run's scores."""
        return [dict(row) for row in self.report().records]

    def pair_records(self) -> list[dict[str, Any]]:
        """One row per judged document: query, doc, grade, majority_grade, n_labels and the
        posterior of each grade (``p_<grade>``).

        Returns
        -------
        list of dict
            The rows, in order of first appearance in the input.

        Examples
        --------
        >>> from assay.judgments import crowd_qrels
        >>> rows = {"query": ["q1", "q1"], "doc": ["d1", "d1"], "worker": ["a", "b"],
        ...         "grade": [1, 1]}
        >>> crowd_qrels(rows, method="majority_vote").pair_records()
        [{'query': 'q1', 'doc': 'd1', 'grade': 1, 'majority_grade': 1, 'n_labels': 2, 'p_1': 1.0}]
        """
        columns: dict[str, list[Any]] = {
            "query": self.query.to_pylist(),
            "doc": self.doc.to_pylist(),
            "grade": self.grade.tolist(),
            "majority_grade": self.majority_grade.tolist(),
            "n_labels": self.n_labels.tolist(),
        }
        for i, g in enumerate(self.grades):
            columns[f"p_{g}"] = self.posterior[:, i].tolist()
        names = list(columns)
        return [dict(zip(names, row, strict=True)) for row in zip(*columns.values(), strict=True)]

    def write_qrels(self, path: str | os.PathLike[str]) -> Path:
        """Write the aggregated qrels as a TREC qrels file (``query 0 doc grade``),
        atomically (``.gz`` compresses); never over the judgments it was read from.

        Parameters
        ----------
        path : str or PathLike
            The file.

        Returns
        -------
        Path
            The path written.

        Raises
        ------
        OptionError
            ``path`` is the judgments file.

        Examples
        --------
        >>> from assay.judgments import crowd_qrels
        >>> rows = {"query": ["q1", "q1"], "doc": ["d1", "d1"], "worker": ["a", "b"],
        ...         "grade": [2, 2]}
        >>> _ = crowd_qrels(rows, method="majority_vote").write_qrels("example_crowd.qrels")
        >>> print(open("example_crowd.qrels").read(), end="")
        q1 0 d1 2
        """
        from .._files import same_file

        source = str(self.provenance.get("source", ""))
        target = os.fspath(path)
        if source and os.path.exists(source) and same_file(target, source):
            raise OptionError(
                f"refusing to write the qrels over the judgments they were read from ({source})",
                option="path",
            )
        self.qrels.to_trec(target)
        return Path(target)

    def report(self) -> Report:
        """The summary (records of kind ``summary``), the agreement per topic and, with
        runs, the ranking-change table."""
        from .crowd_qrels_render import crowd_qrels_report

        return crowd_qrels_report(self)

    def document(self) -> Document:
        """The ``--report`` content: :meth:`report`'s tables, then the plots of the agreement
        per topic and of the runs' scores under both qrels."""
        from ..report.document import section
        from ..report.sections_tasks import tables_document
        from .crowd_qrels_render import agreement_plot, scores_plot

        sections = [section("Agreement per topic", agreement_plot(self))]
        if self.scores:
            sections.append(section("Scores under both qrels", scores_plot(self)))
        return tables_document(
            "Relevance judgments from crowds", self.family, self.report(), sections=sections
        )
