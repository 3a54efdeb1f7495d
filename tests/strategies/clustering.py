"""Clusterings: hard labelings of the same items, and soft (overlapping, weighted) ones."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st


def random_pairs(seed: int, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Label pairs of many shapes: tiny, one cluster, all singletons, many clusters."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        n = int(rng.choice([1, 2, 3, 5, 10, 40, 200, 1000]))
        kg = int(rng.integers(1, max(2, n // int(rng.choice([1, 2, 5, 20]))) + 1))
        kp = int(rng.integers(1, max(2, n // int(rng.choice([1, 2, 5, 20]))) + 1))
        g = rng.integers(0, kg, n)
        p = rng.integers(0, kp, n)
        if k % 7 == 0:  # correlated with gold
            p = np.where(rng.random(n) < 0.7, g, p)
        if k % 11 == 0:
            p = np.arange(n)  # all singletons
        if k % 13 == 0:
            g = np.zeros(n, dtype=np.int64)  # one cluster
        out.append((g, p))
    return out


def random_soft(rng: np.random.Generator, universe: int, k: int, weighted: bool) -> list[Any]:
    """k clusters over items v0..v{universe-1}, as sets or as dicts of weights."""
    clusters: list[Any] = []
    for _ in range(k):
        size = int(rng.integers(1, max(1, universe // 2) + 1))
        items = rng.choice(universe, size=size, replace=False).tolist()
        if weighted:
            clusters.append({f"v{i}": float(rng.choice([0.5, 1.0, 2.0, 3.0])) for i in items})
        else:
            clusters.append({f"v{i}" for i in items})
    return clusters


@st.composite
def hard(draw: Any) -> tuple[Any, ...]:
    """Two labelings of the same 1..30 items, with up to 6 clusters each, as ints or strings
    (sometimes sharing most of their structure)."""
    n = draw(st.integers(1, 30))
    k_gold, k_pred = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    gold = draw(st.lists(st.integers(0, k_gold - 1), min_size=n, max_size=n))
    pred = draw(st.lists(st.integers(0, k_pred - 1), min_size=n, max_size=n))
    same = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    pred = [g if s else p for g, p, s in zip(gold, pred, same, strict=True)]
    if draw(st.booleans()):
        pred = [f"c{x}" for x in pred]
    return gold, pred


@st.composite
def soft(draw: Any) -> tuple[Any, ...]:
    """Two lists of 1..5 non-empty clusters over items 0..11 (overlapping), as sets or as
    dicts of positive weights."""

    def clustering() -> list[Any]:
        clusters = draw(
            st.lists(st.sets(st.integers(0, 11), min_size=1, max_size=6), min_size=1, max_size=5)
        )
        if draw(st.booleans()):
            weight = st.sampled_from([0.5, 1.0, 2.0, 3.0])
            return [{item: draw(weight) for item in sorted(c)} for c in clusters]
        return clusters

    return clustering(), clustering()
