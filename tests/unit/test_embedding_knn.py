"""The k-NN search: faiss and NumPy give the same neighbours and the same metrics, bit for
bit, on random data with tied distances (integer coordinates, duplicates, identical rows),
in blocks of any size; the exact distances are the same bits wherever computed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import CoverageWarning
from assay.embeddings import nearest_neighbours, retrieval_metrics
from assay.embeddings.knn import exact_distances, neighbours, prepare, searcher
from strategies.embedding import labelled_embeddings

pytest.importorskip("faiss")

ALL = ["precision@1", "r_precision", "map@r", "map", "recall@1", "recall@4",
       "recall_ir@4", "mrr", "ndcg@4"]  # fmt: skip


def _both(x, labels, **options):
    out = []
    for backend in ("faiss", "numpy"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CoverageWarning)
            out.append(retrieval_metrics(x, labels, metrics=ALL, backend=backend, **options))
    return out


@settings(max_examples=60, deadline=None)
@given(
    labelled_embeddings(max_items=60),
    st.sampled_from(["euclidean", "cosine", "inner"]),
    st.sampled_from([None, 1, 3, 7]),
)
def test_backends_give_identical_metrics(data, distance, block_size) -> None:
    x, labels = data
    if distance == "cosine":
        x[np.all(x == 0, axis=1)] = 1
    if x.shape[0] < 6:
        return
    faiss_res, numpy_res = _both(x, labels, distance=distance, block_size=block_size)
    assert faiss_res.provenance["backend"] == "faiss"
    assert numpy_res.provenance["backend"] == "numpy"
    for m in faiss_res.metrics:
        np.testing.assert_array_equal(faiss_res[m], numpy_res[m], err_msg=m)
    k = min(8, x.shape[0] - 1)
    a = nearest_neighbours(x, k=k, distance=distance, backend="faiss", block_size=block_size)
    b = nearest_neighbours(x, k=k, distance=distance, backend="numpy", block_size=block_size)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("distance", ["euclidean", "cosine", "inner"])
def test_larger_random_data_identical(distance: str) -> None:
    rng = np.random.default_rng(7)
    centres = rng.normal(size=(10, 16))
    labels = rng.integers(0, 10, 800)
    x = (centres[labels] + rng.normal(scale=0.8, size=(800, 16))).astype(np.float32)
    x[100:150] = x[0]  # a block of duplicates
    x[200:260] = np.round(x[200:260])  # integer-valued rows
    faiss_res, numpy_res = _both(x, labels, distance=distance)
    for m in faiss_res.metrics:
        np.testing.assert_array_equal(faiss_res[m], numpy_res[m], err_msg=m)
    assert faiss_res.mean("precision@1") > 0.5


def test_ties_go_to_the_lower_index() -> None:
    x = np.array([[0.0], [1.0], [-1.0], [1.0], [-1.0], [2.0]])
    for backend in ("faiss", "numpy"):
        got = nearest_neighbours(x, k=5, backend=backend)
        assert got[0].tolist() == [1, 2, 3, 4, 5]  # 1, 2, 3, 4 all at distance 1
        assert got[1].tolist() == [3, 0, 5, 2, 4]  # its duplicate first, then 0 and 5 (d=1)


def test_identical_rows_need_every_candidate() -> None:
    # Every distance ties: the candidate search widens until it holds every reference.
    x = np.ones((50, 3), dtype=np.float32)
    for backend in ("faiss", "numpy"):
        got = nearest_neighbours(x, k=4, backend=backend, block_size=7)
        expected = [[j for j in range(50) if j != i][:4] for i in range(50)]
        np.testing.assert_array_equal(got, expected)


def test_self_is_dropped_by_identity_not_position() -> None:
    # Query 1 duplicates query 0: 0 comes first in its tie, yet 1 itself is what is dropped.
    x = np.array([[0.0, 0.0], [0.0, 0.0], [3.0, 0.0]])
    for backend in ("faiss", "numpy"):
        assert nearest_neighbours(x, k=2, backend=backend)[1].tolist() == [0, 2]
        # Inner product: the query need not be its own nearest neighbour.
        y = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
        got = nearest_neighbours(y, k=2, distance="inner", backend=backend)
        assert got.tolist() == [[2, 1], [2, 0], [1, 0]]


def test_blocks_cover_every_query_once() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 3, size=(97, 4)).astype(np.float64)
    space = prepare(x, None, "euclidean")
    seen = np.zeros(97, int)
    for rows, idx in neighbours(
        space, 5, searcher(space, "numpy"), exclude_self=True, block_size=10
    ):
        seen[rows] += 1
        assert idx.shape == (rows.size, 5)
        assert not (idx == rows[:, None]).any()
    assert (seen == 1).all()


def test_exact_distances_same_bits_in_any_chunk() -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(size=(40, 33))
    space = prepare(x, None, "euclidean")
    rows = rng.integers(0, 40, 500)
    cols = rng.integers(0, 40, 500)
    whole = exact_distances(space, rows, cols)
    one_by_one = np.concatenate(
        [exact_distances(space, rows[i : i + 1], cols[i : i + 1]) for i in range(500)]
    )
    np.testing.assert_array_equal(whole, one_by_one)
    assert (exact_distances(space, np.arange(40), np.arange(40)) == 0).all()
