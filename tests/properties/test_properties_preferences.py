"""Invariants of the preference metrics (``assay.ranking.measures.preferences``) on random
graded qrels: a ranking by grade fulfils every preference, its reverse none; the counts are
ordered; the possible pairs depend on the qrels only."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import assay

METRICS = [
    "pref_pairs",
    "pref_fulfilled",
    "pref_fulfilled_ret",
    "pref_agreement",
    "pref_agreement_ret",
    "pref_agreement_imp",
    "pref_agreement_balanced",
    "pref_agreement_balanced_ret",
]


def _values(qrels: dict[str, int], scores: dict[str, float]) -> dict[str, float]:
    res = assay.evaluate(
        assay.Qrels.from_dict({"q": qrels}),
        assay.Run.from_dict({"q": scores}),
        METRICS,
        no_relevant="nan",
    )
    return {m: res.per_query("run", m)["q"] for m in METRICS}


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    grades=st.lists(st.integers(0, 3), min_size=1, max_size=12),
    extra=st.lists(st.integers(-1, 3), max_size=6),
)
def test_order_by_grade_fulfils_every_preference(grades: list[int], extra: list[int]) -> None:
    qrels = {f"d{i}": g for i, g in enumerate(grades)}
    n = len(grades)
    # distinct scores: higher grade first; documents outside the qrels (extra) interleaved
    best = {f"d{i}": float(g * 100 - i) for i, g in enumerate(grades)}
    worst = {f"d{i}": float(-g * 100 - i) for i, g in enumerate(grades)}
    for j, g in enumerate(extra):
        best[f"x{j}"] = worst[f"x{j}"] = float(g * 37 + j) + 0.5
    good, bad = _values(qrels, best), _values(qrels, worst)
    pairs = n * (n - 1) // 2 - sum(c * (c - 1) // 2 for c in map(grades.count, set(grades)))
    assert good["pref_pairs"] == bad["pref_pairs"] == pairs
    assert good["pref_fulfilled"] == good["pref_fulfilled_ret"] == pairs
    assert bad["pref_fulfilled"] == bad["pref_fulfilled_ret"] == 0
    for m in ("pref_agreement", "pref_agreement_ret", "pref_agreement_imp"):
        if pairs:
            assert good[m] == 1.0 and bad[m] == 0.0, m
        else:
            assert math.isnan(good[m]) and math.isnan(bad[m]), m
    for m in ("pref_agreement_balanced", "pref_agreement_balanced_ret"):
        assert math.isnan(good[m]) or 0.0 <= bad[m] <= good[m] <= 1.0, m


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    grades=st.lists(st.integers(-1, 3), min_size=1, max_size=12),
    retrieved=st.lists(st.booleans(), min_size=12, max_size=12),
    perm=st.permutations(list(range(12))),
)
def test_counts_are_ordered_and_pairs_depend_on_qrels_only(
    grades: list[int], retrieved: list[bool], perm: list[int]
) -> None:
    qrels = {f"d{i}": g for i, g in enumerate(grades)}
    scores = {f"d{i}": float(perm[i]) for i in range(len(grades)) if retrieved[i]}
    scores = scores or {"zz": 1.0}
    v = _values(qrels, scores)
    judged = [g for g in grades if g >= 0]
    n = len(judged)
    pairs = n * (n - 1) // 2 - sum(c * (c - 1) // 2 for c in map(judged.count, set(judged)))
    assert v["pref_pairs"] == pairs
    assert 0 <= v["pref_fulfilled_ret"] <= v["pref_fulfilled"] <= v["pref_pairs"]
    for m in METRICS[3:]:
        assert math.isnan(v[m]) or 0.0 <= v[m] <= 1.0, m
