"""What :func:`~assay.compat.trec_eval.evaluate_trec` returns (:class:`TrecResult`) and the
text trec_eval prints from it (:func:`format_trec`)."""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TextIO

import numpy as np

from .._options import flag
from .._result import Result
from ._te_arithmetic import format_value
from ._te_measure_specs import TrecEvalError


@dataclass
class Slot:
    """One output value of trec_eval (``P_5``, ``relstring``, ...) over all topics."""

    name: str
    kind: str  # "float" | "int" | "str" | "runid"
    per_query: bool
    summary: bool
    values: Any  # float64 array per topic, or list of strings (relstring)
    average: str = "none"  # how the "all" value is made (MeasureDef.average)
    total: Any = None  # the "all" value
    z: bool = False  # values are z-scores (-Z): printed and keyed with a "Z" prefix

    @property
    def label(self) -> str:
        """The output's name as printed: ``Zmap`` for map's z-scores."""
        return "Z" + self.name if self.z else self.name


@dataclass(frozen=True, eq=False)
class TrecResult(Result):
    """What trec_eval computes for one run.

    ``per_query[query][name]`` holds the values trec_eval prints with ``-q`` (floats; counts
    as ints; ``relstring`` as a string). ``raw_per_query`` holds the value trec_eval keeps per
    topic for every output, printed or not: ``gm_map`` and ``gm_bpref`` as
    log(max(value, 1e-5)), ``num_q`` as 1, ``relstring`` and ``runid`` as 0.0 — the per-topic
    dictionary pytrec_eval returns. Where parameters make two outputs print the same name
    (``iprec_at_recall.0.1,0.101``), the dictionaries keep the last; the text from
    :func:`format_trec` has both. ``records()``: one row ``{"query", "measure", "value"}`` per
    value printed with ``-q``, then the summary rows (query ``"all"``).

    Parameters
    ----------
    summary : dict
        The ``all`` lines by output name (``runid`` a string).
    queries : list of str
        The topics, in trec_eval's order.
    measures : list of str
        The output names, in order.
    runid : str
        The run's tag.
    options : dict, optional
        The validated options (also in ``provenance``).
    _slots : list, optional
        The computed values, per output (internal: made by ``evaluate_trec``).
    provenance : mapping of str to any, optional
        assay's and Python's versions, the options and the backend.

    Examples
    --------
    >>> from assay.data import Qrels, Run
    >>> from assay.compat.trec_eval import evaluate_trec, format_trec
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d4": 1, "d6": 1}})
    >>> run = Run.from_dict({"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d4": 0.5, "d5": 0.7}})
    >>> res = evaluate_trec(qrels, run, ["map", "P.5"])
    >>> res.queries, res.measures
    (['q1', 'q2'], ['map', 'P_5'])
    >>> res.records()[0]
    {'query': 'q1', 'measure': 'map', 'value': 0.8333333333333333}
    """

    summary: dict[str, Any]  # Any: floats, ints and the runid string
    queries: list[str]
    measures: list[str]
    runid: str
    options: dict[str, Any] = field(default_factory=dict)  # Any: options of every type
    _slots: list[Slot] = field(default_factory=list, repr=False)
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def _nested(self, names: list[str], cols: list[list[Any]]) -> dict[str, dict[str, Any]]:
        n = len(self.queries)
        rows = zip(*cols, strict=True) if cols else iter([()] * n)
        return {
            q: dict(zip(names, row, strict=True)) for q, row in zip(self.queries, rows, strict=True)
        }

    # The per-topic dictionaries are built on first use only: `assay trec-eval` prints from
    # the slots' arrays and never needs a Python object per value.
    @cached_property
    def per_query(self) -> dict[str, dict[str, Any]]:
        names: list[str] = []
        cols: list[list[Any]] = []
        for s in self._slots:
            if s.kind == "runid" or not s.per_query:
                continue
            names.append(s.label)
            if s.kind == "str":
                cols.append(list(s.values))
            elif s.kind == "int":
                cols.append([as_int(v) for v in np.asarray(s.values, dtype=np.float64).tolist()])
            else:
                cols.append(np.asarray(s.values, dtype=np.float64).tolist())
        return self._nested(names, cols)

    @cached_property
    def raw_per_query(self) -> dict[str, dict[str, float]]:
        n = len(self.queries)
        names: list[str] = []
        cols: list[list[Any]] = []
        for s in self._slots:
            names.append(s.label)
            if s.kind in ("runid", "str"):
                cols.append([0.0] * n)  # no per-topic value in trec_eval; pytrec_eval shows 0
            else:
                cols.append(np.asarray(s.values, dtype=np.float64).tolist())
        return self._nested(names, cols)

    def records(self) -> list[dict[str, Any]]:
        rows = [
            {"query": q, "measure": m, "value": v}
            for q, values in self.per_query.items()
            for m, v in values.items()
        ]
        rows.extend({"query": "all", "measure": m, "value": v} for m, v in self.summary.items())
        return rows

    def __repr__(self) -> str:
        return (
            f"TrecResult(runid={self.runid!r}, {len(self.queries)} topics, "
            f"{len(self.measures)} values)"
        )


def as_int(value: float) -> int:
    """C's ``(long) value``: truncation toward zero."""
    return int(value) if math.isfinite(value) else 0


def pyvalue(kind: str, value: Any) -> Any:
    if kind == "int":
        return as_int(float(value))
    if kind in ("str", "runid"):
        return value
    return float(value)


def _line(s: Slot, qid: str, value: Any) -> str:
    if s.kind == "runid":
        return f"{'runid':<22}\t{qid}\t{value}\n"
    return f"{'Z' if s.z else ''}{s.name:<22}\t{qid}\t{_texts(s, [value])[0]}\n"


def _texts(s: Slot, values: Any) -> list[str]:
    """The printed values: %6.4f (NaN as glibc prints it), (long) counts, quoted strings."""
    if s.kind == "str":
        return [f"'{v}'" for v in values]
    arr = np.asarray(values, dtype=np.float64)
    if s.kind == "int":
        return [str(as_int(v)) for v in arr.tolist()]
    out = [f"{v:6.4f}" for v in arr.tolist()]
    for i in np.flatnonzero(np.isnan(arr)).tolist():
        out[i] = format_value(float(arr[i]))
    return out


def format_trec(res: TrecResult, *, per_query: bool = False, summary: bool = True) -> str:
    """The text trec_eval prints for a result.

    Per-topic blocks (``-q``) then the ``all`` lines (unless ``-n``), each line
    ``%-22s\\t%s\\t%6.4f``: counts as integers, relstring quoted, runid as text.

    Parameters
    ----------
    res : TrecResult
        What :func:`evaluate_trec` returned.
    per_query : bool, default False
        Print the per-topic blocks first (trec_eval's ``-q``).
    summary : bool, default True
        Print the ``all`` lines (False: trec_eval's ``-n``).

    Returns
    -------
    str
        The lines, each ending with a newline.

    Examples
    --------
    >>> from assay.data import Qrels, Run
    >>> from assay.compat.trec_eval import evaluate_trec, format_trec
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d4": 1, "d6": 1}})
    >>> run = Run.from_dict({"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d4": 0.5, "d5": 0.7}})
    >>> res = evaluate_trec(qrels, run, ["map", "P.5"])
    >>> print(format_trec(res, per_query=True), end="")
    map                     q1      0.8333
    P_5                     q1      0.4000
    map                     q2      0.2500
    P_5                     q2      0.2000
    map                     all     0.5417
    P_5                     all     0.3000
    """
    out = io.StringIO()
    write_trec(res, out, per_query=per_query, summary=summary)
    return out.getvalue()


#: Topics formatted at once by :func:`write_trec`: the text held in memory is bounded by this
#: many per-topic blocks, whatever the number of topics.
TOPICS_PER_WRITE = 256


def write_trec(
    res: TrecResult, stream: TextIO, *, per_query: bool = False, summary: bool = True
) -> None:
    """Write :func:`format_trec`'s text to ``stream`` as it is formatted: per-topic blocks
    ``TOPICS_PER_WRITE`` topics at a time, then the summary, so that the memory used does not
    grow with the output."""
    per_query = flag(per_query, "per_query", error=TrecEvalError)
    summary = flag(summary, "summary", error=TrecEvalError)
    if per_query and res.queries:
        printed = [s for s in res._slots if s.per_query]
        for start in range(0, len(res.queries), TOPICS_PER_WRITE):
            stop = min(start + TOPICS_PER_WRITE, len(res.queries))
            queries = res.queries[start:stop]
            columns = [
                [
                    f"{'Z' if s.z else ''}{s.name:<22}\t{q}\t{t}\n"
                    for q, t in zip(queries, _texts(s, s.values[start:stop]), strict=True)
                ]
                for s in printed
            ]
            stream.write("".join(itertools.chain.from_iterable(zip(*columns, strict=True))))
    if summary:
        stream.write(
            "".join(
                _line(s, "all", s.total) for s in res._slots if s.summary and s.total is not None
            )
        )
