"""Published examples of sacrebleu and rouge-score that tests/test_generation.py leaves out,
through assay.generation: sacrebleu's TER tokenizer cases (test_tokenizer_ter.py: default,
no_punct, normalized, asian_support) and the bootstrap intervals with stemming of Google's
rouge tests against ROUGE-1.5.5 and rouge-score's BootstrapAggregator (upstream delta 0.002),
single- and multi-sentence (../shared/data/generation)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import assay.generation as G
from conftest import shared_file

pytest.importorskip("sacrebleu")
pytest.importorskip("rouge_score")

#: sacrebleu's TercomTokenizer options of each group of test_tokenizer_ter.py.
TER_OPTIONS = {
    "test_cases_default": {},
    "test_cases_no_punct": {"no_punct": True},
    "test_cases_norm": {"normalized": True},
    "test_cases_asian": {"normalized": True, "asian_support": True},
}


def _json(name: str) -> Any:
    return json.loads(shared_file("generation", name).read_text(encoding="utf-8"))


def test_ter_tokenizer_cases_of_sacrebleu() -> None:
    # The tokenizer's output of each input is the expected token string: through assay, the
    # input scored against that string with the same options has TER 0, and the options
    # matter (without them the punctuation and CJK cases are not 0).
    cases = _json("sacrebleu_test_fixtures.json")["files"]["test_tokenizer_ter.py"]
    assert set(cases) == set(TER_OPTIONS)
    mattered = 0
    for group, options in TER_OPTIONS.items():
        for text, tokens in cases[group]:
            assert G.sentence_ter(references=[tokens], hypothesis=text, **options).score == 0.0, (
                group,
                text,
            )
            mattered += G.sentence_ter(references=[tokens], hypothesis=text).score > 0
    assert mattered >= 4


def _lines(name: str) -> list[str]:
    return shared_file("generation", "rouge", name).read_text(encoding="utf-8").splitlines()


def _check(res: Any, perl: dict[str, Any], aggregator: dict[str, Any]) -> None:
    for kind, measures in perl.items():
        for m, (low, _mid, high) in measures.items():
            assert res.intervals[kind][m][0] == pytest.approx(low, abs=0.002), (kind, m)
            assert res.intervals[kind][m][1] == pytest.approx(high, abs=0.002), (kind, m)
    for kind, bounds in aggregator.items():
        for m in ("precision", "recall", "fmeasure"):
            assert res.intervals[kind][m][0] == pytest.approx(bounds["low"][m], abs=0.002)
            assert res.intervals[kind][m][1] == pytest.approx(bounds["high"][m], abs=0.002)


@pytest.mark.slow
def test_rouge_stemmed_intervals_match_rouge155_and_rouge_score() -> None:
    perl = _json("rouge_score_test_fixtures.json")["rouge155_bootstrap_ci"]
    expected = _json("expected_rouge_score.json")
    targets, predictions = _lines("target_large.txt"), _lines("prediction_large.txt")
    res = G.rouge(
        references=targets,
        hypotheses=predictions,
        use_stemmer=True,
        confidence=0.95,
        n_resamples=2000,
        seed=7,
    )
    _check(
        res,
        perl["testConfidenceIntervalsAgainstRouge155WithStemming (1000 lines, stem)"],
        expected["bootstrap_seed123_1000_lines_stem"],
    )
    tgt = ["\n".join(targets[4 * i : 4 * i + 4]) for i in range(250)]
    prd = ["\n".join(predictions[4 * i : 4 * i + 4]) for i in range(250)]
    multi = G.rouge(
        references=tgt, hypotheses=prd, use_stemmer=True, confidence=0.95, n_resamples=2000, seed=7
    )
    _check(
        multi,
        perl["testConfidenceIntervalsAgainstRouge155WithStemmingMultiLine (250 x 4-line, stem)"],
        expected["multi250_stem_bootstrap_seed123"],
    )
