"""Slow, obviously-correct reference implementations of every embedding measure and of the
k-NN order, against the fast path, on random data full of ties (hypothesis): integer
coordinates, duplicated rows, every distance, both back-ends, with and without a separate
reference set."""

from __future__ import annotations

import math
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import CoverageWarning
from assay.embeddings import neighbour_metrics, retrieval_metrics
from assay.embeddings.measures import specs
from strategies.embedding import labelled_embeddings, neighbour_tables

# ---------------------------------------------------------------- reference measures
# One query at a time: ``hits`` is the list of 0/1 relevance of its neighbours, nearest
# first; ``r`` the number of references of its class; ``k`` the cutoff.


def ref_precision(hits: list[int], r: int, k: int) -> float:
    return sum(hits[:k]) / k


def ref_r_precision(hits: list[int], r: int, k: int) -> float:
    seen = hits[:r]
    return sum(seen) / len(seen)


def ref_map_at_r(hits: list[int], r: int, k: int) -> float:
    total, found = 0.0, 0
    for i, h in enumerate(hits[:r], start=1):
        if h:
            found += 1
            total += found / i
    return total / r


def ref_map(hits: list[int], r: int, k: int) -> float:
    total, found = 0.0, 0
    for i, h in enumerate(hits[:k], start=1):
        if h:
            found += 1
            total += found / i
    return total / r


def ref_recall(hits: list[int], r: int, k: int) -> float:
    return 1.0 if any(hits[:k]) else 0.0


def ref_recall_ir(hits: list[int], r: int, k: int) -> float:
    return sum(hits[:k]) / r


def ref_mrr(hits: list[int], r: int, k: int) -> float:
    for i, h in enumerate(hits[:k], start=1):
        if h:
            return 1.0 / i
    return 0.0


def ref_ndcg(hits: list[int], r: int, k: int) -> float:
    dcg = sum(h / math.log2(i + 1) for i, h in enumerate(hits[:k], start=1))
    ideal = sum(1 / math.log2(i + 1) for i in range(1, min(r, k) + 1))
    return dcg / ideal


REFERENCE = {
    "precision": ref_precision,
    "r_precision": ref_r_precision,
    "map_at_r": ref_map_at_r,
    "map": ref_map,
    "recall": ref_recall,
    "recall_ir": ref_recall_ir,
    "mrr": ref_mrr,
    "ndcg": ref_ndcg,
}


def test_every_declared_measure_has_a_reference() -> None:
    assert {s.name for s in specs()} == set(REFERENCE)


def ref_values(neighbours: np.ndarray, labels, counts: dict, name: str, k: int, excl: bool):
    """Per-query reference values (NaN for a query whose class has no other reference)."""
    out = []
    for row, label in zip(neighbours.tolist(), list(labels), strict=True):
        r = counts.get(label, 0) - int(excl)
        out.append(math.nan if r <= 0 else REFERENCE[name]([int(x == label) for x in row], r, k))
    return np.array(out)


def ref_neighbours(q: np.ndarray, r: np.ndarray, n: int, distance: str, excl: bool) -> np.ndarray:
    """Every reference sorted by (float64 distance, index), one query at a time."""
    q64, r64 = q.astype(np.float64), r.astype(np.float64)
    if distance == "cosine":
        q64 = q64 / np.sqrt((q64 * q64).sum(axis=1))[:, None]
        r64 = r64 / np.sqrt((r64 * r64).sum(axis=1))[:, None]
    rows = []
    for i, x in enumerate(q64):
        if distance == "euclidean":
            d = ((r64 - x) * (r64 - x)).sum(axis=1)
        elif distance == "cosine":
            d = 1.0 - (r64 * x).sum(axis=1)
        else:
            d = -(r64 * x).sum(axis=1)
        order = sorted(range(len(r64)), key=lambda j: (d[j], j))
        rows.append([j for j in order if not (excl and j == i)][:n])
    return np.array(rows)


ALL = ["precision@1", "precision@3", "r_precision", "map@r", "map", "recall@1", "recall@2",
       "recall_ir@3", "mrr", "ndcg@2", "ndcg"]  # fmt: skip


# ---------------------------------------------------------------- from given neighbours


@settings(max_examples=150, deadline=None)
@given(neighbour_tables(), st.integers(1, 6))
def test_neighbour_metrics_match_reference(table, k) -> None:
    neighbours, labels, counts, excl = table
    k = min(k, neighbours.shape[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        res = neighbour_metrics(
            neighbours, labels, counts, metrics=list(REFERENCE), k=k, exclude_self=excl
        )
    for name in REFERENCE:
        cutoff = k if name not in ("r_precision", "map_at_r") else 0
        want = ref_values(neighbours, labels, counts, name, cutoff, excl)
        np.testing.assert_allclose(res[name], want, rtol=1e-12, atol=1e-15, err_msg=name)
        kept = ~np.isnan(want)
        mean = want[kept].mean() if kept.any() else math.nan
        np.testing.assert_allclose(res.mean(name), mean, rtol=1e-12)


# ---------------------------------------------------------------- through the k-NN search


@settings(max_examples=60, deadline=None)
@given(
    labelled_embeddings(),
    st.sampled_from(["euclidean", "cosine", "inner"]),
    st.sampled_from(["faiss", "numpy"]),
    st.booleans(),
)
def test_retrieval_metrics_match_reference(data, distance, backend, split) -> None:
    x, labels = data
    if distance == "cosine":
        x[np.all(x == 0, axis=1)] = 1  # cosine is undefined for the zero vector
    if split:  # a separate reference set: the second half
        half = x.shape[0] // 2
        q, ql, r, rl, excl = x[:half], labels[:half], x[half:], labels[half:], False
    else:
        q, ql, r, rl, excl = x, labels, x, labels, True
    n_refs = r.shape[0] - int(excl)
    metrics = [m for m in ALL if not (m[-1].isdigit() and int(m[-1]) > n_refs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        res = retrieval_metrics(
            q, ql, None if not split else r, None if not split else rl,
            metrics=metrics, distance=distance, backend=backend,
        )  # fmt: skip
    counts = {int(c): int(n) for c, n in zip(*np.unique(rl, return_counts=True), strict=True)}
    neighbours = ref_neighbours(q, r, n_refs, distance, excl)
    neighbour_labels = rl[neighbours] if neighbours.size else np.empty((len(q), 0), int)
    for metric in res.metrics:
        name, _, at = metric.partition("@")
        k = int(at) if at else res.k
        want = ref_values(neighbour_labels, ql, counts, name, k, excl)
        np.testing.assert_allclose(res[metric], want, rtol=1e-12, atol=1e-15, err_msg=metric)
