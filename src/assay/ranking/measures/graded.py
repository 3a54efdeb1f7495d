"""Graded ranking metrics: DCG and NDCG (gains and discounts), ERR, pFound and rank-biased
precision with its residual. One declaration per metric; the docstring's first line is its
summary.

Notation as :mod:`assay.ranking.measures.basic`: rank i = 1..n, g_i the grade (unjudged = 0), k the
cutoff (the whole list when absent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

import numpy as np

from ..._options import number
from ...data.ranked import Ranked
from ...errors import MetricError
from ...metrics.registry import (
    REL,
    TREC_CUTOFFS,
    Param,
    Peer,
    TrecName,
    metric,
    one_of,
    open_unit,
    optional,
    positive_int,
)
from .basic import nan_divide

__all__ = [
    "Discount",
    "dcg",
    "err",
    "gain_check",
    "ndcg",
    "pfound",
    "rbp",
    "rbp_resid",
]


def _discount(discount: str, base: float) -> Any:
    if discount == "log2":

        def disc(pos: np.ndarray) -> np.ndarray:
            return 1.0 / np.log2(pos + 2.0)
    else:

        def disc(pos: np.ndarray) -> np.ndarray:
            return cast(np.ndarray, 1.0 / np.maximum(1.0, np.log(pos + 1.0) / np.log(base)))

    return disc


Discount = Literal["log2", "jk"]


def gain_check(value: Any) -> Any:
    """'linear', 'exp', or a mapping grade -> non-negative gain."""
    if value in ("linear", "exp"):
        return value
    if isinstance(value, Mapping):
        out = {}
        for grade, gain in value.items():
            if isinstance(grade, bool) or not isinstance(grade, int):
                raise MetricError(f"gain map keys must be integer grades, got {grade!r}")
            if isinstance(gain, bool) or not isinstance(gain, int | float) or gain < 0:
                raise MetricError(
                    f"gain for grade {grade} must be a non-negative number, got {gain!r}"
                )
            out[int(grade)] = float(gain)
        if not out:
            raise MetricError("gain map is empty")
        return tuple(sorted(out.items()))
    raise MetricError(f"gain must be 'linear', 'exp' or a mapping grade -> gain, got {value!r}")


_GAIN = Param(
    "gain", "linear", gain_check, "'linear' (g), 'exp' (2^g - 1) or a mapping grade -> gain"
)
_DISCOUNT = Param(
    "discount",
    "log2",
    one_of("discount", Discount),
    "'log2': 1/log2(i+1); 'jk': Järvelin-Kekäläinen's original, 1/max(1, log_b i)",
)


def _log_base(value: Any) -> float:
    """The 'jk' discount's log base: a number > 1 (log_b is not a discount for b <= 1)."""
    return number(value, "b", low=1, low_open=True, error=MetricError)


_BASE = Param("b", 2.0, _log_base, "log base of the 'jk' discount (> 1)")


def _dcg(r: Ranked, k: int | None, gain: Any, discount: str, b: float) -> np.ndarray:
    rows = r.topk(k)
    disc = _discount(discount, b)
    # A tie group's mean reads rows below k, and a gain map checks every grade present.
    if rows is None or r.ties == "average" or gain not in ("linear", "exp"):
        g = r.tie_mean(r.gains(gain))
        return r.seg_sum(g * disc(r.pos.astype(np.float64)), rows)
    if gain == "exp" and len(r.grade):
        r.gains(gain, r.grade[[int(np.argmax(r.grade))]])  # every grade's overflow check
    # Only the top k of each list: the same products, summed in the same order.
    terms = r.gains(gain, r.grade[rows]) * disc(r.pos[rows].astype(np.float64))
    return np.bincount(r.qidx[rows], weights=terms, minlength=r.nq)


@metric(
    "dcg",
    params=(_GAIN, _DISCOUNT, _BASE),
    bounds=(0.0, None),
    trec={"dcg": TrecName("pairs")},
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.dcg_score",
            "Tied scores share their gains (assay's ties='average'); one row of grades and scores per query, every document judged and retrieved.",
        ),
    ),
)
def dcg(r: Ranked, k: int | None, gain: Any, discount: str, b: float) -> np.ndarray:
    """Discounted cumulative gain: DCG@k = sum_{i<=k} gain(g_i) / log2(i + 1).

    With discount='jk', Järvelin & Kekäläinen's original: sum_{i<=k} g_i / max(1, log_b(i)),
    no discount before rank b.
    Reference: Järvelin & Kekäläinen (2002), "Cumulated gain-based evaluation of IR
    techniques", TOIS 20(4).
    """
    return _dcg(r, k, gain, discount, b)


@metric(
    "ndcg",
    params=(_GAIN, _DISCOUNT, _BASE),
    aliases=("ndcg_at",),
    trec={"ndcg_cut": TrecName("k", TREC_CUTOFFS), "ndcg": TrecName("pairs")},
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.ndcg_score",
            "Tied scores share their gains (assay's ties='average'); one row of grades and scores per query, every document judged and retrieved.",
        ),
    ),
)
def ndcg(r: Ranked, k: int | None, gain: Any, discount: str, b: float) -> np.ndarray:
    """Normalised DCG: NDCG@k = DCG@k / IDCG@k.

    The ideal ranking orders all judged documents of the query by gain and is truncated at k.
    Undefined when IDCG@k = 0. Reference: Järvelin & Kekäläinen (2002), TOIS 20(4).
    """
    ideal = r.ideal_dcg(k, gain, (discount, b), _discount(discount, b))
    return nan_divide(_dcg(r, k, gain, discount, b), ideal)


def _level_products(r: Ranked, factor: np.ndarray) -> np.ndarray:
    """prod_{j above i} factor(level_j) for every row i, from exact per-level counts."""
    _values, _ = r.row_levels
    out = np.ones(len(r.grade))
    for li, before in enumerate(r.level_cumcounts_before()):
        f = factor[li]
        if f != 1.0:
            out *= np.power(f, before)
    return out


def _gmax(r: Ranked, gmax: int | None, name: str) -> int:
    # Default: the qrels' maximum grade, at least 1. When no grade is positive every
    # (clipped) grade is 0 and so is every stop probability; 1 only avoids 0 / 0.
    top = max(int(r.max_grade), 1) if gmax is None else int(gmax)
    values, _ = r.row_levels
    if len(values) and values.max() > top:
        raise MetricError(f"{name}: grade {int(values.max())} exceeds gmax={top}")
    return top


_GMAX = Param(
    "gmax", None, optional(positive_int("gmax")), "highest grade (default: the qrels' maximum)"
)


@metric("err", params=(_GMAX,), average_ties=False)
def err(r: Ranked, k: int | None, gmax: int | None) -> np.ndarray:
    """Expected reciprocal rank: ERR@k = sum_{i<=k} (1/i) R_i prod_{j<i} (1 - R_j).

    R_g = (2^g - 1) / 2^gmax, gmax the highest grade (default: the qrels' maximum).
    Reference: Chapelle, Metzler, Zhang & Grinspan (2009), CIKM.
    """
    r.require_average_support("err", False)
    top = _gmax(r, gmax, "err")
    values, inv = r.row_levels
    # (2^g - 1) / 2^gmax written so that it never forms 2^g: exact and equal for g <= 53,
    # and no inf/inf for grades of 1024 and more.
    stop = np.exp2(values.astype(np.float64) - top) - np.exp2(-float(top))
    reach = _level_products(r, 1.0 - stop)
    return r.seg_sum(stop[inv] * reach / r.rank, r.topk(k))


@metric(
    "pfound",
    params=(
        Param("pbreak", 0.15, open_unit("pbreak"), "probability of abandoning after each document"),
        _GMAX,
    ),
    average_ties=False,
)
def pfound(r: Ranked, k: int | None, pbreak: float, gmax: int | None) -> np.ndarray:
    """pFound@k = sum_{i<=k} pLook_i pRel_i, pLook_1 = 1, pLook_i = pLook_{i-1}(1-pRel_{i-1})(1-pBreak).

    pRel_g = g / gmax (gmax default: the qrels' maximum grade). Reference: Segalovich (2010),
    "Machine learning in search quality at Yandex", SIGIR industry track.
    """
    r.require_average_support("pfound", False)
    top = _gmax(r, gmax, "pfound")
    values, inv = r.row_levels
    prel = values.astype(np.float64) / float(top)
    look = _level_products(r, 1.0 - prel) * np.power(1.0 - pbreak, r.pos.astype(np.float64))
    return r.seg_sum(prel[inv] * look, r.topk(k))


_P_RBP = Param("p", 0.8, open_unit("p"), "persistence: probability of reading on")


def _rbp_gain_check(value: Any) -> Any:
    """'binary', 'scaled', or a mapping grade -> non-negative gain."""
    if value in ("binary", "scaled"):
        return value
    if isinstance(value, Mapping):
        return gain_check(value)
    raise MetricError(f"gain must be 'binary', 'scaled' or a mapping grade -> gain, got {value!r}")


_RBP_GAIN = Param(
    "gain",
    "binary",
    _rbp_gain_check,
    "'binary': rel_i = [g_i >= rel]; 'scaled': g_i / max(1, the query's highest judged grade) "
    "(trec_eval's rbp); or a mapping grade -> gain, rescaled to [0, 1] when a gain exceeds 1",
)


def _top_grade(r: Ranked) -> np.ndarray:
    """The highest judged grade of every query (0 without a judged document)."""
    counts = np.diff(r.ideal_offsets)
    first = np.minimum(r.ideal_offsets[:-1], max(len(r.ideal_grades) - 1, 0))
    top = r.ideal_grades[first] if len(r.ideal_grades) else np.zeros(r.nq)
    return np.where(counts > 0, top, 0).astype(np.float64)


def _rbp_gains(r: Ranked, gain: Any, rel: int) -> np.ndarray:
    """Per-row gain of RBP (unjudged documents gain 0)."""
    if gain == "binary":
        return r.isrel(rel).astype(np.float64)
    if gain == "scaled":
        return cast(np.ndarray, r.clipped_grade / np.maximum(_top_grade(r), 1.0)[r.qidx])
    table = dict(gain)
    values = [*table.values(), *(() if 0 in table else (0.0,))]  # grade 0 gains 0 unless named
    lo, hi = min(values), max(values)
    g = r.gains(gain)
    if hi > 1:  # trec_eval rescales a gain table reaching outside [0, 1]
        g = np.where(r.judged, (g - lo) / (hi - lo), 0.0)
    return g


@metric(
    "rbp",
    params=(_P_RBP, _RBP_GAIN, REL),
    trec={"rbp": TrecName("pairs", bound=(("p", 0.9), ("gain", "scaled")))},
    peers=(
        Peer(
            "cwl_eval",
            "cwl.ruler.measures.cwl_rbp.RBPCWLMetric",
            "Its weights are normalised over the padded depth: assay's rbp@depth / (1 - p^depth).",
        ),
    ),
)
def rbp(r: Ranked, k: int | None, p: float, gain: Any, rel: int) -> np.ndarray:
    """Rank-biased precision: RBP = (1 - p) sum_{i<=k} gain_i p^(i-1).

    gain_i = rel_i (binary, the default; unjudged documents count as non-relevant, see
    rbp_resid for the uncertainty they leave), or graded: g_i / max(1, G_q) with G_q the
    query's highest judged grade ('scaled'), or a gain map (rescaled to [0, 1] as (gain - lo)
    / (hi - lo) when a gain exceeds 1). trec_eval's ``rbp`` is ``rbp(p=0.9, gain='scaled')``
    (it ignores -l). Reference: Moffat & Zobel (2008), TOIS 27(1).
    """
    x = r.tie_mean(_rbp_gains(r, gain, rel))
    return (1.0 - p) * r.seg_sum(x * np.power(p, r.pos.astype(np.float64)), r.topk(k))


@metric(
    "rbp_resid",
    params=(_P_RBP,),
    higher_is_better=False,
    trec={"rbp_resid": TrecName("pairs", bound=(("p", 0.9),))},
)
def rbp_resid(r: Ranked, k: int | None, p: float) -> np.ndarray:
    """RBP residual: p^d + (1 - p) sum_{i<=d, unjudged} p^(i-1), d = min(k, list length).

    The most RBP could still rise if every unjudged document and everything below depth d
    were relevant; 1 for an empty ranking. trec_eval's ``rbp_resid`` is
    ``rbp_resid(p=0.9)``, except that trec_eval prints 0 when no retrieved document is
    unjudged (kept only by ``assay trec-eval``). Reference: Moffat & Zobel (2008), TOIS
    27(1), §4.
    """
    x = r.tie_mean((~r.judged).astype(np.float64))
    tail = np.power(p, r.depth(k).astype(np.float64))
    return tail + (1.0 - p) * r.seg_sum(x * np.power(p, r.pos.astype(np.float64)), r.topk(k))
