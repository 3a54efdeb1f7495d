"""The label aggregation result (:class:`assay.judgments.LabelAggregation`) and
:func:`assay.judgments.aggregate_labels`: the rows, gold accuracy checked by hand, the
report in every format, a bounded repr, hostile task/worker/label names in every output,
the file of aggregated labels, and the errors."""

from __future__ import annotations

import csv
import inspect
import io
import json
from pathlib import Path
from typing import get_args

import numpy as np
import pytest

from assay.errors import InputError, OptionError
from assay.judgments import (
    CrowdLabels,
    LabelAggregation,
    aggregate_labels,
    dawid_skene,
    majority_vote,
    read_crowd_labels,
)
from assay.judgments import aggregation as agg
from assay.judgments.render_crowd import SHOWN_ROWS

#: Three workers, four tasks: w3 disagrees with the others on t1 and t3.
ROWS = {
    "task": ["t1", "t1", "t1", "t2", "t2", "t2", "t3", "t3", "t4"],
    "worker": ["w1", "w2", "w3", "w1", "w2", "w3", "w1", "w3", "w2"],
    "label": ["cat", "cat", "dog", "dog", "dog", "dog", "cat", "dog", "dog"],
}
GOLD = {"t1": "cat", "t3": "dog"}
FORMATS = ("table", "markdown", "latex", "tsv", "csv", "jsonl", "json")


def test_gold_accuracy_by_hand() -> None:
    result = aggregate_labels(ROWS, method="majority_vote", gold=GOLD)
    # t1: w1 cat (right), w2 cat (right), w3 dog (wrong); t3: w1 cat (wrong), w3 dog (right)
    assert result.gold_accuracy is not None and result.n_worker_gold is not None
    assert result.gold_accuracy.tolist() == [0.5, 1.0, 0.5]
    assert result.n_worker_gold.tolist() == [2, 1, 2]
    # majority: t1 cat (right); t3 is a 1-1 tie, first seen in the rows is cat (wrong)
    assert result.label_of("t1") == "cat" and result.label_of("t3") == "cat"
    assert result.n_gold == 2
    assert result.aggregate_gold_accuracy == 0.5
    assert [r["gold"] for r in result.records()] == ["cat", None, "dog", None]
    workers = result.worker_records()
    assert [w["gold_accuracy"] for w in workers] == [0.5, 1.0, 0.5]
    assert result.provenance["n_gold"] == 2


def test_without_gold_there_are_no_gold_columns() -> None:
    result = aggregate_labels(ROWS, method="majority_vote")
    assert result.gold is None and result.gold_accuracy is None
    assert "gold" not in result.records()[0]
    assert "gold_accuracy" not in result.worker_records()[0]
    assert np.isnan(result.aggregate_gold_accuracy)


def test_records_are_one_row_per_task_with_every_class() -> None:
    result = aggregate_labels(ROWS, method="majority_vote")
    rows = result.records()
    assert [r["task"] for r in rows] == ["t1", "t2", "t3", "t4"]
    assert list(rows[0]) == ["task", "label", "posterior", "n_labels", "p_cat", "p_dog"]
    assert rows[0]["p_cat"] == pytest.approx(2 / 3) and rows[0]["posterior"] == rows[0]["p_cat"]
    assert [r["n_labels"] for r in rows] == [3, 3, 2, 1]
    assert tuple(rows[0]) == result.task_columns
    frame = result.to_pandas()
    assert frame.shape == (4, 6) and frame["label"].tolist() == ["cat", "dog", "cat", "dog"]
    assert result.worker_records()[1] == {"worker": "w2", "n_labels": 3, "skill": 1.0}


def test_convergence_is_in_provenance() -> None:
    result = dawid_skene(ROWS)
    prov = result.provenance
    assert prov["method"] == "dawid_skene" and prov["options"]["max_iter"] == 100
    assert prov["iterations"] == result.iterations > 0
    assert prov["converged"] is result.converged
    assert prov["log_likelihood"] == result.log_likelihood is not None
    assert result.confusion is not None and result.confusion.shape == (3, 2, 2)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_report_renders_in_every_format(fmt: str) -> None:
    result = aggregate_labels(ROWS, method="dawid_skene", gold=GOLD)
    text = result.report().render(fmt)  # type: ignore[arg-type]
    assert text.endswith("\n") and "t1" in text


def test_the_json_report_holds_every_task_and_worker() -> None:
    result = aggregate_labels(ROWS, method="wawa", gold=GOLD)
    doc = json.loads(result.report().render("json"))
    assert [r["task"] for r in doc["tasks"]] == list(result.tasks)
    assert [w["worker"] for w in doc["workers"]] == list(result.workers)
    assert doc["summary"]["gold_accuracy"] == result.aggregate_gold_accuracy
    assert doc["provenance"]["method"] == "wawa"


def test_the_tables_show_the_least_certain_tasks_and_least_skilled_workers() -> None:
    rng = np.random.default_rng(3)
    n = 60
    rows = {
        "task": [f"t{i}" for i in range(n) for _ in range(3)],
        "worker": [f"w{j}" for _ in range(n) for j in rng.choice(30, 3, replace=False)],
        "label": rng.integers(0, 3, 3 * n).tolist(),
    }
    result = aggregate_labels(rows, method="majority_vote")
    report = result.report()
    tasks, workers = report.more
    assert len(tasks.rows) == SHOWN_ROWS and len(workers.rows) == SHOWN_ROWS
    shown = [float(r[2]) for r in tasks.rows]
    assert shown == sorted(shown) and shown[0] == pytest.approx(result.confidence.min(), abs=1e-4)
    assert "least certain of 60 tasks" in tasks.caption
    assert len(report.records) == n  # the machine formats carry every task


def test_repr_is_one_screen() -> None:
    n = 500
    rows = {
        "task": [f"task-{i}" * 20 for i in range(n)],
        "worker": [f"w{i % 7}" for i in range(n)],
        "label": [f"class {i % 40} " * 10 for i in range(n)],
    }
    result = aggregate_labels(rows, method="majority_vote")
    text = repr(result)
    assert len(text) < 2000 and text.startswith("LabelAggregation(majority_vote: 500 tasks")
    assert "… 32 more" in text


HOSTILE = {
    "task": ["<script>alert(1)</script>", "<script>alert(1)</script>", 't,2\n"x"'],
    "worker": ['=HYPERLINK("http://x")', "w\x1b[2J\t2", '=HYPERLINK("http://x")'],
    "label": ["<b>yes</b>", "a,b\tc", "a,b\tc"],
}


def test_hostile_names_are_escaped_in_every_output() -> None:
    result = aggregate_labels(HOSTILE, method="dawid_skene")
    page = result.html(title="crowd")
    assert "<script>alert(1)</script>" not in page and "<b>yes</b>" not in page
    assert "&lt;script&gt;" in page
    notebook = result._repr_html_()
    assert "<script>" not in notebook and "<b>yes</b>" not in notebook
    # JSON keeps the names exactly
    doc = json.loads(result.report().render("json"))
    assert [r["task"] for r in doc["tasks"]] == list(result.tasks)
    assert {w["worker"] for w in doc["workers"]} == set(HOSTILE["worker"])
    assert [json.loads(line)["task"] for line in result.report().render("jsonl").splitlines()] == [
        *result.tasks
    ]
    # CSV: one record per task however the names break lines and fields (control characters
    # escaped as every CSV output of assay escapes them)
    parsed = list(csv.DictReader(io.StringIO(result.report().render("csv"))))
    assert len(parsed) == 2
    escaped = [result.label_of(t).replace("\t", "\\t") for t in result.tasks]
    assert [r["label"] for r in parsed] == escaped
    assert "p_a,b\\tc" in parsed[0]
    # TSV: a tab or newline in a name never splits a row
    lines = result.report().render("tsv").splitlines()
    assert len(lines) == 3 and all(line.count("\t") == lines[0].count("\t") for line in lines)
    for fmt in ("table", "markdown", "latex", "tsv", "csv"):
        assert "\x1b" not in result.report().render(fmt), fmt  # no terminal escape gets through


def test_hostile_worker_names_as_formulas_are_defused_in_csv() -> None:
    result = aggregate_labels(HOSTILE, method="majority_vote", gold={'t,2\n"x"': "a,b\tc"})
    out = io.StringIO()
    from assay.report.records import render_records

    out.write(render_records(result.worker_records(), "csv", columns=result.worker_columns))
    assert "\n=HYPERLINK" not in out.getvalue() and "'=HYPERLINK" in out.getvalue()


@pytest.mark.parametrize("ext", ["csv", "tsv", "jsonl", "parquet"])
def test_write_labels_round_trips(tmp_path: Path, ext: str) -> None:
    import pandas as pd

    result = aggregate_labels(ROWS, method="dawid_skene", gold=GOLD)
    path = result.write_labels(tmp_path / f"agg.{ext}")
    if ext == "parquet":
        frame = pd.read_parquet(path)
    elif ext == "jsonl":
        frame = pd.read_json(path, lines=True)
    else:
        frame = pd.read_csv(path, sep="," if ext == "csv" else "\t")
    assert list(frame.columns) == list(result.task_columns)
    assert frame["task"].tolist() == list(result.tasks)
    assert frame["label"].tolist() == [result.label_of(t) for t in result.tasks]
    assert np.allclose(frame["posterior"].to_numpy(), result.confidence)


def test_write_labels_refuses_the_labels_file_and_unknown_formats(tmp_path: Path) -> None:
    source = tmp_path / "labels.csv"
    source.write_text("task,worker,label\nt1,w1,a\nt1,w2,a\n", encoding="utf-8")
    result = aggregate_labels(str(source), method="majority_vote")
    before = source.read_text(encoding="utf-8")
    with pytest.raises(OptionError, match="labels' own file"):
        result.write_labels(source)
    assert source.read_text(encoding="utf-8") == before
    with pytest.raises(OptionError, match=r"\.xlsx"):
        result.write_labels(tmp_path / "out.xlsx")
    with pytest.raises(OptionError, match="format"):
        result.write_labels(tmp_path / "out.csv", format="xml")
    written = result.write_labels(tmp_path / "out.txt", format="tsv")
    assert written.read_text(encoding="utf-8").startswith("task\tlabel\t")


def test_label_of_an_unknown_task_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no task 'nope'"):
        majority_vote(ROWS).label_of("nope")


def test_bad_methods_and_options_are_option_errors() -> None:
    with pytest.raises(OptionError) as info:
        aggregate_labels(ROWS, method="median")  # type: ignore[arg-type]
    assert info.value.option == "method"
    with pytest.raises(OptionError, match="has no option learning_rate") as info:
        aggregate_labels(ROWS, method="dawid_skene", learning_rate=0.5)
    assert info.value.option == "learning_rate"
    with pytest.raises(OptionError) as info:
        aggregate_labels(ROWS, method="dawid_skene", max_iter=-1)
    assert info.value.option == "max_iter"
    with pytest.raises(OptionError) as info:
        aggregate_labels(ROWS, method="mace", n_restarts=10**9)
    assert info.value.option == "n_restarts"


def test_a_gold_label_outside_the_classes_is_an_input_error() -> None:
    with pytest.raises(InputError, match="not one of the classes"):
        aggregate_labels(ROWS, method="majority_vote", gold={"t1": "bird"})
    with pytest.raises(InputError, match="has no crowd label"):
        aggregate_labels(ROWS, method="majority_vote", gold={"t9": "cat"})


def test_crowd_labels_read_once_are_taken_as_they_are() -> None:
    crowd = read_crowd_labels(ROWS, labels=["dog", "cat"])
    result = aggregate_labels(crowd, method="majority_vote")
    assert result.classes == ("dog", "cat") and isinstance(crowd, CrowdLabels)
    # t3 is a tie; first seen in the rows is cat, whatever the declared order
    assert result.label_of("t3") == "cat"
    assert aggregate_labels(crowd, method="majority_vote", ties="lowest").label_of("t3") == "dog"


def test_every_method_is_declared_and_reachable_by_name() -> None:
    assert get_args(agg.CrowdMethod) == agg.METHODS
    for method in agg.METHODS:
        result = aggregate_labels(ROWS, method=method)  # type: ignore[arg-type]
        assert isinstance(result, LabelAggregation) and result.method == method
        assert np.allclose(result.posterior.sum(axis=1), 1.0)


def test_the_declared_defaults_are_the_kernels() -> None:
    """One default per option: each public method's signature repeats its kernel's."""
    for method in agg.METHODS:
        public = inspect.signature(getattr(agg, method)).parameters
        kernel = inspect.signature(agg.kernel(method)).parameters
        for name, p in public.items():
            if p.kind is not p.KEYWORD_ONLY:
                continue
            own = agg._KERNEL_NAMES.get((method, name), name)
            assert own in kernel, (method, name)
            assert repr(kernel[own].default) == repr(p.default), (method, name)
        options = {n for n, p in kernel.items() if p.kind is p.KEYWORD_ONLY} - {"gold"}
        declared = {agg._KERNEL_NAMES.get((method, n), n) for n in public if n != "labels"}
        assert options == declared, method


def test_the_option_types_are_the_kernels() -> None:
    from assay.judgments import _dawid_skene, _voting
    from assay.judgments import options as judgment_options

    assert get_args(_voting.LabelTies) == get_args(judgment_options.LabelTies)
    assert get_args(_dawid_skene.DawidSkeneInit) == get_args(judgment_options.DawidSkeneInit)


def test_the_document_draws_skills_classes_and_confusion_matrices() -> None:
    result = dawid_skene(ROWS)
    doc = result.document()
    plots = [i["plot"] for s in doc["sections"] for i in s["items"] if "plot" in i]
    kinds = [p["kind"] for p in plots]
    assert kinds == ["hbar", "bars", "heatmap"]
    assert len(plots[2]["panels"]) == 2
    assert doc["family"] == "judgments" and len(doc["records"]) == 4
    many = {
        "task": [f"t{i}" for i in range(100)],
        "worker": [f"w{i}" for i in range(100)],
        "label": ["a", "b"] * 50,
    }
    plots = [
        i["plot"]
        for s in majority_vote(many).document()["sections"]
        for i in s["items"]
        if "plot" in i
    ]
    assert [p["kind"] for p in plots] == ["line", "bars"]


def test_fit_gold_fixes_the_gold_tasks_and_needs_a_method_that_can() -> None:
    free = aggregate_labels(ROWS, method="dawid_skene", gold=GOLD)
    fixed = aggregate_labels(ROWS, method="dawid_skene", gold=GOLD, fit_gold=True)
    assert free.provenance["fit_gold"] is False and fixed.provenance["fit_gold"] is True
    assert fixed.label_of("t3") == "dog" and fixed.aggregate_gold_accuracy == 1.0
    t3 = fixed.tasks.index("t3")
    assert fixed.posterior[t3].tolist() == pytest.approx([0.0, 1.0], abs=1e-9)
    with pytest.raises(OptionError, match="needs gold") as info:
        aggregate_labels(ROWS, method="dawid_skene", fit_gold=True)
    assert info.value.option == "fit_gold"
    with pytest.raises(OptionError, match="cannot fix known labels") as info:
        aggregate_labels(ROWS, method="glad", gold=GOLD, fit_gold=True)
    assert info.value.option == "fit_gold"
