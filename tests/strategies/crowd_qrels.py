"""Simulated crowd relevance judgments: workers of seeded accuracies re-grading the documents
of real qrels (the true grades), for :func:`assay.judgments.crowd_qrels`."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

import assay


def simulated_crowd(
    qrels: assay.Qrels,
    *,
    n_workers: int = 15,
    per_doc: int = 5,
    accuracy: tuple[float, float] = (0.3, 0.95),
    seed: int = 0,
) -> dict[str, list[Any]]:
    """Columns ``query, doc, worker, grade``: each judged document graded by ``per_doc``
    distinct workers drawn from ``n_workers``; worker ``w`` gives the true grade with
    probability ``accuracy[w]`` (evenly spaced over the range), else another grade of the
    scale drawn uniformly (at random when the scale has more than two grades)."""
    rng = np.random.default_rng(seed)
    table = qrels.to_arrow()
    query = np.asarray(table["query"].to_pylist(), dtype=object)
    doc = np.asarray(table["doc"].to_pylist(), dtype=object)
    truth = np.asarray(table["relevance"].to_pylist(), dtype=np.int64)
    scale = np.unique(truth)
    n = len(truth)
    # per_doc distinct workers per document: the first columns of a random permutation
    workers = np.argsort(rng.random((n, n_workers)), axis=1)[:, :per_doc]
    skill = np.linspace(accuracy[0], accuracy[1], n_workers)
    right = rng.random((n, per_doc)) < skill[workers]
    shift = rng.integers(1, max(len(scale), 2), size=(n, per_doc))
    position = np.searchsorted(scale, truth)[:, None]
    wrong = scale[(position + shift) % len(scale)]
    grade = np.where(right, truth[:, None], wrong)
    return {
        "query": np.repeat(query, per_doc).tolist(),
        "doc": np.repeat(doc, per_doc).tolist(),
        "worker": [f"w{w:02d}" for w in workers.ravel()],
        "grade": grade.ravel().tolist(),
    }


def write_crowd_csv(path: Any, columns: dict[str, list[Any]]) -> None:  # Any: a path
    """The columns as a CSV file with a header (ids without commas or quotes)."""
    lines = ["query,doc,worker,grade"]
    lines += [
        f"{q},{d},{w},{g}"
        for q, d, w, g in zip(
            *(columns[k] for k in ("query", "doc", "worker", "grade")), strict=True
        )
    ]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


@st.composite
def crowds(draw: st.DrawFn) -> dict[str, list[Any]]:
    """Small crowds: 1-3 topics of 1-4 documents, 1-4 workers, grades 0-3, each (query,
    document, worker) graded at most once, at least one row."""
    n_topics, n_docs = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    n_workers = draw(st.integers(1, 4))
    cells = [(t, d, w) for t in range(n_topics) for d in range(n_docs) for w in range(n_workers)]
    kept = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells), unique=True))
    grades = draw(st.lists(st.integers(0, 3), min_size=len(kept), max_size=len(kept)))
    return {
        "query": [f"q{t}" for t, _, _ in kept],
        "doc": [f"d{d}" for _, d, _ in kept],
        "worker": [f"w{w}" for _, _, w in kept],
        "grade": grades,
    }
