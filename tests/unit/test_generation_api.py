"""assay.generation as an API: corrections and markers, directions, intervals, seeding, options
and bad input, missing extras, lazy back-ends."""

from __future__ import annotations

import dataclasses
import inspect
import math
from typing import Any

import numpy as np
import pytest

import assay.generation as G
from assay._result import ResultLike
from assay.errors import EmptyInputError, InputError, MissingExtraError, OptionError
from support.generation import paired_systems
from support.process import run_python

pytest.importorskip("sacrebleu")
pytest.importorskip("rouge_score")


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
    for result in (
        cmp,
        cmp.scores["base", "bleu"],
        G.rouge(references=refs[:5], hypotheses=refs[:5]),
    ):
        assert isinstance(result, ResultLike)
        assert len(result.to_pandas()) == len(result.records())
    recs = cmp.records()
    assert len(recs) == 6 and all(isinstance(r["score"], float) for r in recs)
    assert math.isnan(recs[0]["pvalue"])


def test_randomization_rouge_is_seeded() -> None:
    refs, systems = paired_systems()
    runs = [
        G.compare_systems(
            refs, systems, metrics="rougeL", test="randomization", n_resamples=300, seed=seed
        )
        for seed in (5, 5, 6)
    ]
    pvalues = [[r.pvalue for r in run.rows] for run in runs]
    assert pvalues[0] == pvalues[1]
    assert pvalues[0] != pvalues[2]
    assert pvalues[0][0] is None and all(0 < p <= 1 for p in pvalues[0][1:])


def test_metric_options_are_validated() -> None:
    assert str(G.metric("bleu", tokenize="intl")) == "bleu(tokenize='intl')"
    assert G.metric("ROUGE-L").name == "rougeL" and G.metric("chrF2++").name == "chrf++"
    with pytest.raises(OptionError, match="metric must be one of"):
        G.metric("meteor")
    with pytest.raises(OptionError, match="tokenize"):
        G.bleu(references=["a"], hypotheses=["a"], tokenize="moses")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="has no option"):
        G.metric("ter", tokenize="13a")
    with pytest.raises(OptionError, match="smooth_method"):
        G.sentence_bleu(references=["a"], hypothesis="a", smooth_method="laplace")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="char_order"):
        G.chrf(references=["a"], hypotheses=["a"], char_order=0)
    with pytest.raises(OptionError, match="test"):
        G.compare_systems(["a"], [["a"]], test="t")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="seed"):
        G.compare_systems(["a"], [["a"]], seed=-1)
    with pytest.raises(OptionError, match="rouge_types"):
        G.rouge(references=["a"], hypotheses=["a"], rouge_types=["rouge3"])  # type: ignore[list-item]


def test_bad_input_is_one_clear_error() -> None:
    with pytest.raises(EmptyInputError):
        G.bleu(references=[], hypotheses=[])
    with pytest.raises(InputError, match="reference stream 0 has 1 segments but there are 2"):
        G.bleu(references=["a"], hypotheses=["a", "b"])
    with pytest.raises(InputError, match="item 1 has no reference"):
        G.bleu(references=[["a", None]], hypotheses=["a", "b"])
    with pytest.raises(InputError, match=r"hypotheses\[1\] is int"):
        G.chrf(references=["a", "b"], hypotheses=["a", 3])  # type: ignore[list-item]
    with pytest.raises(InputError, match="not one string"):
        G.ter(references=["abc"], hypotheses="abc")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="'b' has 1 segments but 'a' has 2"):
        G.compare_systems(["x", "y"], {"a": ["x", "y"], "b": ["x"]})
    with pytest.raises(InputError, match="baseline 'c'"):
        G.compare_systems(["x"], {"a": ["x"], "b": ["y"]}, baseline="c")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("score", (["a b"], ["a c"])),
        ("bleu", (["a b"], ["a c"])),
        ("chrf", (["a b"], ["a c"])),
        ("ter", (["a b"], ["a c"])),
        ("rouge", (["a b"], ["a c"])),
        ("sentence_bleu", ("a b", ["a c"])),
        ("sentence_chrf", ("a b", ["a c"])),
        ("sentence_ter", ("a b", ["a c"])),
    ],
)
def test_data_is_keyword_only_so_an_old_positional_call_fails(name: str, data: Any) -> None:
    """sacrebleu's (hypotheses, references) order, assay's before the naming rule: both are
    lists of strings, so a positional call raises instead of scoring the data swapped."""
    func = getattr(G, name)
    hyp = "hypothesis" if name.startswith("sentence") else "hypotheses"
    with pytest.raises(TypeError, match=f"pass references= and {hyp}=.*gold first"):
        func(*data)
    with pytest.raises(TypeError, match="by keyword"):
        func(data[0], references=data[1])
    kinds = [p.kind for p in inspect.signature(func).parameters.values()]
    assert set(kinds) == {inspect.Parameter.KEYWORD_ONLY}
    assert list(inspect.signature(func).parameters)[:2] == ["references", hyp]
    assert func(references=data[1], **{hyp: data[0]}) is not None


def test_missing_extra_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def fake(name: str, *args: Any) -> Any:
        if name.startswith(("sacrebleu", "rouge_score")):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(MissingExtraError, match=r"pip install 'assay\[nlp\]'"):
        G.bleu(references=["a"], hypotheses=["a"])
    with pytest.raises(MissingExtraError, match=r"assay\[nlp\]"):
        G.rouge(references=["a"], hypotheses=["a"])


def test_missing_sentence_model_gives_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    import nltk

    def missing(text: str) -> list[str]:
        raise LookupError("Resource punkt_tab not found.")

    monkeypatch.setattr(nltk, "sent_tokenize", missing)
    with pytest.raises(MissingExtraError, match="punkt_tab"):
        G.rouge(
            references=["a b. c e."],
            hypotheses=["a b. c d."],
            rouge_types=["rougeLsum"],
            split_summaries=True,
        )


def test_import_does_not_load_the_backends() -> None:
    code = (
        "import sys, assay.generation, assay.regression, assay.io.segments; "
        "print(any(m in sys.modules for m in ('sacrebleu', 'rouge_score', 'sklearn')))"
    )
    assert run_python(code).stdout.strip() == "False"


def test_import_of_the_declarations_does_not_load_the_backends() -> None:
    code = (
        "import sys, assay.generation.measures, assay.generation.options; "
        "print(any(m in sys.modules for m in ('sacrebleu', 'rouge_score')))"
    )
    assert run_python(code).stdout.strip() == "False"


def test_against_the_baseline_is_a_pair_result() -> None:
    from assay.stats import PairResult

    refs, systems = paired_systems()
    cmp = G.compare_systems(
        references=refs, systems=systems, metrics=["bleu", "ter"], n_resamples=100
    )
    assert [(p.system, p.metric) for p in cmp.pairs] == [
        ("close", "bleu"),
        ("worse", "bleu"),
        ("close", "ter"),
        ("worse", "ter"),
    ]
    for p in cmp.pairs:
        row = cmp[p.system, p.metric]
        base = cmp["base", p.metric]
        assert isinstance(p, PairResult) and p is cmp.pair(p.system, p.metric)
        assert p.baseline == "base" and p.diff == row.score - base.score
        assert (row.pvalue, row.p_adjusted, row.significant) == (
            p.p_value,
            p.p_adjusted,
            p.significant,
        )
        assert row.better == p.better and row.direction == p.direction
        assert p.higher_is_better == (p.metric != "ter")
    assert cmp["base", "bleu"].pair is None and cmp["base", "bleu"].pvalue is None
    with pytest.raises(KeyError):
        cmp.pair("base", "bleu")
    assert len(repr(cmp)) < 2000 and "p_adjusted" in repr(cmp)


def test_report_of_a_comparison_is_the_cli_s_table() -> None:
    refs, systems = paired_systems()
    cmp = G.compare_systems(refs, systems, metrics=["chrf"], n_resamples=100)
    report = cmp.report()
    assert report.records == cmp.records()
    assert cmp._repr_html_().startswith("<div>")
    assert "close" in report.render("table")


def test_one_score_reads_well_and_reports() -> None:
    refs, systems = paired_systems()
    s = G.bleu(references=refs, hypotheses=systems["base"])
    assert len(s.items) == 300 and len(repr(s)) < 2000
    assert s.report().records == s.records()
    r = G.rouge(references=refs, hypotheses=systems["base"], rouge_types=["rouge1"])
    assert len(repr(r)) < 2000 and r.report().records == r.records()


def test_the_old_report_home_warns_and_resolves() -> None:
    import assay.report
    from assay.generation import generation_report

    with pytest.warns(DeprecationWarning, match="assay.generation.generation_report"):
        old = assay.report.generation_report
    assert old is generation_report
    assert "generation_report" not in assay.report.__all__


def test_configure_metrics_is_the_cli_s_flags() -> None:
    specs = G.configure_metrics(
        ["BLEU", "chrf++", "rouge-l", "ter"], tokenize="intl", lowercase=True, use_stemmer=True
    )
    assert [str(s) for s in specs] == [
        "bleu(lowercase=True, tokenize='intl')",
        "chrf++(lowercase=True)",
        "rougeL(use_stemmer=True)",
        "ter",
    ]
