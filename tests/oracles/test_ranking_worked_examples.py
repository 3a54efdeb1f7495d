"""Ranking metrics on the seeds' worked examples, and the two "notebook mistakes" (ranking by
ascending score; normalising DCG@k by the full-list ideal DCG) computed by hand and shown to
differ from what assay returns."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pytest

import assay
from assay.metrics import REGISTRY, make
from support.ranking import build


def _ranked_lists(lists: Mapping[str, list[int]]) -> tuple[assay.Qrels, assay.Run]:
    """Every document judged; the relevance list is the ranked list (scores n, n-1, ..., 1)."""
    qrels = {q: {f"{q}d{i}": g for i, g in enumerate(gs)} for q, gs in lists.items()}
    rows = [(q, f"{q}d{i}", float(len(gs) - i)) for q, gs in lists.items() for i in range(len(gs))]
    return build(qrels, rows)


SEED_LISTS = {"q1": [1, 0, 1, 0, 1], "q2": [0, 0, 1, 1, 0]}


def test_seed_worked_examples() -> None:
    """q1 = [1,0,1,0,1], q2 = [0,0,1,1,0].

    AP@5(q1) = (1/1 + 2/3 + 3/5) / 3 = 0.7556; AP@5(q2) = (1/3 + 2/4) / 2 = 0.4167;
    MAP@5 = 0.5861 (the seed rounds the APs first and gets 0.587). P@5(q1) = 3/5, P@5(q2) =
    2/5, so the mean P@5 is 0.5, the seed's figure.
    """
    qrels, run = _ranked_lists(SEED_LISTS)
    res = assay.evaluate(qrels, run, ["P@5", "P@4", "P@2", "AP@5"])
    p5 = res.per_query("run", "P@5")
    assert p5["q1"] == pytest.approx(3 / 5, abs=1e-12)
    assert p5["q2"] == pytest.approx(2 / 5, abs=1e-12)
    assert res.aggregate("run", "P@5") == pytest.approx(0.5, abs=1e-12)
    assert res.per_query("run", "P@4")["q1"] == pytest.approx(0.5, abs=1e-12)
    assert res.per_query("run", "P@2")["q1"] == pytest.approx(0.5, abs=1e-12)
    ap = res.per_query("run", "AP@5")
    assert ap["q1"] == pytest.approx((1 + 2 / 3 + 3 / 5) / 3, abs=1e-12)
    assert ap["q2"] == pytest.approx((1 / 3 + 2 / 4) / 2, abs=1e-12)
    assert round(ap["q1"], 4) == 0.7556
    assert round(ap["q2"], 4) == 0.4167
    assert round(res.aggregate("run", "AP@5"), 4) == 0.5861


def test_mistake_ranking_by_ascending_score() -> None:
    """assay ranks by descending score. q2's documents carry scores 5..1 in the order of the
    relevance list [0, 0, 1, 1, 0]; ranking by ascending score would read [0, 1, 1, 0, 0]."""
    qrels, run = _ranked_lists({"q2": SEED_LISTS["q2"]})
    correct_ap = (1 / 3 + 2 / 4) / 2  # relevant at ranks 3 and 4
    ascending_ap = (1 / 2 + 2 / 3) / 2  # relevant at ranks 2 and 3
    correct_rr, ascending_rr = 1 / 3, 1 / 2
    assert not math.isclose(correct_ap, ascending_ap)
    res = assay.evaluate(qrels, run, ["AP", "RR"])
    assert res.per_query("run", "AP")["q2"] == pytest.approx(correct_ap, abs=1e-12)
    assert res.per_query("run", "AP")["q2"] != pytest.approx(ascending_ap, abs=1e-6)
    assert res.per_query("run", "RR")["q2"] == pytest.approx(correct_rr, abs=1e-12)
    assert res.per_query("run", "RR")["q2"] != pytest.approx(ascending_rr, abs=1e-6)
    # And there is no way to ask for the ascending order.
    with pytest.raises(TypeError, match="order"):
        assay.evaluate(qrels, run, "AP", order="ascending")


def test_mistake_ndcg_normalised_by_full_ideal_dcg() -> None:
    """NDCG@k = DCG@k / IDCG@k, the ideal ranking truncated at k too. Grades 3, 2, 1, 0, the
    run ranks them 2, 3, 1, 0; at k = 2:
    DCG@2 = 2 + 3 / log2(3); IDCG@2 = 3 + 2 / log2(3); full IDCG = IDCG@2 + 1 / log2(4)."""
    qrels = {"q": {"a": 3, "b": 2, "c": 1, "d": 0}}
    rows = [("q", "b", 4.0), ("q", "a", 3.0), ("q", "c", 2.0), ("q", "d", 1.0)]
    aq, ar = build(qrels, rows)
    dcg2 = 2 + 3 / math.log2(3)
    idcg2 = 3 + 2 / math.log2(3)
    idcg_full = idcg2 + 1 / math.log2(4) + 0 / math.log2(5)
    correct, mistaken = dcg2 / idcg2, dcg2 / idcg_full
    assert correct == pytest.approx(0.913402, abs=1e-6)
    assert mistaken == pytest.approx(0.817494, abs=1e-6)
    got = assay.evaluate(aq, ar, "ndcg@2").per_query("run", "ndcg@2")["q"]
    assert got == pytest.approx(correct, abs=1e-12)
    assert got != pytest.approx(mistaken, abs=1e-6)
    # And ndcg has no parameter to normalise differently.
    with pytest.raises(assay.MetricError):
        make(REGISTRY["ndcg"], 2, ideal="full")
