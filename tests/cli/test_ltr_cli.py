"""``assay ltr`` and ``assay demo`` in-process: every command, every output format, runs
written as TREC files that re-evaluate to the same figures, and bad input as one line with
exit code 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assay import ltr
from assay.cli import app

pytest.importorskip("lightgbm")
FORMATS = ["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"]
FAST = ["--n-resamples", "200"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("collection")
    for split, data in ltr.mslr_like_splits(40, seed=1, mean_docs=20).items():
        data.to_letor(root / f"{split}.txt")
    return root


def invoke(*args: str) -> object:
    return CliRunner().invoke(app, list(args))


def test_run(folder: Path) -> None:
    out = invoke("ltr", "run", str(folder), "--models", "linear,lambdamart", *FAST, "-f", "json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert {r["kind"] for r in doc["records"]} == {"mean", "difference"}
    assert doc["provenance"]["comparison"]["conventions"]["ties"] == "input"


@pytest.mark.parametrize("fmt", FORMATS)
def test_experiment_report_every_format(folder: Path, fmt: str) -> None:
    from assay.ltr.report import experiment_report

    exp = _experiment(folder)
    text = experiment_report(exp).render(fmt)
    assert "lambdamart" in text and ("p=" in text or fmt in ("tsv", "csv", "jsonl", "json"))


_CACHE: dict[str, object] = {}


def _experiment(folder: Path) -> ltr.Experiment:
    if "exp" not in _CACHE:
        _CACHE["exp"] = ltr.run_experiment(
            ltr.load(folder), ["linear", "lambdamart"], seeds=2, n_resamples=200
        )
    return _CACHE["exp"]  # type: ignore[return-value]


def test_run_seeds_and_options(folder: Path) -> None:
    out = invoke(
        "ltr",
        "run",
        str(folder),
        "--models",
        "random,lambdamart",
        "--seeds",
        "2",
        "--norm",
        "zscore",
        "-m",
        "ndcg(gain='exp')@5",
        "--short-queries",
        "skip",
        *FAST,
        "-f",
        "jsonl",
    )
    assert out.exit_code == 0, out.output
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    seeds = [r for r in rows if r["kind"] == "seeds"]
    assert {r["model"] for r in seeds} == {"random", "lambdamart"} and all(
        r["n"] == 2 for r in seeds
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_stats(folder: Path, fmt: str) -> None:
    out = invoke("ltr", "stats", str(folder), "-f", fmt)
    assert out.exit_code == 0, out.output
    assert "queries" in out.stdout


def test_train_writes_runs_that_evaluate_to_the_same_figures(folder: Path, tmp_path: Path) -> None:
    out = invoke(
        "ltr", "train", str(folder), "--out", str(tmp_path), "--model", "lambdamart", "-f", "jsonl"
    )
    assert out.exit_code == 0, out.output
    assert (tmp_path / "test.lambdamart.run").exists() and (tmp_path / "test.qrels").exists()
    assert (tmp_path / "lambdamart.txt").exists()
    again = invoke("ltr", "evaluate", str(folder), str(tmp_path / "test.lambdamart.run"),
                   "-m", "ndcg(gain='exp')@10", "-f", "jsonl")  # fmt: skip
    assert again.exit_code == 0, again.output
    value = json.loads(again.stdout.splitlines()[-1])["value"]
    splits = ltr.load(folder)
    model = ltr.LambdaMART().fit(splits["train"], splits["vali"])
    direct = ltr.evaluate_scores(
        splits["test"], {"m": model.predict(splits["test"])}, ["ndcg(gain='exp')@10"]
    )
    # The run file holds the scores' shortest round-trip text; ties stay in input order
    # because the rank column is not used and equal scores stay equal.
    assert value == pytest.approx(direct.aggregate("m", "ndcg(gain='exp')@10"), abs=1e-12)
    lin = invoke("ltr", "train", str(folder), "--out", str(tmp_path), "--model", "linear")
    assert lin.exit_code == 0 and (tmp_path / "linear.json").exists()


@pytest.mark.parametrize(
    "analysis", ["queries", "length", "relevant", "scores", "importance", "trees", "features"]
)
def test_analyze(folder: Path, analysis: str) -> None:
    out = invoke(
        "ltr", "analyze", str(folder), analysis, "--top", "5", "--step", "10", "-f", "json"
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["analysis"] == analysis and doc["rows"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_analysis_report_every_format(folder: Path, fmt: str) -> None:
    from assay.ltr import analysis as an
    from assay.ltr.report import analysis_report

    exp = _experiment(folder)
    test = ltr.load(folder)["test"]
    text = analysis_report(an.by_query_length(test, exp.results)).render(fmt)
    assert "lambdamart" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ltr", "run", "{missing}"], "no such file or folder"),
        (["ltr", "run", "{folder}", "--models", "linear,svm"], "models must be one of"),
        (["ltr", "run", "{folder}", "--models", "linear"], "at least two models"),
        (["ltr", "run", "{folder}", "--seeds", "0"], "seeds must be an integer from 1 to 1,000"),
        (
            ["ltr", "run", "{folder}", "--seeds", "1,x"],
            "--seeds must be a count or comma-separated",
        ),
        (["ltr", "run", "{folder}", "--seeds", "2,2"], "seeds lists seed 2 twice"),
        (
            ["ltr", "run", "{folder}", "--baseline", "svm"],
            "baseline 'svm' is not one of the models",
        ),
        (["ltr", "run", "{folder}", "--seed", "-1"], "seed must be a non-negative integer"),
        (["ltr", "stats", "{bad}"], "bad.txt:2: feature indices must increase"),
        (["ltr", "evaluate", "{folder}", "{folder}/x.run", "--split", "dev"], "no dev split"),
        (["demo", "--queries", "-1"], "queries must be an integer from 5 to 10,000"),
        (["demo", "--seed", "-3"], "seed must be a non-negative integer"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    folder: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1 qid:1 1:1\n0 qid:1 2:1 1:3\n")
    fill = {"{folder}": str(folder), "{missing}": str(tmp_path / "none"), "{bad}": str(bad)}
    argv = [fill.get(a, a.replace("{folder}", str(folder))) for a in args]
    out = invoke(*argv)
    assert out.exit_code == 2, out.output
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("assay: error: ") and message in lines[0]


def test_demo_shows_both_models_and_the_significance() -> None:
    out = invoke("demo", "--queries", "40", "-f", "markdown")
    assert out.exit_code == 0, out.output
    assert "linear (baseline)" in out.stdout and "lambdamart − linear" in out.stdout
    assert "NDCG@10" in out.stdout and "p=" in out.stdout and "randomization test" in out.stdout
    assert "synthetic MSLR-like collection (seed 0)" in out.stderr


def test_demo_without_the_ltr_extra_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lightgbm", None)  # import lightgbm now fails
    out = invoke("demo")
    assert out.exit_code == 2
    assert "pip install 'assay[ltr]'" in out.stderr and "Traceback" not in out.output


def test_run_with_listed_seeds(folder: Path) -> None:
    out = invoke(
        "ltr",
        "run",
        str(folder),
        "--models",
        "random,lambdamart",
        "--seeds",
        "3,5",
        "--baseline",
        "lambdamart",
        "--n-resamples",
        "200",
        "-f",
        "jsonl",
    )
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    seeds = [r for r in rows if r["kind"] == "seeds"]
    assert seeds and all(r["n"] == 2 for r in seeds)
    # the baseline has no ε_min over itself; the other model has one per metric
    assert {r["model"] for r in seeds if r["eps_min"] is not None} == {"random"}
