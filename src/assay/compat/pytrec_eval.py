"""A drop-in for ``pytrec_eval`` (pytrec-eval-terrier) on assay's columnar engine.

Code written for pytrec_eval (BEIR and many others) runs unchanged after swapping the import::

    from assay.compat import pytrec_eval
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10"})
    per_query = evaluator.evaluate(run)          # {query: {"map": ..., "ndcg_cut_10": ...}}

Measure names, nicknames (``official``, ``set``, ``all_trec``), parameter syntax (``P.5,10``,
``P_5``), output names (a measure with one value keeps its bare name whatever its parameters:
``11pt_avg.0.25,0.5`` gives ``11pt_avg``, ``relstring.7`` ``relstring``) and per-query semantics
are pytrec_eval's, which are trec_eval 9.0.8's. Parameters pytrec_eval cannot use (gain
parameters of ``ndcg``, ``ndcg_rel``, ``Rndcg`` and ``G``, on which it aborts; ``utility``
coefficients, which it mangles; fractional cutoffs) are refused, naming the parameters. As there:
only queries present in both the qrels and the run are evaluated (a run query with an empty
ranking ``{}`` included: it is scored on an empty ranking), in the run's order;
``gm_map``/``gm_bpref`` are reported per query as logarithms, and interpolated precision turns
recall levels into document counts as ``(long)(level * R + 0.9)``. An empty measure set gives
``{query: {}}``. ``parse_run``/``parse_qrel`` return ``collections.defaultdict(dict)``\\ s.
Types are checked as pytrec_eval checks them, with its exception type: a grade that is not an
``int`` (``1.0``, ``numpy.int64``, ``"1"``), a score that is neither ``float`` nor ``int``,
ids that are not ``str``, or inner values that are not dicts raise :class:`PytrecTypeError`
(a ``TypeError``, and an :class:`assay.InputError`).

Deliberate differences: scores are kept as doubles (pytrec_eval rounds them to float32, which
can reorder close scores); bad values raise :class:`assay.AssayError` subclasses naming the
problem instead of a C++ assertion (a NaN score, say); a negative ``relevance_level`` is
refused like 0 (pytrec_eval evaluates with it); and an empty ranking is always scored
as trec_eval scores it. (pytrec_eval 0.5 reports 0 for every measure of an empty ranking when
it comes before any non-empty one since the process started: trec_eval's buffers are then
still unallocated; afterwards it gives trec_eval's values, which are these.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._arrow import from_np
from ..data import Qrels, Run
from ..errors import InputError, MetricError
from ._te_measure_specs import parse_measures
from ._te_measures import MEASURES
from ._tracked import Tracked, columnar_of
from .trec_eval import OFFICIAL, SUPPORTED, _evaluate

__all__ = [
    "PytrecTypeError",
    "RelevanceEvaluator",
    "compute_aggregated_measure",
    "parse_qrel",
    "parse_run",
    "supported_measures",
    "supported_nicknames",
]

# pytrec_eval's measure set is trec_eval 9.0.8's; assay's engine (trec_eval 10) has a few more.
_PYTREC_MEASURES = {
    "11pt_avg",
    "G",
    "P",
    "Rndcg",
    "Rprec",
    "Rprec_mult",
    "binG",
    "bpref",
    "gm_bpref",
    "gm_map",
    "infAP",
    "iprec_at_recall",
    "map",
    "map_cut",
    "ndcg",
    "ndcg_cut",
    "ndcg_rel",
    "num_nonrel_judged_ret",
    "num_q",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "recall",
    "recip_rank",
    "relative_P",
    "relstring",
    "runid",
    "set_F",
    "set_P",
    "set_map",
    "set_recall",
    "set_relative_P",
    "success",
    "utility",
}
supported_measures: set[str] = {m for m in _PYTREC_MEASURES if m in SUPPORTED}

supported_nicknames: dict[str, set[str]] = {
    "official": set(OFFICIAL),
    "set": {
        "set_P",
        "set_map",
        "num_ret",
        "num_q",
        "num_rel",
        "utility",
        "set_F",
        "runid",
        "set_relative_P",
        "num_rel_ret",
        "set_recall",
    },
    "all_trec": {m for m in _PYTREC_MEASURES},
}
for _nick in supported_nicknames.values():
    _nick &= supported_measures

_PARAMS = re.compile(r"[._]([0-9]+(?:\.[0-9]+)?(?:,[0-9]+(?:\.[0-9]+)?)*)$")
_ANY_PARAMS = re.compile(r"[._](.+)$")

# Parameters pytrec_eval 0.5 cannot take (measured: the name=value gain measures abort the
# interpreter on a C++ assertion; utility prints "improper number of coefficients" and reports
# 0), refused here with what it does accept instead of giving a different answer.
_NO_PARAMS_IN_PYTREC = {
    "G": "aborts the interpreter",
    "ndcg": "aborts the interpreter",
    "ndcg_rel": "aborts the interpreter",
    "Rndcg": "aborts the interpreter",
    "utility": "mangles the coefficients and reports 0",
}
# trec_eval 9.0.8, pytrec_eval's, names a measure with one value by the measure alone, whatever
# its parameters (11pt_avg.0.25,0.5 -> "11pt_avg", relstring.7 -> "relstring", set_F.2 ->
# "set_F"); the engine names them as trec_eval 10 prints them ("11pt_avg_0.25,0.5").
_ONE_VALUE_STYLES = frozenset({"p_double", "p_pair"})


def _normalise(measures: Iterable[str]) -> list[str]:
    """Nicknames expanded; ``P``, ``P.5``, ``P_5,10`` merged per measure into trec_eval specs.

    As pytrec_eval: explicit parameters of a measure replace its defaults.
    """
    if isinstance(measures, str):
        measures = [measures]
    wanted: dict[str, set[str]] = {}
    for raw in measures:
        name = str(raw)
        if name in supported_nicknames:
            for m in supported_nicknames[name]:
                wanted.setdefault(m, set())
            continue
        if name in supported_measures:
            wanted.setdefault(name, set())
            continue
        base = _base(name)
        found = _PARAMS.fullmatch(name[len(base) :])
        if found is not None:
            wanted.setdefault(base, set()).update(found.group(1).split(","))
    specs = []
    for base, params in wanted.items():
        specs.append(f"{base}.{','.join(sorted(params))}" if params else base)
    return specs


def _base(name: str) -> str:
    """The supported measure ``name`` gives parameters to; a :class:`MetricError` saying
    whether the measure or its parameters are what pytrec_eval does not take."""
    by_length = sorted(supported_measures, key=len, reverse=True)
    for candidate in by_length:
        found = _PARAMS.fullmatch(name[len(candidate) :]) if name.startswith(candidate) else None
        if found is None:
            continue
        whole = MEASURES[candidate].style != "cut_long" or found.group(1).replace(",", "").isdigit()
        if candidate in _NO_PARAMS_IN_PYTREC or not whole:
            raise _refused_params(name, candidate)
        return candidate
    for candidate in by_length:
        if name.startswith(candidate) and _ANY_PARAMS.fullmatch(name[len(candidate) :]):
            raise _refused_params(name, candidate)
    raise MetricError(
        f"unsupported measure {name!r}; supported: {', '.join(sorted(supported_measures))}"
    )


def _refused_params(name: str, base: str) -> MetricError:
    lead = f"measure {name!r}: {base!r} is supported, these parameters are not"
    why = _NO_PARAMS_IN_PYTREC.get(base)
    if why is None:
        kind = "whole numbers" if MEASURES[base].style == "cut_long" else "non-negative numbers"
        return MetricError(f"{lead}: pytrec_eval takes a list of {kind} ({base}.5,10 or {base}_5)")
    return MetricError(
        f"{lead}: pytrec_eval {why} when {base!r} has parameters, so it takes only {base!r} "
        f"itself; assay.compat.trec_eval.evaluate_trec(..., measures=[{name!r}]) evaluates "
        "the parameters as trec_eval 10 does"
    )


class PytrecTypeError(InputError, TypeError):
    """A value of a type pytrec_eval refuses (with its message): a ``TypeError``, as
    pytrec_eval raises, and an :class:`assay.InputError`."""


def _types(data: Mapping[Any, Any], allowed: tuple[type, ...], message: str, lead: str) -> bool:
    """pytrec_eval's type checks of ``{query: {doc: value}}`` (string ids, dict inner values,
    values of the ``allowed`` types, subclasses included), its messages after ``lead``;
    whether any value is a bool."""

    def fail(why: str) -> PytrecTypeError:
        return PytrecTypeError(lead + why, source="<dict>")

    if not all(isinstance(q, str) for q in data):
        raise fail("Expected string as key.")
    inners = list(data.values())
    if not all(isinstance(inner, dict) for inner in inners):
        raise fail("Expected dictionary as value.")
    if not all(isinstance(d, str) for inner in inners for d in inner):
        raise fail("Expected mapping of document id to query relevance or matching score.")
    kinds = {type(v) for inner in inners for v in inner.values()}
    if not all(issubclass(k, allowed) for k in kinds):
        bad = next(k for k in kinds if not issubclass(k, allowed))
        raise fail(f"{message} (got {bad.__name__})")
    return any(issubclass(k, bool) for k in kinds)


class RelevanceEvaluator:
    """pytrec_eval's evaluator: judgments and measures fixed once, runs evaluated many times.

    ``evaluate(run)`` gives ``{query: {measure: value}}`` for the queries present in both the
    qrels and the run, in the run's order, under pytrec_eval's output names (``P.5`` gives
    ``P_5``, ``ndcg_cut.10`` ``ndcg_cut_10``).

    Parameters
    ----------
    query_relevance : mapping of str to mapping of str to int
        The judgments, ``{query: {doc: grade}}``, grades of type ``int`` (as pytrec_eval
        checks); queries without judgments are dropped.
    measures : iterable of str
        Measure names (``map``), with parameters (``P.5,10``, ``P_5``) or nicknames
        (``official``, ``set``, ``all_trec``).
    relevance_level : int, default 1
        Lowest grade counted relevant (trec_eval's ``-l``), at least 1.
    judged_docs_only_flag : bool, default False
        Leave unjudged documents out of the rankings (trec_eval's ``-J``).

    Examples
    --------
    >>> from assay.compat import pytrec_eval
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d4": 1, "d6": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d4": 0.5, "d5": 0.7}}
    >>> evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10"})
    >>> per_query = evaluator.evaluate(run)
    >>> sorted(per_query), sorted(per_query["q1"])
    (['q1', 'q2'], ['map', 'ndcg_cut_10'])
    >>> print(f"{per_query['q1']['map']:.4f} {per_query['q2']['map']:.4f}")
    0.8333 0.2500
    """

    def __init__(
        self,
        query_relevance: Mapping[str, Mapping[str, int]],
        measures: Iterable[str],
        relevance_level: int = 1,
        judged_docs_only_flag: bool = False,
    ) -> None:
        self._specs = _normalise(measures)
        self._plan = parse_measures(self._specs) if self._specs else []
        self._names = {
            name: b.defn.name
            for b in self._plan
            if b.defn.style in _ONE_VALUE_STYLES
            for name in b.names
        }
        if not isinstance(relevance_level, int):  # bool is an int, as in pytrec_eval
            raise PytrecTypeError(
                "Expected object_relevance_per_qid dictionary and measures set.",
                source="relevance_level",
            )
        if relevance_level < 1:
            raise PytrecTypeError(
                "Argument relevance_level should be positive.", source="relevance_level"
            )
        # pytrec_eval drops queries without judgments before evaluating.
        cached = columnar_of(query_relevance)
        if cached is not None:
            self._qrels: Qrels | None = cached  # read by parse_qrel and unchanged since
        else:
            judged = {q: d for q, d in query_relevance.items() if len(d) > 0}
            _types(judged, (int,), "Expected relevance to be integer.", "")
            self._qrels = Qrels.from_dict(judged) if judged else None
        self._judged = set() if self._qrels is None else set(self._qrels.queries)
        self.relevance_level = int(relevance_level)
        self.judged_docs_only_flag = bool(judged_docs_only_flag)

    def evaluate(self, scores: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
        """``{query: {measure: value}}`` for the queries present in both qrels and run, in the
        run's order (a query with an empty ranking included)."""
        if not scores:
            return {}
        if not isinstance(scores, dict):
            raise PytrecTypeError(
                "Argument object scores should be of type dictionary.", source="<run>"
            )
        run = columnar_of(scores)  # read by parse_run and unchanged since
        if run is None:
            run = self._run(scores)
        order = [q for q in scores if q in self._judged]
        if not order or self._qrels is None:
            return {}
        if not self._plan:
            return {q: {} for q in order}
        opts = {
            "relevance_level": self.relevance_level,
            "complete": False,
            "depth": None,
            "judged_only": self.judged_docs_only_flag,
            "iprec_rounding": "trec9",
            "num_docs_in_coll": 0,
            "measures": self._specs,
        }
        qrels = self._qrels.restrict(order)  # only topics in the run, as pytrec_eval
        res = _evaluate(qrels, run, self._plan, opts, empty=True)
        # The values trec_eval keeps per topic (gm_* as logs, num_q 1, runid and relstring 0)
        # are exactly pytrec_eval's per-query dictionaries.
        raw = res.raw_per_query
        if not any(k != v for k, v in self._names.items()):
            return {q: raw[q] for q in order}
        return {q: {self._names.get(k, k): v for k, v in raw[q].items()} for q in order}

    @staticmethod
    def _run(scores: Mapping[str, Mapping[str, Any]]) -> Run | None:
        """A plain ``{query: {doc: score}}`` dict as a Run (None when every ranking is
        empty), its types checked as pytrec_eval checks them."""
        bools = _types(
            scores,
            (float, int),
            "Expected matching score to be int, long or float.",
            "Unable to extract query/object scores: ",
        )
        nonempty = {q: d for q, d in scores.items() if len(d) > 0}
        if bools:  # pytrec_eval reads True as 1.0
            nonempty = {q: {k: float(v) for k, v in d.items()} for q, d in nonempty.items()}
        return Run.from_dict(nonempty) if nonempty else None


def parse_run(f_run: Iterable[str]) -> dict[str, dict[str, float]]:
    """``{query: {doc: score}}`` from the lines of a TREC run (read by assay's parser).

    The dict remembers the columns it was read into; :class:`RelevanceEvaluator` uses them
    while the dict is unchanged instead of converting it again.

    Parameters
    ----------
    f_run : iterable of str
        The lines of a TREC run file (``query Q0 doc rank score tag``): an open file or a list
        of lines with their line ends.

    Returns
    -------
    dict
        ``{query: {doc: score}}``, a ``collections.defaultdict(dict)`` as pytrec_eval's.

    Examples
    --------
    >>> from assay.compat import pytrec_eval
    >>> with open("qrels.txt", "w") as f:
    ...     print("q1 0 d1 1", file=f)
    ...     print("q1 0 d3 2", file=f)
    >>> with open("run.txt", "w") as f:
    ...     print("q1 Q0 d1 1 0.9 demo", file=f)
    ...     print("q1 Q0 d3 2 0.1 demo", file=f)
    >>> with open("run.txt") as f:
    ...     run = pytrec_eval.parse_run(f)
    >>> dict(run)
    {'q1': {'d1': 0.9, 'd3': 0.1}}
    >>> with open("qrels.txt") as f:
    ...     qrels = pytrec_eval.parse_qrel(f)
    >>> pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)
    {'q1': {'recip_rank': 1.0}}
    """
    run = Run.from_trec(_as_stream(f_run))
    return Tracked(
        _groups(run.queries, run.offsets, run.doc_ids.take(from_np(run.doc_codes)), run.scores), run
    )


def parse_qrel(f_qrel: Iterable[str]) -> dict[str, dict[str, int]]:
    """``{query: {doc: grade}}`` from the lines of a TREC qrels file (see :func:`parse_run`).

    Parameters
    ----------
    f_qrel : iterable of str
        The lines of a TREC qrels file (``query iteration doc grade``): an open file or a list
        of lines with their line ends.

    Returns
    -------
    dict
        ``{query: {doc: grade}}``, a ``collections.defaultdict(dict)`` as pytrec_eval's.

    Examples
    --------
    >>> from assay.compat import pytrec_eval
    >>> with open("qrels.txt", "w") as f:
    ...     print("q1 0 d1 1", file=f)
    ...     print("q1 0 d3 2", file=f)
    >>> with open("qrels.txt") as f:
    ...     qrels = pytrec_eval.parse_qrel(f)
    >>> dict(qrels)
    {'q1': {'d1': 1, 'd3': 2}}
    """
    qrels = Qrels.from_trec(_as_stream(f_qrel))
    return Tracked(
        _groups(
            qrels.queries, qrels.offsets, qrels.doc_ids.take(from_np(qrels.doc_codes)), qrels.grades
        ),
        qrels,
    )


def _groups(queries: list[str], offsets: np.ndarray, docs: Any, values: np.ndarray) -> Any:
    doc_list = docs.to_pylist()
    value_list = values.tolist()
    bounds = offsets.tolist()
    return (
        (
            q,
            zip(
                doc_list[bounds[i] : bounds[i + 1]],
                value_list[bounds[i] : bounds[i + 1]],
                strict=True,
            ),
        )
        for i, q in enumerate(queries)
    )


def _as_stream(lines: Iterable[str]) -> Any:
    import io
    import os

    name = getattr(lines, "name", None)
    if isinstance(name, str) and os.path.isfile(name):
        return name  # an open file: let assay's reader take the path (fast path, line numbers)
    data = "".join(lines)
    return io.BytesIO(data.encode("utf-8"))


def compute_aggregated_measure(measure: str, values: list[float]) -> float:
    """Aggregate per-query values as pytrec_eval: sums for ``num_*``, geometric means (of the
    logged values) for ``gm_*``, arithmetic means otherwise.

    Parameters
    ----------
    measure : str
        The output name (``map``, ``num_ret``, ``gm_map``, ...).
    values : list of float
        Its per-query values, as :meth:`RelevanceEvaluator.evaluate` gives them (``gm_*`` as
        logarithms).

    Returns
    -------
    float
        The value over all queries.

    Examples
    --------
    >>> import math
    >>> from assay.compat import pytrec_eval
    >>> pytrec_eval.compute_aggregated_measure("map", [0.5, 0.25])
    0.375
    >>> pytrec_eval.compute_aggregated_measure("num_ret", [10, 7])
    17.0
    >>> round(pytrec_eval.compute_aggregated_measure("gm_map", [math.log(0.5), math.log(0.125)]), 6)
    0.25
    """
    arr = np.asarray(values, dtype=np.float64)
    if measure.startswith("num_"):
        return float(arr.sum())
    if measure.startswith("gm_"):
        return float(np.exp(arr.sum() / len(arr)))
    return float(arr.mean())
