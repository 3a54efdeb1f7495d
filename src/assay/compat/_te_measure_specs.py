"""trec_eval's ``-m`` arguments: measure names, nicknames and parameter lists, parsed as
trec_eval 10.0 parses them (meas_init.c), for :mod:`assay.compat.trec_eval`."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import MetricError
from ._te_arithmetic import atof, atol
from ._te_measures import MEASURES, MeasureDef
from ._te_prefs import PREFS_MEASURES


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
ALL_PREFS: tuple[str, ...] = ("runid", "num_q", *PREFS_MEASURES)
PREFS: tuple[str, ...] = ALL_PREFS[:8]  # trec_eval's "prefs": the official preference measures
QRELS_JG: tuple[str, ...] = ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg")
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": OFFICIAL,
    "set": SET,
    "all_trec": ALL_TREC,
    "all_prefs": ALL_PREFS,
    "prefs": PREFS,
    "qrels_jg": QRELS_JG,
}
#: -R: the relevance formats and the measure kind each one feeds (MeasureDef.needs).
REL_FORMATS: dict[str, str] = {
    "qrels": "qrels",
    "prefs": "prefs",
    "qrels_prefs": "prefs",
    "qrels_jg": "jg",
}
SUPPORTED: frozenset[str] = frozenset(MEASURES)


# ---------------------------------------------------------------- measure specs


@dataclass(frozen=True)
class Bound:
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
                raise TrecEvalError(
                    f"{name}: cutoffs must be positive, got {text!r}", option="measures"
                )
            if any(a == b for a, b in itertools.pairwise(cuts)):
                raise TrecEvalError(f"{name}: duplicate cutoffs in {text!r}", option="measures")
        return cuts, tuple(f"{name}_{k}" for k in cuts)
    if style == "cut_double":
        if text is None:
            vals = tuple(defn.defaults)
        else:
            raw = [atof(t) for t in text.split(",")]
            if any(math.isnan(v) for v in raw):
                raise TrecEvalError(
                    f"{name}: parameter is not a number in {text!r}", option="measures"
                )
            vals = tuple(sorted(raw))
            if any(a == b for a, b in itertools.pairwise(vals)):
                raise TrecEvalError(f"{name}: duplicate cutoffs in {text!r}", option="measures")
        return vals, tuple(f"{name}_%3.2f" % v for v in vals)
    if style == "p_double":
        vals = tuple(defn.defaults) if text is None else tuple(atof(t) for t in text.split(","))
        if name == "utility" and len(vals) != 4:
            raise TrecEvalError(
                f"utility takes 4 coefficients, got {len(vals)} in {text!r}", option="measures"
            )
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
        raise TrecEvalError(f"{name}: malformed name=value parameters {text!r}", option="measures")
    pairs = []
    for item in text.split(","):
        key, _, value = item.partition("=")
        pairs.append((key, atof(value)))
    return tuple(pairs)


def _suggest(name: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, [*MEASURES, *NICKNAMES], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def parse_measures(specs: Sequence[str] | None, rel_format: str | None = "qrels") -> list[Bound]:
    """trec_eval ``-m`` arguments -> the measures to compute, in trec_eval's order.

    Every measure must read ``rel_format`` (``-R``): a measure of another format is an error
    (trec_eval stops with "Can't calculate measure"); None checks nothing (``-h``).

    As trec_eval: ``name.params`` marks ``name`` and records the parameters; a nickname marks
    its measures; the first parameters recorded for a measure are the ones used.
    """
    if specs is None:
        specs = ["official"]
    if isinstance(specs, str):
        specs = [specs]
    if len(specs) == 0:
        raise TrecEvalError("no measure given", option="measures")
    marked: set[str] = set()
    args: list[tuple[str, str]] = []
    for spec in specs:
        if not isinstance(spec, str):
            raise TrecEvalError(f"a measure must be a string, got {spec!r}", option="measures")
        name, dot, ptext = spec.partition(".")
        if dot:
            if ptext == "":
                raise TrecEvalError(
                    f"measure {spec!r} has an empty parameter list", option="measures"
                )
            args.append((name, ptext))
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in MEASURES:
            marked.add(name)
        else:
            raise TrecEvalError(
                f"unknown trec_eval measure {name!r}{_suggest(name)}; "
                "`assay trec-eval -h` lists them",
                option="measures",
            )
    shared = [n for n in ("dcg", "ideal_dcg", "ndcg") if n in marked]
    if len(shared) > 1 and any(n in shared for n, _ in args):
        # QUIRK: m_ndcg.c gives dcg, ideal_dcg and ndcg one parameter list; once any of them
        # has parameters, trec_eval 10.0 frees that list once per measure and aborts.
        raise TrecEvalError(
            f"trec_eval 10.0 crashes when {' and '.join(shared)} are requested together with "
            "gain parameters (they share one parameter list); evaluate them separately",
            option="measures",
        )
    kind = REL_FORMATS[rel_format] if rel_format is not None else None
    wrong = [
        n
        for n in MEASURES
        if kind is not None and n in marked and MEASURES[n].needs not in ("any", kind)
    ]
    if wrong:
        other = MEASURES[wrong[0]].needs
        wants = {
            "qrels": "ordinary qrels (-R qrels)",
            "prefs": "preference judgments (-R prefs or qrels_prefs)",
            "jg": "judgment-group qrels (-R qrels_jg)",
        }[other]
        hint = {"qrels": "official", "prefs": "all_prefs", "jg": "qrels_jg"}[str(kind)]
        raise TrecEvalError(
            f"trec_eval measure {wrong[0]!r} reads {wants}, not -R {rel_format}; "
            f"with -R {rel_format} ask for its measures (-m {hint})",
            option="measures",
        )
    bound = []
    for name, defn in MEASURES.items():
        if name not in marked:
            continue
        text = next((p for n, p in args if n == name), None)
        params, names = _parse_params(defn, text)
        bound.append(Bound(defn, params, names))
    return bound
