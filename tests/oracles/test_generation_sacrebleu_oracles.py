"""assay.generation against sacrebleu's own published test cases
(../shared/data/generation/sacrebleu_test_fixtures.json): BLEU, sentence BLEU, chrF, TER."""

from __future__ import annotations

import json
from typing import Any

import pytest

import assay.generation as G
from conftest import shared_file

pytest.importorskip("sacrebleu")


def _sacrebleu_fixtures() -> dict[str, Any]:
    path = shared_file("generation", "sacrebleu_test_fixtures.json")
    return json.loads(path.read_text(encoding="utf-8"))["files"]


def test_corpus_bleu_cases_of_sacrebleu() -> None:
    cases = _sacrebleu_fixtures()["test_bleu.py"]["test_corpus_bleu_cases"]
    assert cases
    for hyps, refs, kwargs, expected in cases:
        got = G.bleu(references=refs, hypotheses=hyps, **kwargs)
        assert got.score == pytest.approx(expected, abs=1e-6), (hyps, kwargs)


def _raw_corpus_bleu(hyps: list[str], refs: Any, smooth_value: float | None = 0.1) -> float:
    """sacrebleu's raw_corpus_bleu: floor smoothing, no tokenisation, effective order."""
    return (
        G.bleu(
            references=refs,
            hypotheses=hyps,
            smooth_method="floor",
            smooth_value=smooth_value,
            tokenize="none",
            effective_order=True,
        ).score
        / 100
    )


def test_raw_bleu_cases_of_sacrebleu() -> None:
    f = _sacrebleu_fixtures()["test_bleu.py"]
    for hyps, refs, expected in f["test_raw_bleu_cases"]:
        assert _raw_corpus_bleu(hyps, refs, 0.01) == pytest.approx(expected, abs=1e-8)
    for hyps, refs, expected in f["test_case_effective_order"]:
        assert _raw_corpus_bleu(hyps, refs, 0.01) == pytest.approx(expected, abs=1e-8)
    ((hyps, refs, with_offset, without),) = f["test_case_offset"]
    assert _raw_corpus_bleu(hyps, refs, None) == pytest.approx(with_offset, abs=1e-8)
    assert _raw_corpus_bleu(hyps, refs, 0.0) == pytest.approx(without, abs=1e-8)


def test_bleu_statistics_and_max_order() -> None:
    f = _sacrebleu_fixtures()["test_bleu.py"]
    ((hyps, refs, counts),) = f["test_case_statistics"]
    got = G.bleu(
        references=refs,
        hypotheses=hyps,
        tokenize="none",
        smooth_method="floor",
        smooth_value=0.01,
        effective_order=True,
    )
    assert [got.details["counts"], got.details["totals"]] == counts
    for order, hyps, refs, expected in f["test_bleu_max_order"]:
        assert (
            f"{G.bleu(references=refs, hypotheses=hyps, max_ngram_order=order).score:.2f}"
            == expected
        )


def test_sentence_bleu_cases_of_sacrebleu() -> None:
    f = _sacrebleu_fixtures()["test_sentence_bleu.py"]
    for smooth, value, lowercase, tok, expected in f["test_cases"]:
        got = G.sentence_bleu(
            references=[f["REF"]],
            hypothesis=f["SYS"],
            smooth_method=smooth,
            smooth_value=value,
            lowercase=lowercase,
            tokenize=tok,
        )
        assert got.score == pytest.approx(expected, abs=f["EPSILON"])
    for smooth, value, lowercase, tok, expected in f["test_cases_zero_bleu"]:
        got = G.sentence_bleu(
            references=[f["REF_0"]],
            hypothesis=f["SYS_0"],
            smooth_method=smooth,
            smooth_value=value,
            lowercase=lowercase,
            tokenize=tok,
        )
        assert got.score == pytest.approx(expected, abs=f["EPSILON"])


def test_chrf_cases_of_sacrebleu() -> None:
    f = _sacrebleu_fixtures()["test_chrf.py"]
    eps = f["EPSILON"]
    for hyp, refs, expected in f["test_sentence_level_chrf"]:
        assert G.sentence_chrf(
            references=refs, hypothesis=hyp, eps_smoothing=True
        ).score == pytest.approx(expected, abs=eps)
    for hyps, refs, expected in f["test_cases"]:
        got = G.chrf(references=refs, hypotheses=hyps, beta=3, eps_smoothing=True)
        assert got.score == pytest.approx(expected, abs=eps)
    for hyps, refs, expected in f["test_cases_effective_order"]:
        assert G.chrf(references=refs, hypotheses=hyps, beta=3).score == pytest.approx(
            expected, abs=eps
        )
    for hyps, refs, expected in f["test_cases_keep_whitespace"]:
        got = G.chrf(references=refs, hypotheses=hyps, beta=3, whitespace=True)
        assert got.score == pytest.approx(expected, abs=eps)


def test_ter_cases_of_sacrebleu() -> None:
    f = _sacrebleu_fixtures()["test_ter.py"]
    for hyps, refs, expected in f["test_cases"]:
        assert G.ter(references=refs, hypotheses=hyps).score == pytest.approx(
            100 * expected, abs=f["EPSILON"]
        )
