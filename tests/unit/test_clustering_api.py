"""assay.clustering edge conventions, exact pair counts at large n, and input errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import clustering as C
from assay.errors import EmptyInputError, InputError, MetricError


def test_large_n_pair_counts_exact() -> None:
    # Pair counts are Python ints: no overflow in ARI's products at n = 2e6.
    n = 2_000_000
    g = np.arange(n) % 3
    p = np.arange(n) % 4
    c = C.pair_counts(g, p)
    assert sum(c) == n * (n - 1) // 2
    assert -1 <= C.adjusted_rand_index(g, p) <= 1


def test_edge_conventions() -> None:
    assert C.rand_index([0], [5]) == 1.0
    assert C.adjusted_rand_index([0], [5]) == 1.0
    assert C.pair_counts([0], [5]) == (0, 0, 0, 0)
    assert C.nmi([0, 0, 0], [1, 1, 1]) == 1.0
    assert C.nmi([0, 0, 0], [0, 1, 2]) == 0.0
    assert C.ami([0, 0, 0], [0, 1, 2]) == 0.0
    assert C.pairwise_precision([0, 0, 1], [0, 1, 2]) == 0.0
    assert math.isnan(C.pairwise_precision([0, 0, 1], [0, 1, 2], zero_division=math.nan))
    # pred all singletons: nmPU 0 (no credit), purity 1
    assert C.purity([0, 0, 1], [0, 1, 2]) == 1.0
    assert C.nmpu([{0, 1}, {2}], [{0}, {1}, {2}]) == 0.0
    # mixed, unorderable label types fall back to hashing
    assert C.adjusted_rand_index([1, "a", 1, "a"], ["x", 2, "x", 2]) == 1.0
    # NumPy alone would make [1, "1"] two equal strings
    assert C.pair_counts([1, "1"], [0, 0]) == (0, 1, 0, 0)
    # items present in only one soft clustering count in that clustering's N
    assert C.nipu([{"a", "b"}, {"c", "d"}], [{"a", "b"}]) == 0.5
    assert C.nmpu([{"a", "b"}], [{"a", "b"}, {"c", "d"}]) == 0.5


def test_errors() -> None:
    with pytest.raises(InputError, match="same items"):
        C.purity([0, 1], [0])
    with pytest.raises(EmptyInputError):
        C.nmi([], [])
    with pytest.raises(InputError, match="NaN"):
        C.purity([0.0, math.nan], [0, 1])
    with pytest.raises(InputError, match="None"):
        C.purity(["a", None], [0, 1])
    with pytest.raises(InputError, match=r"gold\[1\] is nan"):
        C.purity(["a", math.nan], [0, 1])
    with pytest.raises(InputError, match="one-dimensional"):
        C.purity([[0, 1], [1, 0]], [[0, 1], [1, 0]])
    with pytest.raises(InputError, match="string"):
        C.purity("aab", "abb")
    with pytest.raises(MetricError):
        C.nmi([0, 1], [0, 1], average_method="harmonic")
    with pytest.raises(MetricError):
        C.pairwise_f([0, 1], [0, 1], beta=-1)
    with pytest.raises(InputError, match="> 0"):
        C.nmpu([{"a": 1}], [{"a": 0}])
    with pytest.raises(InputError, match="> 0"):
        C.nmpu([{"a": 1}], [{"a": math.inf}])
    with pytest.raises(InputError, match="not a number"):
        C.nmpu([{"a": 1}], [{"a": "x"}])
    with pytest.raises(InputError, match="not a cluster"):
        C.nmpu(["ab", "cd"], [{"a", "b"}])
    with pytest.raises(InputError, match="list of clusters"):
        C.nmpu({"a": 1}, [{"a"}])
    with pytest.raises(EmptyInputError):
        C.nipu([set()], [{"a"}])
    with pytest.raises(InputError, match="None"):
        C.nmpu([{"a", None}], [{"a"}])
