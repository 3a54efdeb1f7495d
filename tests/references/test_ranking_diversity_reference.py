"""The vectorised diversity kernels against the slow per-query reference
(references/slow_diversity.py) on seeded random subtopic collections, at cutoffs beyond
ndeval's 20 and with α, β and ``rel`` varied; also the subtopic qrels' document grades."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assay
from assay import Qrels, Run
from references import slow_diversity as slow
from strategies.diversity import diversity_case


def _collection(seed: int):
    rng = np.random.default_rng(seed)
    qrels_rows, run_rows = [], []
    for c in range(40):
        case = diversity_case(rng)
        qrels_rows += [(f"{c}-{q}", s, d, g) for q, s, d, g in case.qrels]
        run_rows += [(f"{c}-{q}", d, x) for q, d, x in case.run]
    return qrels_rows, run_rows


def _per_query(qrels_rows, run_rows, rel):
    """Each query's ranking (docno order breaks ties: rows are sorted) and judged documents."""
    subs: dict[str, dict[str, set[int]]] = {}
    for q, s, d, g in qrels_rows:
        entry = subs.setdefault(q, {}).setdefault(d, set())
        if g >= rel:
            entry.add(int(s))
    rows = sorted(run_rows, key=lambda r: (r[0], r[1]))
    rankings: dict[str, list[frozenset[int]]] = {}
    for q in sorted({r[0] for r in rows}):
        ranked = sorted((r for r in rows if r[0] == q), key=lambda r: -r[2])
        rankings[q] = [frozenset(subs.get(q, {}).get(d, set())) for _, d, _ in ranked]
    qrels = {q: {d: frozenset(s) for d, s in docs.items()} for q, docs in subs.items()}
    return rankings, qrels, rows


@pytest.mark.parametrize(
    ("seed", "rel", "alpha", "beta", "k"),
    [(1, 1, 0.5, 0.5, 25), (2, 2, 0.25, 0.9, 7), (3, 1, 1.0, 0.3, 1), (4, 1, 0.0, 1.0, 40)],
)
def test_kernels_equal_the_slow_reference(seed, rel, alpha, beta, k) -> None:
    qrels_rows, run_rows = _collection(seed)
    rankings, qrels, rows = _per_query(qrels_rows, run_rows, rel)
    a, ab = f"(rel={rel}, alpha={alpha})", f"(rel={rel}, alpha={alpha}, beta={beta})"
    cases = {
        f"alpha_dcg{a}@{k}": lambda r, j: slow.alpha_dcg(r, j, k, alpha),
        f"alpha_ndcg{a}@{k}": lambda r, j: slow.alpha_ndcg(r, j, k, alpha),
        f"err_ia{a}@{k}": lambda r, j: slow.err_ia(r, j, k, alpha),
        f"nerr_ia{a}@{k}": lambda r, j: slow.nerr_ia(r, j, k, alpha),
        f"nrbp{ab}": lambda r, j: slow.nrbp(r, j, alpha, beta),
        f"nnrbp{ab}": lambda r, j: slow.nnrbp(r, j, alpha, beta),
        f"p_ia(rel={rel})@{k}": lambda r, j: slow.p_ia(r, j, k),
        f"subtopic_recall(rel={rel})@{k}": lambda r, j: slow.subtopic_recall(r, j, k),
        f"map_ia(rel={rel})": lambda r, j: slow.map_ia(r, j),
    }
    qrels_obj = Qrels.from_subtopics(*(list(c) for c in zip(*qrels_rows, strict=True)))
    run = Run.from_columns(*(list(c) for c in zip(*rows, strict=True)), name="r")
    with pytest.warns(assay.InputWarning) if any(q.endswith("-99") for q, *_ in rows) else _none():
        res = assay.evaluate(
            qrels_obj, run, list(cases), ties="input", missing="skip", no_relevant="nan"
        )
    checked = 0
    for name, reference in cases.items():
        ours = res.per_query("r", name)
        for q, ranking in rankings.items():
            if q not in qrels:
                continue
            expected = reference(ranking, qrels[q])
            if math.isnan(expected):
                assert math.isnan(ours[q]), (name, q)
            else:
                assert ours[q] == pytest.approx(expected, rel=1e-12, abs=1e-15), (name, q)
                checked += 1
    assert checked > 300


class _none:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def test_document_grade_is_the_largest_over_subtopics() -> None:
    qrels = Qrels.from_subtopics(
        ["1"] * 4, ["1", "2", "3", "1"], ["a", "a", "a", "b"], [0, 3, 1, -1]
    )
    assert qrels.to_dict() == {"1": {"a": 3, "b": -1}}
    assert qrels.subtopic_ids == ["1", "2", "3"]
    assert len(qrels.intents.sub) == 4
