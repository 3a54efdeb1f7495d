"""Extrinsic evaluation of clusterings against a gold clustering.

Two kinds of input:

**Hard clusterings** (every item in exactly one cluster) are two label sequences of the same
length, ``gold`` and ``pred``: ``gold[k]`` and ``pred[k]`` are the clusters of item ``k``.
Labels are any hashable values (ints, strings, ...); only equality matters, so renaming the
clusters or reordering the items never changes a score. Everything is computed from the
contingency table ``n[i, j] = |gold cluster i ∩ pred cluster j|`` (labels are factorised to
integer codes with :func:`numpy.unique`; the table is counted by :func:`numpy.bincount`, or as
a :mod:`scipy.sparse` matrix when the number of cluster pairs is large), so the cost is
O(n log n + non-empty cells), never O(n²) and without a Python loop over items.

- :func:`pair_counts` — TP / FP / FN / TN over the n(n-1)/2 unordered pairs of items: TP in
  the same cluster in both, FP together in ``pred`` only, FN together in ``gold`` only, TN
  apart in both. From the table: TP = Σ C(n_ij, 2), TP + FP = Σ_j C(|pred_j|, 2),
  TP + FN = Σ_i C(|gold_i|, 2) (Manning, Raghavan & Schütze 2008, §16.3). scikit-learn's
  ``pair_confusion_matrix`` counts ordered pairs: each of its cells is twice ours.
- :func:`pairwise_precision`, :func:`pairwise_recall`, :func:`pairwise_f` — TP / (TP + FP),
  TP / (TP + FN) and F_β = (1 + β²) TP / ((1 + β²) TP + β² FN + FP).
- :func:`rand_index` — (TP + TN) / C(n, 2); :func:`adjusted_rand_index` — Hubert & Arabie's
  (1985) ARI, computed as scikit-learn does from the pair counts
  2 (TP·TN − FN·FP) / ((TP + FN)(FN + TN) + (TP + FP)(FP + TN)), in exact integer arithmetic.
- :func:`fowlkes_mallows` — TP / sqrt((TP + FP)(TP + FN)) (Fowlkes & Mallows 1983).
- :func:`purity` — (1/n) Σ_j max_i n_ij (each predicted cluster labelled with its majority
  gold cluster); :func:`inverse_purity` — (1/n) Σ_i max_j n_ij; :func:`purity_f1` — their
  harmonic mean.
- :func:`nmi` — I(gold; pred) / mean(H(gold), H(pred)) with the mean chosen by
  ``average_method`` ("arithmetic" (default), "geometric", "min", "max"), natural logarithms,
  as scikit-learn's ``normalized_mutual_info_score``.
- :func:`ami` — (I − E[I]) / (mean(H(gold), H(pred)) − E[I]), E[I] the expected mutual
  information under the hypergeometric model of random clusterings with the same cluster
  sizes (Vinh, Epps & Bailey 2010), as scikit-learn's ``adjusted_mutual_info_score``. E[I] is
  summed in log space (``scipy.special.gammaln``) over every distinct pair of cluster sizes
  and every feasible n_ij, vectorised and chunked; equal sizes are summed once with their
  multiplicity.
- :func:`bcubed` — B-Cubed precision, recall and F (Bagga & Baldwin 1998; Amigó, Gonzalo,
  Artiles & Verdejo 2009): the item-averaged precision |C(e) ∩ L(e)| / |C(e)| and recall
  |C(e) ∩ L(e)| / |L(e)|, C(e) the predicted and L(e) the gold cluster of item e, which
  through the table are (1/n) Σ n_ij² / |pred_j| and (1/n) Σ n_ij² / |gold_i|; F is the
  weighted harmonic mean F_β of the two averages (Amigó et al.'s F with α = 1 / (1 + β²)).

**Soft (overlapping, optionally weighted) clusterings** are lists of clusters, each a set (or
list, tuple) of items, or a dict ``{item: weight}``; an item may be in several clusters. A
repeated item in a list-like cluster adds its occurrences (weight 2 for two occurrences), as
Watset's ``NormalizedModifiedPurity.transform``. Weights must be finite and positive.

- :func:`nmpu`, :func:`nipu`, :func:`nmpu_f1` — normalized modified purity and normalized
  inverse purity (Kawahara, Peterson & Palmer 2014, ACL, §5; as used by Ustalov, Panchenko,
  Biemann & Ponzetto 2019, "Watset", Computational Linguistics 45(3), and implemented in
  ``org.nlpub.watset.eval.NormalizedModifiedPurity``). Our reading of the definitions::

      nmPU = (1/N) Σ_{i : |K_i| > 1} max_j δ_{K_i}(K_i ∩ G_j)
      niPU = (1/N) Σ_j max_i δ_{G_j}(K_i ∩ G_j)

  with K_i the predicted clusters, G_j the gold clusters, δ_C(S) = Σ_{v ∈ S} c_{C,v} the
  total weight *in cluster C* of the items of S, and N the total weight of the clustering
  being scored (of ``pred`` for nmPU, of ``gold`` for niPU). "Normalized" (``normalize=True``,
  the default) first divides each item's weight in a cluster by the item's total weight over
  all clusters of the same clustering, so that every item weighs 1 in total and N is the
  number of distinct items (Kawahara et al.'s normalisation of c_iv; Watset's
  ``normalize``). With ``normalize=False`` the weights are used as given (sets: weight 1 per
  membership, N = Σ |K_i|, Watset's un-normalized mPU). "Modified" purity gives *no credit*
  to singleton clusters (|K_i| = 1, counted in distinct items, whatever their weight), but
  their items still count in N — so a clustering of singletons, which would have purity 1,
  scores nmPU = 0. Inverse purity is not modified. Items present in only one of the two
  clusterings simply intersect nothing in the other (and count in that clustering's N).
  For hard clusterings nmPU is :func:`purity` with the singleton clusters' items counted as
  errors, and niPU is :func:`inverse_purity`.
- :func:`soft_pair_counts`, :func:`soft_pairwise` — pairwise precision, recall and F over
  sets of unordered item pairs, a pair being in a clustering's set when the two items share
  at least one cluster (weights ignored; Watset's ``Pairwise``). TN counts the pairs of the
  union of items that are in neither set. These enumerate the co-membership pairs (sparse
  matrix products), so memory grows with the number of such pairs.

Ill-defined cases, every one of them decided here:

- Empty input (no items) raises :class:`~assay.errors.EmptyInputError`; sequences of
  different lengths, non-1-D input, a missing label (``None`` or NaN), a bad weight or a
  malformed soft clustering raise :class:`~assay.errors.InputError`. Bad options (``beta``,
  ``average_method``) raise :class:`~assay.errors.ConventionError`.
- Pairwise precision / recall / F with a zero denominator (no predicted pair, no gold pair,
  neither) return ``zero_division`` (default 0.0, as scikit-learn and Watset).
- Fowlkes–Mallows is 0.0 when TP = 0 (scikit-learn), including two identical clusterings of
  singletons.
- Rand index is 1.0 when there is no pair (n = 1); ARI is 1.0 when FP = FN = 0, i.e. the
  clusterings are identical up to renaming, including n = 1 (scikit-learn).
- NMI and AMI are 1.0 when both clusterings are a single cluster, and AMI is 0.0 when exactly
  one of them is (scikit-learn). NMI is 0.0 when the mutual information is 0. Both are exactly
  1.0 for clusterings identical up to renaming (for AMI this also settles the 0/0 of two
  identical clusterings of singletons, where I = E[I] = H).
- AMI is exactly 0.0 when one clustering (not both) is all singletons: every random
  clustering with those sizes then has the same mutual information, so I = E[I]. With
  ``average_method="min"`` this is a 0/0 (the normalizer equals E[I] too) that scikit-learn
  leaves to rounding noise (any value, e.g. 0.5 or 1.0); assay defines it as 0.0, no
  agreement beyond chance. Otherwise AMI clamps its numerator and denominator away from 0 by
  machine epsilon, keeping their signs, as scikit-learn ≥ 1.5. AMI may be negative (worse
  than chance).
- :func:`pairwise_f`, :func:`purity_f1`, :func:`nmpu_f1` and B-Cubed's F are 0.0 when both of
  their components are 0.
- Cluster labels such as -1 ("noise" in DBSCAN) are ordinary clusters here.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .errors import ConventionError, EmptyInputError, InputError

__all__ = [
    "PRF",
    "PairCounts",
    "adjusted_rand_index",
    "ami",
    "bcubed",
    "fowlkes_mallows",
    "hard_report",
    "inverse_purity",
    "labels_to_clusters",
    "nipu",
    "nmi",
    "nmpu",
    "nmpu_f1",
    "pair_counts",
    "pairwise_f",
    "pairwise_precision",
    "pairwise_recall",
    "purity",
    "purity_f1",
    "rand_index",
    "soft_pair_counts",
    "soft_pairwise",
    "soft_report",
]

AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")

#: Above this many (gold x pred) cells, and above 4 n, the table is built as a sparse matrix.
_DENSE_CELLS = 1 << 20
#: Largest number of (size pair, n_ij) terms of the expected mutual information held at once.
_EMI_CHUNK = 1 << 21


class PairCounts(NamedTuple):
    """Unordered pairs of items: together in both (tp), in pred only (fp), in gold only (fn),
    in neither (tn). Python ints (no overflow)."""

    tp: int
    fp: int
    fn: int
    tn: int


class PRF(NamedTuple):
    """Precision, recall and their (weighted) harmonic mean."""

    precision: float
    recall: float
    f: float


# ------------------------------------------------------------------------ hard: the table


@dataclass(frozen=True)
class _Table:
    """The non-empty cells of the gold x pred contingency table and its margins."""

    n: int
    gold_sizes: np.ndarray  # int64, one per gold cluster
    pred_sizes: np.ndarray  # int64, one per predicted cluster
    cell_gold: np.ndarray  # int64 gold cluster of each non-empty cell
    cell_pred: np.ndarray  # int64 predicted cluster of each non-empty cell
    cell_count: np.ndarray  # int64 n_ij > 0

    @property
    def identical(self) -> bool:
        """The two partitions are the same up to renaming."""
        k = self.cell_count.size
        return k == self.gold_sizes.size == self.pred_sizes.size


def _codes(labels: ArrayLike, name: str) -> tuple[np.ndarray, int]:
    """Factorise labels to codes 0..k-1 (k distinct labels)."""
    if isinstance(labels, (str, bytes)):
        raise InputError(f"{name} must be a sequence of cluster labels, not a string")
    if isinstance(labels, (Mapping, set, frozenset)):
        raise InputError(
            f"{name} must be a sequence of cluster labels (one per item), "
            f"got a {type(labels).__name__}"
        )
    try:
        arr = np.asarray(labels)
    except (ValueError, TypeError) as exc:
        raise InputError(f"{name} must be a one-dimensional sequence of labels ({exc})") from None
    if arr.dtype.kind in "US" and arr.ndim == 1 and not isinstance(labels, np.ndarray):
        seq: Any = labels
        if len(set(map(type, seq))) > 1:
            # NumPy would turn [1, "1", nan] into the strings "1", "1", "nan": keep objects.
            arr = np.fromiter(seq, dtype=object, count=arr.size)
    if arr.ndim != 1:
        raise InputError(
            f"{name} must be one-dimensional (one label per item), got shape {arr.shape}"
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        k = int(np.flatnonzero(np.isnan(arr))[0])
        raise InputError(f"{name}[{k}] is NaN: every item needs a cluster label")
    if arr.dtype.kind == "O":
        # None, or NaN (the only value unequal to itself); elementwise in C
        none: Any = None
        missing = (np.equal(arr, none) | np.not_equal(arr, arr)).astype(np.bool_)
        if missing.any():
            k = int(np.flatnonzero(missing)[0])
            raise InputError(f"{name}[{k}] is {arr[k]!r}: every item needs a cluster label")
    try:
        uniq, inv = np.unique(arr, return_inverse=True)
        return inv.reshape(-1).astype(np.int64, copy=False), int(uniq.size)
    except TypeError:
        # Labels of mutually unorderable types (e.g. 1 and "a"): factorise by hashing. This
        # is the only path with a Python-level pass over the items.
        try:
            index: dict[Hashable, int] = {}
            codes = np.fromiter(
                (index.setdefault(v, len(index)) for v in arr.tolist()),
                dtype=np.int64,
                count=arr.size,
            )
        except TypeError as exc:
            raise InputError(f"{name}: cluster labels must be hashable ({exc})") from None
        return codes, len(index)


def _table(gold: ArrayLike, pred: ArrayLike) -> _Table:
    g, n_gold = _codes(gold, "gold")
    p, n_pred = _codes(pred, "pred")
    if g.size != p.size:
        raise InputError(
            f"gold and pred must label the same items: {g.size} gold labels, {p.size} predicted"
        )
    n = int(g.size)
    if n == 0:
        raise EmptyInputError("gold and pred are empty: there is no item to evaluate")
    cells = n_gold * n_pred
    if cells <= max(_DENSE_CELLS, 4 * n):
        counts = np.bincount(g * n_pred + p, minlength=cells)
        nz = np.flatnonzero(counts)
        cell_gold, cell_pred, cell_count = nz // n_pred, nz % n_pred, counts[nz]
    else:
        from scipy import sparse

        m = sparse.coo_matrix((np.ones(n, dtype=np.int64), (g, p)), shape=(n_gold, n_pred))
        m.sum_duplicates()
        cell_gold, cell_pred, cell_count = m.row, m.col, m.data
    return _Table(
        n=n,
        gold_sizes=np.bincount(g, minlength=n_gold).astype(np.int64),
        pred_sizes=np.bincount(p, minlength=n_pred).astype(np.int64),
        cell_gold=cell_gold.astype(np.int64, copy=False),
        cell_pred=cell_pred.astype(np.int64, copy=False),
        cell_count=cell_count.astype(np.int64, copy=False),
    )


def _comb2_sum(x: np.ndarray) -> int:
    """Σ C(x, 2) as a Python int."""
    return int((x * (x - 1) // 2).sum(dtype=np.int64))


def _check_beta(beta: float) -> float:
    b = float(beta)
    if not (math.isfinite(b) and b >= 0):
        raise ConventionError(f"beta must be a finite number >= 0, got {beta!r}")
    return b


def _ratio(num: float, den: float, zero_division: float) -> float:
    return float(zero_division) if den == 0 else num / den


def _harmonic(p: float, r: float, beta: float = 1.0) -> float:
    b2 = beta * beta
    den = b2 * p + r
    return 0.0 if den == 0 else (1 + b2) * p * r / den


# ------------------------------------------------------------------------ hard: pairs


def _pair_counts(t: _Table) -> PairCounts:
    tp = _comb2_sum(t.cell_count)
    pred_pairs = _comb2_sum(t.pred_sizes)
    gold_pairs = _comb2_sum(t.gold_sizes)
    fp, fn = pred_pairs - tp, gold_pairs - tp
    tn = t.n * (t.n - 1) // 2 - tp - fp - fn
    return PairCounts(tp, fp, fn, tn)


def pair_counts(gold: ArrayLike, pred: ArrayLike) -> PairCounts:
    """TP / FP / FN / TN over unordered pairs of items (see the module docstring)."""
    return _pair_counts(_table(gold, pred))


def _pairwise(c: PairCounts, beta: float, zero_division: float) -> PRF:
    p = _ratio(c.tp, c.tp + c.fp, zero_division)
    r = _ratio(c.tp, c.tp + c.fn, zero_division)
    b2 = beta * beta
    f = _ratio((1 + b2) * c.tp, (1 + b2) * c.tp + b2 * c.fn + c.fp, zero_division)
    return PRF(p, r, f)


def pairwise_precision(gold: ArrayLike, pred: ArrayLike, *, zero_division: float = 0.0) -> float:
    """TP / (TP + FP): the fraction of pairs put together by ``pred`` that ``gold`` puts
    together. ``zero_division`` when ``pred`` is all singletons."""
    return _pairwise(pair_counts(gold, pred), 1.0, zero_division).precision


def pairwise_recall(gold: ArrayLike, pred: ArrayLike, *, zero_division: float = 0.0) -> float:
    """TP / (TP + FN). ``zero_division`` when ``gold`` is all singletons."""
    return _pairwise(pair_counts(gold, pred), 1.0, zero_division).recall


def pairwise_f(
    gold: ArrayLike, pred: ArrayLike, *, beta: float = 1.0, zero_division: float = 0.0
) -> float:
    """F_β over pairs: (1 + β²) TP / ((1 + β²) TP + β² FN + FP); ``zero_division`` when
    TP = FP = FN = 0 (both clusterings all singletons)."""
    return _pairwise(pair_counts(gold, pred), _check_beta(beta), zero_division).f


def _rand(c: PairCounts) -> float:
    total = c.tp + c.fp + c.fn + c.tn
    if total == 0 or c.fp + c.fn == 0:
        return 1.0
    return (c.tp + c.tn) / total


def rand_index(gold: ArrayLike, pred: ArrayLike) -> float:
    """(TP + TN) / C(n, 2), the fraction of pairs on which the clusterings agree (Rand 1971);
    1.0 when n = 1."""
    return _rand(pair_counts(gold, pred))


def _ari(c: PairCounts) -> float:
    tp, fp, fn, tn = c
    if fp == 0 and fn == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


def adjusted_rand_index(gold: ArrayLike, pred: ArrayLike) -> float:
    """Hubert & Arabie's (1985) adjusted Rand index: 1 for identical clusterings, 0 in
    expectation for random ones, negative below chance."""
    return _ari(pair_counts(gold, pred))


def _fm(c: PairCounts) -> float:
    if c.tp == 0:
        return 0.0
    return math.sqrt(c.tp / (c.tp + c.fp)) * math.sqrt(c.tp / (c.tp + c.fn))


def fowlkes_mallows(gold: ArrayLike, pred: ArrayLike) -> float:
    """TP / sqrt((TP + FP)(TP + FN)), the geometric mean of pairwise precision and recall;
    0.0 when TP = 0."""
    return _fm(pair_counts(gold, pred))


# ------------------------------------------------------------------------ hard: purity


def _max_per(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size, dtype=values.dtype)
    np.maximum.at(out, index, values)
    return out


def _purity(t: _Table) -> float:
    return float(_max_per(t.cell_pred, t.cell_count, t.pred_sizes.size).sum()) / t.n


def _inverse_purity(t: _Table) -> float:
    return float(_max_per(t.cell_gold, t.cell_count, t.gold_sizes.size).sum()) / t.n


def purity(gold: ArrayLike, pred: ArrayLike) -> float:
    """(1/n) Σ over predicted clusters of the size of its largest overlap with a gold cluster
    (Manning et al. 2008, §16.3). 1 for a clustering of singletons."""
    return _purity(_table(gold, pred))


def inverse_purity(gold: ArrayLike, pred: ArrayLike) -> float:
    """(1/n) Σ over gold clusters of its largest overlap with a predicted cluster (purity with
    the roles swapped). 1 for a single predicted cluster."""
    return _inverse_purity(_table(gold, pred))


def purity_f1(gold: ArrayLike, pred: ArrayLike) -> float:
    """Harmonic mean of :func:`purity` and :func:`inverse_purity`."""
    t = _table(gold, pred)
    return _harmonic(_purity(t), _inverse_purity(t))


# ------------------------------------------------------------------------ hard: information


def _entropy(sizes: np.ndarray, n: int) -> float:
    s = sizes[sizes > 0].astype(np.float64)
    if s.size <= 1:
        return 0.0
    return float(-np.sum((s / n) * (np.log(s) - math.log(n))))


def _mutual_information(t: _Table) -> float:
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


def _check_average(method: str) -> str:
    if method not in AVERAGE_METHODS:
        raise ConventionError(
            f"average_method must be one of {', '.join(AVERAGE_METHODS)}; got {method!r}"
        )
    return method


def _nmi(t: _Table, method: str) -> float:
    if t.gold_sizes.size == t.pred_sizes.size == 1 or t.identical:
        return 1.0
    mi = _mutual_information(t)
    if mi == 0:
        return 0.0
    return mi / _average(_entropy(t.gold_sizes, t.n), _entropy(t.pred_sizes, t.n), method)


def nmi(gold: ArrayLike, pred: ArrayLike, *, average_method: str = "arithmetic") -> float:
    """Normalized mutual information I / mean(H(gold), H(pred)), as scikit-learn's
    ``normalized_mutual_info_score`` (``average_method`` "arithmetic", "geometric", "min" or
    "max"; the arithmetic mean is Vinh et al.'s NMI_sum and equals the V-measure)."""
    return _nmi(_table(gold, pred), _check_average(average_method))


def _expected_mutual_information(t: _Table) -> float:
    """E[I] under the hypergeometric (permutation) model with fixed cluster sizes (Vinh, Epps &
    Bailey 2010, eq. 24a), summed over distinct (gold size, pred size) pairs."""
    from scipy.special import gammaln

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
    a, b, mult, start, lengths = a[keep], b[keep], mult[keep], start[keep], lengths[keep]
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


def _ami(t: _Table, method: str) -> float:
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


def ami(gold: ArrayLike, pred: ArrayLike, *, average_method: str = "arithmetic") -> float:
    """Adjusted mutual information (I − E[I]) / (mean(H(gold), H(pred)) − E[I]) (Vinh, Epps &
    Bailey 2010), as scikit-learn's ``adjusted_mutual_info_score``."""
    return _ami(_table(gold, pred), _check_average(average_method))


# ------------------------------------------------------------------------ hard: B-Cubed


def _bcubed(t: _Table, beta: float) -> PRF:
    sq = t.cell_count.astype(np.float64) ** 2
    p = float(np.sum(sq / t.pred_sizes[t.cell_pred])) / t.n
    r = float(np.sum(sq / t.gold_sizes[t.cell_gold])) / t.n
    return PRF(p, r, _harmonic(p, r, beta))


def bcubed(gold: ArrayLike, pred: ArrayLike, *, beta: float = 1.0) -> PRF:
    """B-Cubed (precision, recall, F_β) averaged over items (Bagga & Baldwin 1998; Amigó et al.
    2009). Precision is 1 for singletons, recall is 1 for a single cluster."""
    return _bcubed(_table(gold, pred), _check_beta(beta))


def hard_report(gold: ArrayLike, pred: ArrayLike) -> dict[str, float]:
    """Every hard-clustering measure (and nmPU / niPU) from one contingency table, by name."""
    t = _table(gold, pred)
    c = _pair_counts(t)
    pw = _pairwise(c, 1.0, 0.0)
    bc = _bcubed(t, 1.0)
    pu, ipu = _purity(t), _inverse_purity(t)
    mpu = _modified_purity_hard(t)
    return {
        "items": t.n,
        "gold_clusters": int(t.gold_sizes.size),
        "pred_clusters": int(t.pred_sizes.size),
        "pair_tp": c.tp,
        "pair_fp": c.fp,
        "pair_fn": c.fn,
        "pair_tn": c.tn,
        "pairwise_precision": pw.precision,
        "pairwise_recall": pw.recall,
        "pairwise_f1": pw.f,
        "rand_index": _rand(c),
        "adjusted_rand_index": _ari(c),
        "fowlkes_mallows": _fm(c),
        "purity": pu,
        "inverse_purity": ipu,
        "purity_f1": _harmonic(pu, ipu),
        "nmi": _nmi(t, "arithmetic"),
        "ami": _ami(t, "arithmetic"),
        "bcubed_precision": bc.precision,
        "bcubed_recall": bc.recall,
        "bcubed_f1": bc.f,
        "nmpu": mpu,
        "nipu": ipu,
        "nmpu_f1": _harmonic(mpu, ipu),
    }


def _modified_purity_hard(t: _Table) -> float:
    best = _max_per(t.cell_pred, t.cell_count, t.pred_sizes.size)
    return float(best[t.pred_sizes > 1].sum()) / t.n


# ------------------------------------------------------------------------ soft clusterings

Clusters = Sequence[Iterable[Hashable] | Mapping[Hashable, float]]


@dataclass(frozen=True)
class _Soft:
    """Both clusterings as sparse item x cluster weight matrices over one item index."""

    n_items: int  # distinct items in either clustering
    gold: Any  # scipy.sparse csr (items x gold clusters), float64 weights > 0
    pred: Any


def _flatten(clusters: Clusters, name: str) -> tuple[list[Any], list[Any], np.ndarray, int]:
    """(items, weights, cluster index of each membership, number of clusters)."""
    if isinstance(clusters, (str, bytes, Mapping)) or not isinstance(clusters, Iterable):
        raise InputError(
            f"{name} must be a list of clusters (sets of items or dicts "
            f"item -> weight), got a {type(clusters).__name__}"
        )
    items: list[Any] = []
    weights: list[float] = []
    sizes: list[int] = []
    for k, cluster in enumerate(clusters):
        if isinstance(cluster, Mapping):
            items.extend(cluster.keys())
            weights.extend(cluster.values())
            sizes.append(len(cluster))
        elif isinstance(cluster, (str, bytes)) or not isinstance(cluster, Iterable):
            raise InputError(
                f"{name}[{k}] is a {type(cluster).__name__}, not a cluster: soft clusterings "
                "are lists of clusters (sets of items or dicts item -> weight); for one label "
                "per item use the hard-clustering functions or labels_to_clusters()"
            )
        else:
            members = list(cluster)
            items.extend(members)
            weights.extend([1.0] * len(members))
            sizes.append(len(members))
    owner = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    return items, weights, owner, len(sizes)


def _weights(values: list[Any], name: str) -> np.ndarray:
    try:
        w = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        bad = next((v for v in values if not _is_real(v)), None)
        raise InputError(f"{name}: weight {bad!r} is not a number") from None
    if w.size and not (np.isfinite(w).all() and (w > 0).all()):
        k = int(np.flatnonzero(~(np.isfinite(w) & (w > 0)))[0])
        raise InputError(f"{name}: weights must be finite and > 0, got {values[k]!r}")
    return w


def _is_real(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def _soft(gold: Clusters, pred: Clusters, normalize: bool) -> _Soft:
    from scipy import sparse

    g_items, g_w, g_owner, k_gold = _flatten(gold, "gold")
    p_items, p_w, p_owner, k_pred = _flatten(pred, "pred")
    if not g_items or not p_items:
        which = "gold" if not g_items else "pred"
        raise EmptyInputError(f"{which} holds no item")
    g_weights, p_weights = _weights(g_w, "gold"), _weights(p_w, "pred")
    everything = np.fromiter(g_items + p_items, dtype=object, count=len(g_items) + len(p_items))
    codes, n_items = _codes(everything, "items")
    g_codes, p_codes = codes[: len(g_items)], codes[len(g_items) :]

    def matrix(item_codes: np.ndarray, owner: np.ndarray, w: np.ndarray, k: int) -> Any:
        # Empty clusters keep their column: they never win a max and weigh nothing.
        m = sparse.csr_matrix((w, (item_codes, owner)), shape=(n_items, k))
        m.sum_duplicates()  # a repeated item adds its weights
        if normalize:
            total = np.asarray(m.sum(axis=1)).ravel()
            scale = np.divide(1.0, total, out=np.zeros_like(total), where=total > 0)
            m = sparse.csr_matrix(sparse.diags(scale) @ m)
        return m

    return _Soft(
        n_items,
        matrix(g_codes, g_owner, g_weights, k_gold),
        matrix(p_codes, p_owner, p_weights, k_pred),
    )


def _soft_purity(scored: Any, other: Any, modified: bool) -> float:
    """(1/N) Σ_i max_j δ_{K_i}(K_i ∩ G_j): ``scored`` holds the weights of K, ``other`` gives
    the membership of G (weights ignored)."""
    total = float(scored.sum())
    member = (other > 0).astype(np.float64)
    overlap = (scored.T @ member).tocsr()  # clusters of `scored` x clusters of `other`
    if overlap.shape[1] == 0:
        return 0.0
    best = np.asarray(overlap.max(axis=1).todense()).ravel()
    if modified:
        size = np.diff(scored.tocsc().indptr)  # distinct items per cluster
        best = best[size > 1]
    return float(best.sum()) / total


def nmpu(gold: Clusters, pred: Clusters, *, normalize: bool = True) -> float:
    """Normalized modified purity of ``pred`` against ``gold`` (Kawahara et al. 2014): see the
    module docstring for the exact reading. Singleton predicted clusters earn nothing."""
    s = _soft(gold, pred, normalize)
    return _soft_purity(s.pred, s.gold, modified=True)


def nipu(gold: Clusters, pred: Clusters, *, normalize: bool = True) -> float:
    """Normalized inverse purity of ``pred`` against ``gold`` (Kawahara et al. 2014)."""
    s = _soft(gold, pred, normalize)
    return _soft_purity(s.gold, s.pred, modified=False)


def nmpu_f1(gold: Clusters, pred: Clusters, *, normalize: bool = True) -> float:
    """Harmonic mean of :func:`nmpu` and :func:`nipu` (Kawahara et al.'s F)."""
    s = _soft(gold, pred, normalize)
    return _harmonic(_soft_purity(s.pred, s.gold, True), _soft_purity(s.gold, s.pred, False))


def _pair_matrix(m: Any) -> Any:
    """Upper-triangular boolean item x item matrix of the pairs sharing a cluster."""
    from scipy import sparse

    member = (m > 0).astype(np.int64)
    co = sparse.triu(member @ member.T, k=1, format="csr")
    co.eliminate_zeros()
    co.data[:] = 1
    return co


def _soft_pair_counts(s: _Soft) -> PairCounts:
    pp, gp = _pair_matrix(s.pred), _pair_matrix(s.gold)
    both = pp.multiply(gp)
    tp = int(both.count_nonzero())
    fp, fn = int(pp.nnz) - tp, int(gp.nnz) - tp
    return PairCounts(tp, fp, fn, s.n_items * (s.n_items - 1) // 2 - tp - fp - fn)


def soft_pair_counts(gold: Clusters, pred: Clusters) -> PairCounts:
    """TP / FP / FN / TN over unordered pairs of items for overlapping clusterings, a pair
    being "together" when the two items share at least one cluster; TN over the union of the
    items of both clusterings."""
    return _soft_pair_counts(_soft(gold, pred, normalize=False))


def soft_pairwise(
    gold: Clusters, pred: Clusters, *, beta: float = 1.0, zero_division: float = 0.0
) -> PRF:
    """Pairwise (precision, recall, F_β) for overlapping clusterings (Watset's ``Pairwise``);
    ``zero_division`` for a zero denominator."""
    b = _check_beta(beta)
    return _pairwise(soft_pair_counts(gold, pred), b, zero_division)


def soft_report(gold: Clusters, pred: Clusters) -> dict[str, float]:
    """nmPU, niPU, their F1 and the pairwise measures of two soft clusterings, by name."""
    s = _soft(gold, pred, normalize=True)
    mpu = _soft_purity(s.pred, s.gold, True)
    ipu = _soft_purity(s.gold, s.pred, False)
    c = _soft_pair_counts(s)
    pw = _pairwise(c, 1.0, 0.0)
    return {
        "items": s.n_items,
        "gold_clusters": int(s.gold.shape[1]),
        "pred_clusters": int(s.pred.shape[1]),
        "nmpu": mpu,
        "nipu": ipu,
        "nmpu_f1": _harmonic(mpu, ipu),
        "pair_tp": c.tp,
        "pair_fp": c.fp,
        "pair_fn": c.fn,
        "pair_tn": c.tn,
        "pairwise_precision": pw.precision,
        "pairwise_recall": pw.recall,
        "pairwise_f1": pw.f,
    }


def labels_to_clusters(labels: ArrayLike) -> list[set[Any]]:
    """A hard clustering's labels (one per item, items named 0..n-1) as a list of sets, in the
    sorted order of the labels: the input of the soft-clustering functions."""
    codes, k = _codes(labels, "labels")
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=k))[:-1]
    return [set(part.tolist()) for part in np.split(order, bounds)]
