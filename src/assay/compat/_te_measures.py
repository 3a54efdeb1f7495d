"""trec_eval 10.0's measure table: every measure's parameter style, defaults, printing,
averaging and kernel, in trec_eval's output order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ._te_context import TrecContext
from ._te_jg import JgContext
from ._te_kernels import (
    Values,
    k_11pt_avg,
    k_binG,
    k_bpref,
    k_dcg,
    k_G,
    k_gm_bpref,
    k_gm_map,
    k_ideal_dcg,
    k_infAP,
    k_iprec_at_recall,
    k_map,
    k_map_cut,
    k_ndcg,
    k_ndcg_cut,
    k_ndcg_rel,
    k_num_nonrel_judged_ret,
    k_num_q,
    k_num_rel,
    k_num_rel_ret,
    k_num_ret,
    k_P,
    k_rbp,
    k_rbp_resid,
    k_recall,
    k_recip_rank,
    k_relative_P,
    k_relstring,
    k_Rndcg,
    k_Rprec,
    k_Rprec_mult,
    k_set_F,
    k_set_map,
    k_set_P,
    k_set_recall,
    k_set_relative_P,
    k_success,
    k_unj,
    k_utility,
    k_yaap,
)
from ._te_prefs import PrefsContext


@dataclass(frozen=True)
class MeasureDef:
    """A trec_eval measure: parameter style, defaults, printing and averaging, kernel."""

    name: str
    style: str  # "none" | "long" | "double" | "cut_long" | "cut_double" | "p_double" | "p_pair"
    kernel: Callable[[Any, Any], Values] | None  # Any: a TrecContext, PrefsContext or JgContext
    doc: str
    defaults: tuple[Any, ...] = ()
    kind: str = "float"  # "float" | "int" | "str" | "runid"
    per_query: bool = True  # printed with -q
    summary: bool = True  # printed in the summary
    average: str = "mean"  # "mean" | "sum" | "gm" | "count" | "num_rel" | "none"
    param_doc: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: The relevance format it reads: "qrels", "prefs" (-R prefs or qrels_prefs), "jg" (-R
    #: qrels_jg) or "any" (runid, num_q).
    needs: str = "qrels"


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_GAIN_DOC = "level=gain pairs, e.g. 1=3,2=9 (other levels gain their own value)"


# Any: the kernels take a context and the measure's parsed parameters (of any style)
def _avgjg(kernel: Callable[[TrecContext, Any], Values]) -> Callable[[Any, Any], Values]:
    def k(ctx: JgContext, params: Any) -> Values:  # Any: parsed parameters
        return ctx.averaged(kernel, params)

    return k


def _prefs(name: str) -> Callable[[Any, Any], Values]:  # Any: as _avgjg's
    def k(ctx: PrefsContext, params: Any) -> Values:  # Any: parsed parameters (none)
        return [ctx.values[name]]

    return k


_PREFS_DOCS = {
    "prefs_num_prefs_poss": "preferences possible, retrieved or not (summary: total)",
    "prefs_num_prefs_ful": "preferences fulfilled, one or both documents retrieved (summary: total)",
    "prefs_num_prefs_ful_ret": "preferences fulfilled among retrieved documents (summary: total)",
    "prefs_simp": "preferences fulfilled / possible, pooled over judgment groups",
    "prefs_pair": "mean over document pairs of the share of judgment groups the ranking agrees with",
    "prefs_avgjg": "preferences fulfilled / possible per judgment group, averaged over groups",
    "prefs_avgjg_Rnonrel": "prefs_avgjg with relevant and non-relevant documents balanced (R = N)",
    "prefs_simp_ret": "prefs_simp among retrieved documents",
    "prefs_pair_ret": "prefs_pair among retrieved documents",
    "prefs_avgjg_ret": "prefs_avgjg among retrieved documents",
    "prefs_avgjg_Rnonrel_ret": "prefs_avgjg_Rnonrel among retrieved documents",
    "prefs_simp_imp": "prefs_simp over pairs with at least one retrieved document",
    "prefs_pair_imp": "prefs_pair over pairs with at least one retrieved document",
    "prefs_avgjg_imp": "prefs_avgjg over pairs with at least one retrieved document",
}
_PREFS_DEFS = tuple(
    MeasureDef(
        name,
        "long" if "num_prefs" in name else "double",
        _prefs(name),
        doc,
        kind="int" if "num_prefs" in name else "float",
        average="sum" if "num_prefs" in name else "mean",
        needs="prefs",
    )
    for name, doc in _PREFS_DOCS.items()
)

MEASURES: dict[str, MeasureDef] = {
    m.name: m
    for m in (
        MeasureDef(
            "runid",
            "none",
            None,
            "run tag from the last line of the run file",
            kind="runid",
            per_query=False,
            average="none",
            needs="any",
        ),
        MeasureDef(
            "num_q",
            "long",
            k_num_q,
            "number of topics evaluated",
            kind="int",
            per_query=False,
            average="count",
            needs="any",
        ),
        MeasureDef(
            "num_ret",
            "long",
            k_num_ret,
            "documents retrieved (summary: total)",
            kind="int",
            average="sum",
        ),
        MeasureDef(
            "num_rel",
            "long",
            k_num_rel,
            "judged relevant documents (summary: total; with -c, qrels lines with grade > 0)",
            kind="int",
            average="num_rel",
        ),
        MeasureDef(
            "num_rel_ret",
            "long",
            k_num_rel_ret,
            "relevant documents retrieved (summary: total)",
            kind="int",
            average="sum",
        ),
        MeasureDef("map", "double", k_map, "average precision (summary: MAP)"),
        MeasureDef(
            "gm_map",
            "double",
            k_gm_map,
            "average precision, geometric mean over topics (floor 1e-5); summary only",
            per_query=False,
            average="gm",
        ),
        MeasureDef("Rprec", "double", k_Rprec, "precision after R documents (R = relevant judged)"),
        MeasureDef("bpref", "double", k_bpref, "binary preference (Buckley & Voorhees 2004)"),
        MeasureDef("recip_rank", "double", k_recip_rank, "1 / rank of the first relevant document"),
        MeasureDef(
            "iprec_at_recall",
            "cut_double",
            k_iprec_at_recall,
            "interpolated precision at recall levels",
            _LEVELS,
            param_doc="recall levels",
        ),
        MeasureDef(
            "P",
            "cut_long",
            k_P,
            "precision at cutoffs (a short list is padded with non-relevant documents)",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "relstring",
            "p_double",
            k_relstring,
            "relevance of the first N documents as a string (0-9, > above 9, - not "
            "pooled, . pooled unjudged); per topic only",
            (10.0,),
            kind="str",
            summary=False,
            average="none",
            param_doc="N",
        ),
        MeasureDef("recall", "cut_long", k_recall, "recall at cutoffs", _CUTS, param_doc="cutoffs"),
        MeasureDef(
            "infAP", "double", k_infAP, "inferred AP for sampled judgments (Yilmaz & Aslam 2006)"
        ),
        MeasureDef(
            "gm_bpref",
            "double",
            k_gm_bpref,
            "bpref, geometric mean over topics (floor 1e-5); summary only",
            per_query=False,
            average="gm",
        ),
        MeasureDef(
            "Rprec_mult",
            "cut_double",
            k_Rprec_mult,
            "precision at multiples of R documents",
            (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
            param_doc="multiples of R",
        ),
        MeasureDef(
            "utility",
            "p_double",
            k_utility,
            "set utility a*relret + b*nonrelret + c*relnotret + d*nonrelnotret (d needs -N)",
            (1.0, -1.0, 0.0, 0.0),
            param_doc="a,b,c,d",
        ),
        MeasureDef(
            "11pt_avg",
            "p_double",
            k_11pt_avg,
            "interpolated precision averaged over recall levels",
            _LEVELS,
            param_doc="recall levels (name unchanged by them)",
        ),
        MeasureDef(
            "binG",
            "double",
            k_binG,
            "binary G: mean over relevant of 1 / log2(2 + non-relevant above)",
        ),
        MeasureDef("G", "p_pair", k_G, "normalised gain G (experimental)", (), param_doc=_GAIN_DOC),
        MeasureDef(
            "dcg",
            "p_pair",
            k_dcg,
            "discounted cumulative gain of the whole ranking",
            (),
            param_doc=_GAIN_DOC,
        ),
        MeasureDef(
            "ideal_dcg", "p_pair", k_ideal_dcg, "DCG of the ideal ranking", (), param_doc=_GAIN_DOC
        ),
        MeasureDef("ndcg", "p_pair", k_ndcg, "NDCG of the whole ranking", (), param_doc=_GAIN_DOC),
        MeasureDef(
            "ndcg_rel",
            "p_pair",
            k_ndcg_rel,
            "NDCG averaged over the relevant documents (experimental)",
            (),
            param_doc=_GAIN_DOC,
        ),
        MeasureDef(
            "Rndcg",
            "p_pair",
            k_Rndcg,
            "NDCG averaged at the R-level boundaries (experimental)",
            (),
            param_doc=_GAIN_DOC,
        ),
        MeasureDef(
            "ndcg_cut",
            "cut_long",
            k_ndcg_cut,
            "NDCG at cutoffs, gain = grade",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "map_cut",
            "cut_long",
            k_map_cut,
            "average precision at cutoffs",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "relative_P",
            "cut_long",
            k_relative_P,
            "precision at cutoffs relative to the best possible (P up to R, then recall)",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "success",
            "cut_long",
            k_success,
            "1 if a relevant document is in the top k",
            (1, 5, 10),
            param_doc="cutoffs",
        ),
        MeasureDef("set_P", "double", k_set_P, "relevant retrieved / retrieved"),
        MeasureDef(
            "set_relative_P",
            "double",
            k_set_relative_P,
            "relevant retrieved / min(retrieved, relevant)",
        ),
        MeasureDef("set_recall", "double", k_set_recall, "relevant retrieved / relevant"),
        MeasureDef("set_map", "double", k_set_map, "set precision x set recall"),
        MeasureDef(
            "set_F",
            "p_double",
            k_set_F,
            "F measure of the retrieved set, (x+1)PR / (xP + R)",
            (1.0,),
            param_doc="x",
        ),
        MeasureDef(
            "num_nonrel_judged_ret",
            "long",
            k_num_nonrel_judged_ret,
            "judged non-relevant documents retrieved (summary: total)",
            kind="int",
            average="sum",
        ),
        *_PREFS_DEFS,
        MeasureDef(
            "map_avgjg",
            "double",
            _avgjg(k_map),
            "average precision, averaged over the topic's judgment groups",
            needs="jg",
        ),
        MeasureDef(
            "P_avgjg",
            "cut_long",
            _avgjg(k_P),
            "precision at cutoffs, averaged over the topic's judgment groups",
            _CUTS,
            param_doc="cutoffs",
            needs="jg",
        ),
        MeasureDef(
            "Rprec_mult_avgjg",
            "cut_double",
            _avgjg(k_Rprec_mult),
            "precision at multiples of R, averaged over the topic's judgment groups",
            (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
            param_doc="multiples of R",
            needs="jg",
        ),
        MeasureDef(
            "yaap", "double", k_yaap, "yet another AP (Robertson 2012), log((1 + s) / (1 + R - s))"
        ),
        MeasureDef(
            "rbp",
            "p_pair",
            k_rbp,
            "rank-biased precision, gains scaled to [0, 1] (p=0.9)",
            (),
            param_doc="p=persistence and level=gain pairs",
        ),
        MeasureDef(
            "rbp_resid",
            "p_pair",
            k_rbp_resid,
            "RBP residual: the most unjudged documents could add (p=0.9)",
            (),
            param_doc="p=persistence",
        ),
        MeasureDef(
            "unj",
            "cut_long",
            k_unj,
            "fraction of unjudged documents at cutoffs",
            (5, 10, 20),
            param_doc="cutoffs",
        ),
    )
}
