"""Preference measures over graded qrels: trec_eval's ``prefs_*`` family (``-R qrels_prefs``)
as ordinary ranking metrics. One declaration per metric.

Conventions. Within a query, document a is preferred to b when grade(a) > grade(b); only
judged documents (grade >= 0) take part, retrieved or not. A preference is *fulfilled* when a
ranks above b (under the evaluation's tie convention; a retrieved document ranks above every
unretrieved one). Pairs are counted as trec_eval's form_prefs_counts.c counts them: *ret*
(both retrieved), *imp* (exactly one retrieved: fulfilled when it is the preferred one) and
*not occurring* (neither retrieved, never fulfilled). Relevant means grade > 0.

Graded qrels give each query one judgment group, so trec_eval's ``prefs_pair*`` and
``prefs_avgjg*`` equal ``prefs_simp*`` here: each metric carries all three trec_eval names.
Where assay and ``assay trec-eval -R qrels_prefs`` differ: trec_eval breaks score ties by
docno *ascending* for these measures (assay's tie convention applies here), and reads a
negative grade as a level below 0 (here it is "pooled, not judged" and takes no part).
An undefined value (no pair of distinct grades) is NaN, which ``no_relevant`` turns into 0 by
default, as trec_eval prints it.

The kernels are whole-array: per-query counts come from loops over grade levels, never over
documents.
"""

from __future__ import annotations

import numpy as np

from ...data.ranked import Ranked
from ...metrics.registry import metric
from ...metrics.spec import TrecName
from .basic import nan_divide

__all__ = [
    "pref_agreement",
    "pref_agreement_balanced",
    "pref_agreement_balanced_ret",
    "pref_agreement_imp",
    "pref_agreement_ret",
    "pref_fulfilled",
    "pref_fulfilled_ret",
    "pref_pairs",
]


def _pairs(n: np.ndarray) -> np.ndarray:
    out: np.ndarray = n * (n - 1) // 2
    return out


def _stats(r: Ranked) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = r.memo(("prefs",), lambda: _count(r))
    return out


def _count(r: Ranked) -> dict[str, np.ndarray]:
    """Every per-query count the preference metrics need (int64, exact)."""
    lg = np.asarray(r.level_grades, dtype=np.int64)
    levels = np.asarray(r.levels, dtype=np.int64).reshape(r.nq, len(lg))
    grade = r.grade.astype(np.int64)
    judged = grade >= 0
    lev = np.where(judged, np.searchsorted(lg, np.maximum(grade, 0)), -1)
    nl = len(lg)
    # Retrieved judged documents per query and level (levels ascending by grade).
    ret = np.zeros((r.nq, nl), dtype=np.int64)
    if judged.any():
        np.add.at(ret, (r.qidx[judged], lev[judged]), 1)
    unret = levels - ret
    # Pairs both retrieved, the higher grade ranked first: for every row, the judged rows of
    # each higher level above it.
    ful_by_row = np.zeros(len(grade), dtype=np.int64)
    for v in range(nl):
        flag = lev == v
        before = r.seg_cumcount(flag) - flag
        ful_by_row += np.where(judged & (lev < v), before, 0)
    rel_level = lg > 0
    s: dict[str, np.ndarray] = {}
    nr = ret.sum(axis=1)
    s["ful_ret"] = r.seg_sum(ful_by_row.astype(np.float64)).astype(np.int64)
    s["ful_ret_rel"] = r.seg_sum(np.where(grade > 0, ful_by_row, 0).astype(np.float64)).astype(
        np.int64
    )
    s["poss_ret"] = _pairs(nr) - _pairs(ret).sum(axis=1)
    lower_u = np.cumsum(unret, axis=1) - unret  # unretrieved judged documents of lower grades
    u_tot = unret.sum(axis=1)
    s["ful_imp"] = (ret * lower_u).sum(axis=1)
    s["poss_imp"] = (ret * (u_tot[:, None] - unret)).sum(axis=1)
    s["notoccur"] = (unret * lower_u).sum(axis=1)
    # Among relevant documents (grade > 0) only: the recount when non-relevant ones outnumber.
    lower_u_rel = np.cumsum(np.where(rel_level, unret, 0), axis=1) - np.where(rel_level, unret, 0)
    s["ful_imp_rel"] = (np.where(rel_level, ret, 0) * lower_u_rel).sum(axis=1)
    s["num_rel"] = np.where(rel_level, levels, 0).sum(axis=1)
    s["num_rel_ret"] = np.where(rel_level, ret, 0).sum(axis=1)
    s["num_nonrel"] = np.where(~rel_level, levels, 0).sum(axis=1)
    s["num_nonrel_ret"] = np.where(~rel_level, ret, 0).sum(axis=1)
    s["pairs_rel"] = _pairs(s["num_rel"]) - _pairs(np.where(rel_level, levels, 0)).sum(axis=1)
    s["pairs_rel_ret"] = _pairs(s["num_rel_ret"]) - _pairs(np.where(rel_level, ret, 0)).sum(axis=1)
    s["num_judged"] = levels.sum(axis=1)
    s["num_judged_ret"] = nr
    # The non-relevant retrieved documents in rank order: the position among judged retrieved
    # documents of each, and which of them are among the first R (R relevant, or relevant
    # retrieved), for the balanced recounts.
    pos_judged = r.seg_cumcount(judged) - 1
    zero = judged & (grade == 0)
    nth_zero = r.seg_cumcount(zero)  # 1-based among the query's non-relevant retrieved
    for key, limit in (("first_r", s["num_rel"]), ("first_r_ret", s["num_rel_ret"])):
        take = zero & (nth_zero <= limit[r.qidx])
        s["pos_" + key] = r.seg_sum(np.where(take, pos_judged, 0).astype(np.float64)).astype(
            np.int64
        )
    return s


def _total(s: dict[str, np.ndarray]) -> np.ndarray:
    out: np.ndarray = s["poss_ret"] + s["poss_imp"] + s["notoccur"]
    return out


_REL = "relevant: grade > 0; a pair: two judged documents of different grades"


@metric(
    "pref_pairs",
    cutoff="none",
    bounds=(0.0, None),
    aggregate="sum",
    integer=True,
    average_ties=False,
    trec={"prefs_num_prefs_poss": TrecName()},
)
def pref_pairs(r: Ranked, k: int | None) -> np.ndarray:
    """Preferences possible: pairs of judged documents with different grades, retrieved or not.

    n = sum over grade pairs g > h of n_g * n_h (n_g: judged documents of grade g). The summary
    is the total over queries. Reference: trec_eval 10.0 (prefs_num_prefs_poss, -R
    qrels_prefs).
    """
    return _total(_stats(r)).astype(np.float64)


@metric(
    "pref_fulfilled",
    cutoff="none",
    bounds=(0.0, None),
    aggregate="sum",
    integer=True,
    average_ties=False,
    trec={"prefs_num_prefs_ful": TrecName()},
)
def pref_fulfilled(r: Ranked, k: int | None) -> np.ndarray:
    """Preferences fulfilled: pairs (a, b), grade(a) > grade(b), with a ranked above b.

    ful = #{(a, b): g_a > g_b, a retrieved, b ranked below a or not retrieved}. The summary
    is the total over queries. Reference: trec_eval 10.0 (prefs_num_prefs_ful).
    """
    s = _stats(r)
    out: np.ndarray = s["ful_ret"] + s["ful_imp"]
    return out.astype(np.float64)


@metric(
    "pref_fulfilled_ret",
    cutoff="none",
    bounds=(0.0, None),
    aggregate="sum",
    integer=True,
    average_ties=False,
    trec={"prefs_num_prefs_ful_ret": TrecName()},
)
def pref_fulfilled_ret(r: Ranked, k: int | None) -> np.ndarray:
    """Preferences fulfilled among retrieved documents: both retrieved, the preferred first.

    ful_ret = #{(a, b) both retrieved: g_a > g_b, rank(a) < rank(b)}. The summary is the total
    over queries. Reference: trec_eval 10.0 (prefs_num_prefs_ful_ret).
    """
    return _stats(r)["ful_ret"].astype(np.float64)


@metric(
    "pref_agreement",
    cutoff="none",
    average_ties=False,
    trec={"prefs_simp": TrecName(), "prefs_pair": TrecName(), "prefs_avgjg": TrecName()},
)
def pref_agreement(r: Ranked, k: int | None) -> np.ndarray:
    """Share of the preferences the ranking fulfils: fulfilled / possible pairs.

    (ful_ret + ful_imp) / (pairs_ret + pairs_imp + pairs_not_retrieved); a pair neither of
    whose documents is retrieved counts as not fulfilled. Undefined without a pair of
    different grades. Reference: trec_eval 10.0 (prefs_simp; with graded qrels also
    prefs_pair and prefs_avgjg).
    """
    s = _stats(r)
    return nan_divide(s["ful_ret"] + s["ful_imp"], _total(s))


@metric(
    "pref_agreement_ret",
    cutoff="none",
    average_ties=False,
    trec={
        "prefs_simp_ret": TrecName(),
        "prefs_pair_ret": TrecName(),
        "prefs_avgjg_ret": TrecName(),
    },
)
def pref_agreement_ret(r: Ranked, k: int | None) -> np.ndarray:
    """Share of the preferences between retrieved documents that the ranking fulfils.

    ful_ret / pairs_ret over pairs of retrieved judged documents of different grades.
    Undefined without such a pair. Reference: trec_eval 10.0 (prefs_simp_ret, prefs_pair_ret,
    prefs_avgjg_ret).
    """
    s = _stats(r)
    return nan_divide(s["ful_ret"], s["poss_ret"])


@metric(
    "pref_agreement_imp",
    cutoff="none",
    average_ties=False,
    trec={
        "prefs_simp_imp": TrecName(),
        "prefs_pair_imp": TrecName(),
        "prefs_avgjg_imp": TrecName(),
    },
)
def pref_agreement_imp(r: Ranked, k: int | None) -> np.ndarray:
    """Share fulfilled of the preferences with at least one document retrieved.

    (ful_ret + ful_imp) / (pairs_ret + pairs_imp): a retrieved document ranks above an
    unretrieved one. Undefined without such a pair. Reference: trec_eval 10.0 (prefs_simp_imp,
    prefs_pair_imp, prefs_avgjg_imp).
    """
    s = _stats(r)
    return nan_divide(s["ful_ret"] + s["ful_imp"], s["poss_ret"] + s["poss_imp"])


@metric(
    "pref_agreement_balanced",
    cutoff="none",
    average_ties=False,
    trec={"prefs_avgjg_Rnonrel": TrecName()},
)
def pref_agreement_balanced(r: Ranked, k: int | None) -> np.ndarray:
    """pref_agreement with as many non-relevant documents as relevant ones (R and N).

    R >= N: (ful + rel_ret (R - N)) / (pairs + R (R - N)), every retrieved relevant document
    fulfilling R - N extra preferences over imaginary non-relevant ones. R < N: only the R
    best-ranked non-relevant documents count; the fulfilled and possible pairs are those among
    relevant documents (fulfilled: preferred one ranked first and retrieved) plus every judged
    document against each kept non-relevant one (trec_eval's recount, which also pairs the kept
    non-relevant documents with the non-relevant ones, themselves included). Reference:
    trec_eval 10.0 (prefs_avgjg_Rnonrel).
    """
    s = _stats(r)
    big_r, big_n = s["num_rel"], s["num_nonrel"]
    extra = np.maximum(big_r - big_n, 0)
    ful_a = s["ful_ret"] + s["ful_imp"] + s["num_rel_ret"] * extra
    tot_a = _total(s) + big_r * extra
    # R < N: the first R non-relevant documents in internal order (retrieved ones in rank
    # order, then unretrieved ones); a retrieved one at judged position p has p judged
    # documents above it, an unretrieved one every judged retrieved document.
    nret0 = s["num_nonrel_ret"]
    ful2 = s["pos_first_r"] + np.maximum(big_r - nret0, 0) * s["num_judged_ret"]
    ful_b = s["ful_ret_rel"] + s["ful_imp_rel"] + ful2
    tot_b = s["pairs_rel"] + s["num_judged"] * big_r
    return np.where(big_r >= big_n, nan_divide(ful_a, tot_a), nan_divide(ful_b, tot_b))


@metric(
    "pref_agreement_balanced_ret",
    cutoff="none",
    average_ties=False,
    trec={"prefs_avgjg_Rnonrel_ret": TrecName()},
)
def pref_agreement_balanced_ret(r: Ranked, k: int | None) -> np.ndarray:
    """pref_agreement_ret with relevant and non-relevant retrieved documents balanced.

    R = relevant retrieved, N = non-relevant retrieved. R >= N: (ful_ret + R (R - N)) /
    (pairs_ret + R_all (R - N)), R_all the relevant documents retrieved or not (as trec_eval
    has it). R < N: pairs among retrieved relevant documents plus every retrieved judged
    document against each of the R best-ranked non-relevant ones. Reference: trec_eval 10.0
    (prefs_avgjg_Rnonrel_ret).
    """
    s = _stats(r)
    big_r, big_n = s["num_rel_ret"], s["num_nonrel_ret"]
    extra = np.maximum(big_r - big_n, 0)
    ful_a = s["ful_ret"] + big_r * extra
    tot_a = s["poss_ret"] + s["num_rel"] * extra
    ful_b = s["ful_ret_rel"] + s["pos_first_r_ret"]
    tot_b = s["pairs_rel_ret"] + s["num_judged_ret"] * big_r
    return np.where(big_r >= big_n, nan_divide(ful_a, tot_a), nan_divide(ful_b, tot_b))
