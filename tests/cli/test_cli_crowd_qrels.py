"""``assay crowd-qrels JUDGMENTS [RUN...]`` in process: every output format, the qrels file,
the ``--report`` page (the library's, byte for byte), ``--save``, and bad input as one line
with exit code 2."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import assay
from assay.judgments import crowd_qrels
from assay.report.document import load
from strategies.crowd_qrels import simulated_crowd, write_crowd_csv
from support.cli import assert_one_line_error, invoke

TITLE = "assay crowd-qrels"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("crowd-qrels")
    qrels, runs = assay.datasets.synthetic(n_queries=5, docs_per_query=8, seed=3)
    out = {"judgments": d / "crowd.csv"}
    write_crowd_csv(out["judgments"], simulated_crowd(qrels, n_workers=6, per_doc=3, seed=4))
    for name, run in runs.items():
        out[name] = d / f"{name}.run"
        run.to_trec(out[name], tag=name)
    return out


def _runs(files: dict[str, Path]) -> list[Path]:
    return [p for k, p in files.items() if k != "judgments"]


@pytest.mark.parametrize("fmt", ["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"])
def test_every_output_format(files: dict[str, Path], fmt: str) -> None:
    code, out, err = invoke(
        "crowd-qrels", files["judgments"], *_runs(files), "--method", "majority_vote", "-f", fmt
    )
    assert code == 0, err
    res = crowd_qrels(
        files["judgments"],
        method="majority_vote",
        runs=[assay.Run.read(p, name=p.name) for p in _runs(files)],
    )
    assert out == res.report().render(fmt)  # type: ignore[arg-type]
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        assert {r["kind"] for r in rows} == {"summary", "topic", "overall", "system"}
    if fmt == "json":
        assert json.loads(out)["provenance"]["method"] == "majority_vote"


def test_out_writes_the_aggregated_qrels(files: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "crowd.qrels"
    code, _, err = invoke(
        "crowd-qrels", files["judgments"], "--method", "wawa", "--out", target, "-f", "tsv"
    )
    assert code == 0, err
    want = crowd_qrels(files["judgments"], method="wawa").qrels
    assert list(assay.Qrels.read(target)) == list(want)


def test_report_is_the_librarys_page_and_save_its_document(
    files: dict[str, Path], tmp_path: Path
) -> None:
    page, saved = tmp_path / "page.html", tmp_path / "saved.json"
    code, _, err = invoke(
        "crowd-qrels",
        files["judgments"],
        *_runs(files),
        "--max-iter",
        "50",
        "--tolerance",
        "1e-6",
        "--report",
        page,
        "--save",
        saved,
        "--quiet",
        "-f",
        "tsv",
    )
    assert code == 0, err
    res = crowd_qrels(
        files["judgments"],
        runs=[assay.Run.read(p, name=p.name) for p in _runs(files)],
        max_iter=50,
        tolerance=1e-6,
    )
    assert page.read_text(encoding="utf-8") == res.html(title=TITLE)
    (doc,) = load(saved)
    assert doc == res.document()


def test_options_reach_the_library(files: dict[str, Path]) -> None:
    code, out, err = invoke(
        "crowd-qrels",
        files["judgments"],
        "--method",
        "majority_vote",
        "--grades",
        "0,1,2,3,4,5",
        "--grade-rule",
        "expected",
        "--level",
        "interval",
        "-f",
        "json",
    )
    assert code == 0, err
    prov = json.loads(out)["provenance"]
    assert prov["grades"] == [0, 1, 2, 3, 4, 5]
    assert prov["grade_rule"] == "expected" and prov["level"] == "interval"


def test_bad_input_is_one_line(files: dict[str, Path], tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("query,doc,worker,grade\nq,d,a,1\nq,d,b,high\n", encoding="utf-8")
    assert_one_line_error(*invoke("crowd-qrels", bad), f"{bad}:3", "grade 'high'")
    assert_one_line_error(*invoke("crowd-qrels", files["judgments"], "--grades", "0,x"), "--grades")
    assert_one_line_error(
        *invoke("crowd-qrels", files["judgments"], "--grades", "0,1"),
        "is not one of the declared grades 0, 1",
    )
    assert_one_line_error(
        *invoke("crowd-qrels", files["judgments"], "--out", files["judgments"]), "--out"
    )
    text = tmp_path / "crowd.txt"
    text.write_bytes(files["judgments"].read_bytes())
    assert_one_line_error(*invoke("crowd-qrels", text), "--judgments-format")
    code, _, err = invoke("crowd-qrels", text, "--judgments-format", "csv", "-f", "tsv")
    assert code == 0, err
    run = _runs(files)[0]
    assert_one_line_error(*invoke("crowd-qrels", files["judgments"], run), "at least 2 runs")
    assert_one_line_error(
        *invoke("crowd-qrels", files["judgments"], *_runs(files), "-m", "nope"), "nope"
    )


def test_the_judgments_file_is_never_overwritten(files: dict[str, Path]) -> None:
    before = files["judgments"].read_bytes()
    code, _, _ = invoke("crowd-qrels", files["judgments"], "-o", files["judgments"])
    assert code == 2
    assert files["judgments"].read_bytes() == before
