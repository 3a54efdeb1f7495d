"""assay.generation: sacrebleu's and rouge-score's own published examples through assay, the
shared rouge-score outputs (../shared/data/generation), sacrebleu's paired tests reproduced
bit for bit (sacrebleu itself is the oracle), and bad input."""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

import numpy as np
import pytest

import assay.generation as G
from assay._result import ResultLike
from assay.errors import EmptyInputError, InputError, MissingExtraError, OptionError
from conftest import shared_file
from support.generation import paired_systems, rouge_lines
from support.process import run_python

pytest.importorskip("rouge_score")


def _sacrebleu_fixtures() -> dict[str, Any]:
    path = shared_file("generation", "sacrebleu_test_fixtures.json")
    return json.loads(path.read_text(encoding="utf-8"))["files"]


def _rouge_expected() -> dict[str, Any]:
    return json.loads(shared_file("generation", "expected_rouge_score.json").read_text("utf-8"))


def _rouge_fixtures() -> dict[str, Any]:
    return json.loads(
        shared_file("generation", "rouge_score_test_fixtures.json").read_text("utf-8")
    )


# ---------------------------------------------------------------- sacrebleu's published examples


def test_corpus_bleu_cases_of_sacrebleu() -> None:
    cases = _sacrebleu_fixtures()["test_bleu.py"]["test_corpus_bleu_cases"]
    assert cases
    for hyps, refs, kwargs, expected in cases:
        got = G.bleu(hyps, refs, **kwargs)
        assert got.score == pytest.approx(expected, abs=1e-6), (hyps, kwargs)


def _raw_corpus_bleu(hyps: list[str], refs: Any, smooth_value: float | None = 0.1) -> float:
    """sacrebleu's raw_corpus_bleu: floor smoothing, no tokenisation, effective order."""
    return (
        G.bleu(
            hyps,
            refs,
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
        hyps, refs, tokenize="none", smooth_method="floor", smooth_value=0.01, effective_order=True
    )
    assert [got.details["counts"], got.details["totals"]] == counts
    for order, hyps, refs, expected in f["test_bleu_max_order"]:
        assert f"{G.bleu(hyps, refs, max_ngram_order=order).score:.2f}" == expected


def test_sentence_bleu_cases_of_sacrebleu() -> None:
    f = _sacrebleu_fixtures()["test_sentence_bleu.py"]
    for smooth, value, lowercase, tok, expected in f["test_cases"]:
        got = G.sentence_bleu(
            f["SYS"],
            [f["REF"]],
            smooth_method=smooth,
            smooth_value=value,
            lowercase=lowercase,
            tokenize=tok,
        )
        assert got.score == pytest.approx(expected, abs=f["EPSILON"])
    for smooth, value, lowercase, tok, expected in f["test_cases_zero_bleu"]:
        got = G.sentence_bleu(
            f["SYS_0"],
            [f["REF_0"]],
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
        assert G.sentence_chrf(hyp, refs, eps_smoothing=True).score == pytest.approx(
            expected, abs=eps
        )
    for hyps, refs, expected in f["test_cases"]:
        got = G.chrf(hyps, refs, beta=3, eps_smoothing=True)
        assert got.score == pytest.approx(expected, abs=eps)
    for hyps, refs, expected in f["test_cases_effective_order"]:
        assert G.chrf(hyps, refs, beta=3).score == pytest.approx(expected, abs=eps)
    for hyps, refs, expected in f["test_cases_keep_whitespace"]:
        got = G.chrf(hyps, refs, beta=3, whitespace=True)
        assert got.score == pytest.approx(expected, abs=eps)


def test_ter_cases_of_sacrebleu() -> None:
    f = _sacrebleu_fixtures()["test_ter.py"]
    for hyps, refs, expected in f["test_cases"]:
        assert G.ter(hyps, refs).score == pytest.approx(100 * expected, abs=f["EPSILON"])


# ---------------------------------------------------------------- rouge-score's examples


def test_rouge_python_cases() -> None:
    for case in _rouge_fixtures()["python_only_cases"]:
        if "target" not in case or "prediction" not in case:
            continue
        res = G.rouge([case["prediction"]], [case["target"]], rouge_types=case["types"])
        exp = case["expected"]
        for t in case["types"]:
            assert res[t]["precision"] == pytest.approx(exp["precision"])
            assert res[t]["recall"] == pytest.approx(exp["recall"])
            if "fmeasure" in exp:
                assert res[t]["fmeasure"] == pytest.approx(exp["fmeasure"])
            else:
                assert res[t]["fmeasure"] == pytest.approx(exp["fmeasure_3dp"], abs=5e-4)


def test_rouge_against_rouge155_single_examples() -> None:
    targets, predictions = rouge_lines("target_large.txt"), rouge_lines("prediction_large.txt")
    for case in _rouge_fixtures()["rouge155_single"]:
        tol = 0.5 * 10 ** -case["places"]
        if "multi0" in case:
            res = G.rouge(
                ["\n".join(predictions[:4])],
                ["\n".join(targets[:4])],
                rouge_types=case["types"],
                use_stemmer=case["use_stemmer"],
            )
            expected = [case["multi0"]]
        else:
            res = G.rouge(
                predictions[:2],
                targets[:2],
                rouge_types=case["types"],
                use_stemmer=case["use_stemmer"],
            )
            expected = [case["line0"], case["line1"]]
        items = res.items[case["types"][0]]
        for i, exp in enumerate(expected):
            got = dict(zip(("precision", "recall", "fmeasure"), items[i], strict=True))
            for m in ("precision", "recall", "fmeasure"):
                assert got[m] == pytest.approx(exp[m], abs=tol), (case["test"], i, m)


# ---------------------------------------------------------------- shared rouge-score outputs


@pytest.mark.parametrize("stem", [False, True])
def test_rouge_per_line_and_means_equal_rouge_score(stem: bool) -> None:
    expected = _rouge_expected()
    tag = "stem" if stem else "nostem"
    targets, predictions = rouge_lines("target_large.txt"), rouge_lines("prediction_large.txt")
    res = G.rouge(predictions, targets, use_stemmer=stem)
    for i, exp in enumerate(expected[f"per_line_first10_{tag}"]):
        for t, scores in exp.items():
            assert tuple(res.items[t][i]) == (
                scores["precision"],
                scores["recall"],
                scores["fmeasure"],
            )
    for t, scores in expected[f"mean_1000_lines_{tag}"].items():
        for m, v in scores.items():
            assert res[t][m] == pytest.approx(v, rel=1e-12)


def test_rouge_bootstrap_intervals_match_rouge_score_and_rouge155() -> None:
    # rouge-score's BootstrapAggregator (global RNG, seed 123) and ROUGE-1.5.5 draw different
    # resamples: their 95 % intervals agree with ours within the upstream test's delta 0.002.
    expected = _rouge_expected()["bootstrap_seed123_1000_lines_nostem"]
    targets, predictions = rouge_lines("target_large.txt"), rouge_lines("prediction_large.txt")
    res = G.rouge(predictions, targets, confidence=0.95, n_resamples=2000, seed=7)
    for t, bounds in expected.items():
        for m in ("precision", "recall", "fmeasure"):
            low, high = res.intervals[t][m]
            assert low == pytest.approx(bounds["low"][m], abs=0.002), (t, m)
            assert high == pytest.approx(bounds["high"][m], abs=0.002), (t, m)
            assert low < res[t][m] < high
    perl = _rouge_fixtures()["rouge155_bootstrap_ci"]
    ci155 = perl["testConfidenceIntervalsAgainstRouge155 (1000 lines, rouge1, no stem)"]["rouge1"]
    for m, (low, _mid, high) in ci155.items():
        assert res.intervals["rouge1"][m][0] == pytest.approx(low, abs=0.002)
        assert res.intervals["rouge1"][m][1] == pytest.approx(high, abs=0.002)


def test_rouge_multi_sentence_summaries() -> None:
    expected = _rouge_expected()
    targets, predictions = rouge_lines("target_large.txt"), rouge_lines("prediction_large.txt")
    tgt = ["\n".join(targets[4 * i : 4 * i + 4]) for i in range(250)]
    prd = ["\n".join(predictions[4 * i : 4 * i + 4]) for i in range(250)]
    res = G.rouge(prd, tgt, use_stemmer=True)
    for i, exp in enumerate(expected["multi250_stem_first5"]):
        for t, scores in exp.items():
            assert tuple(res.items[t][i]) == (
                scores["precision"],
                scores["recall"],
                scores["fmeasure"],
            )
    for t, scores in expected["multi250_stem_mean"].items():
        for m, v in scores.items():
            assert res[t][m] == pytest.approx(v, rel=1e-12)


def test_rouge_small_cases() -> None:
    for case in _rouge_expected()["small_cases"]:
        for tag, stem in (("nostem", False), ("stem", True)):
            res = G.rouge([case["prediction"]], [case["target"]], use_stemmer=stem)
            for t, scores in case[tag].items():
                got = dict(zip(("precision", "recall", "fmeasure"), res.items[t][0], strict=True))
                for m, v in scores.items():
                    assert got[m] == pytest.approx(v, abs=1e-15), (case["target"], tag, t, m)


# ---------------------------------------------------------------- paired tests: sacrebleu is the oracle


def test_holm_correction_and_markers() -> None:
    from assay.stats import correct

    refs, systems = paired_systems()
    holm = G.compare_systems(refs, systems, metrics=["chrf"], n_resamples=200, seed=1)
    raw = [holm["close", "chrf"].pvalue, holm["worse", "chrf"].pvalue]
    adjusted = correct(np.array(raw), correction="holm").tolist()
    assert [holm["close", "chrf"].p_adjusted, holm["worse", "chrf"].p_adjusted] == adjusted
    for s in ("close", "worse"):
        row = holm[s, "chrf"]
        assert row.significant == (row.p_adjusted < 0.05)
        mark = holm.marker(s, "chrf")
        assert mark == (
            "" if not row.significant else "▲" if row.score > holm["base", "chrf"].score else "▼"
        )
    assert holm["base", "chrf"].pvalue is None and holm.marker("base", "chrf") == ""


def test_ter_direction_lower_is_better() -> None:
    refs = ["a b c d e f"] * 30
    good = ["a b c d e f"] * 30
    bad = ["x y z"] * 30
    cmp = G.compare_systems(refs, {"bad": bad, "good": good}, metrics="ter", n_resamples=200)
    assert cmp["good", "ter"].better is True
    assert cmp.marker("good", "ter") == "▲"


def test_intervals_contain_scores_and_results_are_frozen() -> None:
    refs, systems = paired_systems()
    cmp = G.compare_systems(refs, systems, metrics=["bleu", "rouge1"], n_resamples=200)
    for row in cmp.rows:
        assert row.ci_low <= row.mean <= row.ci_high
    assert cmp.scores["close", "rouge1"].items.shape == (300,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cmp.baseline = "x"  # type: ignore[misc]
    assert cmp.provenance["seed"] == 12345 and cmp.provenance["test"] == "bootstrap"
    for result in (cmp, cmp.scores["base", "bleu"], G.rouge(refs[:5], refs[:5])):
        assert isinstance(result, ResultLike)
        assert len(result.to_pandas()) == len(result.records())
    recs = cmp.records()
    assert len(recs) == 6 and all(isinstance(r["score"], float) for r in recs)
    assert math.isnan(recs[0]["pvalue"])


def test_randomization_rouge_is_seeded() -> None:
    refs, systems = paired_systems()
    runs = [
        G.compare_systems(refs, systems, metrics="rougeL", test="randomization",
                          n_resamples=300, seed=seed)
        for seed in (5, 5, 6)
    ]  # fmt: skip
    pvalues = [[r.pvalue for r in run.rows] for run in runs]
    assert pvalues[0] == pvalues[1]
    assert pvalues[0] != pvalues[2]
    assert pvalues[0][0] is None and all(0 < p <= 1 for p in pvalues[0][1:])


# ---------------------------------------------------------------- options and bad input


def test_metric_options_are_validated() -> None:
    assert str(G.metric("bleu", tokenize="intl")) == "bleu(tokenize='intl')"
    assert G.metric("ROUGE-L").name == "rougeL" and G.metric("chrF2++").name == "chrf++"
    with pytest.raises(OptionError, match="metric must be one of"):
        G.metric("meteor")
    with pytest.raises(OptionError, match="tokenize"):
        G.bleu(["a"], ["a"], tokenize="moses")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="has no option"):
        G.metric("ter", tokenize="13a")
    with pytest.raises(OptionError, match="smooth_method"):
        G.sentence_bleu("a", ["a"], smooth_method="laplace")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="char_order"):
        G.chrf(["a"], ["a"], char_order=0)
    with pytest.raises(OptionError, match="test"):
        G.compare_systems(["a"], [["a"]], test="t")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="seed"):
        G.compare_systems(["a"], [["a"]], seed=-1)
    with pytest.raises(OptionError, match="rouge_types"):
        G.rouge(["a"], ["a"], rouge_types=["rouge3"])  # type: ignore[list-item]


def test_bad_input_is_one_clear_error() -> None:
    with pytest.raises(EmptyInputError):
        G.bleu([], [])
    with pytest.raises(InputError, match="reference stream 0 has 1 segments but there are 2"):
        G.bleu(["a", "b"], ["a"])
    with pytest.raises(InputError, match="item 1 has no reference"):
        G.bleu(["a", "b"], [["a", None]])
    with pytest.raises(InputError, match=r"hypotheses\[1\] is int"):
        G.chrf(["a", 3], ["a", "b"])  # type: ignore[list-item]
    with pytest.raises(InputError, match="not one string"):
        G.ter("abc", ["abc"])  # type: ignore[arg-type]
    with pytest.raises(InputError, match="'b' has 1 segments but 'a' has 2"):
        G.compare_systems(["x", "y"], {"a": ["x", "y"], "b": ["x"]})
    with pytest.raises(InputError, match="baseline 'c'"):
        G.compare_systems(["x"], {"a": ["x"], "b": ["y"]}, baseline="c")


def test_missing_extra_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def fake(name: str, *args: Any) -> Any:
        if name.startswith(("sacrebleu", "rouge_score")):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(MissingExtraError, match=r"pip install 'assay\[nlp\]'"):
        G.bleu(["a"], ["a"])
    with pytest.raises(MissingExtraError, match=r"assay\[nlp\]"):
        G.rouge(["a"], ["a"])


def test_missing_sentence_model_gives_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    import nltk

    def missing(text: str) -> list[str]:
        raise LookupError("Resource punkt_tab not found.")

    monkeypatch.setattr(nltk, "sent_tokenize", missing)
    with pytest.raises(MissingExtraError, match="punkt_tab"):
        G.rouge(["a b. c d."], ["a b. c e."], rouge_types=["rougeLsum"], split_summaries=True)


def test_import_does_not_load_the_backends() -> None:
    code = (
        "import sys, assay.generation, assay.regression, assay.io.segments; "
        "print(any(m in sys.modules for m in ('sacrebleu', 'rouge_score', 'sklearn')))"
    )
    assert run_python(code).stdout.strip() == "False"
