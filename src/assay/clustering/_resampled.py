"""The hard-clustering measures of many resamples at once, for the paired tests of
:mod:`assay.clustering.comparison`.

The items of a comparison are coded once: every system's predicted cluster ids are put in
their own range (namespaced: system 1's cluster 3 is not system 2's cluster 3), and every
(gold cluster, predicted cluster) pair that occurs in any system is one *cell* of a union
contingency table. An item's record is then a single integer, its cell in its system. A
resample (bootstrap draws, or the swaps of a randomisation) is a row of cell codes, and the
contingency tables of a block of resamples are one :func:`numpy.bincount` of
``row * cells + code``: a (resamples × cells) matrix of counts. The margins are sums over the
cells of a gold (or predicted) cluster (:func:`numpy.add.reduceat` over the cells sorted by
cluster) and every measure is a row-wise formula over those matrices: no loop over items,
and none over resamples except AMI's expected mutual information (one resample at a time).

The pair-counting measures count pairs of distinct items: two copies of one item in a
bootstrap resample are not a pair (they would be a pair "together in both", which no
clustering can get wrong, and bias every resample towards agreement); the information and
purity measures have no such pairs and take the resampled table as it is.

The formulas are those of :mod:`assay.clustering.measures` with their ill-defined cases,
written for rows of counts in which some clusters are empty (a bootstrap resample that drew
none of a cluster's items, or the other system's clusters of a namespaced table): an empty
cluster is no cluster.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._core import Table
from ._information import ami_of

__all__ = ["HARD_MEASURES", "CellStatistic", "Cells", "cell_codes", "records"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: The declared hard-clustering measures a comparison can test, in the registry's order.
HARD_MEASURES = (
    "pairwise_precision",
    "pairwise_recall",
    "pairwise_f",
    "rand_index",
    "adjusted_rand_index",
    "fowlkes_mallows",
    "purity",
    "inverse_purity",
    "purity_f1",
    "nmi",
    "ami",
)


@dataclass(frozen=True)
class Cells:
    """The union contingency table's cells, sorted by (gold cluster, predicted cluster):
    the gold and the (namespaced) predicted cluster of each, and the margins' layout."""

    gold: IntArray
    pred: IntArray
    n_gold: int
    n_pred: int
    gold_starts: IntArray  # first cell of each gold cluster (cells are sorted by gold)
    pred_order: IntArray  # the cells sorted by predicted cluster
    pred_starts: IntArray  # first position in pred_order of each predicted cluster

    @property
    def size(self) -> int:
        return int(self.gold.size)


def cell_codes(gold: IntArray, preds: Sequence[IntArray]) -> tuple[Cells, list[IntArray]]:
    """The union table of ``gold`` (codes 0..G-1) against every clustering of ``preds``
    (codes 0..P_s-1 each, namespaced here), and each system's per-item cell codes.

    Parameters
    ----------
    gold : numpy.ndarray
        The gold cluster code of each item.
    preds : sequence of numpy.ndarray
        Each system's predicted cluster code of each item.

    Returns
    -------
    tuple
        The cells, and one array of cell codes per system (aligned with the items).
    """
    offsets = np.cumsum([0] + [int(p.max()) + 1 for p in preds])
    n_pred = int(offsets[-1])
    keys = np.concatenate([gold * n_pred + (p + offsets[i]) for i, p in enumerate(preds)])
    unique, inverse = np.unique(keys, return_inverse=True)
    n = gold.size
    per_system = [inverse[i * n : (i + 1) * n].astype(np.int64) for i in range(len(preds))]
    cell_gold = (unique // n_pred).astype(np.int64)
    cell_pred = (unique % n_pred).astype(np.int64)
    # Every code 0..n_pred-1 occurs (each system's codes are 0..P_s-1 and all used), and
    # every gold code too: the reductions below have no empty segment.
    gold_starts = np.flatnonzero(np.r_[True, cell_gold[1:] != cell_gold[:-1]]).astype(np.int64)
    order = np.argsort(cell_pred, kind="stable").astype(np.int64)
    sorted_pred = cell_pred[order]
    pred_starts = np.flatnonzero(np.r_[True, sorted_pred[1:] != sorted_pred[:-1]])
    cells = Cells(
        gold=cell_gold,
        pred=cell_pred,
        n_gold=int(gold.max()) + 1,
        n_pred=n_pred,
        gold_starts=gold_starts,
        pred_order=order,
        pred_starts=pred_starts.astype(np.int64),
    )
    return cells, per_system


@dataclass(frozen=True)
class _Counts:
    """The contingency tables of R resamples: cell counts (R × cells), gold sizes (R × G),
    predicted sizes (R × P), all float64, the number of items n of every resample and the
    pairs of copies of one item in each resample (R,)."""

    cells: FloatArray
    gold: FloatArray
    pred: FloatArray
    n: int
    copies: FloatArray


def _counts(cells: Cells, codes: IntArray, items: IntArray, n_items: int) -> _Counts:
    rows, n = codes.shape
    k = cells.size
    offsets = (np.arange(rows, dtype=np.int64) * k)[:, None]
    counts = np.bincount((codes + offsets).ravel(), minlength=rows * k)
    matrix = counts.reshape(rows, k).astype(np.float64)
    gold = np.add.reduceat(matrix, cells.gold_starts, axis=1)
    pred = np.add.reduceat(matrix[:, cells.pred_order], cells.pred_starts, axis=1)
    # how often each item was drawn: w copies of an item make C(w, 2) pairs of copies
    drawn = (
        np.bincount(
            (items + (np.arange(rows, dtype=np.int64) * n_items)[:, None]).ravel(),
            minlength=rows * n_items,
        )
        .reshape(rows, n_items)
        .astype(np.float64)
    )
    return _Counts(matrix, gold, pred, n, _comb2(drawn))


def _comb2(x: FloatArray) -> FloatArray:
    out: FloatArray = (x * (x - 1.0) / 2.0).sum(axis=1)
    return out


def _pairs(c: _Counts) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """TP, FP, FN, TN over the pairs of *distinct* items of each resample: two copies of one
    item (a bootstrap draw) are not a pair of items. Copies share their gold and predicted
    clusters, so they only ever added to TP (and to the number of pairs)."""
    together = _comb2(c.cells)
    fp = _comb2(c.pred) - together
    fn = _comb2(c.gold) - together
    tp = together - c.copies
    tn = c.n * (c.n - 1) / 2.0 - together - fp - fn
    return tp, fp, fn, tn


def _ratio(num: FloatArray, den: FloatArray, zero: float = 0.0) -> FloatArray:
    out = np.full(num.shape, zero)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _harmonic(p: FloatArray, r: FloatArray) -> FloatArray:
    return _ratio(2.0 * p * r, p + r)


def _pairwise_precision(c: _Counts, cells: Cells) -> FloatArray:
    tp, fp, _, _ = _pairs(c)
    return _ratio(tp, tp + fp)


def _pairwise_recall(c: _Counts, cells: Cells) -> FloatArray:
    tp, _, fn, _ = _pairs(c)
    return _ratio(tp, tp + fn)


def _pairwise_f(c: _Counts, cells: Cells) -> FloatArray:
    tp, fp, fn, _ = _pairs(c)
    return _ratio(2.0 * tp, 2.0 * tp + fn + fp)


def _rand(c: _Counts, cells: Cells) -> FloatArray:
    tp, fp, fn, tn = _pairs(c)
    total = tp + fp + fn + tn
    out: FloatArray = np.where((total == 0) | (fp + fn == 0), 1.0, _ratio(tp + tn, total))
    return out


def _ari(c: _Counts, cells: Cells) -> FloatArray:
    tp, fp, fn, tn = _pairs(c)
    den = (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)
    out: FloatArray = np.where((fp == 0) & (fn == 0), 1.0, _ratio(2.0 * (tp * tn - fn * fp), den))
    return out


def _fm(c: _Counts, cells: Cells) -> FloatArray:
    tp, fp, fn, _ = _pairs(c)
    out: FloatArray = np.sqrt(_ratio(tp, tp + fp)) * np.sqrt(_ratio(tp, tp + fn))
    return out


def _purity(c: _Counts, cells: Cells) -> FloatArray:
    best = np.maximum.reduceat(c.cells[:, cells.pred_order], cells.pred_starts, axis=1)
    out: FloatArray = best.sum(axis=1) / c.n
    return out


def _inverse_purity(c: _Counts, cells: Cells) -> FloatArray:
    best = np.maximum.reduceat(c.cells, cells.gold_starts, axis=1)
    out: FloatArray = best.sum(axis=1) / c.n
    return out


def _purity_f1(c: _Counts, cells: Cells) -> FloatArray:
    return _harmonic(_purity(c, cells), _inverse_purity(c, cells))


def _log(x: FloatArray) -> FloatArray:
    """log x where x > 0, else 0 (the terms of empty cells and clusters are 0)."""
    out = np.zeros_like(x)
    np.log(x, out=out, where=x > 0)
    return out


def _entropy(sizes: FloatArray, n: int) -> FloatArray:
    h: FloatArray = -np.sum((sizes / n) * (_log(sizes) - math.log(n)), axis=1)
    return np.where(np.count_nonzero(sizes, axis=1) <= 1, 0.0, h)


def _nmi(c: _Counts, cells: Cells) -> FloatArray:
    k_gold = np.count_nonzero(c.gold, axis=1)
    k_pred = np.count_nonzero(c.pred, axis=1)
    k_cells = np.count_nonzero(c.cells, axis=1)
    n = float(c.n)
    # I(gold; pred) as nmi_of computes it (scikit-learn's mutual_info_score), term by term
    outer = c.gold[:, cells.gold] * c.pred[:, cells.pred]
    p = c.cells / n
    terms = p * (_log(c.cells) - math.log(n)) + p * (-_log(outer) + 2 * math.log(n))
    terms = np.where((np.abs(terms) < np.finfo(np.float64).eps) | (c.cells == 0), 0.0, terms)
    mi = np.maximum(terms.sum(axis=1), 0.0)
    mi = np.where((k_gold == 1) | (k_pred == 1), 0.0, mi)
    mean_h = (_entropy(c.gold, c.n) + _entropy(c.pred, c.n)) / 2.0
    one = ((k_gold == 1) & (k_pred == 1)) | ((k_cells == k_gold) & (k_cells == k_pred))
    out: FloatArray = np.where(one, 1.0, np.where(mi == 0, 0.0, _ratio(mi, mean_h)))
    return out


def _ami(c: _Counts, cells: Cells) -> FloatArray:
    # The expected mutual information depends on every row's cluster sizes: one resample at
    # a time (the per-row work is the library's own, over the row's non-empty cells).
    out = np.empty(c.cells.shape[0])
    for r in range(out.size):
        out[r] = ami_of(_row_table(c, cells, r), "arithmetic")
    return out


def _row_table(c: _Counts, cells: Cells, r: int) -> Table:
    """Resample ``r``'s contingency table without its empty cells and clusters."""
    gold_kept, pred_kept = c.gold[r] > 0, c.pred[r] > 0
    gold_index = np.cumsum(gold_kept) - 1
    pred_index = np.cumsum(pred_kept) - 1
    nz = c.cells[r] > 0
    return Table(
        n=c.n,
        gold_sizes=c.gold[r][gold_kept].astype(np.int64),
        pred_sizes=c.pred[r][pred_kept].astype(np.int64),
        cell_gold=gold_index[cells.gold[nz]].astype(np.int64),
        cell_pred=pred_index[cells.pred[nz]].astype(np.int64),
        cell_count=c.cells[r][nz].astype(np.int64),
    )


_FORMULAS: dict[str, Callable[[_Counts, Cells], FloatArray]] = {
    "pairwise_precision": _pairwise_precision,
    "pairwise_recall": _pairwise_recall,
    "pairwise_f": _pairwise_f,
    "rand_index": _rand,
    "adjusted_rand_index": _ari,
    "fowlkes_mallows": _fm,
    "purity": _purity,
    "inverse_purity": _inverse_purity,
    "purity_f1": _purity_f1,
    "nmi": _nmi,
    "ami": _ami,
}


class CellStatistic:
    """A hard-clustering measure of items given as records (cell code, item index): the
    statistic given to :func:`assay.stats.paired_bootstrap_test` and
    :func:`assay.stats.stratified_shuffling_test` (records: n × 2, or resamples × n × 2),
    and to :func:`assay.stats.bootstrap_ci` (two samples: the cell codes and the item
    indices). The item index tells copies of one item apart from distinct items.

    Called on one clustering it gives a 0-d value; on a block of resamples one value per
    resample.
    """

    def __init__(self, cells: Cells, metric: str, n_items: int) -> None:
        self.cells = cells
        self.metric = metric
        self.n_items = n_items
        self._formula = _FORMULAS[metric]

    # Any: the arrays the stats functions hand over (float64 records, int codes)
    def __call__(self, codes: Any, items: Any = None, axis: int = -1) -> FloatArray:
        x = np.asarray(codes)
        if items is None:  # records: the last axis is (cell, item)
            x, y = x[..., 0], x[..., 1]
        else:
            y = np.asarray(items)
        if x.ndim == 1:
            x, y = x[None, :], y[None, :]
        counts = _counts(self.cells, _as_codes(x), _as_codes(y), self.n_items)
        values = self._formula(counts, self.cells)
        return values.reshape(()) if np.ndim(codes) == (1 if items is not None else 2) else values


def records(cells: IntArray) -> IntArray:
    """One record (cell code, item index) per item."""
    return np.column_stack([cells, np.arange(cells.size, dtype=np.int64)])


def _as_codes(x: NDArray[Any]) -> IntArray:
    # the stats functions hand records over as float64 (exact integers here)
    return x.astype(np.int64, copy=False)
