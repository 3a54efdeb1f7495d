"""Crowd labels: :class:`CrowdLabels`, rows ``(task, worker, label)`` (crowd-kit's column
names), and :func:`read_crowd_labels`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._arrow import to_np
from ..errors import InputError, OptionError, shown
from ._fit import CrowdCodes
from ._table import (
    Columns,
    at,
    encode,
    first_repeat,
    first_row,
    id_strings,
    read_columns,
    shown_values,
    where,
)
from .options import Duplicates

__all__ = ["CrowdLabels", "read_crowd_labels"]

_INTEGER = re.compile(r"-?[0-9]+\Z")


@dataclass(frozen=True, eq=False, repr=False)
class CrowdLabels:
    """Labels given to tasks by workers, in input order.

    ``tasks``/``workers``: the ids in order of first appearance; ``classes``: the label
    values, in the declared order (``labels=``), else numerically when every value is an
    integer, else in byte order — the order in which ties between classes are broken;
    ``task``/``worker``/``label``: one code per row into them; ``source``: where the rows
    came from.

    Parameters
    ----------
    tasks, workers, classes : tuple of str
        The distinct task ids, worker ids and label values.
    task, worker, label : numpy.ndarray
        One code per row into ``tasks``, ``workers`` and ``classes`` (int64).
    source : str
        Where the rows came from, for messages and provenance.

    Examples
    --------
    >>> from assay.judgments import CrowdLabels
    >>> rows = {"task": ["t1", "t1", "t2"], "worker": ["w1", "w2", "w1"], "label": [1, 0, 1]}
    >>> labels = CrowdLabels.read(rows)
    >>> labels
    CrowdLabels('<columns>': 3 labels of 2 tasks by 2 workers, classes '0', '1')
    >>> labels.label.tolist()
    [1, 0, 1]
    """

    tasks: tuple[str, ...]
    workers: tuple[str, ...]
    classes: tuple[str, ...]
    task: NDArray[np.int64]
    worker: NDArray[np.int64]
    label: NDArray[np.int64]
    source: str = "<columns>"

    def __len__(self) -> int:
        return len(self.task)

    def __repr__(self) -> str:
        return (
            f"CrowdLabels({shown(self.source)}: {len(self)} labels of {len(self.tasks)} tasks by "
            f"{len(self.workers)} workers, classes {shown_values(self.classes)})"
        )

    def codes(self) -> CrowdCodes:
        """The rows as integer codes, what the aggregation kernels take.

        Returns
        -------
        CrowdCodes
            Task, worker and label codes with the numbers of each.

        Examples
        --------
        >>> from assay.judgments import CrowdLabels
        >>> c = CrowdLabels.read({"task": ["a", "b"], "worker": ["u", "u"], "label": ["x", "y"]})
        >>> c.codes().n_tasks, c.codes().n_labels
        (2, 2)
        """
        return CrowdCodes(
            self.task,
            self.worker,
            self.label,
            len(self.tasks),
            len(self.workers),
            len(self.classes),
        )

    def gold_codes(self, gold: Any) -> NDArray[np.int64]:  # Any: a mapping, Series, path or frame
        """Known true labels as one class code per task (-1: unknown).

        Parameters
        ----------
        gold : mapping, pandas.Series, str, PathLike or DataFrame
            Task id -> true label (crowd-kit's ``true_labels`` Series, indexed by task), or a
            table with ``task`` and ``label`` columns (``true_label`` is accepted too).

        Returns
        -------
        numpy.ndarray
            One code per task of ``tasks`` into ``classes``; -1 where no true label is known.

        Raises
        ------
        InputError
            A gold task that no worker labelled, a gold label outside ``classes``, a task
            given twice.

        Examples
        --------
        >>> from assay.judgments import CrowdLabels
        >>> c = CrowdLabels.read({"task": ["a", "b"], "worker": ["u", "u"], "label": ["x", "y"]})
        >>> c.gold_codes({"b": "x"}).tolist()
        [-1, 0]
        """
        cols = _gold_columns(gold)
        tasks = id_strings(cols, "task", "gold task")
        values = id_strings(cols, "label", "gold label")
        found_task = pc.index_in(tasks, value_set=pa.array(self.tasks, pa.string()))
        if found_task.null_count:
            i = first_row(found_task.is_null())
            raise InputError(
                f"gold task {shown(tasks[i].as_py())}{at(cols, i)} has no crowd label",
                **where(cols, i),
            )
        found_label = pc.index_in(values, value_set=pa.array(self.classes, pa.string()))
        if found_label.null_count:
            i = first_row(found_label.is_null())
            raise InputError(
                f"gold label {shown(values[i].as_py())}{at(cols, i)} is not one of the classes "
                f"{shown_values(self.classes)}",
                **where(cols, i),
            )
        task_codes = to_np(found_task).astype(np.int64)
        seen = np.bincount(task_codes, minlength=len(self.tasks))
        if (seen > 1).any():
            twice = int(np.flatnonzero(seen > 1)[0])
            i = first_row(task_codes == twice)
            raise InputError(
                f"gold task {shown(self.tasks[twice])} is given more than once", **where(cols, i)
            )
        out = np.full(len(self.tasks), -1, dtype=np.int64)
        out[task_codes] = to_np(found_label).astype(np.int64)
        return out

    @classmethod
    def read(
        cls,
        data: Any,  # Any: a path, a DataFrame, a pyarrow Table or a mapping of columns
        *,
        format: str | None = None,
        task: str = "task",
        worker: str = "worker",
        label: str = "label",
        labels: Sequence[Any] | None = None,  # Any: label values of any printable type
        duplicates: Duplicates = "error",
    ) -> CrowdLabels:
        """Read crowd labels from a file (CSV/TSV, Parquet, JSON Lines), a pandas or polars
        DataFrame (crowd-kit's ``task``, ``worker``, ``label`` frame), a pyarrow Table or a
        mapping of columns.

        Parameters
        ----------
        data : str, PathLike, DataFrame, pyarrow.Table or mapping
            The rows; other columns are ignored.
        format : {"csv", "tsv", "parquet", "jsonl"}, optional
            The file's format (default: from its extension).
        task, worker, label : str
            The columns holding the task, the worker and the label.
        labels : sequence, optional
            The declared label set, in the order ties are broken; a label outside it is an
            error (default: the labels found).
        duplicates : {"error", "keep"}
            A worker labelling the same task twice: an error naming both lines (default), or
            kept as two votes (crowd-kit's behaviour).

        Returns
        -------
        CrowdLabels
            The labels in input order.

        Raises
        ------
        InputError
            Naming the file and line (or row): a missing column or value, a label outside the
            declared set, a repeated (task, worker) pair.

        Examples
        --------
        >>> from assay.judgments import CrowdLabels
        >>> _ = open("example_crowd.csv", "w").write("task,worker,label\\nt1,w1,cat\\nt1,w2,dog\\n")
        >>> CrowdLabels.read("example_crowd.csv", labels=["dog", "cat"]).classes
        ('dog', 'cat')
        """
        if duplicates not in ("error", "keep"):
            raise OptionError(
                f"duplicates must be 'error' or 'keep', got {duplicates!r}", option="duplicates"
            )
        declared = _declared(labels)
        cols = read_columns(data, {"task": task, "worker": worker, "label": label}, format=format)
        task_codes, tasks = encode(id_strings(cols, "task", "task"))
        worker_codes, workers = encode(id_strings(cols, "worker", "worker"))
        values = id_strings(cols, "label", "label")
        label_codes, classes = _classes(values, declared, cols)
        if duplicates == "error":
            _check_pairs(task_codes, worker_codes, len(workers), tasks, workers, cols)
        return cls(tasks, workers, classes, task_codes, worker_codes, label_codes, cols.source)


def _declared(labels: Sequence[Any] | None) -> tuple[str, ...] | None:
    if labels is None:
        return None
    if isinstance(labels, str) or not isinstance(labels, Sequence) or not labels:
        raise OptionError("labels= must be a non-empty sequence of label values", option="labels")
    out = tuple(str(v) for v in labels)
    if len(set(out)) != len(out):
        raise OptionError(f"labels= repeats a value: {list(out)!r}", option="labels")
    return out


def _classes(
    values: pa.Array, declared: tuple[str, ...] | None, cols: Columns
) -> tuple[NDArray[np.int64], tuple[str, ...]]:
    if declared is not None:
        found = pc.index_in(values, value_set=pa.array(declared, pa.string()))
        if found.null_count:
            i = first_row(found.is_null())
            raise InputError(
                f"label {shown(values[i].as_py())}{at(cols, i)} is not one of the declared "
                f"labels {shown_values(declared)}",
                **where(cols, i),
            )
        return to_np(found).astype(np.int64), declared
    codes, seen = encode(values)
    if all(_INTEGER.match(v) for v in seen):
        order = sorted(range(len(seen)), key=lambda j: int(seen[j]))
    else:
        order = sorted(range(len(seen)), key=lambda j: seen[j].encode("utf-8"))
    rank = np.empty(len(seen), dtype=np.int64)
    rank[np.array(order, dtype=np.int64)] = np.arange(len(seen), dtype=np.int64)
    return rank[codes], tuple(seen[j] for j in order)


def _check_pairs(
    task: NDArray[np.int64],
    worker: NDArray[np.int64],
    n_workers: int,
    tasks: tuple[str, ...],
    workers: tuple[str, ...],
    cols: Columns,
) -> None:
    found = first_repeat(task, worker, n_workers, cols)
    if found is None:
        return
    second, earlier = found
    raise InputError(
        f"worker {shown(workers[int(worker[second])])} labels task "
        f"{shown(tasks[int(task[second])])} again{at(cols, second)}{earlier}; "
        "pass duplicates='keep' (--duplicates keep) to count both votes",
        **where(cols, second),
    )


def _gold_columns(gold: Any) -> Columns:  # Any: a mapping, Series, path or frame
    if isinstance(gold, Mapping):
        keys = list(gold)
        return read_columns(
            {"task": [str(k) for k in keys], "label": [str(gold[k]) for k in keys]},
            {"task": "task", "label": "label"},
        )
    if type(gold).__name__ == "Series" and type(gold).__module__.startswith("pandas"):
        return _gold_columns(dict(zip(gold.index, gold.to_numpy(), strict=True)))
    try:
        return read_columns(gold, {"task": "task", "label": "label"})
    except InputError as exc:
        if "no column" not in str(exc):
            raise
        return read_columns(gold, {"task": "task", "label": "true_label"})


def read_crowd_labels(
    data: Any,  # Any: a path, a DataFrame, a pyarrow Table or a mapping of columns
    *,
    format: str | None = None,
    task: str = "task",
    worker: str = "worker",
    label: str = "label",
    labels: Sequence[Any] | None = None,  # Any: label values of any printable type
    duplicates: Duplicates = "error",
) -> CrowdLabels:
    """Read crowd labels: :meth:`CrowdLabels.read`.

    Parameters
    ----------
    data : str, PathLike, DataFrame, pyarrow.Table or mapping
        The rows.
    format, task, worker, label, labels, duplicates
        As :meth:`CrowdLabels.read`.

    Returns
    -------
    CrowdLabels
        The labels in input order.

    Examples
    --------
    >>> from assay.judgments import read_crowd_labels
    >>> read_crowd_labels({"task": [1, 1], "worker": ["a", "b"], "label": [2, 10]}).classes
    ('2', '10')
    """
    return CrowdLabels.read(
        data,
        format=format,
        task=task,
        worker=worker,
        label=label,
        labels=labels,
        duplicates=duplicates,
    )


def as_crowd_labels(data: Any) -> CrowdLabels:  # Any: CrowdLabels or what read takes
    """``data`` if it is :class:`CrowdLabels`, else :func:`read_crowd_labels` of it."""
    return data if isinstance(data, CrowdLabels) else read_crowd_labels(data)
