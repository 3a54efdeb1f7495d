"""The TREC Web track's gdeval measures: nDCG@k and ERR@k as gdeval.pl computes them.

gdeval (TREC 2010-2014 Web track) reads a qrels grade g <= 4 per document and scores the
run's ranked lists (score descending, then document id descending: assay's ``ties="docno"``)
with exponential gain 2^g - 1, discount log2(1 + rank) and ERR's stop probability
(2^g - 1) / 2^4 on its fixed five-grade scale. Grades of 0 and below gain nothing (spam, -2,
is non-relevant). A topic without a positively judged document is left out of gdeval's output
and mean, so both measures are undefined there (the ``no_relevant`` convention decides; gdeval
is ``no_relevant="skip"``). gdeval always has a cutoff (its ``-k``, 20 by default: write
``gdeval_ndcg@20``); as every assay measure, one without a cutoff scores the whole list.

Notation as :mod:`assay.ranking.measures.basic`.
"""

from __future__ import annotations

import numpy as np

from ...data.ranked import Ranked
from ...errors import MetricError
from ...metrics.registry import Peer, metric
from .basic import nan_divide
from .graded import _dcg, _discount

__all__ = ["GDEVAL_K", "GDEVAL_MAX_GRADE", "gdeval_err", "gdeval_ndcg"]

#: gdeval's fixed top grade: ERR's stop probabilities are (2^g - 1) / 2^4 and a qrels grade
#: above it is a format error.
GDEVAL_MAX_GRADE = 4

#: gdeval's default rank cutoff (its ``-k``).
GDEVAL_K = 20


def _relevant(r: Ranked) -> np.ndarray:
    """Queries with a positively judged document: the topics gdeval reports."""
    return r.num_rel(1) > 0


def _check_scale(r: Ranked, name: str) -> None:
    # gdeval refuses the whole qrels file for one grade above its scale; the qrels-wide grade
    # levels make every evaluation path (in memory, blocks, Dask) refuse it alike.
    if len(r.level_grades) and int(r.level_grades.max()) > GDEVAL_MAX_GRADE:
        raise MetricError(
            f"{name}: grade {int(r.level_grades.max())} exceeds gdeval's maximum grade "
            f"{GDEVAL_MAX_GRADE}; use ndcg(gain='exp') or err(gmax=...) for other scales"
        )


@metric("gdeval_ndcg", peers=(Peer("gdeval", "gdeval.pl"),))
def gdeval_ndcg(r: Ranked, k: int | None) -> np.ndarray:
    """gdeval's nDCG@k: sum_{i<=k} (2^g_i - 1) / log2(i + 1), divided by the same sum over the
    ideal ranking of the topic's judged documents.

    Equal to ndcg(gain='exp')@k (negative grades gain 0); undefined for a topic without a
    positively judged document, which gdeval leaves out. Grades above 4 are an error, as in
    gdeval. Reference: TREC 2010-2014 Web track, gdeval.pl; Järvelin & Kekäläinen (2002),
    TOIS 20(4); Burges et al. (2005), ICML (the exponential gain).
    """
    _check_scale(r, "gdeval_ndcg")
    disc = _discount("log2", 2.0)
    ideal = r.ideal_dcg(k, "exp", ("log2", 2.0), disc)
    value = nan_divide(_dcg(r, k, "exp", "log2", 2.0), ideal)
    return np.where(_relevant(r), value, np.nan)


@metric("gdeval_err", average_ties=False, peers=(Peer("gdeval", "gdeval.pl"),))
def gdeval_err(r: Ranked, k: int | None) -> np.ndarray:
    """gdeval's ERR@k = sum_{i<=k} (1/i) R_i prod_{j<i} (1 - R_j), R_g = (2^g - 1) / 2^4.

    gdeval's scale is fixed at grade 4 whatever the qrels' highest grade (err(gmax=4)@k);
    negative grades count as 0; undefined for a topic without a positively judged document,
    which gdeval leaves out. Grades above 4 are an error, as in gdeval. ir_measures' ``ERR@k``
    (so spelled; ``err`` is assay's err). Reference: Chapelle, Metzler, Zhang & Grinspan
    (2009), CIKM; TREC 2010-2014 Web track, gdeval.pl.
    """
    r.require_average_support("gdeval_err", False)
    _check_scale(r, "gdeval_err")
    g = r.clipped_grade.astype(np.float64)
    # (2^g - 1) / 16 as a difference of powers of two: exact, like gdeval's own arithmetic.
    stop = np.exp2(g - GDEVAL_MAX_GRADE) - np.exp2(-float(GDEVAL_MAX_GRADE))
    reach = _reach(r, 1.0 - stop, k if k is not None else len(stop))
    value = r.seg_sum(stop * reach / r.rank, r.topk(k))
    return np.where(_relevant(r), value, np.nan)


def _reach(r: Ranked, keep: np.ndarray, k: int) -> np.ndarray:
    """prod_{j above i} keep_j for the rows of the top k of each query, multiplied in rank
    order as gdeval's loop multiplies (rows below k are left at 1: no measure reads them).

    The factors are 1 - (2^g - 1)/16, five dyadic values: the running product is exact until
    its numerator outgrows 53 bits and from there rounds as gdeval's left-to-right product
    rounds, which a product of per-grade powers would not.
    """
    out = np.ones(len(keep))
    if len(keep) == 0:
        return out
    pos = r.pos
    depth = min(int(pos.max()) + 1, k)
    order = np.lexsort((r.qidx, pos))  # by rank position, then query
    first = np.searchsorted(pos[order], np.arange(depth + 1))
    running = np.ones(r.nq)
    for d in range(depth):  # k steps over whole columns, not one per row
        rows = order[first[d] : first[d + 1]]
        q = r.qidx[rows]
        out[rows] = running[q]
        running[q] = running[q] * keep[rows]
    return out
