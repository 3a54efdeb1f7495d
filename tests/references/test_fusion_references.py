"""Rank aggregation against brute force: Kemeny's exact consensus over every permutation."""

from __future__ import annotations

import itertools

import numpy as np

from assay.fusion import aggregate


def test_kemeny_exact_matches_brute_force() -> None:
    rng = np.random.default_rng(3)
    cands = list("ABCDEF")
    for _ in range(5):
        votes = [list(rng.permutation(cands)) for _ in range(5)]

        def cost(order: tuple[str, ...], votes: list[list[str]] = votes) -> int:
            pos = {c: i for i, c in enumerate(order)}
            return sum(
                (pos[a] < pos[b]) != (v.index(a) < v.index(b))
                for v in votes
                for a, b in itertools.combinations(cands, 2)
            )

        best = min(cost(p) for p in itertools.permutations(cands))
        assert cost(tuple(aggregate(votes, method="kemeny").order)) == best
