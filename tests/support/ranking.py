"""The ranking harness shared by the reference and property tests: metric settings to cover
per metric, assay collections built from plain dicts and rows, and value comparisons."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, settings

import assay
from assay.metrics import REGISTRY, make
from references.slow_ranking_conventions import Setting

TIES = ("docno", "input", "average")
MISSING = ("zero", "skip")
NO_RELEVANT = ("zero", "one", "skip", "nan")

#: Hypothesis settings of the ranking property tests.
PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

GAIN_MAP = {0: 0.0, 1: 1.0, 2: 4.0, 3: 2.5, 4: 9.0}  # not monotone in the grade
GAIN_MAP_ZERO = {0: 0.5, 1: 1.0, 2: 2.0, 3: 3.0, 4: 4.0}  # a judged grade 0 gains something


def S(name: str, k: int | None = None, **params: Any) -> Setting:
    return Setting(name, k, params)


#: A few parameter settings of every ranking metric, by group.
GROUPS: dict[str, list[Setting]] = {
    "P": [S("P"), S("P", 1), S("P", 3), S("P", 5), S("P", 20), S("P", 3, rel=2), S("P", 5, rel=0)],
    "R": [S("R"), S("R", 3), S("R", 20), S("R", 5, rel=2)],
    "F": [S("F"), S("F", 3), S("F", 5, beta=0.5), S("F", beta=2.0, rel=2), S("F", 20)],
    "AP": [S("AP"), S("AP", 1), S("AP", 3), S("AP", 10), S("AP", rel=2), S("AP", 5, rel=0)],
    "gm_map": [S("gm_map"), S("gm_map", rel=2)],
    "Rprec": [S("Rprec"), S("Rprec", rel=2)],
    "RR": [S("RR"), S("RR", 1), S("RR", 3), S("RR", 5, rel=2)],
    "success": [
        S("success"),
        S("success", 1),
        S("success", 3),
        S("success", 5),
        S("success", 3, rel=3),
    ],
    "num_ret": [S("num_ret")],
    "num_rel": [S("num_rel"), S("num_rel", rel=2)],
    "num_rel_ret": [S("num_rel_ret"), S("num_rel_ret", rel=3)],
    "judged": [S("judged"), S("judged", 1), S("judged", 5), S("judged", 20)],
    "relative_P": [
        S("relative_P"),
        S("relative_P", 1),
        S("relative_P", 3),
        S("relative_P", 20),
        S("relative_P", 3, rel=2),
    ],
    "set_map": [S("set_map"), S("set_map", rel=2)],
    "num_nonrel_judged_ret": [S("num_nonrel_judged_ret"), S("num_nonrel_judged_ret", rel=2)],
    "unjudged": [S("unjudged"), S("unjudged", 1), S("unjudged", 5), S("unjudged", 20)],
    "binG": [S("binG"), S("binG", rel=2)],
    "bpref": [S("bpref"), S("bpref", rel=2)],
    "infAP": [S("infAP"), S("infAP", rel=2)],
    "iprec": [
        S("iprec"),
        S("iprec", recall=0.1),
        S("iprec", recall=0.3),
        S("iprec", recall=0.5),
        S("iprec", recall=1.0),
        S("iprec", recall=0.5, rel=2),
    ],
    "11pt_avg": [S("11pt_avg"), S("11pt_avg", rel=2)],
    "dcg": [
        S("dcg"),
        S("dcg", 3),
        S("dcg", 5, gain="exp"),
        S("dcg", 5, gain=GAIN_MAP),
        S("dcg", 10, discount="jk"),
        S("dcg", discount="jk", b=3.0),
    ],
    "ndcg": [
        S("ndcg"),
        S("ndcg", 1),
        S("ndcg", 3),
        S("ndcg", 10),
        S("ndcg", gain="exp"),
        S("ndcg", 3, gain="exp"),
        S("ndcg", discount="jk"),
        S("ndcg", 5, discount="jk", b=3.0),
        S("ndcg", gain="exp", discount="jk", b=10.0),
    ],
    # Some settings are kept in groups of their own so that a failure there does not hide
    # failures of the other settings of the metric: custom gain maps, custom gain maps that
    # give grade 0 a gain, and err / pfound with an explicit gmax.
    "ndcg[map]": [S("ndcg", gain=GAIN_MAP), S("ndcg", 3, gain=GAIN_MAP)],
    "dcg[gain0]": [S("dcg", 5, gain=GAIN_MAP_ZERO), S("dcg", gain=GAIN_MAP_ZERO)],
    "ndcg[gain0]": [S("ndcg", gain=GAIN_MAP_ZERO), S("ndcg", 3, gain=GAIN_MAP_ZERO)],
    "err": [S("err"), S("err", 3)],
    "err[gmax]": [S("err", gmax=4), S("err", 5, gmax=6)],
    "gdeval": [S("gdeval_ndcg", 20), S("gdeval_ndcg", 3), S("gdeval_ndcg"), S("gdeval_err", 20)],
    "gdeval[err]": [S("gdeval_err", 1), S("gdeval_err")],
    "pfound": [S("pfound"), S("pfound", 3, pbreak=0.5)],
    "pfound[gmax]": [S("pfound", pbreak=0.5, gmax=4), S("pfound", 5, pbreak=0.05, gmax=6)],
    "rbp": [S("rbp"), S("rbp", 3, p=0.5), S("rbp", rel=2), S("rbp", 20, p=0.95)],
    "rbp[graded]": [S("rbp", p=0.9, gain="scaled"), S("rbp", 3, gain="scaled")],
    "rbp[map]": [
        S("rbp", gain=GAIN_MAP),
        S("rbp", 5, p=0.6, gain={0: 0.0, 1: 0.5, 2: 1.0, 3: 1.0, 4: 1.0}),
    ],
    "G": [S("G"), S("G", gain="exp")],
    "G[map]": [S("G", gain=GAIN_MAP), S("G", gain=GAIN_MAP_ZERO)],
    "ndcg_rel": [S("ndcg_rel"), S("ndcg_rel", gain="exp"), S("ndcg_rel", gain=GAIN_MAP)],
    "Rndcg": [S("Rndcg"), S("Rndcg", gain="exp"), S("Rndcg", gain=GAIN_MAP)],
    "Rprec_mult": [S("Rprec_mult"), S("Rprec_mult", mult=0.2), S("Rprec_mult", mult=2.0, rel=2)],
    "utility": [
        S("utility"),
        S("utility", rel_ret=2.0, nonrel_ret=-0.5, rel_unret=-1.0, rel=2),
        S("utility", nonrel_unret=0.25, collection_size=50),
    ],
    "gm_bpref": [S("gm_bpref"), S("gm_bpref", rel=2)],
    "relstring": [S("relstring"), S("relstring", depth=3), S("relstring", depth=0)],
    "rbp_resid": [S("rbp_resid"), S("rbp_resid", 3, p=0.5), S("rbp_resid", 20)],
    "discordant_pairs": [S("discordant_pairs"), S("discordant_pairs", 3)],
    "preferences": [
        S("pref_pairs"),
        S("pref_fulfilled"),
        S("pref_fulfilled_ret"),
        S("pref_agreement"),
        S("pref_agreement_ret"),
        S("pref_agreement_imp"),
        S("pref_agreement_balanced"),
        S("pref_agreement_balanced_ret"),
    ],
    "pairwise_accuracy": [S("pairwise_accuracy"), S("pairwise_accuracy", 3)],
    "kendall_tau": [S("kendall_tau"), S("kendall_tau", 3)],
    "mse": [S("mse")],
    "rmse": [S("rmse")],
    # C/W/L: short depths keep the slow reference quick; every quantity and the residual.
    # Few groups: each group is one evaluation per generated collection.
    "INST": [
        S("INST", depth=12),
        S("INST", T=2.5, max_rel=2, depth=6),
        S("INST", depth=8, quantity="ETU"),
        S("INST", depth=8, quantity="ETC", residual=True),
        S("INST", depth=8, quantity="ED"),
        S("INST", depth=8, quantity="EC", residual=True),
        S("INST", depth=8, residual=True),
    ],
    "INSQ/NERR": [
        S("INSQ", depth=10),
        S("INSQ", T=3.0, min_rel=1, max_rel=3, depth=15),
        S("NERR8", 3, depth=10),
        S("NERR8", depth=8, quantity="ETU"),
        S("NERR9", 5, depth=10),
        S("NERR9", 3, min_rel=1, depth=10),
        S("NERR10", depth=10),
        S("NERR10", p=0.5, depth=10, residual=True),
        S("NERR11", depth=10),
        S("NERR11", T=2.0, depth=10),
    ],
    "BPM/SDCG": [
        S("BPM", 3, depth=10),
        S("BPM", 5, T=2.0, depth=10),
        S("BPM", depth=6),
        S("BPM_dynamic", 5, depth=10),
        S("BPM_dynamic", 8, T=2.0, hb=0.5, gain_med=0.25, depth=12, residual=True),
        S("SDCG", 1, depth=10),
        S("SDCG", 5, depth=10),
        S("SDCG", 20, max_rel=2, depth=10),
    ],
    "Compat": [S("Compat"), S("Compat", p=0.8), S("Compat", p=0.5, normalize=False)],
    "alpha_dcg": [
        S("alpha_dcg"),
        S("alpha_dcg", 1),
        S("alpha_dcg", 5),
        S("alpha_dcg", 20, alpha=0.2, rel=2),
    ],
    "alpha_ndcg": [S("alpha_ndcg", 1), S("alpha_ndcg", 5), S("alpha_ndcg", 10, alpha=1.0)],
    "err_ia": [S("err_ia", 1), S("err_ia", 5), S("err_ia", 20, alpha=0.7, rel=2)],
    "nerr_ia": [S("nerr_ia"), S("nerr_ia", 3), S("nerr_ia", 20), S("nerr_ia", 5, alpha=0.0)],
    "nrbp": [S("nrbp"), S("nrbp", alpha=0.3, beta=0.9), S("nrbp", rel=2, beta=1.0)],
    "nnrbp": [S("nnrbp"), S("nnrbp", alpha=0.3, beta=0.9), S("nnrbp", rel=2, alpha=1.0)],
    "p_ia": [S("p_ia"), S("p_ia", 1), S("p_ia", 5), S("p_ia", 20, rel=2)],
    "subtopic_recall": [S("subtopic_recall", 1), S("subtopic_recall", 5, rel=2)],
    "map_ia": [S("map_ia"), S("map_ia", rel=2)],
}


def to_metric(s: Setting) -> assay.Metric:
    return make(REGISTRY[s.name], s.k, **s.params)


def average_ok(s: Setting) -> bool:
    """Whether assay computes ``s`` under ties='average' (else it raises ConventionError)."""
    return s.ref.average_ties and not (s.ref.pairwise and s.k is not None)


def build(
    qrels: Mapping[str, Mapping[str, int]],
    rows: Sequence[tuple[str, str, float]],
) -> tuple[assay.Qrels, assay.Run]:
    """assay's Qrels and Run (named "run") from ``{query: {doc: grade}}`` and run rows."""
    qcols = [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    aq = assay.Qrels.from_columns(
        [x[0] for x in qcols], [x[1] for x in qcols], [x[2] for x in qcols]
    )
    ar = assay.Run.from_columns(
        [x[0] for x in rows], [x[1] for x in rows], [x[2] for x in rows], name="run"
    )
    return aq, ar


def same(a: float, b: float) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    """Equal to 1e-9 (relative or absolute), NaN only with NaN."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def per_query(
    qrels: assay.Qrels, run: assay.Run, metrics: Sequence[Setting], **conv: Any
) -> dict[Setting, dict[str, float]]:
    """Per-query values of each setting, evaluated together under the conventions."""
    res = assay.evaluate(qrels, run, [to_metric(s) for s in metrics], **conv)
    return {s: res["run", to_metric(s)].as_dict() for s in metrics}


def three_systems() -> tuple[assay.Qrels, dict[str, assay.Run]]:
    """A synthetic collection of 40 queries and three runs, good, mid and bad."""
    return assay.datasets.synthetic(
        n_queries=40,
        docs_per_query=30,
        noise=(0.3, 0.6, 3.0),
        run_names=("good", "mid", "bad"),
        seed=7,
    )
