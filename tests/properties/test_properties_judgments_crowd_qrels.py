"""Invariants of :func:`assay.judgments.crowd_qrels` on random small crowds: the order of the
rows and the spelling of the ids change nothing but the order of first appearance; posteriors
are distributions over the grade scale; a grade is always a grade of the scale; majority
vote's qrels give an unchanged ranking."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.judgments import CrowdQrels, crowd_qrels
from strategies.crowd_qrels import crowds

METHODS = ("majority_vote", "dawid_skene", "one_coin_dawid_skene", "wawa")


def _by_pair(res: CrowdQrels) -> dict[tuple[str, str], tuple[np.ndarray, int]]:
    q, d = res.query.to_pylist(), res.doc.to_pylist()
    return {
        (a, b): (res.posterior[i], int(res.majority_grade[i]))
        for i, (a, b) in enumerate(zip(q, d, strict=True))
    }


@settings(max_examples=60, deadline=None)
@given(crowd=crowds(), seed=st.integers(0, 2**16), rule=st.sampled_from(["argmax", "expected"]))
def test_posteriors_are_distributions_and_grades_are_on_the_scale(
    crowd: dict[str, list[object]], seed: int, rule: str
) -> None:
    method = METHODS[seed % len(METHODS)]
    res = crowd_qrels(crowd, method=method, grade_rule=rule)  # type: ignore[arg-type]
    assert res.posterior.shape == (len(res.grade), len(res.grades))
    np.testing.assert_allclose(res.posterior.sum(axis=1), 1.0, atol=1e-9)
    assert (res.posterior >= -1e-12).all()
    assert set(res.grade.tolist()) <= set(res.grades)
    assert int(res.n_labels.sum()) == len(crowd["grade"])
    # every alpha is NaN or a coefficient, and a topic's units are its documents with 2 grades
    for topic in res.agreement:
        assert math.isnan(topic["alpha"]) or -1.0 - 1e-9 <= topic["alpha"] <= 1.0 + 1e-9
        assert topic["n_units"] <= topic["n_docs"]


@settings(max_examples=60, deadline=None)
@given(crowd=crowds(), data=st.data())
def test_row_order_and_id_spelling_change_nothing(
    crowd: dict[str, list[object]], data: st.DataObject
) -> None:
    n = len(crowd["grade"])
    order = data.draw(st.permutations(range(n)))
    shuffled = {k: [v[i] for i in order] for k, v in crowd.items()}
    renamed = {
        **crowd,
        "query": [f"topic|{q}" for q in crowd["query"]],
        "doc": [f"\\{d}" for d in crowd["doc"]],
        "worker": [f"<{w}>" for w in crowd["worker"]],
    }
    base = crowd_qrels(crowd, method="majority_vote")
    moved = crowd_qrels(shuffled, method="majority_vote")
    spelled = crowd_qrels(renamed, method="majority_vote")
    want = _by_pair(base)
    for pair, (post, _) in _by_pair(moved).items():
        np.testing.assert_allclose(post, want[pair][0])
    assert {t["query"]: t["alpha"] for t in moved.agreement} == pytest.approx(
        {t["query"]: t["alpha"] for t in base.agreement}, nan_ok=True
    )
    # renaming keeps the order of first appearance: the same arrays, the same grades
    np.testing.assert_array_equal(spelled.posterior, base.posterior)
    assert spelled.grade.tolist() == base.grade.tolist()
    assert [t["alpha"] for t in spelled.agreement] == pytest.approx(
        [t["alpha"] for t in base.agreement], nan_ok=True
    )
