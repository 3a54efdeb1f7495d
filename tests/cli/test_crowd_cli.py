"""``assay aggregate-labels``: what it prints is the library's result's report, its --report
page is the API's page byte for byte, --out writes the aggregated labels (never over an
input), and bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assay.judgments import aggregate_labels, read_crowd_labels
from support.cli import assert_one_line_error, invoke

TITLE = "assay aggregate-labels"


def _labels(tmp_path: Path, n_tasks: int = 30, seed: int = 0) -> Path:
    """Crowd labels of 3 classes: 8 workers of skill 0.9 down to 0.3, 4 labels per task."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n_tasks)
    skill = np.linspace(0.9, 0.3, 8)
    lines = ["task,worker,label"]
    for t in range(n_tasks):
        for w in rng.choice(8, 4, replace=False):
            right = rng.random() < skill[w]
            label = truth[t] if right else rng.integers(0, 3)
            lines.append(f"task{t},worker{w},{['neg', 'neutral', 'pos'][label]}")
    path = tmp_path / "labels.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("method", ["dawid_skene", "majority_vote", "glad"])
def test_the_report_page_is_the_apis(tmp_path: Path, method: str) -> None:
    labels = _labels(tmp_path)
    page = tmp_path / "page.html"
    code, out, err = invoke(
        "aggregate-labels", labels, "--method", method, "--report", page, "-f", "tsv"
    )
    assert code == 0, err
    result = aggregate_labels(str(labels), method=method)
    assert result.html(title=TITLE) == page.read_text(encoding="utf-8")
    assert out == result.report().render("tsv")


def test_options_reach_the_method_and_gold_is_scored(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    gold = tmp_path / "gold.csv"
    gold.write_text("task,true_label\ntask0,pos\ntask1,neg\n", encoding="utf-8")
    code, out, err = invoke(
        "aggregate-labels",
        labels,
        "--method",
        "zbs",
        "--max-iter",
        "7",
        "--option",
        "learning_rate=0.5",
        "--gold",
        gold,
        "-f",
        "json",
    )
    assert code == 0, err
    doc = json.loads(out)
    expected = aggregate_labels(
        str(labels), method="zbs", max_iter=7, learning_rate=0.5, gold=str(gold)
    )
    assert doc["provenance"]["options"]["max_iter"] == 7
    assert doc["provenance"]["options"]["learning_rate"] == 0.5
    assert doc["summary"]["gold_tasks"] == 2
    assert expected.gold_accuracy is not None
    # JSON writes NaN (a worker without a gold task) as null
    shown = [np.nan if w["gold_accuracy"] is None else w["gold_accuracy"] for w in doc["workers"]]
    assert np.allclose(shown, expected.gold_accuracy, equal_nan=True)
    assert np.isnan(expected.gold_accuracy).any()
    assert [r["label"] for r in doc["tasks"]] == [r["label"] for r in expected.records()]


def test_mace_takes_max_iter_as_its_steps(tmp_path: Path) -> None:
    labels = _labels(tmp_path, n_tasks=10)
    code, out, err = invoke(
        "aggregate-labels", labels, "--method", "mace", "--max-iter", "3", "--n-restarts", "2",
        "--inference", "em", "--seed", "4", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    options = json.loads(out)["provenance"]["options"]
    assert (options["n_iter"], options["n_restarts"], options["inference"], options["seed"]) == (
        3,
        2,
        "em",
        4,
    )


def test_columns_declared_labels_and_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "renamed.tsv"
    path.write_text("item\tannotator\tgrade\nd1\ta\t1\nd1\tb\t0\nd1\tb\t0\nd2\ta\t2\n", "utf-8")
    code, out, err = invoke(
        "aggregate-labels", path, "--task", "item", "--worker", "annotator", "--label", "grade",
        "--method", "majority_vote", "-f", "json",
    )  # fmt: skip
    assert_one_line_error(code, out, err, "again", "--duplicates keep")
    code, out, err = invoke(
        "aggregate-labels", path, "--task", "item", "--worker", "annotator", "--label", "grade",
        "--method", "majority_vote", "--duplicates", "keep", "--labels", "2", "--labels", "1",
        "--labels", "0", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    doc = json.loads(out)
    assert doc["tasks"][0]["label"] == "0" and list(doc["tasks"][0])[-3:] == ["p_2", "p_1", "p_0"]
    code, out, err = invoke(
        "aggregate-labels", path, "--task", "item", "--worker", "annotator", "--label", "grade",
        "--duplicates", "keep", "--labels", "0", "--labels", "1",
    )  # fmt: skip
    assert_one_line_error(code, out, err, "not one of the declared labels")


@pytest.mark.parametrize("ext", ["csv", "tsv", "jsonl", "parquet"])
def test_out_writes_the_aggregated_labels(tmp_path: Path, ext: str) -> None:
    labels = _labels(tmp_path)
    target = tmp_path / f"aggregated.{ext}"
    code, _, err = invoke("aggregate-labels", labels, "--out", target, "-f", "csv", "--quiet")
    assert code == 0, err
    written = read_crowd_labels(str(target), worker="n_labels")  # any column as the worker
    result = aggregate_labels(str(labels))
    assert written.tasks == result.tasks
    assert [written.classes[c] for c in written.label.tolist()] == [
        result.label_of(t) for t in result.tasks
    ]


def test_out_never_writes_over_an_input(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    before = labels.read_bytes()
    code, out, err = invoke("aggregate-labels", labels, "--out", labels)
    assert_one_line_error(code, out, err, "--out", "input")
    assert labels.read_bytes() == before
    code, out, err = invoke("aggregate-labels", labels, "--out", tmp_path / "a.csv", "-o",
                            tmp_path / "a.csv")  # fmt: skip
    assert_one_line_error(code, out, err, "same file")
    code, out, err = invoke("aggregate-labels", labels, "--out", tmp_path / "a.xlsx")
    assert_one_line_error(code, out, err, ".xlsx")


def test_save_and_report_later(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    saved = tmp_path / "saved.json"
    code, _, err = invoke("aggregate-labels", labels, "--save", saved, "-f", "csv")
    assert code == 0, err
    code, out, err = invoke("report", saved, "-f", "markdown")
    assert code == 0, err
    assert "Label aggregation (Dawid–Skene)" in out and "Workers" in out


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("task,worker\nt1,w1\n", encoding="utf-8")
    assert_one_line_error(*invoke("aggregate-labels", bad), "label")
    labels = _labels(tmp_path)
    assert_one_line_error(*invoke("aggregate-labels", labels, "--option", "nope"), "NAME=VALUE")
    assert_one_line_error(
        *invoke("aggregate-labels", labels, "--option", "learning_rate=2"), "learning_rate"
    )
    gold = tmp_path / "gold.csv"
    gold.write_text("task,label\ntask0,maybe\n", encoding="utf-8")
    assert_one_line_error(*invoke("aggregate-labels", labels, "--gold", gold), "maybe")


def test_fit_gold_reaches_the_fit(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    gold = tmp_path / "gold.csv"
    gold.write_text("task,label\ntask0,pos\ntask1,neg\ntask2,neutral\n", encoding="utf-8")
    code, out, err = invoke("aggregate-labels", labels, "--gold", gold, "--fit-gold", "-f", "json")
    assert code == 0, err
    doc = json.loads(out)
    expected = aggregate_labels(str(labels), gold=str(gold), fit_gold=True)
    assert doc["provenance"]["fit_gold"] is True and doc["summary"]["gold_accuracy"] == 1.0
    assert [r["posterior"] for r in doc["tasks"]] == pytest.approx(expected.confidence.tolist())
    code, out, err = invoke("aggregate-labels", labels, "--fit-gold")
    assert_one_line_error(code, out, err, "fit_gold", "gold")
