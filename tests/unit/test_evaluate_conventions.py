"""The missing='error' convention of assay.evaluate."""

from __future__ import annotations

import pytest

import assay
from support.ranking import build


def test_missing_error_convention() -> None:
    qrels, run = build({"q1": {"a": 1}, "q2": {"b": 1}}, [("q1", "a", 1.0)])
    with pytest.raises(assay.MissingQueryError):
        assay.evaluate(qrels, run, "P@5", missing="error")
    assert assay.evaluate(qrels, run, "P@5", missing="skip").per_query("run", "P@5") == {
        "q1": pytest.approx(0.2)
    }
