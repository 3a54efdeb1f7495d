"""The vectorised span extraction and partial matching against the slow references
(references/slow_tagging.py): chunks in both modes for every scheme, conlleval.pl's own
counting loop, and nervaluate's greedy matching, on random (often ill-formed) sequences."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.tagging import measures as T
from assay.tagging.partial import partial_counts
from assay.tagging.spans import extract_spans
from references import slow_tagging as slow
from strategies.tagging import SCHEMES, corpora

MODES = ("conlleval", "strict")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_spans_equal_the_reference(scheme: str, mode: str, data: Any) -> None:
    _, gold, _ = data.draw(corpora(scheme))
    assert extract_spans(gold, scheme=scheme, mode=mode).per_sentence() == slow.chunks(
        gold, scheme, mode
    )


# conlleval.pl reads IOB1, IOB2, IOE1, IOE2 and IO tags; it knows no S and sees E-B of one
# type as neither an end nor a start, so BIOES/BILOU are out of its reach (module docstring
# of assay.tagging.spans).
@pytest.mark.parametrize("scheme", ["iob1", "iob2", "ioe1", "ioe2", "io"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_conlleval_mode_counts_equal_conlleval_pl(scheme: str, data: Any) -> None:
    _, gold, pred = data.draw(corpora(scheme))
    expected = slow.conlleval_pl(gold, pred)
    counts = T.span_counts(gold, pred, scheme=scheme, mode="conlleval")
    assert counts.n_tokens == expected["tokens"]
    assert counts.correct_tokens == expected["correct_tags"]
    types = list(counts.types)
    assert dict(zip(types, counts.gold.tolist(), strict=True)) == _full(
        expected["found_gold"], types
    )
    assert dict(zip(types, counts.pred.tolist(), strict=True)) == _full(
        expected["found_pred"], types
    )
    assert dict(zip(types, counts.tp.tolist(), strict=True)) == _full(expected["correct"], types)


def _full(found: Any, types: list[str]) -> dict[str, int]:
    assert set(found) <= set(types)
    return {t: found.get(t, 0) for t in types}


def test_conlleval_pl_reads_bioes_differently_on_purpose() -> None:
    # Two well-formed BIOES chunks: conlleval.pl's rules see E-B of one type as neither an
    # end nor a start and count one chunk; assay (and seqeval) count two.
    gold = [["B-X", "E-X", "B-X", "E-X"]]
    assert slow.conlleval_pl(gold, gold)["found_gold"] == {"X": 1}
    assert len(extract_spans(gold, scheme="bioes")) == 2


@pytest.mark.parametrize("match", ["strict", "exact", "partial", "type"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_partial_matching_equals_the_reference(match: str, data: Any) -> None:
    scheme, gold, pred = data.draw(corpora(max_len=16))
    mode = data.draw(st.sampled_from(MODES))
    _, g, p = T.prepare(gold, pred, scheme, mode)
    overall, per_type = partial_counts(g, p, match)
    exp_overall, exp_per_type = slow.nervaluate_counts(g.per_sentence(), p.per_sentence(), match)
    assert {k: getattr(overall, k) for k in exp_overall} == exp_overall
    got = {t: {k: getattr(c, k) for k in exp_overall} for t, c in per_type.items()}
    assert got == exp_per_type


def test_partial_matching_long_gold_span_and_one_percent_rule() -> None:
    # A gold span of 150 tokens overlapped by one token is below 1 %: not a candidate.
    gold = [["B-X"] + ["I-X"] * 149]
    pred = [["O"] * 149 + ["B-X"]]
    _, g, p = T.prepare(gold, pred, "iob2", "conlleval")
    overall, _ = partial_counts(g, p, "type")
    assert (overall.correct, overall.spurious, overall.missed) == (0, 1, 1)
    pred = [["O"] * 148 + ["B-X", "I-X"]]
    _, g, p = T.prepare(gold, pred, "iob2", "conlleval")
    overall, _ = partial_counts(g, p, "type")
    assert (overall.correct, overall.spurious, overall.missed) == (1, 0, 0)


def test_a_gold_span_taken_by_an_earlier_prediction() -> None:
    # Three predictions inside one long gold span: the first takes it, the others are spurious;
    # with a second gold span reaching into the third prediction, that one takes it instead.
    gold = [["B-X"] * 1 + ["I-X"] * 9 + ["O"] * 3]
    pred = [["B-X", "I-X", "O", "B-X", "I-X", "O", "B-X", "I-X", "O", "O", "O", "O", "O"]]
    _, g, p = T.prepare(gold, pred, "iob2", "conlleval")
    for match in ("strict", "exact", "partial", "type"):
        overall, _ = partial_counts(g, p, match)
        expected = slow.nervaluate_counts(g.per_sentence(), p.per_sentence(), match)[0]
        assert {k: getattr(overall, k) for k in expected} == expected
        assert Counter({k: v for k, v in expected.items() if v})["spurious"] == 2
