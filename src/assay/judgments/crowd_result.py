"""The result of a label aggregation: :class:`LabelAggregation` (per task the aggregated label
and its posterior, per worker the skill, convergence in provenance), its rows
(:meth:`~LabelAggregation.records`, :meth:`~LabelAggregation.workers`) and the file of
aggregated labels (:meth:`~LabelAggregation.write_labels`). Its tables and plots are built by
:mod:`assay.judgments.render_crowd`."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _options as opt
from .._result import Result, provenance
from ..errors import InputError, OptionError, shown
from ..report.reported import Reported
from ._fit import CrowdFit, FloatArray, IntArray
from .options import TableFormat

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report
    from .labels import CrowdLabels

__all__ = ["TASK_COLUMNS", "WORKER_COLUMNS", "LabelAggregation", "build"]

#: The leading columns of the task rows; one ``p_<class>`` column per class follows.
TASK_COLUMNS = ("task", "label", "posterior", "n_labels")
#: The columns of the worker rows (``gold_*`` with gold labels, the method's own after).
WORKER_COLUMNS = ("worker", "n_labels", "skill")
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".parquet": "parquet"}


@dataclass(frozen=True, eq=False, repr=False)
class LabelAggregation(Result, Reported):
    """Crowd labels aggregated by one method.

    Per task (in ``tasks`` order): ``label`` (the aggregated label's code into ``classes``),
    ``posterior`` (tasks x classes, rows summing to 1) and ``n_task_labels``; per worker (in
    ``workers`` order): ``skill`` (in [0, 1]; NaN for a worker the method cannot rate) and
    ``n_worker_labels``; the method's other fitted arrays (``confusion``: workers x true x
    given; ``prior``; ``difficulty``: one per task; ``extra``: by name, e.g. GLAD's
    ``alpha``, MACE's ``spamming``). With gold labels: ``gold`` (one class code per task, -1
    unknown), ``gold_accuracy`` (per worker, NaN for a worker without a gold task) and
    :attr:`aggregate_gold_accuracy`. Convergence (``iterations``, ``converged``, ``change``,
    ``log_likelihood``) is also in ``provenance``.

    ``records()``: one row per task (``task``, ``label``, ``posterior`` of the label,
    ``n_labels``, ``gold`` when given, ``p_<class>`` per class); ``worker_records()``: one row per
    worker; ``report()``: a summary, the least certain tasks and the least skilled workers;
    ``write_labels(path)``: every task row to CSV, TSV, JSON Lines or Parquet. Built by
    :func:`~assay.judgments.aggregate_labels` and the declared methods.

    Parameters
    ----------
    method : str
        The aggregation method.
    tasks, workers, classes : tuple of str
        The task ids, worker ids and classes.
    label : numpy.ndarray
        The aggregated label of each task, as a code into ``classes``.
    posterior : numpy.ndarray
        Tasks x classes.
    skill : numpy.ndarray
        One number per worker.
    n_task_labels, n_worker_labels : numpy.ndarray
        Labels per task and per worker.
    confusion, prior, difficulty : numpy.ndarray, optional
        The method's confusion matrices, class prior and task difficulties.
    extra : mapping of str to numpy.ndarray
        Other fitted arrays, by name.
    gold : numpy.ndarray, optional
        The known class code of each task (-1: unknown).
    gold_accuracy : numpy.ndarray, optional
        Each worker's accuracy on the gold tasks.
    n_worker_gold : numpy.ndarray, optional
        Labels each worker gave on gold tasks.
    iterations : int
        Steps taken (0 for closed forms).
    converged : bool
        Whether the last change fell below the tolerance.
    change : float
        The last step's change.
    log_likelihood : float, optional
        The final objective, where the method has one.
    source : str
        Where the labels came from.
    provenance : mapping
        The method, its options and the convergence.

    Examples
    --------
    >>> from assay.judgments import aggregate_labels
    >>> rows = {"task": ["t1", "t1", "t2"], "worker": ["a", "b", "a"], "label": ["x", "x", "y"]}
    >>> result = aggregate_labels(rows, method="majority_vote")
    >>> result.records()[0]
    {'task': 't1', 'label': 'x', 'posterior': 1.0, 'n_labels': 2, 'p_x': 1.0, 'p_y': 0.0}
    >>> result
    LabelAggregation(majority_vote: 2 tasks, 2 workers, 3 labels, classes 'x', 'y'; labels x: 1, y: 1)
    """

    family = "judgments"

    method: str
    tasks: tuple[str, ...]
    workers: tuple[str, ...]
    classes: tuple[str, ...]
    label: IntArray
    posterior: FloatArray
    skill: FloatArray
    n_task_labels: IntArray
    n_worker_labels: IntArray
    confusion: FloatArray | None = None
    prior: FloatArray | None = None
    difficulty: FloatArray | None = None
    extra: Mapping[str, FloatArray] = field(default_factory=dict)
    gold: IntArray | None = None
    gold_accuracy: FloatArray | None = None
    n_worker_gold: IntArray | None = None
    iterations: int = 0
    converged: bool = True
    change: float = 0.0
    log_likelihood: float | None = None
    source: str = "<columns>"
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __repr__(self) -> str:
        from ._table import shown_values

        counts = np.bincount(self.label, minlength=len(self.classes))
        parts = [f"{_cut(c)}: {int(n)}" for c, n in zip(self.classes, counts, strict=True)]
        more = f", … {len(parts) - 8} more" if len(parts) > 8 else ""
        text = (
            f"LabelAggregation({self.method}: {len(self.tasks)} tasks, {len(self.workers)} "
            f"workers, {int(self.n_task_labels.sum())} labels, classes "
            f"{shown_values(self.classes)}; labels {', '.join(parts[:8])}{more}"
        )
        if self.iterations:
            state = "converged" if self.converged else "not converged"
            text += f"; {state} after {self.iterations} iterations"
        if self.gold is not None:
            text += f"; gold accuracy {self.aggregate_gold_accuracy:.4g}"
        return text + ")"

    # ------------------------------------------------------------ per task

    @property
    def n_gold(self) -> int:
        """Tasks with a known true label (0 without gold labels)."""
        return 0 if self.gold is None else int(np.count_nonzero(self.gold >= 0))

    @property
    def aggregate_gold_accuracy(self) -> float:
        """The share of the gold tasks whose aggregated label is the true one (NaN: none)."""
        if self.gold is None or self.n_gold == 0:
            return math.nan
        known = self.gold >= 0
        return float(np.mean(self.label[known] == self.gold[known]))

    @property
    def confidence(self) -> FloatArray:
        """The posterior of each task's aggregated label."""
        return self.posterior[np.arange(len(self.tasks)), self.label]

    def label_of(self, task: str) -> str:
        """The aggregated label of ``task``.

        Parameters
        ----------
        task : str
            A task id.

        Returns
        -------
        str
            Its aggregated label.

        Examples
        --------
        >>> from assay.judgments import aggregate_labels
        >>> rows = {"task": ["q1"], "worker": ["w"], "label": ["yes"]}
        >>> aggregate_labels(rows, method="majority_vote").label_of("q1")
        'yes'
        """
        try:
            i = self._task_index[str(task)]
        except KeyError:
            raise InputError(f"no task {shown(str(task))} in the labels") from None
        return self.classes[int(self.label[i])]

    @functools.cached_property
    def _task_index(self) -> dict[str, int]:
        # built once: label_of in a loop over every task stays linear
        return {t: i for i, t in enumerate(self.tasks)}

    @property
    def task_columns(self) -> tuple[str, ...]:
        """The columns of :meth:`records`, in order."""
        gold = ("gold",) if self.gold is not None else ()
        return (*TASK_COLUMNS, *gold, *(f"p_{c}" for c in self.classes))

    def records(self) -> list[dict[str, Any]]:
        """One row per task: ``task``, ``label``, ``posterior`` (of the label), ``n_labels``,
        ``gold`` (the true label or None, with gold labels) and ``p_<class>`` per class."""
        labels = [self.classes[c] for c in self.label.tolist()]
        conf = self.confidence.tolist()
        counts = self.n_task_labels.tolist()
        probs = self.posterior.tolist()
        keys = [f"p_{c}" for c in self.classes]
        gold = None if self.gold is None else self.gold.tolist()
        rows = []
        for i, task in enumerate(self.tasks):
            row: dict[str, Any] = {
                "task": task,
                "label": labels[i],
                "posterior": conf[i],
                "n_labels": counts[i],
            }
            if gold is not None:
                row["gold"] = self.classes[gold[i]] if gold[i] >= 0 else None
            row.update(zip(keys, probs[i], strict=True))
            rows.append(row)
        return rows

    # ------------------------------------------------------------ per worker

    @property
    def worker_columns(self) -> tuple[str, ...]:
        """The columns of :meth:`worker_records`, in order."""
        gold = ("gold_accuracy", "n_gold") if self.gold is not None else ()
        return (*WORKER_COLUMNS, *gold, *self._worker_extras())

    def _worker_extras(self) -> list[str]:
        n = len(self.workers)
        return [k for k, v in self.extra.items() if np.ndim(v) == 1 and len(v) == n]

    def worker_records(self) -> list[dict[str, Any]]:
        """One row per worker: ``worker``, ``n_labels``, ``skill``, with gold labels
        ``gold_accuracy`` and ``n_gold`` (labels on gold tasks), then the method's per-worker
        arrays (GLAD's ``alpha``, MACE's ``spamming``, ...).

        Returns
        -------
        list of dict
            The rows, in ``workers`` order.

        Examples
        --------
        >>> from assay.judgments import aggregate_labels
        >>> rows = {"task": ["t1", "t1"], "worker": ["a", "b"], "label": ["x", "y"]}
        >>> aggregate_labels(rows, method="majority_vote").worker_records()[0]
        {'worker': 'a', 'n_labels': 1, 'skill': 1.0}
        """
        cols: dict[str, list[Any]] = {
            "worker": list(self.workers),
            "n_labels": self.n_worker_labels.tolist(),
            "skill": self.skill.tolist(),
        }
        if self.gold_accuracy is not None and self.n_worker_gold is not None:
            cols["gold_accuracy"] = self.gold_accuracy.tolist()
            cols["n_gold"] = self.n_worker_gold.tolist()
        for key in self._worker_extras():
            cols[key] = np.asarray(self.extra[key], dtype=np.float64).tolist()
        names = list(cols)
        return [
            dict(zip(names, values, strict=True)) for values in zip(*cols.values(), strict=True)
        ]

    # ------------------------------------------------------------ outputs

    def report(self) -> Report:
        from .render_crowd import aggregation_report

        return aggregation_report(self)

    def document(self) -> Document:
        from .render_crowd import aggregation_document

        return aggregation_document(self)

    def write_labels(self, path: str | os.PathLike[str], *, format: str | None = None) -> Path:
        """Write every task row (:meth:`records`) to ``path``, atomically: CSV, TSV, JSON Lines
        or Parquet (from ``format``, else the extension). The labels' own file is refused.

        Parameters
        ----------
        path : str or PathLike
            The file to write.
        format : {"csv", "tsv", "jsonl", "parquet"}, optional
            The format (default: from the extension).

        Returns
        -------
        Path
            The path written.

        Raises
        ------
        OptionError
            An unknown format or extension, or ``path`` naming the labels' file.

        Examples
        --------
        >>> from assay.judgments import aggregate_labels
        >>> rows = {"task": ["t1", "t1"], "worker": ["a", "b"], "label": ["x", "x"]}
        >>> path = aggregate_labels(rows, method="majority_vote").write_labels("agg.csv")
        >>> print(path.read_text(), end="")
        task,label,posterior,n_labels,p_x
        t1,x,1.0,2,1.0
        """
        from .._files import same_file

        fmt = labels_format(os.fspath(path), format)
        source = self.source
        if source != "<columns>" and os.path.exists(source) and same_file(path, source):
            raise OptionError(
                f"{os.fspath(path)} is the labels' own file ({source}): refusing to write over "
                "it; choose another file",
                option="out",
            )
        write_rows(self.records(), self.task_columns, path, fmt)
        return Path(path)


def _cut(text: str, limit: int = 20) -> str:
    text = shown(text)[1:-1] if any(not ch.isprintable() for ch in text) else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def labels_format(path: str, fmt: str | None) -> TableFormat:
    """``fmt``, else the format ``path``'s extension names (an OptionError for neither)."""
    if fmt is not None:
        chosen: TableFormat = opt.choice(fmt, TableFormat, "format")
        return chosen
    ext = Path(path).suffix.lower()
    if ext not in _EXTENSIONS:
        raise OptionError(
            f"{path}: no format of the aggregated labels has the extension {ext or '(none)'} "
            f"(accepted: {', '.join(_EXTENSIONS)})",
            option="out",
        )
    named: TableFormat = opt.choice(_EXTENSIONS[ext], TableFormat, "format")
    return named


def write_rows(
    rows: list[dict[str, Any]],
    columns: tuple[str, ...],
    path: str | os.PathLike[str],
    fmt: TableFormat,
) -> None:
    """``rows`` to ``path`` in ``fmt``, atomically (text through the records renderer, so the
    escaping is every other output's)."""
    from .._files import atomic_open, atomic_path

    if fmt != "parquet":
        from ..report.records import render_records

        text = render_records(rows, fmt, columns=columns)
        with atomic_open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pydict({c: [r.get(c) for r in rows] for c in columns})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


# ---------------------------------------------------------------- building


def build(
    crowd: CrowdLabels,
    method: str,
    fit: CrowdFit,
    options: dict[str, Any],  # Any: the method's options
    gold: IntArray | None,
    fit_gold: bool = False,
) -> LabelAggregation:
    """The result of ``fit`` on ``crowd`` (with ``gold`` codes: scored on them; fitted with
    them fixed when ``fit_gold``)."""
    codes = crowd.codes()
    n_task = np.bincount(codes.task, minlength=codes.n_tasks).astype(np.int64)
    n_worker = np.bincount(codes.worker, minlength=codes.n_workers).astype(np.int64)
    gold_accuracy = gold_counts = None
    if gold is not None:
        from ._voting import gold_accuracy as accuracy_on

        gold_accuracy = accuracy_on(codes, gold)
        on_gold = gold[codes.task] >= 0
        gold_counts = np.bincount(codes.worker[on_gold], minlength=codes.n_workers).astype(np.int64)
    extra = dict(fit.extra)
    return LabelAggregation(
        method=method,
        tasks=crowd.tasks,
        workers=crowd.workers,
        classes=crowd.classes,
        label=np.asarray(fit.labels, dtype=np.int64),
        posterior=np.asarray(fit.posterior, dtype=np.float64),
        skill=np.asarray(fit.worker_skill, dtype=np.float64),
        n_task_labels=n_task,
        n_worker_labels=n_worker,
        confusion=fit.confusion,
        prior=fit.prior,
        difficulty=fit.difficulty,
        extra=extra,
        gold=gold,
        gold_accuracy=gold_accuracy,
        n_worker_gold=gold_counts,
        iterations=int(fit.iterations),
        converged=bool(fit.converged),
        change=float(fit.change),
        log_likelihood=None if fit.log_likelihood is None else float(fit.log_likelihood),
        source=crowd.source,
        provenance=provenance(
            method=method,
            options=options,
            source=crowd.source,
            n_labels=len(crowd),
            iterations=int(fit.iterations),
            converged=bool(fit.converged),
            change=float(fit.change),
            log_likelihood=None if fit.log_likelihood is None else float(fit.log_likelihood),
            n_gold=None if gold is None else int(np.count_nonzero(gold >= 0)),
            fit_gold=fit_gold,
        ),
    )
