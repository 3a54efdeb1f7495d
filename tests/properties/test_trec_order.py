"""``trec_order`` (query, score descending, docno descending; equal rows in input order) against
a slow sort by Python tuples, on the layouts that take its different routes: rows already in
order, each query's rows together but queries out of byte order (moved as whole runs), rows
of a query apart (a full sort), and ties broken by docno."""

from __future__ import annotations

from functools import cmp_to_key

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.data import trec_order


def _reference(q: list[int], score: list[float], docs: list[str]) -> list[int]:
    def before(i: int, j: int) -> int:
        a = (q[i], -score[i])
        b = (q[j], -score[j])
        if a != b:
            return -1 if a < b else 1
        di, dj = docs[i].encode(), docs[j].encode()
        if di != dj:
            return -1 if di > dj else 1  # docno descending, in byte order
        return i - j

    return sorted(range(len(q)), key=cmp_to_key(before))


@st.composite
def _rows(draw: st.DrawFn) -> tuple[list[int], list[float], list[str]]:
    n_queries = draw(st.integers(1, 6))
    sizes = draw(st.lists(st.integers(1, 6), min_size=n_queries, max_size=n_queries))
    order = draw(st.permutations(range(n_queries)))
    q = [code for code, size in zip(order, sizes, strict=True) for _ in range(size)]
    if draw(st.booleans()):
        q = draw(st.permutations(q))  # a query's rows apart
    score = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=len(q), max_size=len(q)))
    if draw(st.booleans()):  # descending within each run of a query, as a system writes it
        score = [0.0] * len(q)
        start = 0
        for i in range(1, len(q) + 1):
            if i == len(q) or q[i] != q[start]:
                block = sorted(
                    draw(
                        st.lists(
                            st.sampled_from([0.0, 1.0, 2.0]), min_size=i - start, max_size=i - start
                        )
                    ),
                    reverse=True,
                )
                score[start:i] = block
                start = i
    docs = draw(
        st.lists(st.sampled_from(["a", "b", "B", "d10", "d9"]), min_size=len(q), max_size=len(q))
    )
    return q, score, docs


@settings(max_examples=300, deadline=None)
@given(_rows())
def test_trec_order_equals_a_slow_sort(rows: tuple[list[int], list[float], list[str]]) -> None:
    q, score, docs = rows
    perm = trec_order(np.array(q, dtype=np.int64), np.array(score), pa.array(docs, pa.string()))
    got = list(range(len(q))) if perm is None else perm.tolist()
    assert got == _reference(q, score, docs)
