"""``assay compare`` in process: records, every format, a bad baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app
from support.ranking import three_systems


@pytest.fixture(scope="module")
def collection() -> tuple[assay.Qrels, dict[str, assay.Run]]:
    return three_systems()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, collection: tuple) -> tuple[Path, list[Path]]:
    qrels, runs = collection
    d = tmp_path_factory.mktemp("cmp")
    qp = d / "qrels.txt"
    qrels.to_trec(qp)
    paths = []
    for name, run in runs.items():
        p = d / f"{name}.run"
        run.to_trec(p)
        paths.append(p)
    return qp, paths


def test_cli_jsonl_records(files: tuple[Path, list[Path]]) -> None:
    qp, paths = files
    result = CliRunner().invoke(
        app,
        [
            "compare",
            str(qp),
            *map(str, paths),
            "-m",
            "ndcg@10",
            "--baseline",
            "bad.run",
            "--n-resamples",
            "500",
            "-f",
            "jsonl",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    from assay.results import COMPARISON_FIELDS

    assert all(list(r) == list(COMPARISON_FIELDS) for r in rows)
    assert {r["kind"] for r in rows} == {"mean", "difference"}
    pairs = [r for r in rows if r["baseline"] is not None]
    assert {r["run"] for r in pairs} == {"good.run", "mid.run"}
    assert all(r["baseline"] == "bad.run" and 0 <= r["p_adjusted"] <= 1 for r in pairs)


@pytest.mark.parametrize("fmt", ["table", "tsv", "csv", "json", "markdown", "latex"])
def test_cli_formats(files: tuple[Path, list[Path]], fmt: str) -> None:
    qp, paths = files
    result = CliRunner().invoke(
        app,
        [
            "compare",
            str(qp),
            *map(str, paths),
            "-m",
            "P@10",
            "-m",
            "map",
            "--n-resamples",
            "300",
            "-f",
            fmt,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "good.run" in result.stdout


def test_cli_bad_baseline_exits_2(files: tuple[Path, list[Path]]) -> None:
    qp, paths = files
    result = CliRunner().invoke(app, ["compare", str(qp), *map(str, paths), "--baseline", "nope"])
    assert result.exit_code == 2
    assert "baseline" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("fmt", ["jsonl", "table", "latex"])
def test_cli_risk_alpha(files: tuple[Path, list[Path]], collection: tuple, fmt: str) -> None:
    """--risk-alpha adds URisk/TRisk rows (and their two columns) against the baseline: the
    library's, in every format."""
    qp, paths = files
    argv = [
        "compare",
        str(qp),
        *map(str, paths),
        "-m",
        "ndcg@10",
        "--baseline",
        "bad.run",
        "--test",
        "t",
        "--ci-method",
        "t",
        "--risk-alpha",
        "5",
        "-f",
        fmt,
    ]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    qrels, runs = collection
    want = assay.compare(
        qrels,
        {f"{n}.run": r for n, r in runs.items()},
        "ndcg@10",
        baseline="bad.run",
        test="t",
        ci_method="t",
        risk_alpha=5,
    )
    if fmt != "jsonl":
        assert "Risk against the baseline" in result.stdout or "URisk" in result.stdout
        return
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    risks = [r for r in rows if r["kind"] == "risk"]
    assert [r["run"] for r in risks] == [r.run for r in want.risks]
    assert [r["trisk"] for r in risks] == pytest.approx([r.trisk for r in want.risks])
    assert all(r["risk_alpha"] == 5.0 for r in risks)
