"""assay.tagging against the outputs of the tools the community trusts, on real data in
../shared/data/ner (README there): conlleval's printed output on the CoNLL-2000 sample
(byte for byte, and every count), seqeval 1.2.2 in default and strict mode (entities,
accuracy, the whole report), nervaluate 1.2.1 (four schemes, overall and per type, and its
printed summaries) on the sample, on its README example and on the SemEval-2013 scenarios,
and the expected values of seqeval's own tests."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from typer.testing import CliRunner

from assay import tagging as T
from assay.cli import app
from assay.tagging import conlleval_text
from conftest import shared_file

SCENARIOS = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


def _load(name: str) -> Any:
    return json.loads(shared_file("ner", name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sample() -> tuple[Any, Any]:
    expected = _load("expected_conll2000_sample_output.json")
    data = T.read_conll(shared_file("ner", expected["input"]))
    return expected, data


# ---------------------------------------------------------------- conlleval


def test_conlleval_output_byte_for_byte(sample: tuple[Any, Any]) -> None:
    expected, data = sample
    report = T.tagging_report(data.gold, data.predictions[0])
    assert conlleval_text(report) == expected["conlleval"]["stdout"]
    path = str(shared_file("ner", expected["input"]))
    result = CliRunner().invoke(app, ["tagging", path, "-f", "conlleval"])
    assert result.exit_code == 0 and result.stdout == expected["conlleval"]["stdout"]


def test_conlleval_counts_and_figures(sample: tuple[Any, Any]) -> None:
    expected, data = sample
    overall = expected["conlleval"]["overall"]
    report = T.tagging_report(data.gold, data.predictions[0])
    c = report.counts
    assert c.n_tokens == overall["tokens"] and c.correct_tokens == overall["correct_tags"]
    assert (c.gold.sum(), c.pred.sum(), c.tp.sum()) == (
        overall["gold_chunks"],
        overall["pred_chunks"],
        overall["correct_chunks"],
    )
    assert round(100 * report.accuracy, 2) == overall["accuracy_pct_printed"]
    assert round(100 * report.precision(), 2) == overall["precision_pct_printed"]
    assert round(100 * report.recall(), 2) == overall["recall_pct_printed"]
    assert round(100 * report.f1(), 2) == overall["fb1_printed"]
    precision, recall, f1 = report.precision(None), report.recall(None), report.f1(None)
    assert list(c.types) == sorted(expected["conlleval"]["per_type"])
    for i, kind in enumerate(c.types):
        row = expected["conlleval"]["per_type"][kind]
        assert (c.pred[i], c.gold[i], c.tp[i]) == (
            row["pred_chunks"],
            row["gold_chunks"],
            row["correct_chunks"],
        )
        assert row["pred_chunks_counted"] == c.pred[i]
        assert round(100 * precision[i], 2) == row["precision_pct_printed"]
        assert round(100 * recall[i], 2) == row["recall_pct_printed"]
        assert round(100 * f1[i], 2) == row["fb1_printed"]


# ---------------------------------------------------------------- seqeval


def _seqeval_entities(spans: Any) -> list[list[Any]]:
    """Global positions as seqeval numbers them (an O after every sentence)."""
    return [[t, a + k, b + k] for k, (t, a, b) in _flat(spans)]


def _flat(spans: Any) -> list[tuple[int, tuple[str, int, int]]]:
    out = []
    for k, sentence in enumerate(spans.per_sentence()):
        base = int(spans.offsets[k])
        out += [(k, (t, a + base, b + base)) for t, a, b in sentence]
    return out


def _check_report(report: Any, expected: dict[str, Any]) -> None:
    precision, recall, f1 = report.precision(None), report.recall(None), report.f1(None)
    for i, kind in enumerate(report.types):
        row = expected[kind]
        assert (row["precision"], row["recall"], row["f1-score"]) == (
            precision[i],
            recall[i],
            f1[i],
        )
        assert row["support"] == report.counts.gold[i]
    for average in ("micro", "macro", "weighted"):
        row = expected[f"{average} avg"]
        got = (report.precision(average), report.recall(average), report.f1(average))
        assert (row["precision"], row["recall"], row["f1-score"]) == got, average
        assert row["support"] == report.counts.gold.sum()
    assert set(expected) == {*report.types, "micro avg", "macro avg", "weighted avg"}


def _check_seqeval(expected: dict[str, Any], gold: Any, pred: Any) -> None:
    default = expected["default_mode"]
    report = T.tagging_report(gold, pred)
    assert _seqeval_entities(report.gold_spans) == default["entities_true"]
    assert _seqeval_entities(report.pred_spans) == default["entities_pred"]
    assert report.accuracy == default["accuracy"]
    assert (report.precision(), report.recall(), report.f1()) == (
        default["precision_micro"],
        default["recall_micro"],
        default["f1_micro"],
    )
    _check_report(report, default["report"])
    for scheme, figures in expected["strict_mode"].items():
        strict = T.tagging_report(gold, pred, scheme=scheme.lower(), mode="strict")
        assert (strict.precision(), strict.recall(), strict.f1()) == (
            figures["precision_micro"],
            figures["recall_micro"],
            figures["f1_micro"],
        )
        _check_report(strict, figures["report"])


def test_seqeval_on_the_sample(sample: tuple[Any, Any]) -> None:
    expected, data = sample
    _check_seqeval(expected["seqeval"], data.gold, data.predictions[0])


def test_seqeval_on_nervaluate_readme_example() -> None:
    expected = _load("expected_nervaluate_readme_example.json")
    _check_seqeval(expected["seqeval"], expected["true"], expected["pred"])


def test_seqeval_own_test_cases() -> None:
    cases = {c["source"].split("::")[-1]: c for c in _load("seqeval_test_fixtures.json")["cases"]}
    conll = cases["test_conll_f1score"]
    strict = cases["test_strict_f1score"]
    for case, mode in ((conll, "conlleval"), (strict, "strict")):
        report = T.tagging_report(case["y_true"], case["y_pred"], mode=mode)
        assert report.f1(None).tolist() == case["expected"]["None"]
        for average in ("micro", "macro", "weighted"):
            assert report.f1(average) == case["expected"][average]
    perf = cases["test_performance_measure"]
    assert T.tagging_report(perf["y_true"], perf["y_pred"]).token_counts == perf["expected"]
    report_case = cases["test_output_dict + test_output_string"]
    report = T.tagging_report(report_case["y_true"], report_case["y_pred"])
    _check_report(report, report_case["expected"]["dict"])
    _check_printed_report(report, report_case["expected"]["string"])
    prfs = cases["test_average_scores / test_scores"]
    strict_report = T.tagging_report(prfs["y_true"], prfs["y_pred"], mode="strict")
    figures = prfs["expected_2dp"]
    per_type = [strict_report.precision(None), strict_report.recall(None), strict_report.f1(None)]
    for key, values in zip("prf", per_type, strict=True):
        assert [round(v, 2) for v in values] == figures["None"][key]
    assert strict_report.counts.gold.tolist() == figures["None"]["s"]
    for average in ("micro", "macro", "weighted"):
        got = [
            strict_report.precision(average),
            strict_report.recall(average),
            strict_report.f1(average),
        ]
        assert [round(v, 2) for v in got] == figures[average][:3]
        assert strict_report.counts.gold.sum() == figures[average][3]


def _check_printed_report(report: Any, text: str) -> None:
    """Every figure of seqeval's printed classification report (2 decimals)."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\s*(.+?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)$", line)
        if m:
            rows[m.group(1)] = [float(m.group(k)) for k in (2, 3, 4)] + [int(m.group(5))]
    precision, recall, f1 = report.precision(None), report.recall(None), report.f1(None)
    for i, kind in enumerate(report.types):
        assert rows.pop(kind) == [
            round(precision[i], 2),
            round(recall[i], 2),
            round(f1[i], 2),
            report.counts.gold[i],
        ]
    for average in ("micro", "macro", "weighted"):
        got = [report.precision(average), report.recall(average), report.f1(average)]
        assert rows.pop(f"{average} avg") == [*(round(v, 2) for v in got), report.counts.gold.sum()]
    assert rows == {}


# ---------------------------------------------------------------- nervaluate


def _check_nervaluate(expected: dict[str, Any], partial: Any, partial_types: Any) -> None:
    for match, name in SCENARIOS.items():
        _same(partial[match], expected["overall"][name])
        assert set(partial_types[match]) == set(expected["entities"])
        for kind, counts in partial_types[match].items():
            _same(counts, expected["entities"][kind][name])
    _check_summary(
        expected["summary_report_overall"], {n: partial[m] for m, n in SCENARIOS.items()}
    )
    _check_summary(expected["summary_report_entities_strict"], partial_types["strict"])


def _same(counts: Any, row: dict[str, Any]) -> None:
    assert {k: getattr(counts, k) for k in COUNTS} == {k: row[k] for k in COUNTS}
    assert (counts.precision(), counts.recall(), counts.f1()) == (
        row["precision"],
        row["recall"],
        row["f1"],
    )


def _check_summary(text: str, rows: dict[str, Any]) -> None:
    """Every figure of nervaluate's printed summary (counts, and 2 decimals)."""
    printed = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 9 and parts[1].isdigit():
            printed[parts[0]] = parts[1:]
    assert set(printed) == set(rows)
    for name, counts in rows.items():
        figures = [str(getattr(counts, k)) for k in COUNTS[:5]]
        figures += [f"{v:.2f}" for v in (counts.precision(), counts.recall(), counts.f1())]
        assert printed[name] == figures


def test_nervaluate_on_the_sample(sample: tuple[Any, Any]) -> None:
    expected, data = sample
    report = T.tagging_report(data.gold, data.predictions[0])
    assert sorted(expected["nervaluate_tags"]) == list(report.types)
    _check_nervaluate(expected["nervaluate"], report.partial, report.partial_types)
    assert report.partial["strict"].correct == report.counts.tp.sum()  # strict = conlleval


def test_nervaluate_readme_example() -> None:
    expected = _load("expected_nervaluate_readme_example.json")
    report = T.tagging_report(expected["true"], expected["pred"])
    _check_nervaluate(expected["nervaluate"], report.partial, report.partial_types)
    # The README prints 0.40 for partial precision; the tool (and its formula) give 0.70.
    assert report.partial["partial"].precision() == 0.7


def test_nervaluate_semeval_scenarios() -> None:
    expected = _load("expected_nervaluate_semeval_scenarios.json")

    def spans(docs: list[list[dict[str, Any]]]) -> T.Spans:
        chunks = [[(e["label"], e["start"], e["end"]) for e in doc] for doc in docs]
        return T.Spans.from_sentences(
            chunks, lengths=[16] * len(docs), types=sorted(expected["tags"])
        )

    gold, pred = spans(expected["true"]), spans(expected["pred"])
    partial, partial_types = {}, {}
    for match in SCENARIOS:
        partial[match], partial_types[match] = T.partial_counts(gold, pred, match)
    _check_nervaluate(expected["nervaluate"], partial, partial_types)
