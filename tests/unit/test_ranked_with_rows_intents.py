"""Ranked.with_rows cannot carry subtopic judgments to other rows: it refuses lists that
have them, instead of letting the diversity measures fall back to one subtopic per query."""

from __future__ import annotations

import pytest

from assay.data import Conventions, Qrels, Run, rank
from assay.errors import MetricError


def _ranked(qrels: Qrels):  # type: ignore[no-untyped-def]
    run = Run.from_dict({"1": {"d1": 2.0, "d2": 1.0}})
    return rank(qrels, run, Conventions())[0]


def test_with_rows_refuses_subtopic_judgments() -> None:
    qrels = Qrels.from_subtopics(["1", "1", "1"], ["1", "2", "2"], ["d1", "d1", "d2"], [1, 2, 0])
    r = _ranked(qrels)
    assert r.intents is not None
    with pytest.raises(MetricError, match="subtopic judgments"):
        r.with_rows(r.offsets, r.grade, r.score)


def test_with_rows_keeps_ordinary_lists() -> None:
    r = _ranked(Qrels.from_dict({"1": {"d1": 1, "d2": 0}}))
    out = r.with_rows(r.offsets, r.grade[::-1].copy(), r.score)
    assert out.grade.tolist() == [0, 1] and out.intents is None
