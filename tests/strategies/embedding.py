"""Hypothesis strategies of the embedding family: labelled embeddings full of ties
(small integer coordinates, duplicated rows) and consistent neighbour-label tables."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st


@st.composite
def labelled_embeddings(
    draw: Any, *, max_items: int = 40, max_dim: int = 5, max_classes: int = 4
) -> tuple[np.ndarray, np.ndarray]:
    """(items x dim) embeddings and their labels: integer coordinates in a small range (many
    tied distances), some rows duplicated, as float32 or float64; or Gaussian floats."""
    n = draw(st.integers(2, max_items))
    d = draw(st.integers(1, max_dim))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        x = rng.integers(-2, 3, size=(n, d)).astype(np.float64)
    else:
        x = rng.normal(size=(n, d))
    duplicates = draw(st.integers(0, n // 2))
    if duplicates:
        x[rng.integers(0, n, duplicates)] = x[rng.integers(0, n, duplicates)]
    if draw(st.booleans()):
        x = x.astype(np.float32)
    labels = rng.integers(0, draw(st.integers(1, max_classes)), size=n)
    return x, labels


@st.composite
def neighbour_tables(draw: Any) -> tuple[np.ndarray, np.ndarray, dict[int, int], bool]:
    """Neighbour labels consistent with a reference set: each query's neighbours are distinct
    references (a random order of a random subset), the class counts are the reference
    set's; with ``exclude_self`` each query is one of the references, not among its
    neighbours, and counted in its class."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_refs = draw(st.integers(2, 30))
    refs = rng.integers(0, draw(st.integers(1, 5)), size=n_refs)
    exclude_self = draw(st.booleans())
    n_queries = draw(st.integers(1, n_refs if exclude_self else 12))
    width = draw(st.integers(1, n_refs - int(exclude_self)))
    rows, labels = [], []
    for q in range(n_queries):
        if exclude_self:
            pool = np.delete(np.arange(n_refs), q)
            labels.append(refs[q])
        else:
            pool = np.arange(n_refs)
            labels.append(rng.integers(0, 6))  # sometimes a class absent from the references
        rows.append(refs[rng.permutation(pool)[:width]])
    counts = {int(c): int(n) for c, n in zip(*np.unique(refs, return_counts=True), strict=True)}
    return np.array(rows), np.array(labels), counts, exclude_self
