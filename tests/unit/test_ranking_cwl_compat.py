"""The C/W/L measures and Compat on cases worked by hand, and their option errors."""

from __future__ import annotations

import math

import pytest

import assay
from assay.metrics import parse

QRELS = {"q": {"a": 2, "b": 0, "c": 1, "e": 2}}
ROWS = [("q", "a", 4.0), ("q", "b", 3.0), ("q", "c", 2.0), ("q", "d", 1.0)]  # d: unjudged


def _value(
    name: str,
    qrels: dict[str, dict[str, int]] = QRELS,
    rows: list[tuple[str, str, float]] = ROWS,
    **conv: str,
) -> float:
    aq = assay.Qrels.from_dict(qrels)
    ar = assay.Run.from_columns(*map(list, zip(*rows, strict=True)), name="run")
    metric = parse(name)[0]
    return assay.evaluate(aq, ar, [metric], **conv)["run", metric].as_dict()["q"]


def test_sdcg_is_dcg_over_the_dcg_of_k_relevant_documents() -> None:
    # gains (max_rel = 2): a 1, b 0, c 0.5; SDCG@3 = (1 + 0.5 / log2 4) / (1 + 1/log2 3 + 1/2)
    want = (1 + 0.5 / 2) / (1 + 1 / math.log2(3) + 0.5)
    assert _value("SDCG@3") == pytest.approx(want, abs=1e-15)
    # max_rel=1 clips grade 2 to gain 1 and makes grade 1 gain 1 too
    assert _value("SDCG(max_rel=1)@3") == pytest.approx(
        (1 + 1 / 2) / (1 + 1 / math.log2(3) + 0.5), abs=1e-15
    )


def test_bpm_stops_at_the_goal_or_the_budget() -> None:
    # T = 1: the first document (gain 1) meets the goal: W = (1, 0, ...), EU = 1, ED = 1.
    assert _value("BPM@10") == 1.0
    assert _value("BPM(quantity='ED')@10") == 1.0
    # T = 2: reads a (1), b (0), c (0.5), d (0) up to the budget of 3: EU = 1.5 / 3.
    assert _value("BPM(T=2)@3") == pytest.approx(0.5, abs=1e-15)
    assert _value("BPM(T=2, quantity='ED')@3") == 3.0


def test_residual_counts_unjudged_and_padded_ranks_as_gain_one() -> None:
    # depth 5: ranks 4 (d, unjudged) and 5 (padding) gain 1 in the best case; INSQ's
    # weights do not depend on the gains, so the residual is their share.
    worst = _value("INSQ(depth=5)")
    best_minus = _value("INSQ(depth=5, residual=True)")
    w = [1.0]
    for i in range(1, 5):
        w.append(w[-1] * ((i + 1) / (i + 2)) ** 2)
    total = sum(w)
    assert worst == pytest.approx((w[0] * 1 + w[2] * 0.5) / total, abs=1e-15)
    assert best_minus == pytest.approx((w[3] + w[4]) / total, abs=1e-15)


def test_expected_cost_is_one_with_unit_costs() -> None:
    for name in ("INST(quantity='EC')", "NERR10(p=0.5, quantity='EC')", "SDCG(quantity='EC')@4"):
        assert _value(name) == pytest.approx(1.0, abs=1e-12)


def test_compat_by_hand() -> None:
    # ideal: a, e (grade 2; e unretrieved, so after a), c (grade 1). run: a, b, c, d. D = 4.
    # overlaps at depth 1..4: 1, 1, 2, 2; ideal with itself: 1, 2, 3, 3.
    p = 0.5
    run = sum(p**d * o / (d + 1) for d, o in enumerate((1, 1, 2, 2)))
    best = sum(p**d * o / (d + 1) for d, o in enumerate((1, 2, 3, 3)))
    norm = sum(p**d for d in range(4))
    assert _value("Compat(p=0.5)") == pytest.approx(run / best, abs=1e-15)
    assert _value("Compat(p=0.5, normalize=False)") == pytest.approx(run / norm, abs=1e-15)


def test_compat_puts_negative_scores_after_unretrieved_documents() -> None:
    # a scores -1: ideal is e (unretrieved, score 0), a, c; run a, c. D = 3.
    rows = [("q", "a", -1.0), ("q", "c", -2.0)]
    qrels = {"q": {"a": 2, "c": 1, "e": 2}}
    p = 0.9
    run = sum(p**d * o / (d + 1) for d, o in enumerate((0, 1, 2)))
    best = sum(p**d * o / (d + 1) for d, o in enumerate((1, 2, 3)))
    assert _value("Compat(p=0.9)", qrels, rows) == pytest.approx(run / best, abs=1e-15)


def test_compat_without_positive_judgments_is_zero() -> None:
    assert _value("Compat", {"q": {"a": 0}}, [("q", "a", 1.0)]) == 0.0


@pytest.mark.parametrize(
    "name",
    [
        "INST(min_rel=2, max_rel=2)",
        "INST(T=0)",
        "NERR10(p=1)",
        "BPM_dynamic(gain_med=2)@5",
        "INST(quantity='XU')",
        "INST(residual=1)",
        "INST(depth=0)",
        "Compat(normalize='yes')",
    ],
)
def test_bad_options_are_refused(name: str) -> None:
    with pytest.raises(assay.MetricError):
        _value(name)


@pytest.mark.parametrize("name", ["INST", "SDCG@5", "Compat", "NERR8@3"])
def test_average_ties_are_refused(name: str) -> None:
    with pytest.raises(assay.ConventionError):
        _value(name, ties="average")
