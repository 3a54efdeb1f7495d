"""Compatibility (Clarke, Vtyurina & Smucker): rank-biased overlap of a run with the ideal
ranking its qrels imply, as ir_measures' ``Compat`` computes it.

The ideal ranking holds every judged document of grade > 0, by grade (highest first); within
a grade, by the run's score with unretrieved documents at score 0 (ir_measures' rule: a
retrieved document with a negative score comes after the unretrieved ones). Documents of one
grade and one score keep the run's order, and a retrieved document of score 0 comes before
the unretrieved ones (ir_measures keeps the qrels' file order there, which assay does not
keep). RBO is taken to depth D = max(run length, ideal length), prefix overlaps divided by
the depth and weighted p^(d - 1), without extrapolation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._options import flag
from ...data.ranked import Ranked
from ...errors import MetricError
from ...metrics.registry import Param, metric, open_unit

__all__ = ["compat"]


def _normalize_check(value: Any) -> bool:
    return flag(value, "normalize", error=MetricError)


def _ideal_rank(r: Ranked) -> np.ndarray:
    """Each row's 1-based position in the ideal ranking (0 for a row of grade <= 0)."""
    positive = r.grade > 0
    grades = r.level_grades
    if not positive.any():
        return np.zeros(len(r.grade), dtype=np.int64)
    # above[q, l]: judged documents of query q with a grade above level l's.
    above = np.cumsum(r.levels[:, ::-1], axis=1)[:, ::-1] - r.levels
    lvl = np.minimum(np.searchsorted(grades, r.grade), len(grades) - 1)
    # Rows grouped by (query, grade), in rank order within a group: a row's offset in its
    # group is the number of retrieved documents of its grade ranked above it.
    order = np.lexsort((np.arange(len(r.grade)), r.grade, r.qidx))
    q, g = r.qidx[order], r.grade[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (q[1:] != q[:-1]) | (g[1:] != g[:-1])
    starts = np.flatnonzero(first)
    group = np.cumsum(first) - 1
    before = np.empty(len(order), dtype=np.int64)
    before[order] = np.arange(len(order)) - starts[group]
    retrieved = np.empty(len(order), dtype=np.int64)
    retrieved[order] = np.diff(np.append(starts, len(order)))[group]
    # ir_measures scores unretrieved documents 0: they go before negative scores.
    behind = np.where(r.score < 0, r.levels[r.qidx, lvl] - retrieved, 0)
    pos = above[r.qidx, lvl] + before + 1 + behind
    return np.where(positive, pos, 0).astype(np.int64)


@metric(
    "Compat",
    params=(
        Param("p", 0.95, open_unit("p"), "persistence: the weight of depth d is p^(d - 1)"),
        Param("normalize", True, _normalize_check, "divide by the ideal ranking's own RBO"),
    ),
    cutoff="none",
    average_ties=False,
    aliases=("compatibility",),
)
def compat(r: Ranked, k: int | None, p: float, normalize: bool) -> np.ndarray:
    """Compatibility: RBO(run, ideal) = sum_{d<=D} p^(d-1) |run_d ∩ ideal_d| / d / sum_{d<=D} p^(d-1).

    ideal_d and run_d are the first d documents of the ideal ranking (the judged documents of
    grade > 0, by grade, then by the run's score) and of the run; D = max(run length, number
    of documents of grade > 0). With normalize=True (the default) divided by RBO(ideal,
    ideal), the best any run reaches; 0 for a query without a document of grade > 0.
    ir_measures' ``Compat(p=…, normalize=…)``. Reference: Clarke, Vtyurina & Smucker (2020),
    "Assessing top-k preferences", TOIS 39(3).
    """
    r.require_average_support("Compat", False)
    n_ideal = r.levels[:, r.level_grades > 0].sum(axis=1).astype(np.int64)
    depth = np.maximum(r.n_ret, n_ideal)
    top = int(depth.max()) if r.nq else 0
    weight = np.power(p, np.arange(top + 1, dtype=np.float64))  # p^(d-1) for d = 1..top+1
    d = np.arange(1, top + 2, dtype=np.float64)
    # tail[m] = sum_{d<=m} p^(d-1)/d and mass[m] = sum_{d<=m} p^(d-1): running sums whose
    # entries do not depend on how many queries are evaluated together.
    tail = np.concatenate(([0.0], np.cumsum(weight / d)))
    mass = np.concatenate(([0.0], np.cumsum(weight)))
    ideal = _ideal_rank(r)
    hit = ideal > 0
    # A document at rank a of the run and b of the ideal is in both prefixes from depth
    # max(a, b) on: it adds sum_{d=max(a,b)}^{D} p^(d-1)/d.
    meet = np.where(hit, np.maximum(r.pos + 1, ideal), 1)
    last = tail[depth]
    score = r.seg_sum(np.where(hit, last[r.qidx] - tail[meet - 1], 0.0))
    if not normalize:
        return np.where(depth > 0, score / np.where(depth > 0, mass[depth], 1.0), 0.0)
    best = mass[n_ideal] + n_ideal * (last - tail[n_ideal])
    return np.where(best > 0, score / np.where(best > 0, best, 1.0), 0.0)
