"""Clustering: extrinsic evaluation of a clustering against a gold clustering.

This module holds the measures of **hard clusterings** (every item in exactly one cluster);
those of soft (overlapping, weighted) clusterings are in :mod:`assay.clustering.soft`,
and importing this module registers both. Every scalar measure is declared in the metric
registry (family ``clustering``).

Hard clusterings are two label sequences of the same length, ``gold`` and ``pred``:
``gold[k]`` and ``pred[k]`` are the clusters of item ``k``. Labels are any hashable values
(ints, strings, ...); only equality matters, so renaming the clusters or reordering the items
never changes a score. Everything is computed from the contingency table
``n[i, j] = |gold cluster i ∩ pred cluster j|`` (labels are factorised to integer codes with
:func:`numpy.unique`; the table is counted by :func:`numpy.bincount`, or as a
:mod:`scipy.sparse` matrix when the number of cluster pairs is large), so the cost is
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
- :func:`hard_report` — all of them (and nmPU / niPU) from one table.

Ill-defined cases, every one of them decided here (and in the soft module):

- Empty input (no items) raises :class:`~assay.errors.EmptyInputError`; sequences of
  different lengths, non-1-D input, a missing label (``None`` or NaN), a bad weight or a
  malformed soft clustering raise :class:`~assay.errors.InputError`. Bad options (``beta``,
  ``average_method``, ``zero_division``, ``normalize``) raise
  :class:`~assay.errors.MetricError` (an :class:`~assay.errors.OptionError`).
- Pairwise precision / recall / F with a zero denominator (no predicted pair, no gold pair,
  neither) return ``zero_division`` (default 0, as scikit-learn and Watset; or 1, "nan").
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
- :func:`pairwise_f`, :func:`purity_f1`, :func:`~assay.clustering.soft.nmpu_f1` and
  B-Cubed's F are 0.0 when both of their components are 0.
- Cluster labels such as -1 ("noise" in DBSCAN) are ordinary clusters here.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._options import ZeroDivision
from .._result import provenance
from ..metrics.registry import Peer
from ._core import (
    AVERAGE_METHOD,
    BETA,
    PRF,
    ZERO_DIVISION,
    ClusteringReport,
    ClusterPairCounts,
    Table,
    check_beta,
    comb2_sum,
    hard_measure,
    harmonic,
    pair_counts_of,
    pair_values,
    pairwise,
    table,
    zero_division_value,
)
from ._information import ami_of, nmi_of
from .options import AverageMethod

__all__ = [
    "PRF",
    "ClusterPairCounts",
    "ClusteringReport",
    "adjusted_rand_index",
    "ami",
    "bcubed",
    "fowlkes_mallows",
    "hard_report",
    "inverse_purity",
    "nmi",
    "pair_counts",
    "pairwise_f",
    "pairwise_precision",
    "pairwise_recall",
    "purity",
    "purity_f1",
    "rand_index",
]


# ---------------------------------------------------------------- pairs

#: scikit-learn counts the pairs but gives no pairwise precision, recall or F.
_PAIR_CONFUSION = (
    Peer(
        "scikit-learn",
        "sklearn.metrics.cluster.pair_confusion_matrix",
        "Gives the pair counts (each pair counted twice), not the ratio.",
    ),
)


def _pair_counts(t: Table) -> tuple[int, ...]:
    tp = comb2_sum(t.cell_count)
    return pair_counts_of(tp, comb2_sum(t.pred_sizes), comb2_sum(t.gold_sizes), t.n)


def pair_counts(gold: ArrayLike, pred: ArrayLike) -> ClusterPairCounts:
    """TP / FP / FN / TN over unordered pairs of items (see the module docstring).

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    ClusterPairCounts
        ``tp, fp, fn, tn``.

    Examples
    --------
    >>> from assay.clustering import pair_counts
    >>> tuple(pair_counts([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]))
    (2, 5, 2, 6)
    """
    tp, fp, fn, tn = _pair_counts(table(gold, pred))
    return ClusterPairCounts(tp, fp, fn, tn, provenance(measure="pair_counts"))


@hard_measure(
    params=(ZERO_DIVISION,),
    peers=_PAIR_CONFUSION,
)
def pairwise_precision(
    gold: ArrayLike, pred: ArrayLike, *, zero_division: ZeroDivision = 0
) -> float:
    """Pairwise precision TP / (TP + FP): the fraction of pairs put together by ``pred`` that
    ``gold`` puts together. ``zero_division`` when ``pred`` is all singletons.

    Reference: Manning, Raghavan & Schütze (2008), Introduction to Information Retrieval, §16.3.

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).
    zero_division
        The value when no pair is together in ``pred``.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import pairwise_precision
    >>> round(pairwise_precision([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.2857
    """
    return pairwise(_pair_counts(table(gold, pred)), 1.0, zero_division_value(zero_division))[0]


@hard_measure(
    params=(ZERO_DIVISION,),
    peers=_PAIR_CONFUSION,
)
def pairwise_recall(gold: ArrayLike, pred: ArrayLike, *, zero_division: ZeroDivision = 0) -> float:
    """Pairwise recall TP / (TP + FN). ``zero_division`` when ``gold`` is all singletons.

    Reference: Manning, Raghavan & Schütze (2008), Introduction to Information Retrieval, §16.3.

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).
    zero_division
        The value when no pair is together in ``gold``.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import pairwise_recall
    >>> pairwise_recall([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1])
    0.5
    """
    return pairwise(_pair_counts(table(gold, pred)), 1.0, zero_division_value(zero_division))[1]


@hard_measure(
    params=(BETA, ZERO_DIVISION),
    peers=_PAIR_CONFUSION,
)
def pairwise_f(
    gold: ArrayLike, pred: ArrayLike, *, beta: float = 1.0, zero_division: ZeroDivision = 0
) -> float:
    """Pairwise F_β: (1 + β²) TP / ((1 + β²) TP + β² FN + FP); ``zero_division`` when
    TP = FP = FN = 0 (both clusterings all singletons).

    Reference: Manning, Raghavan & Schütze (2008), Introduction to Information Retrieval, §16.3.

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).
    beta, zero_division
        The weight of recall; the value when undefined.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import pairwise_f
    >>> round(pairwise_f([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.3636
    """
    c = _pair_counts(table(gold, pred))
    return pairwise(c, float(beta), zero_division_value(zero_division))[2]


def _rand(c: tuple[int, ...]) -> float:
    tp, fp, fn, tn = c
    total = tp + fp + fn + tn
    if total == 0 or fp + fn == 0:
        return 1.0
    return (tp + tn) / total


@hard_measure(peers=(Peer("scikit-learn", "sklearn.metrics.rand_score"),))
def rand_index(gold: ArrayLike, pred: ArrayLike) -> float:
    """Rand index (TP + TN) / C(n, 2), the fraction of pairs on which the clusterings agree
    (Rand 1971); 1.0 when n = 1.

    Reference: Rand (1971), "Objective criteria for the evaluation of clustering methods", JASA
    66(336).

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import rand_index
    >>> round(rand_index([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.5333
    """
    return _rand(_pair_counts(table(gold, pred)))


def _ari(c: tuple[int, ...]) -> float:
    tp, fp, fn, tn = c
    if fp == 0 and fn == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


@hard_measure(
    bounds=(-0.5, 1.0), peers=(Peer("scikit-learn", "sklearn.metrics.adjusted_rand_score"),)
)
def adjusted_rand_index(gold: ArrayLike, pred: ArrayLike) -> float:
    """Hubert & Arabie's (1985) adjusted Rand index, (RI − E[RI]) / (max RI − E[RI]) from the
    pair counts: 1 for identical clusterings, 0 in expectation for random ones, negative below
    chance and never below −1/2 (Chacón & Rastrojo 2023).

    Reference: Hubert & Arabie (1985), "Comparing partitions", Journal of Classification 2(1).

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    float
        In [-1/2, 1].

    Examples
    --------
    >>> from assay.clustering import adjusted_rand_index
    >>> round(adjusted_rand_index([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.0367
    """
    return _ari(_pair_counts(table(gold, pred)))


def _fm(c: tuple[int, ...]) -> float:
    tp, fp, fn, _ = c
    if tp == 0:
        return 0.0
    return math.sqrt(tp / (tp + fp)) * math.sqrt(tp / (tp + fn))


@hard_measure(peers=(Peer("scikit-learn", "sklearn.metrics.fowlkes_mallows_score"),))
def fowlkes_mallows(gold: ArrayLike, pred: ArrayLike) -> float:
    """Fowlkes–Mallows index TP / sqrt((TP + FP)(TP + FN)), the geometric mean of pairwise
    precision and recall (Fowlkes & Mallows 1983); 0.0 when TP = 0.

    Reference: Fowlkes & Mallows (1983), "A method for comparing two hierarchical clusterings",
    JASA 78(383).

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import fowlkes_mallows
    >>> round(fowlkes_mallows([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.378
    """
    return _fm(_pair_counts(table(gold, pred)))


# ---------------------------------------------------------------- purity


def _max_per(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size, dtype=values.dtype)
    np.maximum.at(out, index, values)
    return out


def _purity(t: Table) -> float:
    return float(_max_per(t.cell_pred, t.cell_count, t.pred_sizes.size).sum()) / t.n


def _inverse_purity(t: Table) -> float:
    return float(_max_per(t.cell_gold, t.cell_count, t.gold_sizes.size).sum()) / t.n


@hard_measure()
def purity(gold: ArrayLike, pred: ArrayLike) -> float:
    """Purity (1/n) Σ_j max_i n_ij: each predicted cluster counts its largest overlap with a
    gold cluster (Manning et al. 2008, §16.3). 1 for a clustering of singletons.

    Reference: Manning, Raghavan & Schütze (2008), Introduction to Information Retrieval, §16.3.

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    float
        In (0, 1].

    Examples
    --------
    >>> from assay.clustering import purity
    >>> round(purity([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.6667
    """
    return _purity(table(gold, pred))


@hard_measure()
def inverse_purity(gold: ArrayLike, pred: ArrayLike) -> float:
    """Inverse purity (1/n) Σ_i max_j n_ij: each gold cluster counts its largest overlap with
    a predicted cluster (purity with the roles swapped). 1 for a single predicted cluster.

    Reference: Amigó, Gonzalo, Artiles & Verdejo (2009), "A comparison of extrinsic clustering
    evaluation metrics based on formal constraints", Information Retrieval 12(4).

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    float
        In (0, 1].

    Examples
    --------
    >>> from assay.clustering import inverse_purity
    >>> round(inverse_purity([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.8333
    """
    return _inverse_purity(table(gold, pred))


@hard_measure()
def purity_f1(gold: ArrayLike, pred: ArrayLike) -> float:
    """Harmonic mean of purity and inverse purity, 2 PU iPU / (PU + iPU).

    Reference: Amigó, Gonzalo, Artiles & Verdejo (2009), "A comparison of extrinsic clustering
    evaluation metrics based on formal constraints", Information Retrieval 12(4).

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    float
        In (0, 1].

    Examples
    --------
    >>> from assay.clustering import purity_f1
    >>> round(purity_f1([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.7407
    """
    t = table(gold, pred)
    return harmonic(_purity(t), _inverse_purity(t))


# ---------------------------------------------------------------- information


@hard_measure(
    params=(AVERAGE_METHOD,),
    peers=(Peer("scikit-learn", "sklearn.metrics.normalized_mutual_info_score"),),
)
def nmi(gold: ArrayLike, pred: ArrayLike, *, average_method: AverageMethod = "arithmetic") -> float:
    """Normalized mutual information I / mean(H(gold), H(pred)), as scikit-learn's
    ``normalized_mutual_info_score`` (``average_method`` "arithmetic", "geometric", "min" or
    "max"; the arithmetic mean is Vinh et al.'s NMI_sum and equals the V-measure).

    Reference: Vinh, Epps & Bailey (2010), "Information theoretic measures for clusterings
    comparison", JMLR 11.

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).
    average_method
        The mean of the two entropies.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import nmi
    >>> round(nmi([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.3863
    """
    return nmi_of(table(gold, pred), average_method)


@hard_measure(
    params=(AVERAGE_METHOD,),
    bounds=(None, 1.0),
    peers=(Peer("scikit-learn", "sklearn.metrics.adjusted_mutual_info_score"),),
)
def ami(gold: ArrayLike, pred: ArrayLike, *, average_method: AverageMethod = "arithmetic") -> float:
    """Adjusted mutual information (I − E[I]) / (mean(H(gold), H(pred)) − E[I]) (Vinh, Epps &
    Bailey 2010), as scikit-learn's ``adjusted_mutual_info_score``; negative below chance.

    Reference: Vinh, Epps & Bailey (2010), "Information theoretic measures for clusterings
    comparison", JMLR 11.

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).
    average_method
        The mean of the two entropies.

    Returns
    -------
    float
        At most 1.

    Examples
    --------
    >>> from assay.clustering import ami
    >>> round(ami([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1]), 4)
    0.1054
    """
    return ami_of(table(gold, pred), average_method)


# ---------------------------------------------------------------- B-Cubed and the report


def _bcubed(t: Table, beta: float) -> tuple[float, float, float]:
    sq = t.cell_count.astype(np.float64) ** 2
    p = float(np.sum(sq / t.pred_sizes[t.cell_pred])) / t.n
    r = float(np.sum(sq / t.gold_sizes[t.cell_gold])) / t.n
    return p, r, harmonic(p, r, beta)


def bcubed(gold: ArrayLike, pred: ArrayLike, *, beta: float = 1.0) -> PRF:
    """B-Cubed (precision, recall, F_β) averaged over items (Bagga & Baldwin 1998; Amigó et al.
    2009). Precision is 1 for singletons, recall is 1 for a single cluster.

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).
    beta
        The weight of recall in F.

    Returns
    -------
    PRF
        ``precision, recall, f``.

    Examples
    --------
    >>> from assay.clustering import bcubed
    >>> p, r, f = bcubed([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1])
    >>> round(p, 4), round(r, 4), round(f, 4)
    (0.5833, 0.7778, 0.6667)
    """
    b = check_beta(beta)
    p, r, f = _bcubed(table(gold, pred), b)
    return PRF(p, r, f, provenance(measure="bcubed", beta=b))


def _modified_purity_hard(t: Table) -> float:
    best = _max_per(t.cell_pred, t.cell_count, t.pred_sizes.size)
    return float(best[t.pred_sizes > 1].sum()) / t.n


def hard_report(gold: ArrayLike, pred: ArrayLike) -> ClusteringReport:
    """Every hard-clustering measure (and nmPU / niPU) from one contingency table, by name
    (defaults: F1, ``zero_division=0``, the arithmetic mean of the entropies).

    Parameters
    ----------
    gold, pred
        The gold and the predicted cluster label of each item (aligned; any hashable labels).

    Returns
    -------
    ClusteringReport
        A read-only mapping ``{measure: value}``; ``records()`` as rows ``{metric, value}``.

    Examples
    --------
    >>> from assay.clustering import hard_report
    >>> report = hard_report([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 1])
    >>> report["items"], round(report["purity"], 4)
    (6, 0.6667)
    """
    t = table(gold, pred)
    c = _pair_counts(t)
    pw = pairwise(c, 1.0, 0.0)
    bc = _bcubed(t, 1.0)
    pu, ipu = _purity(t), _inverse_purity(t)
    mpu = _modified_purity_hard(t)
    values = {
        "items": t.n,
        "gold_clusters": int(t.gold_sizes.size),
        "pred_clusters": int(t.pred_sizes.size),
        **pair_values(c, pw),
        "rand_index": _rand(c),
        "adjusted_rand_index": _ari(c),
        "fowlkes_mallows": _fm(c),
        "purity": pu,
        "inverse_purity": ipu,
        "purity_f1": harmonic(pu, ipu),
        "nmi": nmi_of(t, "arithmetic"),
        "ami": ami_of(t, "arithmetic"),
        "bcubed_precision": bc[0],
        "bcubed_recall": bc[1],
        "bcubed_f1": bc[2],
        "nmpu": mpu,
        "nipu": ipu,
        "nmpu_f1": harmonic(mpu, ipu),
    }
    return ClusteringReport("hard", values, provenance(measure="hard_report"))


# The soft-clustering measures are declared in their own module; importing it here registers
# the whole family when this module is imported.
from . import soft as _soft  # noqa: E402, F401
