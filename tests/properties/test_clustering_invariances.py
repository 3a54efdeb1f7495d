"""assay.clustering invariances (renaming, cluster-id permutation, item order, role swap), bounds,
identical clusterings, and hard clusterings as a special case of the soft measures."""

from __future__ import annotations

import numpy as np
import pytest

from assay import clustering as C
from strategies.clustering import random_pairs

TOL = 1e-9


PAIRS = random_pairs(0, 150)


def test_hard_clusterings_as_special_case() -> None:
    # For hard clusterings niPU is inverse purity, and nmPU is purity with the items of
    # singleton predicted clusters counted as errors.
    for g, p in PAIRS[:60]:
        gs, ps = C.labels_to_clusters(g), C.labels_to_clusters(p)
        assert C.nipu(gs, ps) == pytest.approx(C.inverse_purity(g, p), abs=TOL)
        singletons = sum(1 for c in ps if len(c) == 1)
        # each singleton would contribute exactly 1 to purity's numerator
        assert C.nmpu(gs, ps) == pytest.approx(C.purity(g, p) - singletons / g.size, abs=TOL)
        rep = C.hard_report(g, p)
        assert rep["nmpu"] == pytest.approx(C.nmpu(gs, ps), abs=TOL)
        # soft pairwise on a hard clustering is the ordinary pairwise measure
        assert C.soft_pair_counts(gs, ps) == C.pair_counts(g, p)
    assert C.nmpu([{1, 2}, {3}], [{1, 2}, {3}]) == pytest.approx(2 / 3)


ALL_SCALAR = [
    C.pairwise_precision,
    C.pairwise_recall,
    C.pairwise_f,
    C.rand_index,
    C.adjusted_rand_index,
    C.purity,
    C.inverse_purity,
    C.purity_f1,
    C.fowlkes_mallows,
    C.nmi,
    C.ami,
]


def test_invariances() -> None:
    rng = np.random.default_rng(2)
    for g, p in PAIRS[:80]:
        base = C.hard_report(g, p)
        names = np.array([f"c{i}" for i in range(int(max(g.max(), p.max())) + 1)])
        perm_labels = rng.permutation(names.size)
        order = rng.permutation(g.size)
        variants = [
            (names[g], names[p]),  # label renaming (to strings)
            (perm_labels[g], perm_labels[p]),  # cluster-id permutation
            (g[order], p[order]),  # item order
            (g.tolist(), (p + 1000).tolist()),  # lists, shifted ids
        ]
        for vg, vp in variants:
            rep = C.hard_report(vg, vp)
            for k, v in base.items():
                assert rep[k] == pytest.approx(v, abs=1e-12), k
        # symmetry of the role swap
        assert C.pairwise_precision(g, p) == C.pairwise_recall(p, g)
        assert C.purity(g, p) == C.inverse_purity(p, g)
        b1, b2 = C.bcubed(g, p), C.bcubed(p, g)
        assert b1.precision == pytest.approx(b2.recall) and b1.recall == pytest.approx(b2.precision)
        for f in (C.rand_index, C.adjusted_rand_index, C.fowlkes_mallows, C.nmi, C.ami):
            assert f(g, p) == pytest.approx(f(p, g), abs=1e-12)


def test_bounds() -> None:
    for g, p in PAIRS:
        for f in ALL_SCALAR:
            v = float(f(g, p))
            upper = 1.0 + 1e-12
            lower = -1.0 if f in (C.adjusted_rand_index, C.ami) else 0.0
            if f is C.ami:
                lower = -np.inf  # AMI is unbounded below in principle
            assert lower <= v <= upper, (f.__name__, v)
        assert all(0 <= x <= 1 for x in C.bcubed(g, p))


def test_identical_clusterings() -> None:
    for g, _ in PAIRS:
        same = (g * 7 + 3).astype(str)  # the same partition under other names
        for f in (
            C.rand_index,
            C.adjusted_rand_index,
            C.purity,
            C.inverse_purity,
            C.purity_f1,
            C.nmi,
            C.ami,
        ):
            assert f(g, same) == 1.0, f.__name__
        assert tuple(C.bcubed(g, same)) == (1.0, 1.0, 1.0)
        if C.pair_counts(g, same).tp:
            for f in (C.pairwise_precision, C.pairwise_recall, C.pairwise_f, C.fowlkes_mallows):
                assert f(g, same) == 1.0
        else:  # no pair anywhere: the pair measures are 0/0 -> zero_division
            assert C.pairwise_f(g, same) == 0.0
            assert C.pairwise_f(g, same, zero_division=1.0) == 1.0
            assert C.fowlkes_mallows(g, same) == 0.0  # scikit-learn's convention
