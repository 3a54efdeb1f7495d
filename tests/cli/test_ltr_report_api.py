"""The ``--report`` page of the ``assay ltr`` commands is the library's: built from the
Python API in at most two calls (reading the data aside), it equals the CLI's byte for byte
with the same title. On LightGBM's lambdarank example (the linear model and the random
floor: no LambdaMART, for speed)."""

from __future__ import annotations

from pathlib import Path

from assay import ltr
from conftest import shared_file
from support.cli import invoke

RUN = ["--models", "linear,random", "--n-resamples", "500", "--seed", "3"]


def _folder() -> Path:
    return shared_file("lightgbm_lambdarank", "rank.train").parent


def test_ltr_run_report_is_the_experiments_html(tmp_path: Path) -> None:
    page = tmp_path / "run.html"
    code, _, err = invoke("ltr", "run", _folder(), *RUN, "--report", page, "--quiet")
    assert code == 0, err
    splits = ltr.load(_folder())
    exp = ltr.run_experiment(splits, ["linear", "random"], n_resamples=500, seed=3)
    assert exp.html(title="assay ltr run") == page.read_text(encoding="utf-8")


def test_ltr_analyze_report_is_the_analysis_html(tmp_path: Path) -> None:
    page = tmp_path / "analysis.html"
    args = ["length", "--models", "linear,random", "--report", page, "--quiet"]
    code, _, err = invoke("ltr", "analyze", _folder(), *args)
    assert code == 0, err
    splits = ltr.load(_folder())
    result = ltr.analyze(splits, "length", ["linear", "random"])
    assert result.html(title="assay ltr analyze") == page.read_text(encoding="utf-8")


def test_ltr_stats_prints_the_collections_report() -> None:
    code, out, err = invoke("ltr", "stats", _folder(), "-f", "tsv")
    assert code == 0, err
    assert ltr.collection_stats(ltr.load(_folder())).report().render("tsv") == out


def test_ltr_results_read_well_in_a_notebook() -> None:
    splits = ltr.load(_folder())
    results = [
        ltr.run_experiment(splits, ["linear", "random"], n_resamples=200),
        ltr.collection_stats(splits),
        splits["train"].stats(),
        ltr.feature_stats(splits["train"]),
        ltr.analyze(splits, "length", ["linear", "random"]),
    ]
    for result in results:
        text = repr(result)
        assert text.startswith(type(result).__name__ + "(") and len(text) < 2000, text
        assert result._repr_html_().startswith("<")


def test_ltr_run_report_with_norm_is_the_experiments_html(tmp_path: Path) -> None:
    """``--norm`` is the experiment's ``norm``: the models are trained, and the report's
    analyses made, on the normalised splits (the analyses were once of the raw ones)."""
    page = tmp_path / "run.html"
    code, _, err = invoke("ltr", "run", _folder(), *RUN, "--norm", "zscore", "--report", page)
    assert code == 0, err
    models, splits = ["linear", "random"], ltr.load(_folder())
    exp = ltr.run_experiment(splits, models, n_resamples=500, seed=3, norm="zscore")
    assert exp.html(title="assay ltr run") == page.read_text(encoding="utf-8")
    plain = ltr.run_experiment(splits, models, n_resamples=500, seed=3)
    assert plain.html(title="assay ltr run") != page.read_text(encoding="utf-8")
