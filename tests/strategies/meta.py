"""Strategies for the meta-evaluation family: rankings with ties and uneven lengths, and
topic × run score matrices."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


@st.composite
def rankings(draw: st.DrawFn, universe: int = 14, ties: bool = True) -> list[list[int]]:
    """A ranking of distinct items from ``range(universe)`` as tie groups (singletons when
    ``ties`` is False), possibly empty."""
    items = draw(st.permutations(range(universe)))
    n = draw(st.integers(0, universe))
    chosen = list(items[:n])
    groups: list[list[int]] = []
    while chosen:
        size = draw(st.integers(1, 3)) if ties else 1
        groups.append(chosen[:size])
        chosen = chosen[size:]
    return groups


def score_matrices(
    min_topics: int = 3, max_topics: int = 12, max_runs: int = 5
) -> st.SearchStrategy[np.ndarray]:
    """(n_topics, n_runs) matrices of scores on a coarse grid (ties and equal columns occur)."""
    shape = st.tuples(st.integers(min_topics, max_topics), st.integers(2, max_runs))
    return shape.flatmap(
        lambda s: hnp.arrays(
            np.float64, s, elements=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0])
        )
    )
