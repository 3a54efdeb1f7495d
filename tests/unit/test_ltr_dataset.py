"""LetorDataset: building, statistics, query-level normalisation (with sentinels), subsets,
and the way into assay's data model (qrels and runs, TREC files)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from assay import ltr
from assay.data import Qrels, Run
from assay.errors import InputError, OptionError


def small() -> ltr.LetorDataset:
    x = np.array(
        [[1, 0, 5, 1.8e308], [3, 0, 5, 2], [2, 0, 5, 4], [10, 0, 5, 1], [20, 0, 5, 1]],
        dtype=np.float64,
    )
    return ltr.LetorDataset.from_arrays(x, [0, 2, 1, 0, 0], qids=["a", "a", "a", "b", "b"])


def test_shape_and_ids() -> None:
    d = small()
    assert (d.n_queries, d.n_docs, d.n_features) == (2, 5, 4)
    np.testing.assert_array_equal(d.sizes, [3, 2])
    np.testing.assert_array_equal(d.qidx, [0, 0, 0, 1, 1])
    assert d.query_ids.to_pylist() == ["a", "b"]
    assert d.doc_ids.to_pylist() == ["1", "2", "3", "4", "5"]
    g = ltr.LetorDataset.from_arrays(np.zeros((3, 1)), [1, 0, 0], group=[1, 2])
    assert g.query_ids.to_pylist() == ["1", "2"]


def test_from_arrays_checks() -> None:
    with pytest.raises(InputError, match="exactly one"):
        ltr.LetorDataset.from_arrays(np.zeros((2, 1)), [0, 1])
    with pytest.raises(InputError, match="consecutive"):
        ltr.LetorDataset.from_arrays(np.zeros((3, 1)), [0, 1, 0], qids=["a", "b", "a"])
    with pytest.raises(InputError, match="add up to 3"):
        ltr.LetorDataset.from_arrays(np.zeros((3, 1)), [0, 1, 0], group=[1, 1])


def test_stats() -> None:
    s = small().stats()
    assert (s.queries, s.documents) == (2, 5)
    assert s.docs_per_query == {"min": 2, "median": 2.5, "mean": 2.5, "max": 3}
    assert s.labels == {0.0: 3, 1.0: 1, 2.0: 1}
    assert s.no_relevant == 1 and s.no_relevant_queries == ["b"]
    assert s.constant_features == [3] and s.empty_features == [2]  # numbered from 1
    rows = {r["statistic"]: r["value"] for r in s.records()}
    assert rows["constant_feature_ids"] == "3" and rows["queries_without_relevant"] == 1
    # Sparse features give the same statistics.
    d = small()
    sparse = ltr.LetorDataset.from_arrays(
        sp.csr_matrix(d.features), d.labels, qids=["a"] * 3 + ["b"] * 2
    )
    fs, fd = sparse.stats().features, d.stats().features
    for name in ("minimum", "maximum", "nonzero"):
        np.testing.assert_allclose(getattr(fs, name), getattr(fd, name))


def test_min_max_normalisation_ignores_sentinels() -> None:
    n = small().normalized("min-max")
    x = n.features
    np.testing.assert_allclose(x[:3, 0], [0, 1, 0.5])
    np.testing.assert_allclose(x[3:, 0], [0, 1])
    assert np.all(x[:, 1] == 0) and np.all(x[:, 2] == 0)  # constant within queries
    # 1.8e308 is a sentinel: out of the statistics, and 0 afterwards.
    np.testing.assert_allclose(x[:3, 3], [0, 0, 1])
    assert n.info["sentinel_values"] == 1 and x.dtype == np.float32


def test_zscore_normalisation() -> None:
    x = small().normalized("zscore").features
    col = np.array([1.0, 3.0, 2.0])
    np.testing.assert_allclose(x[:3, 0], (col - col.mean()) / col.std(), rtol=1e-6)
    np.testing.assert_allclose(x[:3, 3], [0, -1, 1], rtol=1e-6)  # sentinel left out
    with pytest.raises(OptionError, match="norm"):
        small().normalized("rank")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="sentinel"):
        small().normalized(sentinel=0)


def test_take_keeps_whole_queries() -> None:
    d = small().take(np.array([1]))
    assert d.query_ids.to_pylist() == ["b"] and d.doc_ids.to_pylist() == ["4", "5"]
    np.testing.assert_array_equal(d.offsets, [0, 2])


def test_qrels_run_and_trec_files(tmp_path: Path) -> None:
    d = small()
    q = d.qrels()
    assert len(q) == 5 and q.max_grade == 2
    run = d.run(np.arange(5.0), "m")
    assert run.name == "m" and len(run) == 5
    q.to_trec(tmp_path / "q")
    run.to_trec(tmp_path / "r")
    assert len(Qrels.from_trec(tmp_path / "q")) == 5 and len(Run.from_trec(tmp_path / "r")) == 5
    with pytest.raises(InputError, match="4 scores for 5 documents"):
        d.run(np.zeros(4), "m")
    bad = ltr.LetorDataset.from_arrays(np.zeros((1, 1)), [0.5], group=[1])
    with pytest.raises(InputError, match="not a non-negative integer grade"):
        bad.qrels()


def test_letor_round_trip(tmp_path: Path) -> None:
    d = ltr.mslr_like(5, mean_docs=8, seed=3)
    d.to_letor(tmp_path / "train.txt")
    back = ltr.LetorDataset.read(tmp_path / "train.txt")
    np.testing.assert_array_equal(back.features, d.features)
    np.testing.assert_array_equal(back.labels, d.labels)
    assert back.doc_ids.equals(d.doc_ids) and back.query_ids.equals(d.query_ids)


def test_synthetic_is_seeded_and_mslr_like() -> None:
    a = ltr.mslr_like(200, seed=1)
    b = ltr.mslr_like(200, seed=1)
    np.testing.assert_array_equal(a.features, b.features)
    assert a.n_features == 136
    share = np.bincount(a.labels.astype(int), minlength=5) / a.n_docs
    np.testing.assert_allclose(share, ltr.MSLR_GRADES, atol=0.01)
    s = a.stats()
    assert len(s.constant_features) == 1 and len(s.empty_features) == 1
    splits = ltr.mslr_like_splits(100, seed=1)
    assert [v.n_queries for v in splits.values()] == [60, 20, 20]
