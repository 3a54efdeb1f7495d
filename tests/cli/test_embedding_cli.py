"""``assay embed``, run in-process with typer's CliRunner: every output format, the numbers
of the Python API, the views (per class, per query, curves), and one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from assay.cli import app
from assay.embeddings import error_reject_curve, retrieval_metrics

FORMATS = ["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2 and out == ""
    assert err.startswith("assay: error: ") and err.count("\n") == 1, err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    rng = np.random.default_rng(2)
    labels = rng.integers(0, 4, 50)
    x = (rng.normal(size=(4, 6))[labels] + rng.normal(scale=0.8, size=(50, 6))).astype(np.float32)
    paths = {"emb": tmp_path / "q.npy", "labels": tmp_path / "q.txt", "conf": tmp_path / "c.txt"}
    np.save(paths["emb"], x)
    paths["labels"].write_text("".join(f"c{v}\n" for v in labels))
    paths["conf"].write_text("".join(f"{v}\n" for v in rng.random(50)))
    ref = tmp_path / "r.csv"
    ref.write_text("\n".join(",".join(repr(float(v)) for v in row) for row in x[:30]) + "\n")
    (tmp_path / "r.txt").write_text("".join(f"c{v}\n" for v in labels[:30]))
    return {k: str(v) for k, v in {**paths, "ref": ref, "ref_labels": tmp_path / "r.txt"}.items()}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format(files: dict[str, str], fmt: str) -> None:
    code, out, err = run(
        "embed", files["emb"], files["labels"], "-m", "precision@1", "-m", "map@r", "-f", fmt
    )
    assert code == 0, err
    assert "map_at_r" in out.replace("\\_", "_")


def test_numbers_are_the_api_s(files: dict[str, str]) -> None:
    code, out, _ = run(
        "embed", files["emb"], files["labels"], "-m", "recall@4", "-m", "ndcg@5",
        "--distance", "cosine", "--confidence", files["conf"], "-f", "json",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    x = np.load(files["emb"])
    labels = [line for line in Path(files["labels"]).read_text().splitlines()]
    res = retrieval_metrics(x, labels, metrics=["recall@4", "ndcg@5"], distance="cosine")
    conf = np.loadtxt(files["conf"])
    for row in doc["records"]:
        assert row["mean"] == res.mean(row["metric"])
        assert row["class_mean"] == res.class_mean(row["metric"])
        assert row["aurc"] == error_reject_curve(res, conf, metric=row["metric"]).area
    assert doc["provenance"]["distance"] == "cosine" and doc["provenance"]["exclude_self"] is True


def test_reference_set_and_views(files: dict[str, str]) -> None:
    base = ["embed", files["emb"], files["labels"], "--reference", files["ref"],
            "--reference-labels", files["ref_labels"], "-f", "csv"]  # fmt: skip
    code, out, err = run(*base, "--per-class", "-m", "mrr")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["class"] for r in rows} == {"c0", "c1", "c2", "c3"} and rows[0]["metric"].startswith(
        "mrr@"
    )
    code, out, _ = run(*base, "--per-query")
    assert code == 0 and len(list(csv.DictReader(io.StringIO(out)))) == 3 * 50
    code, out, _ = run(*base, "--curve", "--confidence", files["conf"], "-m", "precision@1")
    assert code == 0 and len(list(csv.DictReader(io.StringIO(out)))) == 50
    code, out, _ = run(*base, "--backend", "numpy", "-k", "3", "-m", "precision", "-f", "tsv")
    assert code == 0 and out.splitlines()[1].startswith("precision@3\t")


def test_errors_are_one_line(files: dict[str, str], tmp_path: Path) -> None:
    one_line_error(
        *run("embed", files["emb"], files["ref_labels"]), "r.txt has 30 labels", "50 embeddings"
    )
    one_line_error(*run("embed", files["emb"], files["labels"], "-k", "60"), "k=60", "49 items")
    one_line_error(
        *run("embed", files["emb"], files["labels"], "--reference", files["ref"]), "together"
    )
    one_line_error(
        *run("embed", files["emb"], files["labels"], "--curve"), "--curve needs --confidence"
    )
    one_line_error(
        *run("embed", files["emb"], files["labels"], "--per-class", "--per-query"), "choose one"
    )
    one_line_error(
        *run("embed", files["emb"], files["labels"], "-m", "bleu"), "unknown embedding metric"
    )
    one_line_error(
        *run("embed", files["emb"], files["labels"], "--confidence", files["ref_labels"]), "r.txt"
    )
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2\n3,oops\n")
    one_line_error(*run("embed", str(bad), files["labels"]), "bad.csv:2:", "'oops' is not a number")
    code, _, err = run("embed", files["emb"], files["labels"], "--distance", "l1")
    assert code == 2 and "Traceback" not in err


def test_lone_queries_are_a_warning(files: dict[str, str], tmp_path: Path) -> None:
    labels = Path(files["labels"]).read_text().splitlines()
    labels[0] = "alone"
    path = tmp_path / "lone.txt"
    path.write_text("\n".join(labels) + "\n")
    code, out, err = run("embed", files["emb"], str(path), "-f", "tsv")
    assert code == 0
    assert (
        err
        == "assay: warning: 1 of 50 queries have no other reference of their class (R = 0) and are left out of the means\n"
    )
    assert out.splitlines()[1].split("\t")[3:] == ["49", "1"]
