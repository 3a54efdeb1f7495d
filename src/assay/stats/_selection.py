"""Exact order statistics of a resampled distribution too large to keep in memory.

A bootstrap interval reads a few order statistics of every column of the (B, m) matrix of
resampled statistics. When B is large, the matrix is not stored: its row blocks are drawn
again from the seed (``blocks()`` yields the same values every time), and each wanted value
is selected in passes over them:

1. every column is histogrammed into value buckets (the range taken from the first block,
   values below or above it counted in two outer bins), with the minimum and maximum value
   of every bucket, and the non-finite values counted apart (-inf first, then the finite
   values, +inf, and NaN last, as :func:`numpy.sort` orders them);
2. the bucket holding the wanted rank becomes the next range [min, max] of that target; a
   range holding one distinct value is the answer; a range with few values is gathered and
   sorted in the next pass; otherwise it is histogrammed again.

The bucket of a value is a monotone function of the value (``floor(((v/2 - lo/2) / w) * k)``:
every step rounds monotonically), so each bucket is a contiguous run of the sorted column and
the values found are exactly those of ``np.sort(matrix, axis=0)`` at the same ranks (a zero
may differ in sign: numpy does not order -0.0 and 0.0). Memory is bounded by the histogram
cells and the gathered values, whatever B; time is one regeneration of the resamples per
pass, two or three passes in practice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ._checks import FloatArray

Blocks = Callable[[], Iterator[FloatArray]]
Hook = Callable[[FloatArray], None]

#: Histogram cells (count, minimum, maximum) held for one pass, over all targets.
_CELLS = 1 << 20
#: Bucket count bounds per target.
_MAX_BUCKETS = 4096
_MIN_BUCKETS = 16
#: A target whose range holds at most this many values is gathered and sorted.
_GATHER = 1 << 16


def _buckets(n_probes: int) -> int:
    return int(min(_MAX_BUCKETS, max(_MIN_BUCKETS, _CELLS // max(n_probes, 1))))


class _Histogram:
    """Per probe (a column and a value range [lo, hi]): counts of -inf, of the finite values
    below lo, in each of ``k`` buckets of [lo, hi], above hi, of +inf and of NaN, with the
    minimum and maximum value of the finite cells. Layout of a probe's cells:
    0 = -inf, 1 = below, 2..k+1 = buckets, k+2 = above, k+3 = +inf, k+4 = NaN."""

    def __init__(self, cols: np.ndarray, lo: FloatArray | None, hi: FloatArray | None, k: int):
        self.cols = cols
        self.k = k
        self.lo = lo
        self.hi = hi
        width = k + 5
        self.counts = np.zeros(len(cols) * width, dtype=np.int64)
        self.mins = np.full(len(cols) * width, np.inf)
        self.maxs = np.full(len(cols) * width, -np.inf)

    def add(self, block: FloatArray) -> None:
        v = block[:, self.cols]  # (rows, P)
        if self.lo is None or self.hi is None:  # the first block sets the range
            finite = np.where(np.isfinite(v), v, np.nan)
            has = np.isfinite(v).any(axis=0)
            with np.errstate(all="ignore"):
                self.lo = np.where(has, np.nanmin(np.where(has, finite, 0.0), axis=0), 0.0)
                self.hi = np.where(has, np.nanmax(np.where(has, finite, 0.0), axis=0), 0.0)
        lo, hi, k = self.lo, self.hi, self.k
        w = hi * 0.5 - lo * 0.5
        with np.errstate(all="ignore"):
            bucket = np.floor((v * 0.5 - lo * 0.5) / np.where(w > 0, w, 1.0) * k)
        bucket = np.clip(np.nan_to_num(bucket, nan=0.0), 0, k - 1).astype(np.int64)
        cell = np.where(
            np.isnan(v),
            k + 4,
            np.where(
                v == -np.inf,
                0,
                np.where(
                    v == np.inf, k + 3, np.where(v < lo, 1, np.where(v > hi, k + 2, bucket + 2))
                ),
            ),
        )
        flat = (cell + (np.arange(v.shape[1], dtype=np.int64) * (k + 5))[None, :]).ravel()
        values = v.ravel()
        self.counts += np.bincount(flat, minlength=self.counts.shape[0])
        finite = np.isfinite(values)
        np.minimum.at(self.mins, flat[finite], values[finite])
        np.maximum.at(self.maxs, flat[finite], values[finite])

    def locate(self, probe: np.ndarray, rank: np.ndarray) -> tuple[Any, Any, Any, Any]:
        """For each (probe, absolute rank): the cell holding that rank, its count, minimum and
        maximum."""
        width = self.k + 5
        counts = self.counts.reshape(-1, width)[probe]
        cum = np.cumsum(counts, axis=1)
        cell = np.argmax(cum > rank[:, None], axis=1)
        at = probe * width + cell
        return cell, self.counts[at], self.mins[at], self.maxs[at]


Targets = Callable[[int], tuple[np.ndarray, np.ndarray]]


def order_statistics(
    blocks: Blocks, m: int, n_rows: int, targets: Targets, hook: Hook | None = None
) -> Any:
    """``np.sort(M, axis=0)[ranks, cols]`` of the (n_rows, m) matrix M whose row blocks
    ``blocks()`` yields (the same ones at every call), without holding M.

    ``hook`` is called on every block of the first pass (to count, from the same draws,
    what the targets depend on); ``targets(seen)`` returns ``(cols, ranks)`` as estimated
    from the first ``seen`` rows (called after the first block, to gather values around
    the likely answers during the first pass) and exactly with ``seen = n_rows`` (after the
    first pass). When the guess holds, one pass is enough."""
    hist = _Histogram(np.arange(m, dtype=np.int64), None, None, _buckets(m))
    windows: _Windows | None = None
    for block in blocks():
        if hook is not None:
            hook(block)
        hist.add(block)
        if windows is None:
            windows = _Windows(block, *targets(block.shape[0]), n_rows)
        else:
            windows.add(block)
    cols, ranks = (np.asarray(a, dtype=np.int64) for a in targets(n_rows))
    out = np.full(len(cols), np.nan)
    guessed = windows.resolve(cols, ranks, out) if windows is not None else np.zeros(0, bool)
    todo = np.flatnonzero(~guessed) if len(guessed) else np.arange(len(cols))
    lo, hi, count = _settle(hist, cols[todo], ranks, out, todo)
    return _refine(blocks, cols, ranks, out, lo, hi, count)


#: Values gathered around the guessed answers during the first pass, over all targets.
_SPECULATE = 1 << 22


class _Windows:
    """Value windows around the order statistics guessed from the first block, whose values
    are gathered during the first pass (with the count of values below each window): a
    target whose rank falls inside its column's window is then read without another pass.
    A window that outgrows its share of :data:`_SPECULATE` is dropped."""

    def __init__(self, first: FloatArray, cols: Any, ranks: Any, n_rows: int) -> None:
        rows = first.shape[0]
        q = np.asarray(ranks, dtype=np.float64) / max(n_rows - 1, 1)
        # Three standard errors of the first block's quantile, plus room for the guessed
        # level itself moving (BCa's z0 is estimated from the same first block).
        half = 3.0 * np.sqrt(q * (1.0 - q) / rows) + 0.15 / np.sqrt(rows) + 2.0 / rows
        srt = np.sort(first, axis=0)
        at_lo = np.floor((q - half) * (rows - 1)).astype(np.int64)
        at_hi = np.ceil((q + half) * (rows - 1)).astype(np.int64)
        cols = np.asarray(cols, dtype=np.int64)
        w_lo = np.where(q - half <= 0, -np.inf, srt[np.clip(at_lo, 0, rows - 1), cols])
        w_hi = np.where(q + half >= 1, np.inf, srt[np.clip(at_hi, 0, rows - 1), cols])
        keys = sorted(
            {
                (int(c), float(a), float(b))
                for c, a, b in zip(cols, w_lo, w_hi, strict=True)
                if not (np.isnan(a) or np.isnan(b))
            }
        )
        self.cols = [k[0] for k in keys]
        self.lo = [k[1] for k in keys]
        self.hi = [k[2] for k in keys]
        self.cap = _SPECULATE // max(len(keys), 1)
        self.below = [0] * len(keys)
        self.size = [0] * len(keys)
        self.parts: list[list[FloatArray] | None] = [[] for _ in keys]
        self.add(first)

    def add(self, block: FloatArray) -> None:
        for i, col in enumerate(self.cols):
            parts = self.parts[i]
            if parts is None:
                continue
            v = block[:, col]
            self.below[i] += int(np.count_nonzero(v < self.lo[i]))
            inside = v[(v >= self.lo[i]) & (v <= self.hi[i])]
            self.size[i] += inside.shape[0]
            if self.size[i] > self.cap:
                self.parts[i] = None
            else:
                parts.append(inside)

    def resolve(self, cols: np.ndarray, ranks: np.ndarray, out: FloatArray) -> Any:
        """Fill ``out`` for the targets inside a kept window; which ones were."""
        done = np.zeros(len(cols), dtype=bool)
        sorted_: dict[int, FloatArray] = {}
        for t, (col, rank) in enumerate(zip(cols.tolist(), ranks.tolist(), strict=True)):
            for i, c in enumerate(self.cols):
                parts = self.parts[i]
                if c != col or parts is None:
                    continue
                if self.below[i] <= rank < self.below[i] + self.size[i]:
                    if i not in sorted_:
                        sorted_[i] = np.sort(np.concatenate(parts)) if parts else np.zeros(0)
                    out[t] = sorted_[i][rank - self.below[i]]
                    done[t] = True
                    break
        return done


def _settle(
    hist: _Histogram, probe: np.ndarray, ranks: np.ndarray, out: FloatArray, todo: np.ndarray
) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """Targets ``todo`` (the probe of each in ``probe``) located in ``hist``: non-finite or
    single-valued cells are written to ``out``; the others get their cell's [min, max] and
    count (NaN range once settled)."""
    k = hist.k
    cell, count, cmin, cmax = hist.locate(probe, ranks[todo])
    lo = np.full(len(out), np.nan)
    hi = np.full(len(out), np.nan)
    cnt = np.zeros(len(out), dtype=np.int64)
    special = {0: -np.inf, k + 3: np.inf, k + 4: np.nan}
    for i, t in enumerate(todo.tolist()):
        c = int(cell[i])
        if c in special:
            out[t] = special[c]
        elif cmin[i] == cmax[i]:
            out[t] = cmin[i]
        else:
            lo[t], hi[t], cnt[t] = cmin[i], cmax[i], count[i]
    return lo, hi, cnt


def _refine(
    blocks: Blocks,
    cols: np.ndarray,
    ranks: np.ndarray,
    out: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    count: np.ndarray,
) -> FloatArray:
    """Passes until every target is settled: gather and sort small ranges, histogram the
    others within their range."""
    while True:
        open_ = np.flatnonzero(~np.isnan(lo))
        if len(open_) == 0:
            return out
        small = open_[count[open_] <= _GATHER]
        large = open_[count[open_] > _GATHER]
        hist = (
            _Histogram(cols[large], lo[large], hi[large], _buckets(len(large)))
            if len(large)
            else None
        )
        gathered: list[list[FloatArray]] = [[] for _ in small]
        below = np.zeros(len(small), dtype=np.int64)
        for block in blocks():
            for i, t in enumerate(small.tolist()):
                v = block[:, cols[t]]
                below[i] += np.count_nonzero(v < lo[t])
                gathered[i].append(v[(v >= lo[t]) & (v <= hi[t])])
            if hist is not None:
                hist.add(block)
        for i, t in enumerate(small.tolist()):
            values = np.sort(np.concatenate(gathered[i]))
            out[t] = values[ranks[t] - below[i]]
            lo[t] = np.nan
        if hist is not None:
            probe = np.arange(len(large))
            nlo, nhi, ncount = _settle(hist, probe, ranks, out, large)
            lo[large], hi[large], count[large] = nlo[large], nhi[large], ncount[large]
