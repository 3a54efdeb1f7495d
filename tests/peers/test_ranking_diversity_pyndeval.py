"""Differential test: assay's diversity measures against pyndeval (ndeval.c in C) on
thousands of seeded random cases: ties, unjudged documents, subtopics without a positive
judgment, qrels queries without results, run queries without judgments, grades > 1 and
negative grades, at several α, β and relevance levels and at cutoffs 1..20.

Every per-query value must be equal bit for bit: assay follows ndeval's order of
floating-point operations. pyndeval evaluates the queries present in both the qrels and the
run, so assay runs with ``missing="skip"``; it breaks score ties by ascending document id,
which is assay's ``ties="input"`` on rows given in that order. A query whose subtopics have no
positive judgment is undefined in assay (NaN under ``no_relevant="nan"``); ndeval gives 0
(and NaN for nNRBP, 0/0) there.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import assay
from assay import Qrels, Run
from strategies.diversity import diversity_case

pyndeval = pytest.importorskip("pyndeval")

CUTOFFS = (1, 2, 3, 5, 10, 20)
AT_K = {
    "err_ia": "ERR-IA",
    "nerr_ia": "nERR-IA",
    "alpha_dcg": "alpha-DCG",
    "alpha_ndcg": "alpha-nDCG",
    "p_ia": "P-IA",
    "subtopic_recall": "strec",
}
WHOLE = {"nrbp": "NRBP", "nnrbp": "nNRBP", "map_ia": "MAP-IA"}
SETTINGS = [
    # (rel, alpha, beta)
    (1, 0.5, 0.5),
    (1, 0.3, 0.8),
    (2, 0.5, 0.5),
    (1, 1.0, 0.5),
    (1, 0.0, 1.0),
    (3, 0.9, 0.1),
]
BATCHES = 30
CASES_PER_BATCH = 80


def _batch(seed: int) -> tuple[list[tuple[str, str, str, int]], list[tuple[str, str, float]]]:
    """Many cases in one collection, each case's queries renamed apart."""
    rng = np.random.default_rng(seed)
    qrels: list[tuple[str, str, str, int]] = []
    run: list[tuple[str, str, float]] = []
    for c in range(CASES_PER_BATCH):
        case = diversity_case(rng)
        qrels += [(f"{c}-{q}", s, d, g) for q, s, d, g in case.qrels]
        run += [(f"{c}-{q}", d, x) for q, d, x in case.run]
    qrels.sort(key=lambda row: int(row[1]))  # pyndeval numbers subtopics by first appearance
    return qrels, run


def _assay(qrels_rows: list, run_rows: list, names: list[str]) -> dict[str, dict[str, float]]:
    qrels = Qrels.from_subtopics(*(list(col) for col in zip(*qrels_rows, strict=True)))
    run = Run.from_columns(*(list(col) for col in zip(*run_rows, strict=True)), name="r")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # run queries not in the qrels are counted and warned
        results = assay.evaluate(qrels, run, names, ties="input", missing="skip", no_relevant="nan")
    return {name: results.per_query("r", name) for name in names}


@pytest.mark.parametrize("batch", range(BATCHES))
def test_every_diversity_measure_equals_pyndeval(batch: int) -> None:
    rel, alpha, beta = SETTINGS[batch % len(SETTINGS)]
    qrels_rows, run_rows = _batch(1000 + batch)
    params = f"(rel={rel}, alpha={alpha})"
    names, peer_names = [], []
    for ours, theirs in AT_K.items():
        for k in CUTOFFS:
            spec = params if ours not in ("p_ia", "subtopic_recall") else f"(rel={rel})"
            names.append(f"{ours}{spec}@{k}")
            peer_names.append(f"{theirs}@{k}")
    for ours, theirs in WHOLE.items():
        spec = f"(rel={rel}, alpha={alpha}, beta={beta})" if ours != "map_ia" else f"(rel={rel})"
        names.append(f"{ours}{spec}")
        peer_names.append(theirs)
    # pyndeval sorts a run by (-score, docno); rows in docno order give assay the same order.
    run_sorted = sorted(run_rows, key=lambda row: (row[0], row[1]))
    evaluator = pyndeval.RelevanceEvaluator(
        qrels_rows, peer_names, relevance_level=rel, alpha=alpha, beta=beta
    )
    theirs_all = evaluator.evaluate(run_sorted)
    ours_all = _assay(qrels_rows, run_sorted, names)
    assert theirs_all, "no query evaluated"
    compared = 0
    for name, peer in zip(names, peer_names, strict=True):
        ours = ours_all[name]
        assert set(ours) == set(theirs_all), name
        for query, values in theirs_all.items():
            mine, expected = ours[query], values[peer]
            if math.isnan(mine):
                # no positive subtopic judgment: ndeval's 0 (or 0/0 for nNRBP)
                assert expected == 0.0 or math.isnan(expected), (name, query, expected)
                continue
            assert mine == expected, (name, query, mine, expected)
            compared += 1
    assert compared > 1000
