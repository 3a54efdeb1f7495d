"""assay.clustering against scikit-learn's ``sklearn.metrics.cluster`` on random label pairs of
many shapes (tiny, one cluster, all singletons, many clusters, sparse tables)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from assay import clustering as C
from assay.clustering import _core as _clusterings
from assay.clustering import _information as clustering
from strategies.clustering import random_pairs

sk = pytest.importorskip("sklearn.metrics")


TOL = 1e-9


PAIRS = random_pairs(0, 150)


def test_pair_counts_vs_sklearn() -> None:
    for g, p in PAIRS:
        # sklearn's pair_confusion_matrix counts ordered pairs: [[tn, fp], [fn, tp]], each
        # twice an unordered count.
        (tn, fp), (fn, tp) = sk.pair_confusion_matrix(g, p)
        assert C.pair_counts(g, p) == (tp // 2, fp // 2, fn // 2, tn // 2)


@pytest.mark.parametrize(
    "name,ours,theirs",
    [
        ("ari", C.adjusted_rand_index, sk.adjusted_rand_score),
        ("ri", C.rand_index, sk.rand_score),
        ("fm", C.fowlkes_mallows, sk.fowlkes_mallows_score),
    ],
)
def test_pair_measures_vs_sklearn(name: str, ours: Any, theirs: Any) -> None:
    for g, p in PAIRS:
        assert ours(g, p) == pytest.approx(theirs(g, p), abs=TOL), (name, g, p)


@pytest.mark.parametrize("method", ["arithmetic", "geometric", "min", "max"])
def test_nmi_ami_vs_sklearn(method: str) -> None:
    for g, p in PAIRS:
        assert C.nmi(g, p, average_method=method) == pytest.approx(
            sk.normalized_mutual_info_score(g, p, average_method=method), abs=TOL
        )
        expected = sk.adjusted_mutual_info_score(g, p, average_method=method)
        if np.unique(g).size == np.unique(p).size == g.size > 1:
            # Two clusterings of singletons: I = E[I] = H, a 0/0 that scikit-learn resolves by
            # clamping to machine epsilon; assay returns 1.0 (identical clusterings).
            assert C.ami(g, p, average_method=method) == 1.0
            continue
        if g.size > 1 and (np.unique(g).size == g.size or np.unique(p).size == p.size):
            # One side all singletons: I = E[I] exactly, so AMI = 0 (for "min" also the
            # normalizer equals E[I]: a 0/0 that scikit-learn leaves to rounding noise).
            assert C.ami(g, p, average_method=method) == 0.0
            if method != "min":
                assert expected == pytest.approx(0.0, abs=1e-8)
            continue
        assert C.ami(g, p, average_method=method) == pytest.approx(expected, abs=1e-8)


def test_sparse_table_and_chunked_emi(monkeypatch: pytest.MonkeyPatch) -> None:
    # Many clusters: the contingency table is built with scipy.sparse (cells > 4n and > 2**20),
    # and the expected mutual information is summed in several chunks.
    rng = np.random.default_rng(5)
    n = 6000
    g = rng.integers(0, 2000, n)
    p = np.where(rng.random(n) < 0.5, g, rng.integers(0, 3000, n))
    # the chunk size lives with the implementation (assay.clustering._information)
    monkeypatch.setattr(clustering, "_EMI_CHUNK", 1000)
    assert g.max() * p.max() > max(_clusterings.DENSE_CELLS, 4 * n)
    assert C.ami(g, p) == pytest.approx(sk.adjusted_mutual_info_score(g, p), abs=1e-8)
    assert C.nmi(g, p) == pytest.approx(sk.normalized_mutual_info_score(g, p), abs=TOL)
    assert C.adjusted_rand_index(g, p) == pytest.approx(sk.adjusted_rand_score(g, p), abs=TOL)
    (tn, fp), (fn, tp) = sk.pair_confusion_matrix(g, p)
    assert C.pair_counts(g, p) == (tp // 2, fp // 2, fn // 2, tn // 2)
