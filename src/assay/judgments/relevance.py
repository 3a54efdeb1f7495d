"""Relevance judgments from crowds: :func:`crowd_qrels` turns ``(query, doc, worker, grade)``
rows into qrels, with each judged document's posterior over the grades, the workers'
agreement per topic, and how a set of runs is ranked under the aggregated qrels compared
with majority-vote qrels.

- **Tasks.** A task is one (query, document) pair. Its id is the query and the document
  joined by ``|``, each with ``\\`` and ``|`` escaped by a backslash, so two different pairs
  never share an id (``a|b`` + ``c`` and ``a`` + ``b|c`` stay apart); tasks are numbered in
  order of first appearance.
- **Grades** are integers (a text grade must spell one: ``2``, ``-1``; a float must be
  integral); anything else is an error naming the file and line. The posterior's columns are
  the declared grades (``grades=``) in increasing order, else the grades found.
- **The aggregated grade** (``grade_rule``): ``"argmax"`` (default) is the method's own label,
  the most probable grade under the method's tie rule; ``"expected"`` is the grade of the
  scale nearest to the posterior's expected grade ``sum_g p(g) g`` (halfway between two: the
  higher; on a scale of consecutive integers, the expected grade rounded half up), which
  keeps a document split between grades 1 and 3 at 2 (the argmax would pick one side).
- **Agreement per topic**: Krippendorff's α (:func:`assay.agreement.krippendorff_alpha`,
  ``level="ordinal"`` by default) over the topic's documents as units and the workers'
  grades as values, and over every document of every topic ("overall"). A topic where no
  document has two grades has no α (NaN, ``n_units`` 0); one where every grade is the same
  has none either (NaN, ``defined`` False: Krippendorff's 0/0, never reported as 1).
- **Ranking change** (with ``runs``): every run is evaluated by ``metric`` under the
  majority-vote qrels (the reference) and under the aggregated qrels; the two system
  rankings by mean score are compared with Kendall's τ-b and τ_AP (reference: majority
  vote; ties averaged) (:func:`assay.stats.system_rank_correlation`) and RBO_ext
  (:func:`assay.meta.rbo_systems`), and each run's score difference (aggregated minus
  majority vote) is reported. τ and τ_AP need 3 runs or more (NaN with 2).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .. import _options as opt
from .._arrow import from_np, to_np
from .._options import Level
from .._result import provenance
from ..errors import EmptyInputError, InputError, OptionError, shown
from ._table import Columns, at, encode, first_repeat, first_row, id_strings, read_columns, where
from .crowd_qrels_result import CrowdQrels
from .labels import CrowdLabels
from .options import CrowdMethod, Duplicates, GradeRule

if TYPE_CHECKING:
    from ..data import Qrels, RunLike

__all__ = ["crowd_qrels"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: The fewest runs Kendall's τ and τ_AP are computed for (assay.stats' rule).
_MIN_CORRELATION_RUNS = 3
#: At most 18 digits: every such integer fits an int64.
_INTEGER = r"^\s*[-+]?[0-9]{1,18}\s*$"


@dataclass(frozen=True)
class _Judgments:
    """Crowd grades read and coded: the labels (tasks are (query, doc) pairs), each task's
    query and document ids, and the grade scale (the classes, as integers)."""

    labels: CrowdLabels
    query: pa.Array
    doc: pa.Array
    grades: tuple[int, ...]


def _grade_values(cols: Columns) -> IntArray:
    """The grade column as int64; a missing, non-integer or unreadable grade is an
    :class:`InputError` naming its row."""
    arr = cols.arrays["grade"]
    if pa.types.is_dictionary(arr.type):
        arr = arr.cast(arr.type.value_type)
    if arr.null_count:
        i = first_row(arr.is_null())
        raise InputError(f"the grade is missing{at(cols, i)}", **where(cols, i))
    if pa.types.is_integer(arr.type):
        return to_np(arr).astype(np.int64)
    if pa.types.is_floating(arr.type):
        values = to_np(arr).astype(np.float64)
        bad = ~np.isfinite(values) | (values != np.round(values)) | (np.abs(values) > 2.0**53)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"grade {float(values[i])!r}{at(cols, i)} is not an integer (qrels grades are whole "
                "numbers)",
                **where(cols, i),
            )
        return values.astype(np.int64)
    if pa.types.is_large_string(arr.type) or pa.types.is_string_view(arr.type):
        arr = arr.cast(pa.string())
    if not pa.types.is_string(arr.type):
        raise InputError(f"the grade column must hold integers, got {arr.type}", source=cols.source)
    ok = pc.match_substring_regex(arr, _INTEGER)
    if not pc.all(ok).as_py():
        i = first_row(pc.invert(ok))
        raise InputError(
            f"grade {shown(arr[i].as_py())}{at(cols, i)} is not an integer (qrels grades are "
            "whole numbers)",
            **where(cols, i),
        )
    trimmed = pc.replace_substring(pc.utf8_trim_whitespace(arr), "+", "")
    return to_np(pc.cast(trimmed, pa.int64())).astype(np.int64)


def _declared_grades(grades: Sequence[int] | None) -> tuple[int, ...] | None:
    if grades is None:
        return None
    if isinstance(grades, str | bytes) or not isinstance(grades, Sequence) or not grades:
        raise OptionError("grades= must be a non-empty sequence of integers", option="grades")
    out = tuple(opt.integer(g, "grades", where="crowd_qrels") for g in grades)
    if len(set(out)) != len(out):
        raise OptionError(f"grades= repeats a value: {list(out)!r}", option="grades")
    return tuple(sorted(out))


def _grade_codes(
    values: IntArray, declared: tuple[int, ...] | None, cols: Columns
) -> tuple[IntArray, tuple[int, ...]]:
    """Class codes into the grade scale (declared, else the grades found), increasing."""
    scale = np.unique(values) if declared is None else np.asarray(declared, dtype=np.int64)
    codes = np.searchsorted(scale, values)
    outside = (codes >= len(scale)) | (scale[np.minimum(codes, len(scale) - 1)] != values)
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        listed = ", ".join(str(int(g)) for g in scale)
        raise InputError(
            f"grade {int(values[i])}{at(cols, i)} is not one of the declared grades {listed}",
            **where(cols, i),
        )
    return codes.astype(np.int64), tuple(int(g) for g in scale)


def _escaped(ids: pa.Array) -> pa.Array:
    return pc.replace_substring(pc.replace_substring(ids, "\\", "\\\\"), "|", "\\|")


def _pairs(query: pa.Array, doc: pa.Array) -> tuple[IntArray, IntArray, tuple[str, ...]]:
    """Task codes of the rows ((query, doc) pairs in order of first appearance), the first
    row of each task, and the task ids."""
    q, _qids = encode(query)
    d, dids = encode(doc)
    key = q * max(len(dids), 1) + d
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    task = rank[inverse.reshape(-1)]
    rows = first[order].astype(np.int64)
    ids = pc.binary_join_element_wise(
        _escaped(query.take(from_np(rows))), _escaped(doc.take(from_np(rows))), "|"
    )
    return task, rows, tuple(ids.to_pylist())


def _check_repeats(
    task: IntArray,
    worker: IntArray,
    n_workers: int,
    cols: Columns,
    query: pa.Array,
    doc: pa.Array,
    workers: tuple[str, ...],
) -> None:
    """A worker grading the same (query, doc) twice is an error naming both rows."""
    found = first_repeat(task, worker, n_workers, cols)
    if found is None:
        return
    second, earlier = found
    raise InputError(
        f"worker {shown(workers[int(worker[second])])} grades document "
        f"{shown(doc[second].as_py())} of query {shown(query[second].as_py())} again"
        f"{at(cols, second)}{earlier}; pass duplicates='keep' (--duplicates keep) to count "
        "both grades",
        **where(cols, second),
    )


def read_judgments(
    judgments: Any,  # Any: a path, a DataFrame, a pyarrow Table or a mapping of columns
    *,
    format: str | None = None,
    query: str = "query",
    doc: str = "doc",
    worker: str = "worker",
    grade: str = "grade",
    grades: Sequence[int] | None = None,
    duplicates: Duplicates = "error",
) -> _Judgments:
    """The crowd grades of ``judgments`` as :class:`CrowdLabels` whose tasks are (query,
    document) pairs (see the module documentation)."""
    duplicates = opt.choice(duplicates, Duplicates, "duplicates", where="crowd_qrels")
    declared = _declared_grades(grades)
    cols = read_columns(
        judgments, {"query": query, "doc": doc, "worker": worker, "grade": grade}, format=format
    )
    q_ids = id_strings(cols, "query", "query")
    d_ids = id_strings(cols, "doc", "document")
    worker_codes, workers = encode(id_strings(cols, "worker", "worker"))
    label, scale = _grade_codes(_grade_values(cols), declared, cols)
    task, rows, tasks = _pairs(q_ids, d_ids)
    if duplicates == "error":
        _check_repeats(task, worker_codes, len(workers), cols, q_ids, d_ids, workers)
    labels = CrowdLabels(
        tasks=tasks,
        workers=workers,
        classes=tuple(str(g) for g in scale),
        task=task,
        worker=worker_codes,
        label=label,
        source=cols.source,
    )
    taken = from_np(rows)
    return _Judgments(labels, q_ids.take(taken), d_ids.take(taken), scale)


# ------------------------------------------------------------------------- aggregation


def _posterior_and_labels(aggregation: Any) -> tuple[FloatArray, IntArray]:  # Any: a result
    """The per-task posterior (tasks x grades) and label codes of a label aggregation."""
    posterior = np.asarray(aggregation.posterior, dtype=np.float64)
    labels = np.asarray(aggregation.label, dtype=np.int64)
    return posterior, labels


def _grade_of(
    posterior: FloatArray, labels: IntArray, scale: tuple[int, ...], rule: str
) -> IntArray:
    grades = np.asarray(scale, dtype=np.int64)
    if rule == "argmax":
        return grades[labels]
    expected = posterior @ grades.astype(np.float64)
    # the nearest grade of the scale; halfway between two, the higher (scanned from the top)
    distance = np.abs(grades[None, ::-1] - expected[:, None])
    nearest: IntArray = grades[::-1][np.argmin(distance, axis=1)]
    return nearest


def _qrels(j: _Judgments, grade: IntArray, what: str) -> Qrels:
    from ..data import Qrels

    return Qrels.from_columns(j.query, j.doc, grade, source=f"{j.labels.source} ({what})")


# --------------------------------------------------------------------------- agreement


def _topic_alpha(counts: FloatArray, scale: tuple[int, ...], level: str) -> dict[str, Any]:
    from ..agreement import krippendorff_alpha

    try:
        res = krippendorff_alpha(counts, counts=True, values=list(scale), level=level)
    except EmptyInputError:  # no document of the topic has two grades: nothing pairable
        return {"alpha": math.nan, "n_units": 0, "n_pairable": 0, "defined": False}
    return {
        "alpha": float(res.alpha),
        "n_units": int(res.n_units),
        "n_pairable": int(res.n_pairable),
        "defined": bool(res.defined),
    }


def _agreement(j: _Judgments, level: str) -> tuple[tuple[dict[str, Any], ...], dict[str, Any]]:
    """Krippendorff's α per topic (its documents as units) and over every document."""
    labels = j.labels
    n_tasks, n_grades = len(labels.tasks), len(j.grades)
    flat = np.bincount(labels.task * n_grades + labels.label, minlength=n_tasks * n_grades)
    counts = flat.reshape(n_tasks, n_grades).astype(np.float64)
    q, topics = encode(j.query)
    order = np.argsort(q, kind="stable")
    bounds = np.searchsorted(q[order], np.arange(len(topics) + 1))
    per_doc = counts.sum(axis=1)
    rows = []
    for t, topic in enumerate(topics):  # one α per topic: a loop over topics, not rows
        members = order[bounds[t] : bounds[t + 1]]
        rows.append(
            {
                "query": topic,
                "n_docs": len(members),
                "n_labels": int(per_doc[members].sum()),
                **_topic_alpha(counts[members], j.grades, level),
            }
        )
    overall = {
        "query": None,
        "n_docs": n_tasks,
        "n_labels": len(labels),
        **_topic_alpha(counts, j.grades, level),
    }
    return tuple(rows), overall


# ------------------------------------------------------------------------ ranking change


def _ranks(scores: FloatArray) -> IntArray:
    """1 for the best; tied scores share the best rank of their group."""
    better: IntArray = (scores[None, :] > scores[:, None]).sum(axis=1).astype(np.int64)
    return better + 1


def _ranking_change(
    reference: Qrels, aggregated: Qrels, runs: Any, metric: str, p: float
) -> tuple[tuple[dict[str, Any], ...], dict[str, Any]]:  # Any: runs as evaluate takes them
    """Each run's mean ``metric`` under both qrels, and the rankings' τ, τ_AP and RBO."""
    from ..evaluation import evaluate
    from ..meta import rbo_systems
    from ..stats import system_rank_correlation

    res_ref = evaluate(reference, runs, [metric])
    with warnings.catch_warnings():  # the same runs and queries: its notes were just given
        warnings.simplefilter("ignore")
        res_agg = evaluate(aggregated, runs, [metric])
    name = res_ref.metric_names[0]
    systems = list(res_ref.runs)
    if len(systems) < 2:
        raise InputError("crowd_qrels: comparing system rankings needs at least 2 runs")
    ref = np.array([float(res_ref[r, name].aggregate) for r in systems])
    agg = np.array([float(res_agg[r, name].aggregate) for r in systems])
    rank_ref, rank_agg = _ranks(ref), _ranks(agg)
    scores = tuple(
        {
            "system": s,
            "majority_vote": float(ref[i]),
            "aggregated": float(agg[i]),
            "difference": float(agg[i] - ref[i]),
            "rank_majority_vote": int(rank_ref[i]),
            "rank_aggregated": int(rank_agg[i]),
        }
        for i, s in enumerate(systems)
    )
    by_ref = dict(zip(systems, ref.tolist(), strict=True))
    by_agg = dict(zip(systems, agg.tolist(), strict=True))
    tau = tau_p = tau_ap = math.nan  # the correlations need 3 runs: with 2, RBO alone
    if len(systems) >= _MIN_CORRELATION_RUNS:
        kendall = system_rank_correlation(by_ref, by_agg, method="kendall", confidence=None)
        tau, tau_p = float(kendall.statistic), float(kendall.pvalue)
        ap = system_rank_correlation(by_ref, by_agg, method="tau_ap", ties="average")
        tau_ap = float(ap.statistic)
    change = {
        "metric": name,
        "n_runs": len(systems),
        "kendall_tau": tau,
        "kendall_pvalue": tau_p,
        "tau_ap": tau_ap,
        "rbo_ext": float(rbo_systems(by_ref, by_agg, p=p).ext),
        "p": p,
    }
    return scores, change


# ------------------------------------------------------------------------------ the call


def crowd_qrels(
    judgments: Any,  # Any: a path, a DataFrame, a pyarrow Table or a mapping of columns
    *,
    method: CrowdMethod = "dawid_skene",
    query: str = "query",
    doc: str = "doc",
    worker: str = "worker",
    grade: str = "grade",
    format: str | None = None,
    grades: Sequence[int] | None = None,
    duplicates: Duplicates = "error",
    grade_rule: GradeRule = "argmax",
    level: Level = "ordinal",
    runs: Sequence[RunLike] | Mapping[str, RunLike] | None = None,
    metric: str = "ndcg@10",
    p: float = 0.9,
    **method_options: Any,  # Any: the options of the aggregation method
) -> CrowdQrels:
    """Qrels from crowd relevance judgments: each (query, document)'s grades aggregated by
    ``method``, with its posterior over the grades, the workers' agreement per topic and,
    with ``runs``, how the system ranking changes against majority-vote qrels (see the
    module documentation for the rules).

    Parameters
    ----------
    judgments : str, PathLike, DataFrame, pyarrow.Table or mapping
        Rows ``(query, doc, worker, grade)``: a CSV/TSV/Parquet/JSON Lines file, a pandas or
        polars DataFrame, a pyarrow Table or a mapping of columns.
    method : str
        The label aggregation method (:func:`~assay.judgments.aggregate_labels`:
        ``dawid_skene``, ``majority_vote``, ``wawa``, ``glad``, ``mace`` ...).
    query, doc, worker, grade : str
        The columns holding the query id, document id, worker id and grade.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        The file's format (default: from its extension).
    grades : sequence of int, optional
        The declared grade scale; a grade outside it is an error (default: the grades found).
    duplicates : {"error", "keep"}
        A worker grading the same document of a query twice: an error naming both lines, or
        two votes.
    grade_rule : {"argmax", "expected"}
        The aggregated grade: the method's label (the most probable grade), or the grade of
        the scale nearest to the posterior's expected grade (halfway: the higher).
    level : {"nominal", "ordinal", "interval", "ratio"}
        Krippendorff's α level of measurement for the agreement per topic.
    runs : sequence or mapping of RunLike, optional
        Runs (at least 2) ranked under the majority-vote and the aggregated qrels.
    metric : str
        The metric the runs are ranked by (``"ndcg@10"``, ``"map"`` ...).
    p : float
        RBO's persistence, in (0, 1).
    **method_options
        The method's options (``max_iter``, ``tolerance``, ``seed`` ...).

    Returns
    -------
    CrowdQrels
        The qrels, the posteriors, the agreement per topic and the ranking change;
        ``report()`` is what ``assay crowd-qrels`` prints, ``write_qrels(path)`` writes the
        qrels as a TREC file.

    Raises
    ------
    InputError
        Naming the file and line: a missing value, a grade that is not an integer or is
        outside ``grades``, a worker grading a document twice.

    Examples
    --------
    >>> from assay.judgments import crowd_qrels
    >>> rows = {"query": ["q1"] * 6 + ["q2"] * 3,
    ...         "doc": ["d1", "d1", "d1", "d2", "d2", "d2", "d1", "d1", "d1"],
    ...         "worker": ["a", "b", "c"] * 3,
    ...         "grade": [2, 2, 2, 0, 0, 1, 1, 1, 1]}
    >>> res = crowd_qrels(rows, method="majority_vote")
    >>> list(res.qrels)
    [('q1', 'd1', 2), ('q1', 'd2', 0), ('q2', 'd1', 1)]
    >>> res.posterior.shape
    (3, 3)
    """
    where_ = "crowd_qrels"
    grade_rule = opt.choice(grade_rule, GradeRule, "grade_rule", where=where_)
    level = opt.choice(level, Level, "level", where=where_)
    p = opt.number(p, "p", low=0, high=1, low_open=True, high_open=True, where=where_)
    metric = _metric_name(metric)
    from .aggregation import aggregate_labels

    j = read_judgments(
        judgments,
        format=format,
        query=query,
        doc=doc,
        worker=worker,
        grade=grade,
        grades=grades,
        duplicates=duplicates,
    )
    aggregation = aggregate_labels(j.labels, method=method, **method_options)
    majority = (
        aggregation
        if method == "majority_vote" and not method_options
        else aggregate_labels(j.labels, method="majority_vote")
    )
    posterior, label_codes = _posterior_and_labels(aggregation)
    mv_posterior, mv_codes = _posterior_and_labels(majority)
    aggregated_grade = _grade_of(posterior, label_codes, j.grades, grade_rule)
    majority_grade = _grade_of(mv_posterior, mv_codes, j.grades, "argmax")
    qrels = _qrels(j, aggregated_grade, method)
    majority_qrels = _qrels(j, majority_grade, "majority_vote")
    topics, overall = _agreement(j, level)
    scores: tuple[dict[str, Any], ...] = ()
    change: dict[str, Any] | None = None
    n_runs = 0 if runs is None else len(runs)
    if n_runs:
        scores, change = _ranking_change(majority_qrels, qrels, runs, metric, p)
    return CrowdQrels(
        qrels=qrels,
        majority_qrels=majority_qrels,
        query=j.query,
        doc=j.doc,
        grades=j.grades,
        posterior=posterior,
        grade=aggregated_grade,
        majority_grade=majority_grade,
        n_labels=np.bincount(j.labels.task, minlength=len(j.labels.tasks)).astype(np.int64),
        agreement=topics,
        overall=overall,
        scores=scores,
        ranking=change,
        aggregation=aggregation,
        provenance=provenance(
            source=j.labels.source,
            method=method,
            method_options=dict(method_options),
            grade_rule=grade_rule,
            grades=list(j.grades),
            duplicates=duplicates,
            level=level,
            metric=metric,
            p=p,
            n_runs=n_runs,
            n_labels=len(j.labels),
            n_workers=len(j.labels.workers),
            aggregation=dict(getattr(aggregation, "provenance", {}) or {}),
        ),
    )


def _metric_name(metric: Any) -> str:  # Any: checked here
    """``metric`` checked against the registry: one metric, else an OptionError."""
    from ..metrics import parse

    if not isinstance(metric, str) or not metric:
        raise OptionError(f"metric= must name a metric, got {metric!r}", option="metric")
    try:
        parsed = parse(metric)
    except OptionError as exc:
        raise OptionError(f"metric={metric!r}: {exc}", option="metric") from None
    if len(parsed) != 1:
        raise OptionError(
            f"metric={metric!r} names {len(parsed)} metrics; give one", option="metric"
        )
    return metric
