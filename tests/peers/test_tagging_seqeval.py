"""assay.tagging against seqeval 1.2.2 on random tag sequences (well formed, corrupted and
random): default mode = assay's conlleval mode (every scheme; BILOU's L/U given to seqeval
as E/S, which its default mode reads), strict mode with every scheme seqeval has. Entities,
precision/recall/F1 with every average and zero_division 0 and 1 (equal to the last bit),
the per-type report and token accuracy."""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.tagging import measures as T
from assay.tagging.spans import extract_spans
from strategies.tagging import SCHEMES, corpora

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")
from seqeval.metrics.sequence_labeling import get_entities  # noqa: E402

STRICT = {
    "iob1": seqeval_scheme.IOB1,
    "iob2": seqeval_scheme.IOB2,
    "ioe1": seqeval_scheme.IOE1,
    "ioe2": seqeval_scheme.IOE2,
    "bioes": seqeval_scheme.IOBES,
    "bilou": seqeval_scheme.BILOU,
}
AVERAGES = ("micro", "macro", "weighted")


def _default_tags(sentences: list[list[str]]) -> list[list[str]]:
    """BILOU written with E and S, the letters seqeval's default mode knows."""
    swap = {"L": "E", "U": "S"}
    return [[swap.get(t[0], t[0]) + t[1:] if t != "O" else t for t in s] for s in sentences]


def _seqeval_kwargs(scheme: str, mode: str) -> dict[str, Any]:
    return {"mode": "strict", "scheme": STRICT[scheme]} if mode == "strict" else {}


def _compare_scores(scheme: str, mode: str, gold: list[list[str]], pred: list[list[str]]) -> None:
    seq_gold, seq_pred = (
        (gold, pred) if mode == "strict" else (_default_tags(gold), _default_tags(pred))
    )
    kwargs = _seqeval_kwargs(scheme, mode)
    counts = T.span_counts(gold, pred, scheme=scheme, mode=mode)
    no_spans = not len(counts.types)
    for zero_division in (0, 1):
        for average in AVERAGES:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # numpy's mean of nothing (macro, no spans)
                expected = [
                    f(seq_gold, seq_pred, average=average, zero_division=zero_division, **kwargs)
                    for f in (
                        seqeval_metrics.precision_score,
                        seqeval_metrics.recall_score,
                        seqeval_metrics.f1_score,
                    )
                ]
            got = [
                counts.precision(average, zero_division),
                counts.recall(average, zero_division),
                counts.f1(average, zero_division),
            ]
            if no_spans and average == "macro":
                # seqeval: NaN (a mean of nothing); assay: the zero_division value.
                assert all(math.isnan(e) for e in expected)
                assert got == [float(zero_division)] * 3
                continue
            assert got == expected, (average, zero_division)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = seqeval_metrics.classification_report(
            seq_gold, seq_pred, output_dict=True, zero_division=0, **kwargs
        )
    per_type = {k: v for k, v in report.items() if not k.endswith(" avg")}
    assert list(per_type) == list(counts.types)
    precision, recall, f1 = (counts.precision(None), counts.recall(None), counts.f1(None))
    for i, kind in enumerate(counts.types):
        row = per_type[kind]
        assert (row["precision"], row["recall"], row["f1-score"]) == (
            precision[i],
            recall[i],
            f1[i],
        )
        assert row["support"] == counts.gold[i]


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_default_mode_equals_seqeval(scheme: str, data: Any) -> None:
    _, gold, pred = data.draw(corpora(scheme))
    expected = [get_entities(s) for s in _default_tags(gold)]
    assert extract_spans(gold, scheme=scheme, mode="conlleval").per_sentence() == expected
    _compare_scores(scheme, "conlleval", gold, pred)
    accuracy = seqeval_metrics.accuracy_score(gold, pred)
    assert T.token_accuracy(gold, pred) == accuracy


@pytest.mark.parametrize("scheme", list(STRICT))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_strict_mode_equals_seqeval(scheme: str, data: Any) -> None:
    _, gold, pred = data.draw(corpora(scheme))
    entities = seqeval_scheme.Entities(gold, STRICT[scheme]).entities
    expected = [[(e.tag, e.start, e.end - 1) for e in sentence] for sentence in entities]
    assert extract_spans(gold, scheme=scheme, mode="strict").per_sentence() == expected
    _compare_scores(scheme, "strict", gold, pred)


def test_io_strict_equals_conlleval_mode() -> None:
    # Every IO sequence is well formed: both modes give the runs of one type.
    tags = [["I-A", "I-A", "I-B", "O", "I-B", "I-A"], ["O", "I-A"]]
    strict = extract_spans(tags, scheme="io", mode="strict").per_sentence()
    assert strict == extract_spans(tags, scheme="io").per_sentence()
    assert strict == [[("A", 0, 1), ("B", 2, 2), ("B", 4, 4), ("A", 5, 5)], [("A", 1, 1)]]
