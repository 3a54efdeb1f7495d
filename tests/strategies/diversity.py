"""Seeded random collections with subtopic judgments, for the diversity measures' tests.

Each case draws 1-4 queries; per query 1-5 subtopics (some never judged positive), a pool
of judged documents with grades 0..3 per subtopic (or, rarely, -1), and a ranking mixing
judged and unjudged documents with tied scores. Some qrels queries get no results and some
run queries are not in the qrels. Document ids are chosen so that byte order differs from
numeric order (``d10`` < ``d9``). Subtopic ids are natural numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DiversityCase", "diversity_case"]


@dataclass(frozen=True)
class DiversityCase:
    """Qrels rows ``(query, subtopic, doc, grade)`` and run rows ``(query, doc, score)``;
    run rows come in document-id byte order within a query, so a stable sort by score
    breaks ties by ascending id (pyndeval's order)."""

    qrels: list[tuple[str, str, str, int]]
    run: list[tuple[str, str, float]]


def diversity_case(rng: np.random.Generator) -> DiversityCase:
    """One random case (see the module docstring)."""
    qrels: list[tuple[str, str, str, int]] = []
    run: list[tuple[str, str, float]] = []
    for qi in range(int(rng.integers(1, 5))):
        query = str(qi + 1)
        n_sub = int(rng.integers(1, 6))
        pool = [f"d{int(x)}" for x in rng.choice(40, size=int(rng.integers(1, 14)), replace=False)]
        for doc in pool:
            for sub in range(1, n_sub + 1):
                if rng.random() < 0.55:
                    grade = int(rng.choice([0, 0, 1, 1, 2, 3, -1], p=None))
                    if sub == n_sub and rng.random() < 0.5:
                        grade = min(grade, 0)  # a subtopic that is often never positive
                    qrels.append((query, str(sub), doc, grade))
        if rng.random() < 0.15:
            continue  # a qrels query without results
        extra = [f"u{int(x)}" for x in rng.choice(30, size=int(rng.integers(0, 8)), replace=False)]
        docs = sorted(set(pool[: int(rng.integers(0, len(pool) + 1))]) | set(extra))
        scores = rng.integers(0, 6, size=len(docs)).astype(float)
        run.extend((query, doc, float(s)) for doc, s in zip(docs, scores, strict=True))
    if rng.random() < 0.2:
        run.append(("99", "d1", 1.0))  # a run query not in the qrels
    if not qrels:
        qrels.append(("1", "1", "d0", 1))
    qrels.sort(key=lambda row: (int(row[1]), row[0], row[2]))
    return DiversityCase(qrels, run)
