"""The information theory behind NMI and AMI (declared in :mod:`assay.clustering.measures`):
entropies, mutual information and the expected mutual information of AMI, summed in log
space over every distinct pair of cluster sizes, vectorised and chunked (natural
logarithms)."""

from __future__ import annotations

import math

import numpy as np

from ._core import Table

__all__ = ["ami_of", "nmi_of"]

#: Largest number of (size pair, n_ij) terms of the expected mutual information held at once.
_EMI_CHUNK = 1 << 21


def _entropy(sizes: np.ndarray, n: int) -> float:
    s = sizes[sizes > 0].astype(np.float64)
    if s.size <= 1:
        return 0.0
    return float(-np.sum((s / n) * (np.log(s) - math.log(n))))


def _mutual_information(t: Table) -> float:
    """I(gold; pred) in nats, computed as scikit-learn's ``mutual_info_score``."""
    if t.gold_sizes.size == 1 or t.pred_sizes.size == 1:
        return 0.0
    nij = t.cell_count.astype(np.float64)
    n = float(t.n)
    outer = t.gold_sizes[t.cell_gold] * t.pred_sizes[t.cell_pred]  # int64, ≤ n²
    p = nij / n
    mi = p * (np.log(nij) - math.log(n)) + p * (-np.log(outer.astype(np.float64)) + 2 * math.log(n))
    mi = np.where(np.abs(mi) < np.finfo(np.float64).eps, 0.0, mi)
    return max(float(mi.sum()), 0.0)


def _average(u: float, v: float, method: str) -> float:
    if method == "arithmetic":
        return (u + v) / 2
    if method == "geometric":
        return math.sqrt(u * v)
    if method == "min":
        return min(u, v)
    return max(u, v)


def nmi_of(t: Table, method: str) -> float:
    if t.gold_sizes.size == t.pred_sizes.size == 1 or t.identical:
        return 1.0
    mi = _mutual_information(t)
    if mi == 0:
        return 0.0
    return mi / _average(_entropy(t.gold_sizes, t.n), _entropy(t.pred_sizes, t.n), method)


def _emi_pairs(t: Table) -> tuple[np.ndarray, ...]:
    """Every distinct (gold size a, pred size b) pair with a feasible n_ij: a, b, their
    multiplicity, the first feasible n_ij and the number of feasible values."""
    n = t.n
    a_vals, a_mult = np.unique(t.gold_sizes, return_counts=True)
    b_vals, b_mult = np.unique(t.pred_sizes, return_counts=True)
    a = np.repeat(a_vals, b_vals.size)
    b = np.tile(b_vals, a_vals.size)
    mult = (np.repeat(a_mult, b_vals.size) * np.tile(b_mult, a_vals.size)).astype(np.float64)
    start = np.maximum(1, a + b - n)
    stop = np.minimum(a, b) + 1
    lengths = np.maximum(stop - start, 0)
    keep = lengths > 0
    return a[keep], b[keep], mult[keep], start[keep], lengths[keep]


def _expected_mutual_information(t: Table) -> float:
    """E[I] under the hypergeometric (permutation) model with fixed cluster sizes (Vinh, Epps &
    Bailey 2010, eq. 24a), summed over distinct (gold size, pred size) pairs."""
    from scipy.special import gammaln

    n = t.n
    a, b, mult, start, lengths = _emi_pairs(t)
    log_n = math.log(n)
    gln_n = float(gammaln(n + 1))
    const = gammaln(a + 1) + gammaln(b + 1) + gammaln(n - a + 1) + gammaln(n - b + 1) - gln_n
    ends = np.cumsum(lengths)
    emi = 0.0
    lo = 0
    while lo < a.size:
        # the largest hi with at most _EMI_CHUNK terms in pairs lo..hi-1 (at least one pair)
        base = ends[lo - 1] if lo else 0
        hi = max(lo + 1, int(np.searchsorted(ends, base + _EMI_CHUNK, side="right")))
        ln = lengths[lo:hi]
        pair = np.repeat(np.arange(lo, hi), ln)
        offsets = np.arange(int(ln.sum())) - np.repeat(np.cumsum(ln) - ln, ln)
        nij = (start[pair] + offsets).astype(np.float64)
        aa, bb = a[pair].astype(np.float64), b[pair].astype(np.float64)
        term2 = log_n + np.log(nij) - np.log(aa) - np.log(bb)
        gln = (
            const[pair]
            - gammaln(nij + 1)
            - gammaln(aa - nij + 1)
            - gammaln(bb - nij + 1)
            - gammaln(n - aa - bb + nij + 1)
        )
        emi += float(np.sum(mult[pair] * (nij / n) * term2 * np.exp(gln)))
        lo = hi
    return emi


def ami_of(t: Table, method: str) -> float:
    k_gold, k_pred = t.gold_sizes.size, t.pred_sizes.size
    if k_gold == k_pred == 1 or t.identical:
        return 1.0
    if k_gold == 1 or k_pred == 1 or k_gold == t.n or k_pred == t.n:
        # One side a single cluster, or all singletons: every permutation gives the same I,
        # so I = E[I] exactly (a 0/0 with average_method="min" when the other is not).
        return 0.0
    mi = _mutual_information(t)
    emi = _expected_mutual_information(t)
    normalizer = _average(_entropy(t.gold_sizes, t.n), _entropy(t.pred_sizes, t.n), method)
    eps = float(np.finfo(np.float64).eps)
    den = normalizer - emi
    den = min(den, -eps) if den < 0 else max(den, eps)
    num = mi - emi
    num = min(num, -eps) if num < 0 else max(num, eps)
    return num / den
