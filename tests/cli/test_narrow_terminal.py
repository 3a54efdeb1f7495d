"""On an 80-column terminal no header or value is cut: a table that does not fit is transposed
or shown in long form, long text wraps, and the significance marks stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app

runner = CliRunner()

METRICS = ["map", "ndcg(gain='exp')@10", "P@10", "RR", "R@100", "ndcg_cut.20"]
METRIC_ARGS = [arg for m in METRICS for arg in ("-m", m)]


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    d = tmp_path_factory.mktemp("narrow")
    qrels, runs = assay.datasets.synthetic(
        n_queries=40, docs_per_query=30, noise=(0.3, 1.0, 3.0), seed=11
    )
    qrels.to_trec(d / "qrels.txt")
    paths = []
    for name, run in zip(("bm25_baseline.run", "dense_retriever.run", "noise.run"), runs.values(), strict=True):  # fmt: skip
        run.to_trec(d / name)
        paths.append(d / name)
    return d / "qrels.txt", paths


def _table(args: list[str], columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    result = runner.invoke(app, [*args, "-f", "table"])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _cells(out: str) -> set[str]:
    """Every cell of the boxed tables (text between vertical rules), stripped."""
    cells = set()
    for line in out.splitlines():
        cells.update(part.strip() for part in re.split("[│┃]", line)[1:-1])
    return cells


def _labels(metrics: list[str]) -> list[str]:
    return [str(m) for m in assay.metrics.parse_all(metrics)]


@pytest.mark.parametrize("columns", [80, 100])
def test_compare_fits_and_keeps_every_header_value_and_mark(
    collection: tuple[Path, list[Path]], columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, runs = collection
    out = _table(
        ["compare", str(qrels), *map(str, runs), *METRIC_ARGS,
         "--n-resamples", "500"],
        columns,
        monkeypatch,
    )  # fmt: skip
    assert max(len(line) for line in out.splitlines()) <= columns
    cells = _cells(out)
    for label in _labels(METRICS):
        assert label in cells, f"metric header {label!r} cut or folded"
    # Run names may wrap inside their cell only when the cell is narrower than the name.
    assert any("bm25_baseline.run" in c for c in cells)
    cmp = assay.compare(
        assay.Qrels.from_trec(qrels),
        [assay.Run.from_trec(p) for p in runs],
        METRICS,
        n_resamples=500,
    )
    marks = {cmp.markers(r, m) for r in cmp.runs for m in cmp.metrics} - {""}
    assert marks, "the collection should give significant differences"
    for mark in marks:
        assert mark in out
    for s in cmp.summaries:
        assert f"{s.mean:.4f}" in out and f"[{s.ci_low:.4f}, {s.ci_high:.4f}]" in out


def test_a_very_narrow_terminal_wraps_but_loses_nothing(
    collection: tuple[Path, list[Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, runs = collection
    out = _table(
        ["compare", str(qrels), *map(str, runs), "-m", "map", "-m", "P@10", "--n-resamples",
         "200"],
        50,
        monkeypatch,
    )  # fmt: skip
    assert max(len(line) for line in out.splitlines()) <= 50
    flat = "".join(out.split())  # wrapped cells joined back
    cmp = assay.compare(
        assay.Qrels.from_trec(qrels),
        [assay.Run.from_trec(p) for p in runs],
        ["map", "P@10"],
        n_resamples=200,
    )
    for s in cmp.summaries:
        assert f"{s.mean:.4f}" in flat


def test_evaluate_per_query_at_80_columns(
    collection: tuple[Path, list[Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, runs = collection
    out = _table(
        ["evaluate", str(qrels), *map(str, runs), *METRIC_ARGS, "-q"],
        80,
        monkeypatch,
    )
    assert max(len(line) for line in out.splitlines()) <= 80
    cells = _cells(out)
    assert set(_labels(METRICS)) <= cells


def test_a_wide_terminal_keeps_the_wide_layout(
    collection: tuple[Path, list[Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, runs = collection
    out = _table(
        ["evaluate", str(qrels), *map(str, runs), "-m", "map", "-m", "P@10"], 200, monkeypatch
    )
    header = next(line for line in out.splitlines() if "┃" in line)
    assert "map" in header and "P@10" in header  # metrics are columns, labelled as asked


def test_metrics_catalogue_wraps_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _table(["metrics", "--family", "ranking"], 80, monkeypatch)
    assert max(len(line) for line in out.splitlines()) <= 80
    names = {c for c in _cells(out)}
    assert {"AP", "ndcg", "rbp_resid", "11pt_avg"} <= names  # names are never folded
