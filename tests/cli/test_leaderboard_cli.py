"""``assay leaderboard``: the ``--report`` page is the one :func:`assay.judgments.leaderboard`
builds (the same bytes from the Python API), what it prints is the result's report, method
options reach the method, every output format and ``--save`` work, and errors are one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.judgments import leaderboard, read_comparisons
from conftest import shared_file
from support.cli import invoke

TITLE = "assay leaderboard"


def _votes(tmp_path: Path) -> Path:
    path = tmp_path / "votes.tsv"
    rows = ["model_a\tmodel_b\toutcome\tw"]
    pairs = [
        ("x", "y", "left"),
        ("y", "z", "tie"),
        ("z", "x", "right"),
        ("x", "z", "left"),
        ("y", "x", "left"),
        ("z", "y", "left"),
        ("x", "y", "left"),
    ]
    rows += [f"{a}\t{b}\t{w}\t{1 + i % 2}" for i, (a, b, w) in enumerate(pairs)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_report_page_from_the_api(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    food = shared_file("pairwise", "food.csv")
    page = tmp_path / "board.html"
    code, _, err = invoke(
        "leaderboard", food, "--n-resamples", "100", "--seed", "3", "--report", page
    )
    assert code == 0, err
    result = leaderboard(read_comparisons(food), n_resamples=100, seed=3)
    assert result.html(title=TITLE) == page.read_text(encoding="utf-8")


def test_printed_table_is_the_report(tmp_path: Path) -> None:
    votes = _votes(tmp_path)
    args = ("--left", "model_a", "--right", "model_b", "--winner", "outcome", "--weight", "w")
    code, out, err = invoke(
        "leaderboard",
        votes,
        *args,
        "--method",
        "elo",
        "--k",
        "16",
        "--n-resamples",
        "30",
        "-f",
        "tsv",
    )
    assert code == 0, err
    data = read_comparisons(votes, left="model_a", right="model_b", winner="outcome", weight="w")
    assert out == leaderboard(data, method="elo", k=16.0, n_resamples=30).report().render("tsv")


@pytest.mark.parametrize("fmt", ["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"])
def test_every_output_format(tmp_path: Path, fmt: str) -> None:
    code, out, err = invoke(
        "leaderboard", shared_file("pairwise", "food.csv"), "--n-resamples", "20", "-f", fmt
    )
    assert code == 0, err
    assert "Tacos" in out


def test_save_and_report_later(tmp_path: Path) -> None:
    saved = tmp_path / "board.json"
    food = shared_file("pairwise", "food.csv")
    code, _, err = invoke(
        "leaderboard", food, "--n-resamples", "20", "--ties", "davidson", "--save", saved, "--quiet"
    )
    assert code == 0, err
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert doc["documents"][0]["provenance"]["options"]["ties"] == "davidson"
    code, out, err = invoke("report", saved, "-f", "markdown")
    assert code == 0, err
    assert "Tacos" in out and "Leaderboard" in out


def test_errors_are_one_line(tmp_path: Path) -> None:
    food = shared_file("pairwise", "food.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("left,right,winner\na,b,left\nc,c,tie\n", encoding="utf-8")
    for args, needle in [
        ((food, "--k", "3"), "takes no option 'k'"),
        ((food, "--method", "elo", "--damping", "0.5"), "takes no option 'damping'"),
        ((food, "--max-iter", "0"), "max_iter"),
        ((bad,), "bad.csv:3"),
        ((food, "--input-format", "parquet"), "food.csv"),
    ]:
        code, out, err = invoke("leaderboard", *args, "--n-resamples", "5")
        assert code == 2 and out == "", args
        assert len(err.strip().splitlines()) == 1 and needle in err, (args, err)
