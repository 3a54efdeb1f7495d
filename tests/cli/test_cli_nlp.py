"""``assay generation`` and ``assay regression``, run in-process with typer's CliRunner: every output format, the numbers of the Python API, and
one-line errors naming the file and line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from assay.cli import app as assay_app

pytest.importorskip("sacrebleu")
pytest.importorskip("rouge_score")

FORMATS = ["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"]


@pytest.fixture
def app() -> typer.Typer:
    return assay_app


def _run(app: typer.Typer, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def texts(tmp_path: Path) -> dict[str, str]:
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(40)]
    refs = [" ".join(rng.choice(words, 8)) for _ in range(60)]
    refs2 = [" ".join(r.split()[::-1]) for r in refs]
    a = [" ".join(r.split()[:5]) if i % 2 else r for i, r in enumerate(refs)]
    b = [" ".join(rng.choice(words, 8)) if i % 3 == 0 else r for i, r in enumerate(refs)]
    files = {}
    for name, lines in (("ref", refs), ("ref2", refs2), ("a", a), ("b", b)):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        files[name] = str(path)
    return files


def test_generation_table_matches_the_api(app: typer.Typer, texts: dict[str, str]) -> None:
    import assay.generation as G
    from assay.io.segments import read_segments

    code, out, err = _run(
        app,
        "generation",
        texts["ref"],
        texts["a"],
        texts["b"],
        "-m",
        "bleu",
        "-m",
        "chrf",
        "-m",
        "rougeL",
        "--n-resamples",
        "300",
        "-f",
        "table",
    )
    assert code == 0, err
    assert "a.txt (baseline)" in out and "nrefs:1|bs:300|seed:12345" in out
    cmp = G.compare_systems(
        read_segments(texts["ref"]),
        {"a.txt": read_segments(texts["a"]), "b.txt": read_segments(texts["b"])},
        metrics=["bleu", "chrf", "rougeL"],
        n_resamples=300,
    )
    row = cmp["b.txt", "bleu"]
    mark = cmp.marker("b.txt", "bleu")
    shown = f"{row.score:.2f}{mark} [{row.ci_low:.2f}, {row.ci_high:.2f}] p={row.p_adjusted:.4f}"
    assert shown in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_generation_formats(app: typer.Typer, texts: dict[str, str], fmt: str) -> None:
    code, out, err = _run(
        app,
        "generation",
        texts["ref"],
        texts["a"],
        texts["b"],
        "--ref",
        texts["ref2"],
        "-m",
        "ter",
        "--test",
        "randomization",
        "--n-resamples",
        "200",
        "-f",
        fmt,
    )
    assert code == 0, err
    if fmt == "json":
        doc = json.loads(out)
        assert [r["system"] for r in doc["records"]] == ["a.txt", "b.txt"]
        assert (
            doc["provenance"]["test"] == "randomization" and doc["provenance"]["n_references"] == 2
        )
    elif fmt == "jsonl":
        rows = [json.loads(line) for line in out.splitlines()]
        assert rows[0]["pvalue"] is None and 0 < rows[1]["pvalue"] <= 1
    elif fmt in ("tsv", "csv"):
        sep = "\t" if fmt == "tsv" else ","
        assert out.splitlines()[0].split(sep)[:3] == ["system", "metric", "baseline"]
    elif fmt == "markdown":
        assert out.startswith("| system | ter |")
    elif fmt == "latex":
        assert "\\begin{tabular}{lr}" in out and "a.txt (baseline)" in out
    else:
        assert "nrefs:2|ar:200" in out


def test_generation_baseline_option(app: typer.Typer, texts: dict[str, str]) -> None:
    code, out, _ = _run(
        app,
        "generation",
        texts["ref"],
        texts["a"],
        "--baseline",
        texts["b"],
        "-f",
        "jsonl",
        "--n-resamples",
        "100",
    )
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["system"] == "b.txt" and rows[0]["baseline"] is True


def test_generation_errors(app: typer.Typer, texts: dict[str, str], tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("x\ny\n", encoding="utf-8")
    code, out, err = _run(app, "generation", texts["ref"], str(short))
    assert code == 2 and out == ""
    assert (
        err.strip()
        == f"assay: error: {short}:2: ends after 2 segments, but {texts['ref']} has 60 (the "
        "files must have one line per item, in the same order)"
    )
    code, _, err = _run(app, "generation", texts["ref"], texts["a"], "-m", "meteor")
    assert code == 2 and "metric must be one of" in err and len(err.strip().splitlines()) == 1
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    code, _, err = _run(app, "generation", str(empty), texts["a"])
    assert code == 2 and "empty.txt: empty file" in err
    code, _, err = _run(app, "generation", texts["ref"], texts["a"], "--seed", "-3")
    assert code == 2 and "seed" in err


@pytest.fixture
def numbers(tmp_path: Path) -> dict[str, str]:
    rng = np.random.default_rng(2)
    y = rng.normal(size=30) * 2 + 5
    files = {}
    for name, values in (
        ("gold", y),
        ("p1", y + rng.normal(size=30)),
        ("p2", y + 0.3 * rng.normal(size=30)),
    ):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(repr(float(v)) for v in values) + "\n", encoding="utf-8")
        files[name] = str(path)
    return files


def test_regression_json_matches_the_api(app: typer.Typer, numbers: dict[str, str]) -> None:
    import assay.regression as R
    from assay.io.segments import read_numbers

    code, out, err = _run(
        app,
        "regression",
        numbers["gold"],
        numbers["p1"],
        numbers["p2"],
        "--n-resamples",
        "500",
        "--loss",
        "absolute",
        "-f",
        "json",
    )
    assert code == 0, err
    doc = json.loads(out)
    y, p2 = read_numbers(numbers["gold"]), read_numbers(numbers["p2"])
    rep = R.regression_report(y, p2, n_resamples=500)
    rows = {r["measure"]: r for r in doc["records"] if r["model"] == "p2.txt"}
    assert rows["mae"]["value"] == rep["mae"] and rows["mae"]["ci_low"] == rep.intervals["mae"][0]
    assert rows["kendall"]["pvalue"] == rep.correlations["kendall"].pvalue
    cmp = R.compare_models(
        y, {"p1.txt": read_numbers(numbers["p1"]), "p2.txt": p2}, loss="absolute", n_resamples=500
    )
    diff = rows["absolute error diff vs p1.txt"]
    assert diff["pvalue"] == cmp.pair("p2.txt").p_value and diff["significant"] is True
    assert doc["provenance"]["comparison"]["loss"] == "absolute"


@pytest.mark.parametrize("fmt", FORMATS)
def test_regression_formats(app: typer.Typer, numbers: dict[str, str], fmt: str) -> None:
    code, out, err = _run(
        app,
        "regression",
        numbers["gold"],
        numbers["p1"],
        numbers["p2"],
        "--n-resamples",
        "200",
        "-f",
        fmt,
    )
    assert code == 0, err
    if fmt == "table":
        assert "p1.txt (baseline)" in out and "▲" in out and "Kendall τ" in out
    elif fmt == "jsonl":
        assert len(out.splitlines()) == 2 * 11 + 1
    elif fmt == "latex":
        assert r"$^{\blacktriangle}$" in out and r"R²" in out
    elif fmt == "markdown":
        assert out.startswith("| model | n | MAE |")


def test_regression_single_prediction_and_errors(
    app: typer.Typer, numbers: dict[str, str], tmp_path: Path
) -> None:
    code, out, _ = _run(app, "regression", numbers["gold"], numbers["p1"], "--n-resamples", "100")
    assert code == 0 and "p=" not in out
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n2\nabc\n", encoding="utf-8")
    code, out, err = _run(app, "regression", numbers["gold"], str(bad))
    assert code == 2 and err.strip() == f"assay: error: {bad}:3: not a number: 'abc'"
    short = tmp_path / "short.txt"
    short.write_text("1\n2\n", encoding="utf-8")
    code, _, err = _run(app, "regression", numbers["gold"], str(short))
    # Numbers are values, not segments (issue 25), and both files and counts are named.
    assert code == 2 and f"{short}:2: ends after 2 values, but {numbers['gold']} has" in err
    zero = tmp_path / "zero.txt"
    zero.write_text("0\n1\n2\n", encoding="utf-8")
    code, _, err = _run(app, "regression", str(zero), str(zero))  # MAPE's own default
    assert code == 2 and "y_true[0] is 0" in err and "--zero-target" in err
    code, out, _ = _run(
        app, "regression", str(zero), str(zero), "--zero-target", "nan", "-f", "jsonl"
    )
    assert code == 0 and any(
        json.loads(x)["measure"] == "mape" and json.loads(x)["value"] is None
        for x in out.splitlines()
    )
