"""The ``--report`` page of the ``assay ltr`` commands is the library's: built from the
Python API in at most two calls (reading the data aside), it equals the CLI's byte for byte
with the same title. On LightGBM's lambdarank example (the linear model and the random
floor: no LambdaMART, for speed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay import ltr
from conftest import shared_file
from support.cli import invoke

RUN = ["--models", "linear,random", "--n-resamples", "500", "--seed", "3"]


def _folder() -> Path:
    return shared_file("lightgbm_lambdarank", "rank.train").parent


# The library's side of the comparisons, computed once for the tests that share it (each
# test computed it again: an experiment with its page, and the length analysis, twice each).
@pytest.fixture(scope="module")
def splits() -> dict[str, ltr.LetorDataset]:
    return ltr.load(_folder())


@pytest.fixture(scope="module")
def plain_page(splits: dict[str, ltr.LetorDataset]) -> str:
    """The page of the experiment ``assay ltr run`` with RUN runs, built by the library."""
    exp = ltr.run_experiment(splits, ["linear", "random"], n_resamples=500, seed=3)
    return exp.html(title="assay ltr run")


@pytest.fixture(scope="module")
def length_analysis(splits: dict[str, ltr.LetorDataset]) -> ltr.Analysis:
    return ltr.analyze(splits, "length", ["linear", "random"])


def test_ltr_run_report_is_the_experiments_html(tmp_path: Path, plain_page: str) -> None:
    page = tmp_path / "run.html"
    code, _, err = invoke("ltr", "run", _folder(), *RUN, "--report", page, "--quiet")
    assert code == 0, err
    assert plain_page == page.read_text(encoding="utf-8")


def test_ltr_analyze_report_is_the_analysis_html(
    tmp_path: Path, length_analysis: ltr.Analysis
) -> None:
    page = tmp_path / "analysis.html"
    args = ["length", "--models", "linear,random", "--report", page, "--quiet"]
    code, _, err = invoke("ltr", "analyze", _folder(), *args)
    assert code == 0, err
    assert length_analysis.html(title="assay ltr analyze") == page.read_text(encoding="utf-8")


def test_ltr_stats_prints_the_collections_report(splits: dict[str, ltr.LetorDataset]) -> None:
    code, out, err = invoke("ltr", "stats", _folder(), "-f", "tsv")
    assert code == 0, err
    assert ltr.collection_stats(splits).report().render("tsv") == out


def test_ltr_results_read_well_in_a_notebook(
    splits: dict[str, ltr.LetorDataset], length_analysis: ltr.Analysis
) -> None:
    results = [
        ltr.run_experiment(splits, ["linear", "random"], n_resamples=200),
        ltr.collection_stats(splits),
        splits["train"].stats(),
        ltr.feature_stats(splits["train"]),
        length_analysis,
    ]
    for result in results:
        text = repr(result)
        assert text.startswith(type(result).__name__ + "(") and len(text) < 2000, text
        assert result._repr_html_().startswith("<")


def test_ltr_run_report_with_norm_is_the_experiments_html(
    tmp_path: Path, splits: dict[str, ltr.LetorDataset], plain_page: str
) -> None:
    """``--norm`` is the experiment's ``norm``: the models are trained, and the report's
    analyses made, on the normalised splits (the analyses were once of the raw ones)."""
    page = tmp_path / "run.html"
    code, _, err = invoke("ltr", "run", _folder(), *RUN, "--norm", "zscore", "--report", page)
    assert code == 0, err
    models = ["linear", "random"]
    exp = ltr.run_experiment(splits, models, n_resamples=500, seed=3, norm="zscore")
    assert exp.html(title="assay ltr run") == page.read_text(encoding="utf-8")
    assert plain_page != page.read_text(encoding="utf-8")
