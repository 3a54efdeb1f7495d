"""trec_eval 10.0, reproduced byte for byte on assay's columnar engine.

::

    from assay.compat.trec_eval import evaluate_trec, format_trec
    res = evaluate_trec(qrels, run, ["official", "ndcg_cut.10,20"], complete=True)
    res.summary["map"], res.per_query["301"]["ndcg_cut_10"]
    print(format_trec(res, per_query=True), end="")   # exactly what `trec_eval -q -c ...` prints

``assay trec-eval [flags] QRELS RUN`` is the command-line face (``-q -c -n -J -l N -M N -N N
-m MEASURE[.PARAMS]``, also glued as trec_eval accepts them: ``-mP.5``, ``-M100``, ``-l2``).

What is reproduced: every measure of trec_eval's measure table that works on qrels and TREC
runs (:data:`SUPPORTED`: all of ``all_trec`` plus ``dcg``, ``ideal_dcg`` and ``yaap``), with
trec_eval's parameter syntax and defaults (``-m P.5,10``, ``-m ndcg.1=3,2=9``,
``-m iprec_at_recall..10,.20``, ``-m utility.2,-1,0,0``, ...), the nicknames ``official``,
``all_trec`` and ``set``, output names, measure order, print formats, averaging rules (counts
summed, ``gm_*`` geometric, ``-c`` averaging over every qrels topic), ``-M`` (truncate each
ranking after sorting, before ``-J``), ``-J`` and ``-l`` (binary measures only; ndcg's gains
are the grades). trec_eval's quirks are reproduced too; each is marked ``QUIRK`` in
:mod:`assay.compat._te_engine` or here.

Deliberate differences: bad input is an error (one line, exit code 2) where trec_eval would
crash, print garbage or guess — a qrels topic without results when ``-c`` is not given (trec_eval
10 stops with a wrong message; ours names the topic), a negative ``-l`` or ``-M``, malformed
numbers in flags, measures that need other input formats (``prefs``, ``qrels_jg``), and
debugging/z-score options (``-D``, ``-Z``).
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TextIO

import numpy as np
import pyarrow.compute as pc

from ..data import Qrels, Run
from ..errors import InputError, MetricError, MissingQueryError
from ._te_engine import MEASURES, MeasureDef, TrecContext, atof, atol, format_value, seq_sum

__all__ = [
    "ALL_TREC",
    "NICKNAMES",
    "OFFICIAL",
    "SUPPORTED",
    "TrecEvalError",
    "TrecResult",
    "evaluate_trec",
    "format_trec",
    "main",
]


class TrecEvalError(MetricError):
    """A bad trec_eval flag, measure name or measure parameter."""


OFFICIAL: tuple[str, ...] = (
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
)
ALL_TREC: tuple[str, ...] = (
    *OFFICIAL,  # all_trec begins with the official measures, in the same order
    "relstring",
    "recall",
    "unj",
    "rbp",
    "rbp_resid",
    "infAP",
    "gm_bpref",
    "utility",
    "11pt_avg",
    "ndcg",
    "relative_P",
    "Rprec_mult",
    "success",
    "map_cut",
    "ndcg_cut",
    "ndcg_rel",
    "Rndcg",
    "binG",
    "G",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
)
SET: tuple[str, ...] = (
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "utility",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
)
NICKNAMES: dict[str, tuple[str, ...]] = {"official": OFFICIAL, "all_trec": ALL_TREC, "set": SET}
# trec_eval measures that need preference or judgment-group qrels (other input formats).
_OTHER_FORMATS = frozenset(
    {
        "prefs_num_prefs_poss",
        "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret",
        "prefs_simp",
        "prefs_pair",
        "prefs_avgjg",
        "prefs_avgjg_Rnonrel",
        "prefs_simp_ret",
        "prefs_pair_ret",
        "prefs_avgjg_ret",
        "prefs_avgjg_Rnonrel_ret",
        "prefs_simp_imp",
        "prefs_pair_imp",
        "prefs_avgjg_imp",
        "map_avgjg",
        "P_avgjg",
        "Rprec_mult_avgjg",
        "all_prefs",
        "prefs",
        "qrels_jg",
    }
)
SUPPORTED: frozenset[str] = frozenset(MEASURES)

_IPREC_ROUNDING = ("lround", "trec9")
_BOGUS_DOCNO = "ceci_nest_pas_un_docno"


# ---------------------------------------------------------------- measure specs


@dataclass(frozen=True)
class _Bound:
    """A measure to compute: its declaration, parsed parameters and output names."""

    defn: MeasureDef
    params: tuple[Any, ...]
    names: tuple[str, ...]


def _parse_params(defn: MeasureDef, text: str | None) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """trec_eval's parameter parsing for one measure (meas_init.c), from the text after the
    first '.' of its first ``-m`` argument (None: the defaults)."""
    name, style = defn.name, defn.style
    if style in ("none", "long", "double"):
        return (), (name,)  # parameters of a parameterless measure are ignored
    if style == "cut_long":
        if text is None:
            cuts = tuple(defn.defaults)
        else:
            cuts = tuple(sorted(atol(t) for t in text.split(",")))
            if cuts[0] <= 0:
                raise TrecEvalError(f"{name}: cutoffs must be positive, got {text!r}")
            if any(a == b for a, b in itertools.pairwise(cuts)):
                raise TrecEvalError(f"{name}: duplicate cutoffs in {text!r}")
        return cuts, tuple(f"{name}_{k}" for k in cuts)
    if style == "cut_double":
        if text is None:
            vals = tuple(defn.defaults)
        else:
            raw = [atof(t) for t in text.split(",")]
            if any(math.isnan(v) for v in raw):
                raise TrecEvalError(f"{name}: parameter is not a number in {text!r}")
            vals = tuple(sorted(raw))
            if any(a == b for a, b in itertools.pairwise(vals)):
                raise TrecEvalError(f"{name}: duplicate cutoffs in {text!r}")
        return vals, tuple(f"{name}_%3.2f" % v for v in vals)
    if style == "p_double":
        vals = tuple(defn.defaults) if text is None else tuple(atof(t) for t in text.split(","))
        if name == "utility" and len(vals) != 4:
            raise TrecEvalError(f"utility takes 4 coefficients, got {len(vals)} in {text!r}")
        return vals, (name if text is None else f"{name}_{text}",)
    if style == "p_pair":
        if text is None:
            return (), (name,)
        return _param_pairs(name, text), (f"{name}_{text}",)
    raise AssertionError(style)  # pragma: no cover


def _param_pairs(name: str, text: str) -> tuple[tuple[str, float], ...]:
    """``name=value`` pairs separated by commas, checked as meas_init.c checks them."""
    last = ","
    ok = True
    for ch in text:
        if ch == ",":
            if last == ",":
                ok = False
                break
            last = ","
        elif ch == "=":
            if last == "=":
                ok = False
                break
            last = "="
    if not ok or last != "=":
        raise TrecEvalError(f"{name}: malformed name=value parameters {text!r}")
    pairs = []
    for item in text.split(","):
        key, _, value = item.partition("=")
        pairs.append((key, atof(value)))
    return tuple(pairs)


def _suggest(name: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, [*MEASURES, *NICKNAMES], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def parse_measures(specs: Sequence[str] | None) -> list[_Bound]:
    """trec_eval ``-m`` arguments -> the measures to compute, in trec_eval's order.

    As trec_eval: ``name.params`` marks ``name`` and records the parameters; a nickname marks
    its measures; the first parameters recorded for a measure are the ones used.
    """
    if specs is None:
        specs = ["official"]
    if isinstance(specs, str):
        specs = [specs]
    if len(specs) == 0:
        raise TrecEvalError("no measure given")
    marked: set[str] = set()
    args: list[tuple[str, str]] = []
    for spec in specs:
        if not isinstance(spec, str):
            raise TrecEvalError(f"a measure must be a string, got {spec!r}")
        name, dot, ptext = spec.partition(".")
        if dot:
            if ptext == "":
                raise TrecEvalError(f"measure {spec!r} has an empty parameter list")
            args.append((name, ptext))
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in MEASURES:
            marked.add(name)
        elif name in _OTHER_FORMATS:
            raise TrecEvalError(
                f"trec_eval measure {name!r} needs preference or judgment-group qrels "
                "(-R prefs / qrels_jg), which assay trec-eval does not read"
            )
        else:
            raise TrecEvalError(
                f"unknown trec_eval measure {name!r}{_suggest(name)}; "
                "`assay trec-eval -h` lists them"
            )
    shared = [n for n in ("dcg", "ideal_dcg", "ndcg") if n in marked]
    if len(shared) > 1 and any(n in shared for n, _ in args):
        # QUIRK: m_ndcg.c gives dcg, ideal_dcg and ndcg one parameter list; once any of them
        # has parameters, trec_eval 10.0 frees that list once per measure and aborts.
        raise TrecEvalError(
            f"trec_eval 10.0 crashes when {' and '.join(shared)} are requested together with "
            "gain parameters (they share one parameter list); evaluate them separately"
        )
    bound = []
    for name, defn in MEASURES.items():
        if name not in marked:
            continue
        text = next((p for n, p in args if n == name), None)
        params, names = _parse_params(defn, text)
        bound.append(_Bound(defn, params, names))
    return bound


# ---------------------------------------------------------------- results


@dataclass
class _Slot:
    """One output value of trec_eval (``P_5``, ``relstring``, ...) over all topics."""

    name: str
    kind: str  # "float" | "int" | "str" | "runid"
    per_query: bool
    summary: bool
    values: Any  # float64 array per topic, or list of strings (relstring)
    average: str = "none"  # how the "all" value is made (MeasureDef.average)
    total: Any = None  # the "all" value


@dataclass
class TrecResult:
    """What trec_eval computes for one run.

    ``per_query[query][name]`` holds the values trec_eval prints with ``-q`` (floats; counts
    as ints; ``relstring`` as a string), ``summary[name]`` the ``all`` lines (``runid`` a
    string), ``queries`` the topics in trec_eval's order. ``raw_per_query`` holds the value
    trec_eval keeps per topic for every output, printed or not: ``gm_map`` and ``gm_bpref`` as
    log(max(value, 1e-5)), ``num_q`` as 1, ``relstring`` and ``runid`` as 0.0 — the per-topic
    dictionary pytrec_eval returns.
    ``measures`` lists the output names in order. Where parameters make two outputs print the
    same name (``iprec_at_recall.0.1,0.101``), the dictionaries keep the last; the text from
    :func:`format_trec` has both.
    """

    summary: dict[str, Any]
    queries: list[str]
    measures: list[str]
    runid: str
    options: dict[str, Any] = field(default_factory=dict)
    _slots: list[_Slot] = field(default_factory=list, repr=False)
    # Column-wise values; the per-topic dictionaries are built on first use.
    _pq: tuple[list[str], list[list[Any]]] = field(default=([], []), repr=False)
    _raw: tuple[list[str], list[list[Any]]] = field(default=([], []), repr=False)

    def _nested(self, names: list[str], cols: list[list[Any]]) -> dict[str, dict[str, Any]]:
        n = len(self.queries)
        rows = zip(*cols, strict=True) if cols else iter([()] * n)
        return {
            q: dict(zip(names, row, strict=True)) for q, row in zip(self.queries, rows, strict=True)
        }

    @cached_property
    def per_query(self) -> dict[str, dict[str, Any]]:
        return self._nested(*self._pq)

    @cached_property
    def raw_per_query(self) -> dict[str, dict[str, float]]:
        return self._nested(*self._raw)

    def __repr__(self) -> str:
        return (
            f"TrecResult(runid={self.runid!r}, {len(self.queries)} topics, "
            f"{len(self.measures)} values)"
        )


def _as_int(value: float) -> int:
    """C's ``(long) value``: truncation toward zero."""
    return int(value) if math.isfinite(value) else 0


def _pyvalue(kind: str, value: Any) -> Any:
    if kind == "int":
        return _as_int(float(value))
    if kind in ("str", "runid"):
        return value
    return float(value)


# ---------------------------------------------------------------- evaluation


def _with_bogus_results(
    ranked: Any, missing: np.ndarray, qrels: Qrels, max_docs: int | None, judged_only: bool
) -> Any:
    """trec_eval -c: a topic without results is evaluated on a one-document ranking of the
    docno "ceci_nest_pas_un_docno" (and some values are reset afterwards, see
    :func:`_reset_missing`)."""
    from ..data.ranked import NONPOOL, UNJUDGED, Ranked

    qs = np.flatnonzero(missing)
    if len(qs) == 0 or max_docs == 0:
        return ranked
    grades = np.full(len(qs), NONPOOL, dtype=np.int32)
    # QUIRK: that docno is looked up in the qrels like any other.
    code = pc.index(qrels.doc_ids, _BOGUS_DOCNO).as_py()
    if code >= 0:
        for i, q in enumerate(qs.tolist()):
            lo, hi = int(qrels.offsets[q]), int(qrels.offsets[q + 1])
            hit = np.flatnonzero(qrels.doc_codes[lo:hi] == code)
            if len(hit):
                g = int(qrels.grades[lo + hit[0]])
                grades[i] = g if g >= 0 else UNJUDGED
    if judged_only:
        keep = grades >= 0
        qs, grades = qs[keep], grades[keep]
        if len(qs) == 0:
            return ranked
    at = ranked.offsets[qs]
    n_ret = np.diff(ranked.offsets)
    n_ret[qs] += 1
    return Ranked(
        query_ids=ranked.query_ids,
        offsets=np.concatenate(([0], np.cumsum(n_ret))).astype(np.int64),
        grade=np.insert(ranked.grade, at, grades),
        score=np.insert(ranked.score, at, 1.0),
        levels=ranked.levels,
        level_grades=ranked.level_grades,
        ideal_grades=ranked.ideal_grades,
        ideal_offsets=ranked.ideal_offsets,
        max_grade=ranked.max_grade,
        conventions=ranked.conventions,
    )


def _reset_missing(slots: list[_Slot], missing: np.ndarray) -> None:
    """After evaluating the stand-in ranking of a topic without results, trec_eval resets
    the values named exactly ``num_ret``, ``utility`` and ``rbp_resid``, every value whose name
    starts with ``unj``, and the string of ``relstring``.

    QUIRK: the names are compared whole, so ``utility_2,-1,0,0``, ``rbp_resid_p=0.8`` and
    ``relstring_20`` keep what the one unjudged stand-in document gives them (-1 x 2 for that
    utility, the residual 1.0, the string '-').
    """
    if not missing.any():
        return
    for s in slots:
        if s.name == "relstring":
            s.values = ["" if m else v for v, m in zip(s.values, missing.tolist(), strict=True)]
        elif s.name in ("num_ret", "utility", "rbp_resid") or s.name.startswith("unj"):
            s.values = np.where(missing, 0.0, s.values)


def evaluate_trec(
    qrels: Qrels,
    run: Run,
    measures: Sequence[str] | str | None = None,
    *,
    relevance_level: int = 1,
    complete: bool = False,
    max_docs: int | None = None,
    judged_only: bool = False,
    iprec_rounding: str = "lround",
    num_docs_in_coll: int = 0,
) -> TrecResult:
    """Evaluate one run as trec_eval 10.0 does.

    ``measures``: trec_eval ``-m`` arguments (default ``["official"]``). ``relevance_level``
    is ``-l``, ``complete`` is ``-c`` (without it a qrels topic with no results is an error,
    as in trec_eval 10), ``max_docs`` is ``-M``, ``judged_only`` is ``-J``,
    ``num_docs_in_coll`` is ``-N`` (utility's fourth coefficient). ``iprec_rounding``:
    ``"lround"`` turns recall levels into document counts as trec_eval 10 does, ``"trec9"``
    as trec_eval 9 and pytrec_eval do ((long)(level * R + 0.9)), for iprec_at_recall and
    11pt_avg.
    """
    from ..data import Conventions, rank

    if not isinstance(qrels, Qrels):
        raise InputError(f"qrels must be an assay.Qrels, got {type(qrels).__name__}")
    if not isinstance(run, Run):
        raise InputError(f"run must be an assay.Run, got {type(run).__name__}")
    if iprec_rounding not in _IPREC_ROUNDING:
        raise TrecEvalError(f"iprec_rounding must be 'lround' or 'trec9', got {iprec_rounding!r}")
    for what, value in (
        ("relevance_level", relevance_level),
        ("num_docs_in_coll", num_docs_in_coll),
    ):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise TrecEvalError(f"{what} must be an integer, got {value!r}")
    if relevance_level < 0:
        raise TrecEvalError(f"relevance_level must be >= 0, got {relevance_level}")
    if max_docs is not None and (
        isinstance(max_docs, bool) or not isinstance(max_docs, int | np.integer) or max_docs < 0
    ):
        raise TrecEvalError(f"max_docs must be a non-negative integer or None, got {max_docs!r}")
    plan = parse_measures(measures)

    conv = Conventions(ties="docno", missing="zero", judged_only=bool(judged_only))
    ranked, info = rank(qrels, run, conv, depth=None if max_docs is None else int(max_docs))
    missing = np.asarray(info.missing_mask, dtype=bool)
    queries = [str(q) for q in ranked.query_ids.tolist()]
    if missing.any() and not complete:
        first = queries[int(np.flatnonzero(missing)[0])]
        n = int(missing.sum())
        more = f" (and {n - 1} more qrels topic{'s' if n > 2 else ''})" if n > 1 else ""
        raise MissingQueryError(
            f"qrels topic {first!r} has no results in run {run.name!r}{more}; trec_eval 10 "
            "stops here: use -c (complete=True) to score topics without results as 0"
        )
    if complete:
        ranked = _with_bogus_results(ranked, missing, qrels, max_docs, bool(judged_only))
    ctx = TrecContext(
        ranked, int(relevance_level), num_docs=int(num_docs_in_coll), iprec_rounding=iprec_rounding
    )
    runid = run.tag if run.tag is not None else run.name

    slots: list[_Slot] = []
    for b in plan:
        d = b.defn
        if d.kernel is None:  # runid
            slots.append(_Slot("runid", "runid", False, True, None, total=runid))
            continue
        for name, values in zip(b.names, d.kernel(ctx, b.params), strict=True):
            slots.append(_Slot(name, d.kind, d.per_query, d.summary, values, d.average))
    if complete:
        _reset_missing(slots, missing)
    n = len(queries)
    n_rel_all = int(np.count_nonzero(qrels.grades > 0))
    for s in slots:
        if s.kind == "runid":
            continue
        how = s.average
        if how == "none":
            s.total = None
        elif how == "count":
            s.total = float(n)
        elif how == "sum" or (how == "num_rel" and not complete):
            s.total = seq_sum(s.values)
        elif how == "num_rel":
            # QUIRK: with -c the num_rel summary counts the qrels lines with grade > 0 over all
            # topics, whatever -l says.
            s.total = float(n_rel_all)
        elif how == "gm":
            s.total = math.exp(seq_sum(s.values) / n)
        else:
            s.total = seq_sum(s.values) / n

    # Per-topic dictionaries built column-wise (one Python list per output, then zipped).
    pq_names: list[str] = []
    pq_cols: list[list[Any]] = []
    raw_names: list[str] = []
    raw_cols: list[list[Any]] = []
    summary: dict[str, Any] = {}
    for s in slots:
        if s.kind == "runid":
            summary["runid"] = runid
            raw_names.append("runid")  # no per-topic value in trec_eval; pytrec_eval shows 0
            raw_cols.append([0.0] * n)
            continue
        if s.kind == "str":
            raw_names.append(s.name)
            raw_cols.append([0.0] * n)
            if s.per_query:
                pq_names.append(s.name)
                pq_cols.append(list(s.values))
        else:
            arr = np.asarray(s.values, dtype=np.float64)
            raw_names.append(s.name)
            raw_cols.append(arr.tolist())
            if s.per_query:
                pq_names.append(s.name)
                pq_cols.append(
                    [_as_int(v) for v in raw_cols[-1]] if s.kind == "int" else raw_cols[-1]
                )
        if s.summary and s.total is not None:
            summary[s.name] = _pyvalue(s.kind, s.total)
    options = {
        "relevance_level": int(relevance_level),
        "complete": bool(complete),
        "max_docs": max_docs,
        "judged_only": bool(judged_only),
        "iprec_rounding": iprec_rounding,
        "num_docs_in_coll": int(num_docs_in_coll),
        "measures": list(measures)
        if measures is not None and not isinstance(measures, str)
        else measures,
    }
    return TrecResult(
        summary,
        queries,
        [s.name for s in slots],
        runid,
        options,
        slots,
        (pq_names, pq_cols),
        (raw_names, raw_cols),
    )


# ---------------------------------------------------------------- output


def _line(s: _Slot, qid: str, value: Any) -> str:
    if s.kind == "runid":
        return f"{'runid':<22}\t{qid}\t{value}\n"
    return f"{s.name:<22}\t{qid}\t{_texts(s, [value])[0]}\n"


def _texts(s: _Slot, values: Any) -> list[str]:
    """The printed values: %6.4f (NaN as glibc prints it), (long) counts, quoted strings."""
    if s.kind == "str":
        return [f"'{v}'" for v in values]
    arr = np.asarray(values, dtype=np.float64)
    if s.kind == "int":
        return [str(_as_int(v)) for v in arr.tolist()]
    out = [f"{v:6.4f}" for v in arr.tolist()]
    for i in np.flatnonzero(np.isnan(arr)).tolist():
        out[i] = format_value(float(arr[i]))
    return out


def format_trec(res: TrecResult, per_query: bool = False, summary: bool = True) -> str:
    """The text trec_eval prints: per-topic blocks (``-q``) then the ``all`` lines (unless
    ``-n``): ``%-22s\\t%s\\t%6.4f``, counts as integers, relstring quoted, runid as text."""
    out: list[str] = []
    if per_query and res.queries:
        columns = []
        for s in res._slots:
            if s.per_query:
                head = f"{s.name:<22}\t"
                columns.append(
                    [
                        f"{head}{q}\t{t}\n"
                        for q, t in zip(res.queries, _texts(s, s.values), strict=True)
                    ]
                )
        out.extend(itertools.chain.from_iterable(zip(*columns, strict=True)))
    if summary:
        for s in res._slots:
            if s.summary and s.total is not None:
                out.append(_line(s, "all", s.total))
    return "".join(out)


# ---------------------------------------------------------------- command line


_USAGE = "usage: assay trec-eval [-h] [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] {-m MEASURE[.PARAMS]} QRELS RUN"

_LONG = {  # getopt_long's table: name -> (short letter, takes an argument)
    "help": ("h", False),
    "version": ("v", False),
    "query_eval_wanted": ("q", False),
    "measure": ("m", True),
    "complete_rel_info_wanted": ("c", False),
    "level_for_rel": ("l", True),
    "nosummary": ("n", False),
    "Debug_level": ("D", True),
    "Judged_docs_only": ("J", False),
    "Number_docs_in_coll": ("N", True),
    "Max_retrieved_per_topic": ("M", True),
    "Rel_info_format": ("R", True),
    "Results_format": ("T", True),
    "Output_old_results_format": ("o", True),
    "Zscore": ("Z", True),
}
_SHORT_ARG = set("mlDNMRTZ")
_SHORT_FLAG = set("hvqcnJo")


@dataclass
class _Args:
    help: bool = False
    version: bool = False
    per_query: bool = False
    complete: bool = False
    summary: bool = True
    judged_only: bool = False
    relevance_level: int = 1
    max_docs: int | None = None
    num_docs: int = 0
    measures: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def _int_arg(flag: str, value: str, minimum: int | None = None) -> int:
    try:
        n = int(value.strip())
    except ValueError:
        raise TrecEvalError(f"option -{flag} needs an integer, got {value!r}") from None
    if minimum is not None and n < minimum:
        raise TrecEvalError(f"option -{flag} must be >= {minimum}, got {n}")
    return n


def parse_argv(argv: Sequence[str]) -> _Args:
    """trec_eval's command line, with GNU getopt_long's conventions: short flags may be
    clustered (``-qc``), an option's value may be glued (``-mP.5``, ``-M100``) or follow, long
    options may be abbreviated and take ``--name=value``; options and files may be mixed;
    ``--`` ends the options."""
    a = _Args()
    opts: list[tuple[str, str | None]] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            a.files.extend(args[i:])
            break
        if arg.startswith("--"):
            name, eq, given = arg[2:].partition("=")
            value: str | None = given
            hits = [k for k in _LONG if k == name] or [k for k in _LONG if k.startswith(name)]
            if len(hits) != 1 or not name:
                what = "ambiguous" if len(hits) > 1 else "unknown"
                raise TrecEvalError(f"{what} option '--{name}'; see assay trec-eval -h")
            letter, takes = _LONG[hits[0]]
            if takes and not eq:
                if i >= len(args):
                    raise TrecEvalError(
                        f"option '--{hits[0]}' needs a value; see assay trec-eval -h"
                    )
                value = args[i]
                i += 1
            elif not takes and eq:
                raise TrecEvalError(f"option '--{hits[0]}' takes no value; see assay trec-eval -h")
            opts.append((letter, value if takes else None))
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                ch = arg[j]
                j += 1
                if ch in _SHORT_FLAG:
                    opts.append((ch, None))
                elif ch in _SHORT_ARG:
                    if j < len(arg):
                        value = arg[j:]
                    elif i < len(args):
                        value = args[i]
                        i += 1
                    else:
                        raise TrecEvalError(f"option -{ch} needs a value; see assay trec-eval -h")
                    opts.append((ch, value))
                    break
                else:
                    raise TrecEvalError(f"unknown option -{ch}; see assay trec-eval -h")
            continue
        a.files.append(arg)
    for letter, value in opts:
        v = value or ""
        if letter == "h":
            a.help = True
        elif letter == "v":
            a.version = True
        elif letter == "q":
            a.per_query = True
        elif letter == "c":
            a.complete = True
        elif letter == "n":
            a.summary = False
        elif letter == "J":
            a.judged_only = True
        elif letter == "o":
            pass  # obsolete in trec_eval too: accepted and ignored
        elif letter == "m":
            a.measures.append(v)
        elif letter == "l":
            a.relevance_level = _int_arg("l", v, 0)
        elif letter == "M":
            a.max_docs = _int_arg("M", v, 0)
        elif letter == "N":
            a.num_docs = _int_arg("N", v)
        elif letter == "R":
            if v != "qrels":
                raise TrecEvalError(f"-R {v}: only the 'qrels' relevance format is supported")
        elif letter == "T":
            if v != "trec_results":
                raise TrecEvalError(f"-T {v}: only the 'trec_results' run format is supported")
        elif letter in ("D", "Z"):
            raise TrecEvalError(f"-{letter} (debug / z-score output) is not supported")
    return a


def help_text(measures: Sequence[str] = ()) -> str:
    """``assay trec-eval -h``: usage, flags and the measures (those asked for with -m, or all)."""
    lines = [
        _USAGE,
        "",
        "Evaluate RUN (TREC run: query Q0 docno rank score tag; '-' reads stdin) against QRELS",
        "(query iteration docno grade) exactly as trec_eval 10.0 does, printing the same bytes.",
        "",
        "  -q        also print every topic's values (topics in byte order, then 'all')",
        "  -c        average over all qrels topics; a topic without results scores 0",
        "            (without -c such a topic is an error, as in trec_eval 10)",
        "  -n        no summary ('all') lines",
        "  -J        drop unjudged documents from every ranking before evaluating",
        "  -l N      minimum grade counted relevant by the binary measures (default 1)",
        "  -M N      evaluate only the first N documents of every ranking",
        "  -N N      documents in the collection (utility's fourth coefficient)",
        "  -m NAME[.PARAMS]  add a measure or a nickname (repeatable; default: official);",
        "            parameters follow the first '.', comma-separated: -m P.5,10",
        "            -m ndcg.1=3,2=9  -m iprec_at_recall..1,.5  -m utility.2,-1,0,0",
        "  -h        this help (with -m: only those measures)",
        "",
        "Nicknames: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in NICKNAMES.items()),
        "",
        "Measures (in output order; defaults in brackets):",
    ]
    wanted: list[str] = list(MEASURES)
    if measures:
        chosen = {b.defn.name for b in parse_measures(list(measures))}
        wanted = [m for m in MEASURES if m in chosen]
    for name in wanted:
        d = MEASURES[name]
        tail = ""
        if d.param_doc:
            shown = ",".join((f"{v:g}" if isinstance(v, float) else str(v)) for v in d.defaults)
            tail = f"  [{d.param_doc}{': ' + shown if shown else ''}]"
        lines.append(f"  {name:<22}{d.doc}{tail}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Run ``assay trec-eval`` on ``argv`` (without the command name); returns the exit code.
    Errors raise :class:`~assay.errors.AssayError` (the CLI prints one line, exit code 2)."""
    stream = out if out is not None else sys.stdout
    a = parse_argv(argv)
    if a.version:
        from .._version import __version__

        sys.stderr.write(f"assay trec-eval {__version__} (trec_eval 10.0 compatible)\n")
        return 0
    if a.help:
        stream.write(help_text(a.measures))
        return 0
    if len(a.files) != 2:
        raise TrecEvalError(
            f"expected QRELS and RUN, got {len(a.files)} file argument(s); see assay trec-eval -h"
        )
    parse_measures(a.measures or None)  # bad measures fail before any file is read
    qrels = Qrels.from_trec(a.files[0])
    run = Run.from_trec(a.files[1])
    res = evaluate_trec(
        qrels,
        run,
        a.measures or None,
        relevance_level=a.relevance_level,
        complete=a.complete,
        max_docs=a.max_docs,
        judged_only=a.judged_only,
        num_docs_in_coll=a.num_docs,
    )
    stream.write(format_trec(res, per_query=a.per_query, summary=a.summary))
    return 0
