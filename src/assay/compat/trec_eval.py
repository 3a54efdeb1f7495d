"""trec_eval 10.0, reproduced byte for byte on assay's columnar engine.

::

    from assay.compat.trec_eval import evaluate_trec, format_trec
    res = evaluate_trec(qrels, run, ["official", "ndcg_cut.10,20"], complete=True)
    res.summary["map"], res.per_query["301"]["ndcg_cut_10"]
    print(format_trec(res, per_query=True), end="")   # exactly what `trec_eval -q -c ...` prints

``assay trec-eval [flags] QRELS RUN`` is the command-line face (``-q -c -n -J -l N -M N -N N
-R FORMAT -m MEASURE[.PARAMS]``, also glued as trec_eval accepts them: ``-mP.5``, ``-M100``,
``-l2``).

What is reproduced: every measure of trec_eval's measure table (:data:`SUPPORTED`: all of
``all_trec`` plus ``dcg``, ``ideal_dcg`` and ``yaap``; the preference measures of
``all_prefs`` on ``-R prefs`` / ``qrels_prefs`` judgments, :class:`Preferences`; the
judgment-group measures of ``qrels_jg`` on ``-R qrels_jg`` ones, :class:`JudgmentGroups`), with
trec_eval's parameter syntax and defaults (``-m P.5,10``, ``-m ndcg.1=3,2=9``,
``-m iprec_at_recall..10,.20``, ``-m utility.2,-1,0,0``, ...), the nicknames ``official``,
``all_trec``, ``set``, ``all_prefs``, ``prefs`` and ``qrels_jg``, output names, measure order, print formats, averaging rules (counts
summed, ``gm_*`` geometric, ``-c`` averaging over every qrels topic), ``-M`` (truncate each
ranking after sorting, before ``-J``), ``-J`` and ``-l`` (binary measures only; ndcg's gains
are the grades). trec_eval's quirks are reproduced too; each is marked ``QUIRK`` where it is
reproduced (the ``assay.compat._te_*`` modules, or here).

Deliberate differences: bad input is an error (one line, exit code 2) where trec_eval would
crash, print garbage or guess — a qrels topic without results when ``-c`` is not given (trec_eval
10 stops with a wrong message; ours names the topic), a negative ``-l`` or ``-M``, malformed
numbers in flags, a measure asked for with a relevance format it does not read, malformed
preference or judgment-group lines (:mod:`assay.compat._te_formats`), and the debugging option
``-D``.

``-Z zscores_file`` (``zscores=``) prints z-scores instead of raw values, as trec_eval does: see
:mod:`assay.compat._te_zscores`.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TextIO

import numpy as np
import pyarrow.compute as pc

from .._options import choice, flag, integer
from .._options import depth as check_depth
from .._result import provenance
from ..data import Qrels, Run
from ..data.irds import is_irds_id
from ..errors import MissingQueryError
from ._te_arithmetic import seq_sum
from ._te_cli import help_text, parse_argv
from ._te_context import TrecContext
from ._te_formats import (
    JudgmentGroups,
    Preferences,
    read_prefs,
    read_qrels_jg,
    read_qrels_prefs,
)
from ._te_measure_specs import (
    ALL_PREFS,
    ALL_TREC,
    NICKNAMES,
    OFFICIAL,
    SUPPORTED,
    Bound,
    TrecEvalError,
    parse_measures,
)
from ._te_measure_specs import PREFS as PREFS
from ._te_measure_specs import QRELS_JG as QRELS_JG
from ._te_measure_specs import SET as SET
from ._te_result import Slot, TrecResult, format_trec, pyvalue, write_trec
from ._te_zscores import ZScores, coerce_zscores, convert

__all__ = [
    "ALL_PREFS",
    "ALL_TREC",
    "NICKNAMES",
    "OFFICIAL",
    "SUPPORTED",
    "JudgmentGroups",
    "Preferences",
    "TrecEvalError",
    "TrecResult",
    "evaluate_trec",
    "format_trec",
    "main",
    "read_prefs",
    "read_qrels_jg",
    "read_qrels_prefs",
]

#: How recall levels become document counts: trec_eval 10's ``lround`` or trec_eval 9's.
IprecRounding = Literal["lround", "trec9"]
_BOGUS_DOCNO = "ceci_nest_pas_un_docno"


# ---------------------------------------------------------------- evaluation steps


def _check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The validated options (every bad option a TrecEvalError, an OptionError naming it)."""
    err = TrecEvalError
    return {
        "relevance_level": integer(
            options["relevance_level"], "relevance_level", minimum=0, error=err
        ),
        "complete": flag(options["complete"], "complete", error=err),
        "depth": check_depth(options["depth"], error=err),
        "judged_only": flag(options["judged_only"], "judged_only", error=err),
        "iprec_rounding": choice(
            options["iprec_rounding"], IprecRounding, "iprec_rounding", error=err
        ),
        "num_docs_in_coll": integer(
            options["num_docs_in_coll"], "num_docs_in_coll", minimum=0, error=err
        ),
    }


def _with_bogus_results(
    ranked: Any, missing: np.ndarray, qrels: Qrels, depth: int | None, judged_only: bool
) -> Any:
    """trec_eval -c: a topic without results is evaluated on a one-document ranking of the
    docno "ceci_nest_pas_un_docno" (and some values are reset afterwards, see
    :func:`_reset_missing`)."""
    from ..data.ranked import NONPOOL, UNJUDGED

    qs = np.flatnonzero(missing)
    if len(qs) == 0 or depth == 0:
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
    return ranked.with_rows(
        np.concatenate(([0], np.cumsum(n_ret))).astype(np.int64),
        np.insert(ranked.grade, at, grades),
        np.insert(ranked.score, at, 1.0),
    )


def _reset_missing(slots: list[Slot], missing: np.ndarray) -> None:
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


def _ranked(
    qrels: Qrels, run: Run | None, opts: dict[str, Any], *, empty: bool = False
) -> tuple[Any, np.ndarray, list[str]]:
    """The run joined with the qrels as trec_eval sees it (-M, -J, -c applied): the ranked
    lists, which qrels topics had no results, and the topics in order. With ``empty`` a
    topic without results is evaluated on an empty ranking (pytrec_eval's ``{query: {}}``);
    ``run=None`` is a run without any result."""
    from ..data import Conventions, rank
    from ..data.join import rank_absent

    conv = Conventions(ties="docno", missing="zero", judged_only=opts["judged_only"])
    if run is None:
        ranked = rank_absent(qrels, conv)
        missing = np.ones(qrels.n_queries, dtype=bool)
    else:
        ranked, info = rank(qrels, run, conv, depth=opts["depth"])
        missing = np.asarray(info.missing_mask, dtype=bool)
    queries = [str(q) for q in ranked.query_ids.tolist()]
    if empty:
        return ranked, missing, queries
    if run is not None and missing.any() and not opts["complete"]:
        first = queries[int(np.flatnonzero(missing)[0])]
        n = int(missing.sum())
        more = f" (and {n - 1} more qrels topic{'s' if n > 2 else ''})" if n > 1 else ""
        raise MissingQueryError(
            f"qrels topic {first!r} has no results in run {run.name!r}{more}; trec_eval 10 "
            "stops here: use -c (complete=True) to score topics without results as 0"
        )
    if opts["complete"]:
        ranked = _with_bogus_results(ranked, missing, qrels, opts["depth"], opts["judged_only"])
    return ranked, missing, queries


def _compute(plan: list[Bound], ctx: Any, runid: str) -> list[Slot]:  # Any: any measure context
    """Every output value of every measure in ``plan``, per topic."""
    slots: list[Slot] = []
    for b in plan:
        d = b.defn
        if d.kernel is None:  # runid
            slots.append(Slot("runid", "runid", False, True, None, total=runid))
            continue
        for name, values in zip(b.names, d.kernel(ctx, b.params), strict=True):
            slots.append(Slot(name, d.kind, d.per_query, d.summary, values, d.average))
    return slots


def _summarise(slots: list[Slot], n: int, complete: bool, n_rel_all: int) -> None:
    """The "all" value of every output, by its measure's averaging rule."""
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


def _to_zscores(slots: list[Slot], queries: list[str], zscores: ZScores) -> None:
    """trec_eval -Z: every numeric per-topic value (printed or not) becomes its z-score, before
    the "all" values are made; counts become floats (printed with %6.4f)."""
    for s in slots:
        if s.kind in ("float", "int"):
            s.values = convert(s.name, s.values, queries, zscores)
            s.kind = "float"
            s.z = True


def _summary(slots: list[Slot], runid: str) -> dict[str, Any]:
    """The ``all`` values by output name (``runid`` as text)."""
    out: dict[str, Any] = {}
    for s in slots:
        if s.kind == "runid":
            out["runid"] = runid
        elif s.summary and s.total is not None:
            out[s.label] = pyvalue(s.kind, s.total)
    return out


def evaluate_trec(
    qrels: Qrels | Preferences | JudgmentGroups,
    run: Run,
    measures: Sequence[str] | str | None = None,
    *,
    relevance_level: int = 1,
    complete: bool = False,
    depth: int | None = None,
    judged_only: bool = False,
    iprec_rounding: IprecRounding = "lround",
    num_docs_in_coll: int = 0,
    zscores: str | os.PathLike[str] | Mapping[str, Mapping[str, Sequence[float]]] | None = None,
) -> TrecResult:
    """Evaluate one run as trec_eval 10.0 does.

    A bad option or measure raises :class:`TrecEvalError` (an
    :class:`~assay.errors.OptionError`).

    Parameters
    ----------
    qrels : Qrels, Preferences or JudgmentGroups
        The judgments (a path, a data frame or a ``{query: {doc: grade}}`` dict is read as
        :class:`~assay.data.Qrels`). :class:`Preferences` (``-R prefs`` / ``qrels_prefs``,
        from :func:`read_prefs`, :func:`read_qrels_prefs`) are scored by the preference
        measures (``-m all_prefs``), :class:`JudgmentGroups` (``-R qrels_jg``, from
        :func:`read_qrels_jg`) by the ``*_avgjg`` ones (``-m qrels_jg``).
    run : Run
        The run (a path, a data frame or a ``{query: {doc: score}}`` dict is read as one).
    measures : str or sequence of str, optional
        trec_eval ``-m`` arguments (``"official"``, ``"P.5,10"``, ``"ndcg.1=3,2=9"``, ...);
        default ``["official"]``.
    relevance_level : int, default 1
        ``-l``: lowest grade counted relevant by binary measures.
    complete : bool, default False
        ``-c``: average over every qrels topic, one without results scored as trec_eval
        scores it; without it such a topic is an error, as in trec_eval 10.
    depth : int, optional
        ``-M``: keep the first ``depth`` documents of every ranking.
    judged_only : bool, default False
        ``-J``: leave unjudged documents out of the rankings.
    iprec_rounding : {"lround", "trec9"}, default "lround"
        How iprec_at_recall and 11pt_avg turn recall levels into document counts: as
        trec_eval 10 does, or as trec_eval 9 and pytrec_eval do ((long)(level * R + 0.9)).
    num_docs_in_coll : int, default 0
        ``-N``: documents in the collection (utility's fourth coefficient).
    zscores : path or mapping, optional
        ``-Z``: report z-scores instead of raw values. A trec_eval z-scores file (lines ``qid
        measure mean stddev``; a malformed line raises :class:`~assay.errors.InputError`
        naming the file and line) or ``{query: {output name: (mean, stddev)}}``. Each
        per-topic value ``v`` becomes ``(v - mean) / stddev`` (0 if ``stddev`` is 0 and
        ``v == mean``); a missing pair, or ``stddev`` 0 with ``v != mean``, gives -1000000.
        The ``all`` values are made from the z-scores by each measure's usual rule, and the
        outputs are named with a ``Z`` prefix (``Zmap``); ``relstring`` and ``runid`` are
        unchanged.

    Returns
    -------
    TrecResult
        ``summary`` (the ``all`` lines), ``per_query`` (what ``-q`` prints), ``queries``,
        ``measures``; :func:`format_trec` prints it as trec_eval does.

    Examples
    --------
    >>> from assay.data import Qrels, Run
    >>> from assay.compat.trec_eval import evaluate_trec, format_trec
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d4": 1, "d6": 1}})
    >>> run = Run.from_dict({"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d4": 0.5, "d5": 0.7}})
    >>> res = evaluate_trec(qrels, run, ["map", "P.5"])
    >>> print(f"{res.summary['map']:.4f}", res.per_query["q2"])
    0.5417 {'map': 0.25, 'P_5': 0.2}
    >>> print(format_trec(res), end="")
    map                         all     0.5417
    P_5                         all     0.3000

    With reference means and standard deviations (``-Z``):

    >>> ref = {"q1": {"map": (0.5, 0.25)}, "q2": {"map": (0.25, 0.0)}}
    >>> zres = evaluate_trec(qrels, run, ["map"], zscores=ref)
    >>> print(f"{zres.per_query['q1']['Zmap']:.4f}", zres.per_query["q2"])
    1.3333 {'Zmap': 0.0}
    >>> print(format_trec(zres), end="")
    Zmap                        all     0.6667

    Preference judgments (a higher level is preferred within a judgment sub-group):

    >>> from assay.compat.trec_eval import Preferences
    >>> prefs = Preferences.from_rows(
    ...     [("q1", "u1", "s1", "d1", 2), ("q1", "u1", "s1", "d2", 1), ("q1", "u1", "s1", "d3", 0)]
    ... )
    >>> pres = evaluate_trec(prefs, run, ["prefs_simp", "prefs_num_prefs_ful"])
    >>> pres.per_query["q1"]
    {'prefs_num_prefs_ful': 3, 'prefs_simp': 1.0}
    """
    run = Run.coerce(run, where="evaluate_trec", role="run")
    if isinstance(qrels, (Preferences, JudgmentGroups)):
        rel_format = "prefs" if isinstance(qrels, Preferences) else "qrels_jg"
    else:
        rel_format = "qrels"
        # A DataFrame, a path or a {query: {doc: value}} dict is taken as pytrec_eval users
        # give it.
        qrels = Qrels.coerce(qrels, where="evaluate_trec", role="qrels")
    opts = _check_options(
        {
            "relevance_level": relevance_level,
            "complete": complete,
            "depth": depth,
            "judged_only": judged_only,
            "iprec_rounding": iprec_rounding,
            "num_docs_in_coll": num_docs_in_coll,
        },
    )
    opts["measures"] = (
        list(measures) if measures is not None and not isinstance(measures, str) else measures
    )
    plan = parse_measures(measures, rel_format)
    z = None if zscores is None else coerce_zscores(zscores)
    if zscores is not None:
        opts["zscores"] = (
            os.fspath(zscores) if isinstance(zscores, (str, os.PathLike)) else "mapping"
        )
    if not isinstance(qrels, Qrels):
        opts["rel_format"] = rel_format
        return _evaluate_other(qrels, run, plan, opts, zscores=z)
    return _evaluate(qrels, run, plan, opts, zscores=z)


def _evaluate_other(
    judgments: Preferences | JudgmentGroups,
    run: Run,
    plan: list[Bound],
    opts: dict[str, Any],
    *,
    zscores: ZScores | None = None,
) -> TrecResult:
    """:func:`evaluate_trec` for preference and judgment-group judgments: their own context
    (see :mod:`assay.compat._te_prefs` and :mod:`assay.compat._te_jg`), then the usual
    z-scores, averaging and result."""
    from ._te_jg import JgContext
    from ._te_prefs import prefs_context

    ctx: Any  # Any: a PrefsContext or a JgContext, both read by the kernels of their measures
    if isinstance(judgments, Preferences):
        ctx = prefs_context(
            judgments, run, depth=opts["depth"], complete=opts["complete"], stand_in=_BOGUS_DOCNO
        )
    else:
        ctx = JgContext(
            judgments,
            run,
            relevance_level=opts["relevance_level"],
            depth=opts["depth"],
            judged_only=opts["judged_only"],
            complete=opts["complete"],
            stand_in=_BOGUS_DOCNO,
        )
    runid = run.tag if run.tag is not None else run.name
    slots = _compute(plan, ctx, runid)
    if zscores is not None:
        _to_zscores(slots, ctx.queries, zscores)
    _summarise(slots, ctx.nq, False, 0)
    return TrecResult(
        _summary(slots, runid),
        ctx.queries,
        [s.label for s in slots],
        runid,
        opts,
        slots,
        provenance(options=opts, backend="trec_eval 10.0"),
    )


def _evaluate(
    qrels: Qrels,
    run: Run | None,
    plan: list[Bound],
    opts: dict[str, Any],
    *,
    empty: bool = False,
    zscores: ZScores | None = None,
) -> TrecResult:
    """:func:`evaluate_trec` on validated options and parsed measures. ``empty``: qrels
    topics without results are evaluated on an empty ranking (``run=None``: every topic),
    as pytrec_eval does for ``{query: {}}``, instead of an error (or ``-c``'s stand-in)."""
    ranked, missing, queries = _ranked(qrels, run, opts, empty=empty)
    ctx = TrecContext(
        ranked,
        opts["relevance_level"],
        num_docs=opts["num_docs_in_coll"],
        iprec_rounding=opts["iprec_rounding"],
    )
    runid = "" if run is None else run.tag if run.tag is not None else run.name
    slots = _compute(plan, ctx, runid)
    if opts["complete"] and not empty:
        _reset_missing(slots, missing)
    if zscores is not None:
        _to_zscores(slots, queries, zscores)
    _summarise(slots, len(queries), opts["complete"], int(np.count_nonzero(qrels.grades > 0)))
    return TrecResult(
        _summary(slots, runid),
        queries,
        [s.label for s in slots],
        runid,
        opts,
        slots,
        provenance(options=opts, backend="trec_eval 10.0"),
    )


# ---------------------------------------------------------------- command line


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Run ``assay trec-eval`` on ``argv``; returns the exit code.

    Errors raise :class:`~assay.errors.AssayError` (the CLI prints one line, exit code 2).

    Parameters
    ----------
    argv : sequence of str
        The command's arguments without the command name: trec_eval's flags (``-q``, ``-c``,
        ``-m MEASURE``, ...), then the qrels and run files.
    out : text stream, optional
        Where the results are written; default ``sys.stdout``.

    Returns
    -------
    int
        The exit code: 0.

    Examples
    --------
    >>> from assay.compat.trec_eval import main
    >>> with open("qrels.txt", "w") as f:
    ...     print("q1 0 d1 1", file=f)
    ...     print("q1 0 d3 2", file=f)
    >>> with open("run.txt", "w") as f:
    ...     print("q1 Q0 d1 1 0.9 demo", file=f)
    ...     print("q1 Q0 d3 2 0.1 demo", file=f)
    >>> main(["-q", "-m", "map", "-m", "P.1", "qrels.txt", "run.txt"])
    map                         q1      1.0000
    P_1                         q1      1.0000
    map                         all     1.0000
    P_1                         all     1.0000
    0
    """
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
    parse_measures(a.measures or None, a.rel_format)  # bad measures fail before any file is read
    readers = {"prefs": read_prefs, "qrels_prefs": read_qrels_prefs, "qrels_jg": read_qrels_jg}
    # Any file is TREC text to trec_eval (no format from the extension); irds:<id> is a dataset.
    q = a.files[0]
    qrels: Any = (  # Any: Qrels, Preferences or JudgmentGroups, as -R says
        readers[a.rel_format](q)
        if a.rel_format in readers
        else Qrels.from_ir_datasets(q)
        if is_irds_id(q)
        else Qrels.from_trec(q)
    )
    run = Run.from_trec(a.files[1])
    res = evaluate_trec(
        qrels,
        run,
        a.measures or None,
        relevance_level=a.relevance_level,
        complete=a.complete,
        depth=a.depth,
        judged_only=a.judged_only,
        num_docs_in_coll=a.num_docs,
        zscores=a.zscores,
    )
    write_trec(res, stream, per_query=a.per_query, summary=a.summary)
    return 0
