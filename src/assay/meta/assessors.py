"""Assessor agreement on qrels: two sets of judgments of the same topics (Voorhees 2000,
"Variations in relevance judgments and the measurement of retrieval effectiveness", IP&M 36).

Per topic, over the documents both assessors judged:

- overlap = |R_a ∩ R_b| / |R_a ∪ R_b| of the two relevant sets (grade ≥ ``rel``), Voorhees'
  measure (NaN when neither finds a relevant document);
- Cohen's κ of the two grades (:func:`assay.agreement.cohen_kappa`, optionally weighted);
- Krippendorff's α at ``level`` (:func:`assay.agreement.krippendorff_alpha`).

"overall" pools every topic's documents (κ and α of all pairs, overlap of the pooled sets),
and the mean of the per-topic overlaps is reported too. Documents or topics only one qrels
has are left out and counted in ``warnings``. With runs, each run is evaluated under both
qrels, and the system rankings by each metric's mean are compared: Kendall's τ-b, τ_AP (the
ranking under ``qrels_b`` against the one under ``qrels_a``; ties averaged) and RBO_ext.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _options as opt
from .._arrow import from_np, to_np
from .._options import KappaWeights, Level
from .._result import Result, provenance
from ..errors import InputError, InputWarning, shown
from ..report.reported import Reported

if TYPE_CHECKING:
    from ..data import Qrels, RunLike
    from ..metrics import Metric
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["AssessorAgreement", "assessor_agreement"]


@dataclass(frozen=True, eq=False, repr=False)
class AssessorAgreement(Result, Reported):
    """Agreement between two qrels (Voorhees 2000), made by :func:`assessor_agreement`.

    Parameters
    ----------
    topics : tuple of mapping
        One mapping per topic: topic, n_docs, n_relevant_a, n_relevant_b, overlap, kappa,
        alpha.
    overall : mapping
        The pooled row (topic None), plus ``mean_overlap``.
    rankings : tuple of mapping
        One mapping per metric (metric, n_runs, kendall_tau, kendall_pvalue, tau_ap,
        rbo_ext) when runs were given.
    warnings : tuple of str
        What was left out.
    provenance : mapping
        The options (rel, level, weights, p) and the number of runs.

    Examples
    --------
    >>> from assay import Qrels, meta
    >>> a = Qrels.from_dict({"q1": {"d1": 1, "d2": 0, "d3": 1}, "q2": {"d1": 0, "d2": 1}})
    >>> b = Qrels.from_dict({"q1": {"d1": 1, "d2": 1, "d3": 1}, "q2": {"d1": 0, "d2": 1}})
    >>> agreement = meta.assessor_agreement(a, b)
    >>> [(t["topic"], t["overlap"]) for t in agreement.topics]
    [('q1', 0.6666666666666666), ('q2', 1.0)]
    """

    family = "meta"

    topics: tuple[Mapping[str, Any], ...]  # Any: str, int or float per column
    overall: Mapping[str, Any]  # Any: str, int or float per column
    rankings: tuple[Mapping[str, Any], ...] = ()  # Any: str, int or float per column
    warnings: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    def records(self) -> list[dict[str, Any]]:
        """Per-topic rows (``aggregate`` None), the pooled row (``topic`` None, ``aggregate``
        "pooled"), then one row per metric's rankings."""
        rows = [{"kind": "topic", "aggregate": None, **t} for t in self.topics]
        rows.append({"kind": "topic", "aggregate": "pooled", **self.overall})
        rows += [{"kind": "ranking", **r} for r in self.rankings]
        return rows

    def report(self) -> Report:
        """The table ``assay meta`` prints and the records."""
        from .report import assessors_report

        return assessors_report(self)

    def document(self) -> Document:
        """The ``--report`` content: :meth:`report`'s tables under "Assessor agreement"."""
        from ..report.sections_tasks import tables_document

        return tables_document("Assessor agreement", self.family, self.report())


def _strings(qrels: Any) -> tuple[Any, Any, np.ndarray]:
    q = qrels.query_ids.take(from_np(np.asarray(qrels.query_codes)))
    d = qrels.doc_ids.take(from_np(np.asarray(qrels.doc_codes)))
    return q, d, np.asarray(qrels.grades)


def _joined(
    qrels_a: Any, qrels_b: Any
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Topics (row-aligned), grades a and b of the documents both judged, and notes."""
    import pyarrow as pa

    qa, da, ga = _strings(qrels_a)
    qb, db, gb = _strings(qrels_b)
    ta = pa.table({"q": qa, "d": da, "ga": from_np(ga)})
    tb = pa.table({"q": qb, "d": db, "gb": from_np(gb)})
    both = ta.join(tb, keys=["q", "d"], join_type="inner").sort_by([("q", "ascending")])
    notes = []
    only_a = len(ta) - len(both)
    only_b = len(tb) - len(both)
    if only_a or only_b:
        notes.append(
            f"{only_a} judgments only in qrels a and {only_b} only in qrels b were left out "
            "(agreement is over the documents both judged)"
        )
    topics_a, topics_b = set(qrels_a.queries), set(qrels_b.queries)
    if topics_a != topics_b:
        diff = sorted(topics_a ^ topics_b)
        listed = ", ".join(shown(t) for t in diff[:3])
        notes.append(f"{len(diff)} topics are in only one qrels, e.g. {listed}")
    topics = both.column("q").to_pylist()
    g_a = to_np(both.column("ga")).astype(np.int64)
    g_b = to_np(both.column("gb")).astype(np.int64)
    return topics, np.arange(len(topics)), g_a, g_b, notes


def _row(g_a: np.ndarray, g_b: np.ndarray, rel: int, level: str, weights: Any) -> dict[str, Any]:
    from ..agreement import cohen_kappa, krippendorff_alpha

    ra, rb = g_a >= rel, g_b >= rel
    union = int(np.count_nonzero(ra | rb))
    labels = np.union1d(g_a, g_b)
    kappa = cohen_kappa(g_a, g_b, weights=weights, labels=labels, zero_division="nan").value
    alpha = krippendorff_alpha(np.column_stack([g_a, g_b]).astype(float), level=level).alpha
    return {
        "n_docs": len(g_a),
        "n_relevant_a": int(ra.sum()),
        "n_relevant_b": int(rb.sum()),
        "overlap": int(np.count_nonzero(ra & rb)) / union if union else math.nan,
        "kappa": float(kappa),
        "alpha": float(alpha),
    }


def assessor_agreement(
    qrels_a: Qrels,
    qrels_b: Qrels,
    *,
    runs: Sequence[RunLike] | Mapping[str, RunLike] = (),
    metrics: str | Metric | Sequence[str | Metric] = ("map",),
    rel: int = 1,
    level: Level = "ordinal",
    weights: KappaWeights | None = None,
    p: float = 0.9,
) -> AssessorAgreement:
    """Agreement of two qrels of the same topics (Voorhees 2000) per topic and overall, and,
    with ``runs``, the correlation of the system rankings each qrels induces for every metric
    (see the module documentation). ``rel``: lowest relevant grade for the overlap; ``level``:
    Krippendorff's α level; ``weights``: Cohen's κ weights; ``p``: RBO's persistence.

    Parameters
    ----------
    qrels_a, qrels_b : Qrels
        The two assessors' judgments of the same topics.
    runs : sequence or mapping of RunLike
        Runs ranked under each qrels by every metric (none: no ranking correlations; else
        at least 2).
    metrics : str, Metric or a sequence of them
        The metrics whose system rankings are compared.
    rel : int
        The lowest relevant grade (for the overlap).
    level : str
        Krippendorff's α level (``nominal``, ``ordinal``, ``interval``, ``ratio``).
    weights : {"linear", "quadratic"}, optional
        Cohen's κ weights (None: unweighted).
    p : float
        RBO's persistence.

    Returns
    -------
    AssessorAgreement
        Per-topic and pooled overlap, κ and α, and the ranking correlations; ``report()``
        is the table ``assay meta assessors`` prints.

    Examples
    --------
    >>> from assay import Qrels, meta
    >>> a = Qrels.from_dict({"q1": {"d1": 1, "d2": 0, "d3": 1}, "q2": {"d1": 0, "d2": 1}})
    >>> b = Qrels.from_dict({"q1": {"d1": 1, "d2": 1, "d3": 1}, "q2": {"d1": 0, "d2": 1}})
    >>> meta.assessor_agreement(a, b).overall["overlap"]
    0.75
    """
    where = "assessor_agreement"
    rel = opt.integer(rel, "rel", minimum=1, where=where)
    level = opt.choice(level, Level, "level", where=where)
    if weights is not None:
        weights = opt.choice(weights, KappaWeights, "weights", where=where)
    p = opt.number(p, "p", low=0, high=1, low_open=True, high_open=True, where=where)
    topics, _, g_a, g_b, notes = _joined(qrels_a, qrels_b)
    if not topics:
        raise InputError(f"{where}: the two qrels have no judged (topic, document) in common")
    rows = []
    bounds = np.flatnonzero(np.array(topics[1:]) != np.array(topics[:-1])) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(topics)], strict=True):
        rows.append({"topic": topics[lo], **_row(g_a[lo:hi], g_b[lo:hi], rel, level, weights)})
    overall = {"topic": None, **_row(g_a, g_b, rel, level, weights)}
    overall["mean_overlap"] = (
        float(np.nanmean([r["overlap"] for r in rows]))
        if any(not math.isnan(r["overlap"]) for r in rows)
        else math.nan
    )
    rankings = _rankings(qrels_a, qrels_b, runs, metrics, p) if len(runs) else []
    for note in notes:
        warnings.warn(f"{where}: {note}", InputWarning, stacklevel=2)
    return AssessorAgreement(
        topics=tuple(rows),
        overall=overall,
        rankings=tuple(rankings),
        warnings=tuple(notes),
        provenance=provenance(rel=rel, level=level, weights=weights, p=p, n_runs=len(runs)),
    )


def _rankings(
    qrels_a: Qrels,
    qrels_b: Qrels,
    runs: Any,
    metrics: str | Metric | Sequence[str | Metric],
    p: float,
) -> list[dict[str, Any]]:
    from ..evaluation import evaluate
    from ..stats import system_rank_correlation
    from .overlap import rbo_systems

    if len(runs) < 2:
        raise InputError("assessor_agreement: comparing system rankings needs at least 2 runs")
    res_a = evaluate(qrels_a, runs, metrics)
    res_b = evaluate(qrels_b, runs, metrics)
    out = []
    for m in res_a.metric_names:
        mean_a = {r: float(res_a[r, m].aggregate) for r in res_a.runs}
        mean_b = {r: float(res_b[r, m].aggregate) for r in res_b.runs}
        tau = system_rank_correlation(mean_a, mean_b, method="kendall", confidence=None)
        ap = system_rank_correlation(mean_a, mean_b, method="tau_ap", ties="average")
        out.append(
            {
                "metric": m,
                "n_runs": len(mean_a),
                "kendall_tau": float(tau.statistic),
                "kendall_pvalue": float(tau.pvalue),
                "tau_ap": float(ap.statistic),
                "rbo_ext": float(rbo_systems(mean_a, mean_b, p=p).ext),
            }
        )
    return out
