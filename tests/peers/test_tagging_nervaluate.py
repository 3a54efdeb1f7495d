"""assay's partial-match measures against nervaluate 1.2.1 on random tag sequences: with
nervaluate's own tag reader (its list loader reads B/I/O tags as conlleval does) for IOB1,
IOB2 and IO, and with assay's spans handed over as dicts for every scheme and both modes.
Counts, precision, recall and F1 of the four schemes, overall and per type, equal to the
last bit."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.tagging import measures as T
from assay.tagging.partial import partial_counts
from strategies.tagging import SCHEMES, TYPES, corpora

nervaluate = pytest.importorskip("nervaluate")

KEYS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")
NAMES = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}


def _dicts(spans: Any) -> list[list[dict[str, Any]]]:
    return [[{"label": t, "start": a, "end": b} for t, a, b in s] for s in spans.per_sentence()]


def _compare(expected: Any, gold: Any, pred: Any) -> None:
    for match, name in NAMES.items():
        overall, per_type = partial_counts(gold, pred, match)
        _same(overall, expected["overall"][name])
        assert set(per_type) == set(expected["entities"]), match
        for kind, counts in per_type.items():
            _same(counts, expected["entities"][kind][name])


def _same(counts: Any, result: Any) -> None:
    got = {k: getattr(counts, k) for k in KEYS}
    assert got == {k: getattr(result, k) for k in KEYS}
    assert (counts.precision(), counts.recall(), counts.f1()) == (
        result.precision,
        result.recall,
        result.f1,
    )


@pytest.mark.parametrize("scheme", ["iob1", "iob2", "io"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_nervaluate_reading_the_tags_itself(scheme: str, data: Any) -> None:
    _, gold, pred = data.draw(corpora(scheme))
    expected = nervaluate.Evaluator(gold, pred, tags=list(TYPES), loader="list").evaluate()
    _, g, p = T.prepare(gold, pred, scheme, "conlleval")
    _compare(expected, g, p)


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_nervaluate_on_assay_spans(scheme: str, data: Any) -> None:
    _, gold, pred = data.draw(corpora(scheme, max_len=16))
    mode = data.draw(st.sampled_from(["conlleval", "strict"]))
    _, g, p = T.prepare(gold, pred, scheme, mode)
    expected = nervaluate.Evaluator(
        _dicts(g), _dicts(p), tags=list(TYPES), loader="dict"
    ).evaluate()
    _compare(expected, g, p)


def test_measures_are_the_counts() -> None:
    gold = [["O", "B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "O"]]
    pred = [["O", "B-PER", "O", "O", "B-ORG"], ["B-ORG", "I-ORG", "O"]]
    expected = nervaluate.Evaluator(
        gold, pred, tags=["PER", "LOC", "ORG"], loader="list"
    ).evaluate()
    for match, name in NAMES.items():
        result = expected["overall"][name]
        assert T.ner_precision(gold, pred, match=match) == result.precision
        assert T.ner_recall(gold, pred, match=match) == result.recall
        assert T.ner_f1(gold, pred, match=match) == result.f1
