"""Clustering: measures of soft (overlapping, optionally weighted) clusterings.

Soft clusterings are lists of clusters, each a set (or list, tuple) of items, or a dict
``{item: weight}``; an item may be in several clusters. A repeated item in a list-like cluster
adds its occurrences (weight 2 for two occurrences), as Watset's
``NormalizedModifiedPurity.transform``. Weights must be finite and positive.

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
  For hard clusterings nmPU is :func:`~assay.clustering.measures.purity` with the singleton
  clusters' items counted as errors, and niPU is
  :func:`~assay.clustering.measures.inverse_purity`.
- :func:`soft_pair_counts`, :func:`soft_pairwise` — pairwise precision, recall and F over
  sets of unordered item pairs, a pair being in a clustering's set when the two items share
  at least one cluster (weights ignored; Watset's ``Pairwise``). TN counts the pairs of the
  union of items that are in neither set. These enumerate the co-membership pairs (sparse
  matrix products), so memory grows with the number of such pairs.
- :func:`soft_report` — all of them; :func:`labels_to_clusters` turns a hard clustering's
  labels into this input.

Ill-defined cases are listed in :mod:`assay.clustering.measures`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._options import ZeroDivision
from .._result import provenance
from ..errors import EmptyInputError, InputError
from ._core import (
    NORMALIZE,
    PRF,
    ClusteringReport,
    ClusterPairCounts,
    check_beta,
    check_zero_division,
    codes,
    harmonic,
    pair_counts_of,
    pair_values,
    pairwise,
    soft_measure,
    zero_division_value,
)

__all__ = [
    "labels_to_clusters",
    "nipu",
    "nmpu",
    "nmpu_f1",
    "soft_pair_counts",
    "soft_pairwise",
    "soft_report",
]

Clusters = Sequence[Iterable[Hashable] | Mapping[Hashable, float]]


@dataclass(frozen=True)
class _Soft:
    """Both clusterings as sparse item x cluster weight matrices over one item index."""

    n_items: int  # distinct items in either clustering
    gold: Any  # scipy.sparse csr (items x gold clusters), float64 weights > 0
    pred: Any


# ---------------------------------------------------------------- reading clusterings


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


def _matrix(
    item_codes: np.ndarray, owner: np.ndarray, w: np.ndarray, shape: Any, normalize: bool
) -> Any:
    """The item x cluster weight matrix; with ``normalize`` every item's weights sum to 1."""
    from scipy import sparse

    # Empty clusters keep their column: they never win a max and weigh nothing.
    m = sparse.csr_matrix((w, (item_codes, owner)), shape=shape)
    m.sum_duplicates()  # a repeated item adds its weights
    if normalize:
        total = np.asarray(m.sum(axis=1)).ravel()
        scale = np.divide(1.0, total, out=np.zeros_like(total), where=total > 0)
        m = sparse.csr_matrix(sparse.diags(scale) @ m)
    return m


def _soft(gold: Clusters, pred: Clusters, normalize: bool) -> _Soft:
    g_items, g_w, g_owner, k_gold = _flatten(gold, "gold")
    p_items, p_w, p_owner, k_pred = _flatten(pred, "pred")
    if not g_items or not p_items:
        which = "gold" if not g_items else "pred"
        raise EmptyInputError(f"{which} holds no item")
    g_weights, p_weights = _weights(g_w, "gold"), _weights(p_w, "pred")
    everything = np.fromiter(g_items + p_items, dtype=object, count=len(g_items) + len(p_items))
    item_codes, n_items = codes(everything, "items")
    g_codes, p_codes = item_codes[: len(g_items)], item_codes[len(g_items) :]
    return _Soft(
        n_items,
        _matrix(g_codes, g_owner, g_weights, (n_items, k_gold), normalize),
        _matrix(p_codes, p_owner, p_weights, (n_items, k_pred), normalize),
    )


# ---------------------------------------------------------------- purity


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


@soft_measure(params=(NORMALIZE,))
def nmpu(gold: Clusters, pred: Clusters, *, normalize: bool = True) -> float:
    """Normalized modified purity nmPU = (1/N) Σ_i max_j δ(K_i ∩ G_j) over the predicted
    clusters K_i of two items or more (Kawahara et al. 2014): see the module docstring for the
    exact reading. Singleton predicted clusters earn nothing.

    Reference: Kawahara, Peterson & Palmer (2014), "A step-wise usage-based method for inducing
    polysemy-aware verb classes", ACL.

    Parameters
    ----------
    gold, pred
        The gold and the predicted clustering: lists of clusters, each a set (list,
        tuple) of items or a dict ``{item: weight}``.
    normalize
        Whether each item's weights are first normalised to sum to 1.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import nmpu
    >>> round(nmpu([{"a", "b"}, {"c"}], [{"a"}, {"b", "c"}]), 4)
    0.3333
    """
    s = _soft(gold, pred, normalize)
    return _soft_purity(s.pred, s.gold, modified=True)


@soft_measure(params=(NORMALIZE,))
def nipu(gold: Clusters, pred: Clusters, *, normalize: bool = True) -> float:
    """Normalized inverse purity niPU = (1/N) Σ_j max_i δ(K_i ∩ G_j) of ``pred`` against
    ``gold`` (Kawahara et al. 2014).

    Reference: Kawahara, Peterson & Palmer (2014), "A step-wise usage-based method for inducing
    polysemy-aware verb classes", ACL.

    Parameters
    ----------
    gold, pred
        The gold and the predicted clustering: lists of clusters, each a set (list,
        tuple) of items or a dict ``{item: weight}``.
    normalize
        Whether each item's weights are first normalised to sum to 1.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import nipu
    >>> round(nipu([{"a", "b"}, {"c"}], [{"a"}, {"b", "c"}]), 4)
    0.6667
    """
    s = _soft(gold, pred, normalize)
    return _soft_purity(s.gold, s.pred, modified=False)


@soft_measure(params=(NORMALIZE,))
def nmpu_f1(gold: Clusters, pred: Clusters, *, normalize: bool = True) -> float:
    """Harmonic mean of nmPU and niPU, 2 nmPU niPU / (nmPU + niPU) (Kawahara et al.'s F).

    Reference: Kawahara, Peterson & Palmer (2014), "A step-wise usage-based method for inducing
    polysemy-aware verb classes", ACL.

    Parameters
    ----------
    gold, pred
        The gold and the predicted clustering: lists of clusters, each a set (list,
        tuple) of items or a dict ``{item: weight}``.
    normalize
        Whether each item's weights are first normalised to sum to 1.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.clustering import nmpu_f1
    >>> round(nmpu_f1([{"a", "b"}, {"c"}], [{"a"}, {"b", "c"}]), 4)
    0.4444
    """
    s = _soft(gold, pred, normalize)
    return harmonic(_soft_purity(s.pred, s.gold, True), _soft_purity(s.gold, s.pred, False))


# ---------------------------------------------------------------- pairs


def _pair_matrix(m: Any) -> Any:
    """Upper-triangular boolean item x item matrix of the pairs sharing a cluster."""
    from scipy import sparse

    member = (m > 0).astype(np.int64)
    co = sparse.triu(member @ member.T, k=1, format="csr")
    co.eliminate_zeros()
    co.data[:] = 1
    return co


def _soft_pair_counts(s: _Soft) -> tuple[int, ...]:
    pp, gp = _pair_matrix(s.pred), _pair_matrix(s.gold)
    both = pp.multiply(gp)
    tp = int(both.count_nonzero())
    return pair_counts_of(tp, int(pp.nnz), int(gp.nnz), s.n_items)


def soft_pair_counts(gold: Clusters, pred: Clusters) -> ClusterPairCounts:
    """TP / FP / FN / TN over unordered pairs of items for overlapping clusterings, a pair
    being "together" when the two items share at least one cluster; TN over the union of the
    items of both clusterings.

    Parameters
    ----------
    gold, pred
        The gold and the predicted clustering: lists of clusters, each a set (list,
        tuple) of items or a dict ``{item: weight}``.

    Returns
    -------
    ClusterPairCounts
        ``tp, fp, fn, tn``.

    Examples
    --------
    >>> from assay.clustering import soft_pair_counts
    >>> tuple(soft_pair_counts([{"a", "b"}, {"c"}], [{"a"}, {"b", "c"}]))
    (0, 1, 1, 1)
    """
    tp, fp, fn, tn = _soft_pair_counts(_soft(gold, pred, normalize=False))
    return ClusterPairCounts(tp, fp, fn, tn, provenance(measure="soft_pair_counts"))


def soft_pairwise(
    gold: Clusters, pred: Clusters, *, beta: float = 1.0, zero_division: ZeroDivision = 0
) -> PRF:
    """Pairwise (precision, recall, F_β) for overlapping clusterings (Watset's ``Pairwise``);
    ``zero_division`` (0, 1 or "nan") for a zero denominator.

    Parameters
    ----------
    gold, pred
        The gold and the predicted clustering: lists of clusters, each a set (list,
        tuple) of items or a dict ``{item: weight}``.
    beta, zero_division
        The weight of recall; the value of an undefined ratio.

    Returns
    -------
    PRF
        ``precision, recall, f``.

    Examples
    --------
    >>> from assay.clustering import soft_pairwise
    >>> tuple(soft_pairwise([{"a", "b"}, {"c"}], [{"a"}, {"b", "c"}]))
    (0.0, 0.0, 0.0)
    """
    b = check_beta(beta)
    zd = check_zero_division(zero_division)
    c = _soft_pair_counts(_soft(gold, pred, normalize=False))
    p, r, f = pairwise(c, b, zero_division_value(zd))
    return PRF(p, r, f, provenance(measure="soft_pairwise", beta=b, zero_division=zd))


def soft_report(gold: Clusters, pred: Clusters) -> ClusteringReport:
    """nmPU, niPU, their F1 and the pairwise measures of two soft clusterings, by name.

    Parameters
    ----------
    gold, pred
        The gold and the predicted clustering: lists of clusters, each a set (list,
        tuple) of items or a dict ``{item: weight}``.

    Returns
    -------
    ClusteringReport
        A read-only mapping ``{measure: value}``.

    Examples
    --------
    >>> from assay.clustering import soft_report
    >>> report = soft_report([{"a", "b"}, {"c"}], [{"a"}, {"b", "c"}])
    >>> round(report["nmpu"], 4), round(report["nipu"], 4)
    (0.3333, 0.6667)
    """
    s = _soft(gold, pred, normalize=True)
    mpu = _soft_purity(s.pred, s.gold, True)
    ipu = _soft_purity(s.gold, s.pred, False)
    c = _soft_pair_counts(s)
    pw = pairwise(c, 1.0, 0.0)
    values = {
        "items": s.n_items,
        "gold_clusters": int(s.gold.shape[1]),
        "pred_clusters": int(s.pred.shape[1]),
        "nmpu": mpu,
        "nipu": ipu,
        "nmpu_f1": harmonic(mpu, ipu),
        **pair_values(c, pw),
    }
    return ClusteringReport("soft", values, provenance(measure="soft_report"))


def labels_to_clusters(labels: ArrayLike) -> list[set[int]]:
    """A hard clustering's labels (one per item, items named 0..n-1) as a list of sets, in the
    sorted order of the labels: the input of the soft-clustering functions.

    Parameters
    ----------
    labels : array_like
        The cluster label of each item (items are numbered from 0).

    Returns
    -------
    list of set
        One set of item numbers per cluster.

    Examples
    --------
    >>> from assay.clustering import labels_to_clusters
    >>> labels_to_clusters(["x", "x", "y"])
    [{0, 1}, {2}]
    """
    item_codes, k = codes(labels, "labels")
    order = np.argsort(item_codes, kind="stable")
    bounds = np.cumsum(np.bincount(item_codes, minlength=k))[:-1]
    return [set(part.tolist()) for part in np.split(order, bounds)]
