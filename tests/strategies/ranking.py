"""Ranking collections: qrels and runs with ties, unjudged and unpooled documents, queries on
one side only, and the matrices scikit-learn's ndcg_score takes."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

Qrels = dict[str, dict[str, int]]
RunRows = list[tuple[str, str, float]]
RunDict = dict[str, dict[str, float]]

# ---------------------------------------------------------------- for the slow reference

SCORES = (-1.5, -0.0, 0.0, 0.5, 1.0, 1.0000000000000002, 2.0, 4.0)
# Byte order differs from numeric and from length order ("d10" < "d2"); two non-ASCII ids.
DOCS = ("d1", "d2", "d3", "d10", "d11", "d20", "D5", "a", "b0", "z", "d01", "d001", "é", "ü1")
QRELS_QUERIES = ("q1", "q2", "q10", "Q3")
RUN_ONLY_QUERIES = ("q9", "x")


@st.composite
def reference_collections(draw: st.DrawFn, max_docs: int = 12) -> tuple[Qrels, RunRows]:
    """Qrels as ``{query: {doc: grade}}`` and run rows in input order, with frequent score
    ties, unjudged (-1) and unpooled documents, qrels queries without results, run queries
    without qrels and queries without relevant documents."""
    queries = draw(st.lists(st.sampled_from(QRELS_QUERIES), min_size=1, max_size=3, unique=True))
    qrels: Qrels = {}
    for q in queries:
        # About one query in four has no relevant document at all.
        no_rel = draw(st.integers(0, 3)) == 0
        grade = st.sampled_from((-1, 0)) if no_rel else st.integers(-1, 4)
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=9, unique=True))
        qrels[q] = {d: draw(grade) for d in docs}
    # A small palette of scores per collection, so that ties are frequent.
    palette = draw(st.lists(st.sampled_from(SCORES), min_size=1, max_size=4, unique=True))
    run_queries = draw(
        st.lists(
            st.sampled_from(queries + list(RUN_ONLY_QUERIES)), min_size=1, max_size=4, unique=True
        )
    )
    rows: RunRows = []
    for q in run_queries:
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=0, max_size=max_docs, unique=True))
        rows.extend((q, d, draw(st.sampled_from(palette))) for d in docs)
    if not rows:
        rows.append((queries[0], DOCS[0], palette[0]))
    rows = draw(st.permutations(rows))  # interleave queries in the input
    return qrels, rows


@st.composite
def perfect_collections(draw: st.DrawFn) -> tuple[Qrels, RunRows, dict[str, list[int]]]:
    """Each query retrieves exactly its judged documents, scored by their grade; the qrels
    also hold a few pooled-but-unjudged entries (negative grade) that are not retrieved."""
    n_queries = draw(st.integers(1, 3))
    qrels: Qrels = {}
    grades: dict[str, list[int]] = {}
    rows: RunRows = []
    for qi in range(n_queries):
        q = f"q{qi}"
        gs = draw(st.lists(st.integers(0, 4), min_size=1, max_size=10))
        n_unjudged = draw(st.integers(0, 2))
        qrels[q] = {f"d{i}": g for i, g in enumerate(gs)}
        qrels[q].update({f"u{i}": -1 for i in range(n_unjudged)})
        grades[q] = gs
        rows.extend((q, f"d{i}", float(g)) for i, g in enumerate(gs))
    return qrels, draw(st.permutations(rows)), grades


# ---------------------------------------------------------------- for pytrec_eval


@st.composite
def float32_collections(draw: st.DrawFn) -> tuple[Qrels, RunDict]:
    """Qrels and run dicts whose scores are exact in float32 (pytrec_eval stores float32):
    multiples of 1/8 below 2^10, many ties; every query judged has a grade >= 0."""
    n_queries = draw(st.integers(1, 5))
    docs = [f"d{i}" for i in range(draw(st.integers(1, 25)))]
    qrels: Qrels = {}
    run: RunDict = {}
    for qi in range(n_queries):
        q = f"q{qi}"
        if draw(st.booleans()) or qi == 0:
            judged = draw(
                st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True)
            )
            grades = draw(st.lists(st.integers(-1, 4), min_size=len(judged), max_size=len(judged)))
            if all(g < 0 for g in grades):
                grades[0] = 0  # a query judged only "unjudged" is undefined in trec_eval 9
            qrels[q] = dict(zip(judged, grades, strict=True))
        if draw(st.booleans()) or qi == 0:
            ranked = draw(
                st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True)
            )
            # Multiples of 1/8 below 2^10: exact in float32, with many ties.
            scores = draw(st.lists(st.integers(0, 40), min_size=len(ranked), max_size=len(ranked)))
            run[q] = {d: s / 8 for d, s in zip(ranked, scores, strict=True)}
    if "q0" not in qrels:
        qrels["q0"] = {docs[0]: 1}
    return qrels, run


TREC9_DOCS = ["d0", "d1", "d2", "d9", "d10", "D1", "a", "b", "Z", "é", "doc-1", "doc_1", "0", "00"]
TREC9_QUERIES = ["q1", "q2", "Q1", "10", "9", "é"]
TREC9_GRADES = [-2, -1, 0, 0, 0, 1, 1, 2, 3, 4]
# At most five significant digits: cents in [-3, 3], a few integers (many ties).
TREC9_SCORES = st.one_of(
    st.integers(-300, 300).map(lambda c: c / 100), st.integers(-2, 2).map(float)
)


@st.composite
def trec9_collections(draw: Any) -> tuple[Qrels, RunDict]:
    """Qrels and run dicts that trec_eval 9 (pytrec_eval) evaluates without undefined
    behaviour: graded 0..4 with unjudged -1 and -2, docnos whose byte order differs from their
    natural order, queries on one side only, no empty ranking, every qrels query with a grade
    >= 0, scores with at most five significant digits."""
    qids = draw(st.lists(st.sampled_from(TREC9_QUERIES), min_size=1, max_size=5, unique=True))
    qrels: Qrels = {}
    run: RunDict = {}
    for qid in qids:
        where = draw(st.sampled_from(["both"] * 6 + ["qrels", "run"]))
        if where != "run":
            docs = draw(st.lists(st.sampled_from(TREC9_DOCS), min_size=1, max_size=12, unique=True))
            grades = draw(
                st.lists(st.sampled_from(TREC9_GRADES), min_size=len(docs), max_size=len(docs))
            )
            if draw(st.booleans()) and draw(st.booleans()):
                grades = [min(g, 0) for g in grades]  # no relevant document
            if all(g < 0 for g in grades):
                grades[0] = 0
            qrels[qid] = dict(zip(docs, grades, strict=True))
        if where != "qrels":
            docs = draw(st.lists(st.sampled_from(TREC9_DOCS), min_size=1, max_size=14, unique=True))
            run[qid] = {d: draw(TREC9_SCORES) for d in docs}
    if not qrels:
        qrels["q0"] = {"d0": 1}
    if not run:
        run["q0"] = {"d0": 1.0}
    return qrels, run


# ---------------------------------------------------------------- for scikit-learn


@st.composite
def graded_matrices(draw: Any) -> tuple[np.ndarray, np.ndarray]:
    """Graded y_true (0..4, many zeros) and y_score with many ties, one row per query."""
    n_rows = draw(st.integers(1, 6))
    n_cols = draw(st.integers(2, 12))
    size = n_rows * n_cols
    y_true = draw(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=size, max_size=size))
    n_levels = draw(st.integers(1, 4))  # 1: every score tied
    scores = st.one_of(
        st.integers(0, n_levels - 1).map(float),
        st.integers(-250, 250).map(lambda c: c / 100),
    )
    y_score = draw(st.lists(scores, min_size=size, max_size=size))
    return (
        np.array(y_true, dtype=np.int64).reshape(n_rows, n_cols),
        np.array(y_score, dtype=np.float64).reshape(n_rows, n_cols),
    )


# ---------------------------------------------------------------- gdeval.pl's inputs

#: Byte order differs from numeric and length order, and two ids are not ASCII (gdeval
#: breaks score ties by document id, descending, byte by byte).
GDEVAL_DOCS = ("d1", "d2", "d10", "d11", "D5", "a", "b0", "z", "d01", "é", "ü1", "clueweb-1")


def gdeval_case(seed: int) -> tuple[list[str], list[str]]:
    """Qrels and run lines as gdeval.pl reads them: numeric topics (some judged without a
    positive grade, some only in the run or only in the qrels), grades -2..4, scores with
    many ties (short decimals, which perl parses exactly as Python), unjudged documents."""
    rng = np.random.default_rng(seed)
    qrels: list[str] = []
    run: list[str] = []
    for topic in rng.choice(np.arange(1, 40), size=int(rng.integers(1, 6)), replace=False):
        docs = rng.permutation(GDEVAL_DOCS)
        kind = rng.random()
        if kind > 0.15:  # judged (0.15-0.3: without a positive grade)
            grades = (-2, 0) if kind < 0.3 else (-2, -1, 0, 0, 1, 1, 2, 3, 4)
            for doc in docs[: int(rng.integers(1, len(docs) + 1))]:
                qrels.append(f"{topic} 0 {doc} {rng.choice(grades)}")
        if rng.random() > 0.1:  # retrieved (else: only in the qrels)
            for rank, doc in enumerate(docs[: int(rng.integers(1, len(docs) + 1))], start=1):
                score = float(rng.integers(-4, 8)) / 4
                run.append(f"{topic} Q0 {doc} {rank} {score} sys")
    if not run:
        run.append("99 Q0 d1 1 1.0 sys")
    if not qrels:
        qrels.append("98 0 d1 1")
    return qrels, run


# ---------------------------------------------------------------- for cwl_eval and Compat


def seeded_collection(seed: int, *, max_docs: int = 40) -> tuple[Qrels, RunRows]:
    """A seeded random collection for the C/W/L and Compat peers: graded qrels (-1..4, about
    a third of the retrieved documents unjudged), runs with score ties (a small palette one
    case in three), negative and zero scores, short and long lists, queries whose judgments
    are all 0 and qrels documents never retrieved. Every qrels query is retrieved."""
    rng = np.random.default_rng(seed)
    qrels: Qrels = {}
    rows: RunRows = []
    palette = rng.choice([-1.0, 0.0, 0.5, 1.0, 2.0], size=3) if seed % 3 == 0 else None
    for qi in range(int(rng.integers(1, 6))):
        q = f"q{qi}"
        docs = [f"d{i}" for i in range(int(rng.integers(1, max_docs)))]
        top = 0 if rng.random() < 0.15 else 4
        judged = {d: int(rng.integers(-1, top + 1)) for d in docs if rng.random() < 0.65}
        qrels[q] = judged or {docs[0]: int(rng.integers(0, top + 1))}
        n = int(rng.integers(1, len(docs) + 1))
        for d in rng.permutation(docs)[:n]:
            score = rng.choice(palette) if palette is not None else rng.normal()
            rows.append((q, str(d), float(score)))
    return qrels, rows
