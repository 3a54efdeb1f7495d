"""``assay tagging``, in-process with typer's CliRunner: every output format for one tagger
and for several, the numbers of the Python API, conlleval's layout, paired tests, and
one-line errors naming the file and line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assay import tagging as T
from assay.cli import app

FORMATS = ["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"]

GOLD = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "I-ORG", "O"], ["O", "B-PER"]]
PRED_A = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "O"], ["O", "B-PER"]]
PRED_B = [["B-PER", "O", "O", "B-ORG", "O"], ["B-ORG", "I-ORG", "O"], ["O", "O"]]


def _write(
    path: Path, gold: list[list[str]], *preds: list[list[str]], docstart: bool = False
) -> str:
    lines = ["-DOCSTART- -X- O O", ""] if docstart else []
    for k, sentence in enumerate(gold):
        for i, tag in enumerate(sentence):
            lines.append(" ".join([f"w{k}_{i}", "NN", tag, *(p[k][i] for p in preds)]))
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tagging", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {
        "a": _write(tmp_path / "a.conll", GOLD, PRED_A, docstart=True),
        "b": _write(tmp_path / "b.conll", GOLD, PRED_B),
        "both": _write(tmp_path / "both.conll", GOLD, PRED_A, PRED_B),
    }


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_for_one_tagger(files: dict[str, str], fmt: str) -> None:
    code, out, err = _run(files["a"], "-f", fmt)
    assert code == 0, err
    report = T.tagging_report(GOLD, PRED_A)
    if fmt in ("tsv", "csv"):
        rows = list(csv.DictReader(io.StringIO(out), delimiter="\t" if fmt == "tsv" else ","))
        micro = [
            r
            for r in rows
            if (r["match"], r["type"], r["aggregate"], r["measure"]) == ("span", "", "micro", "f1")
        ]
        assert float(micro[0]["value"]) == report.f1() and micro[0]["tagger"] == "a.conll"
    elif fmt == "json":
        doc = json.loads(out)
        assert doc["provenance"]["scheme"] == "iob2" and len(doc["records"]) == len(
            report.records()
        )
    elif fmt == "jsonl":
        assert len(out.splitlines()) == len(report.records())
    elif fmt == "markdown":
        assert "| micro avg |" in out and "token accuracy" in out
    elif fmt == "latex":
        assert "\\begin{tabular}" in out and "micro avg" in out
    else:
        assert "micro avg" in out and "strict match" in out


@pytest.mark.parametrize("fmt", [*FORMATS, "conlleval"])
def test_every_format_for_several_taggers(files: dict[str, str], fmt: str) -> None:
    code, out, err = _run(files["a"], files["b"], "-f", fmt, "--n-resamples", "200", "--seed", "1")
    assert code == 0, err
    assert "b.conll" in out
    again = _run(files["a"], files["b"], "-f", fmt, "--n-resamples", "200", "--seed", "1")[1]
    assert again == out  # seeded


def test_several_taggers_are_the_api(files: dict[str, str]) -> None:
    code, out, _ = _run(
        files["a"], files["b"], "-f", "jsonl", "--n-resamples", "300", "--seed", "4"
    )
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    pair = next(r for r in rows if r["measure"].startswith("f1 diff"))
    cmp = T.compare_taggers(GOLD, {"a.conll": PRED_A, "b.conll": PRED_B}, n_resamples=300, seed=4)
    expected = cmp.pair("b.conll")
    assert (pair["value"], pair["pvalue"], pair["p_adjusted"]) == (
        expected.diff,
        expected.p_value,
        expected.p_adjusted,
    )
    assert (pair["ci_low"], pair["ci_high"]) == (expected.ci_low, expected.ci_high)


def test_prediction_columns_of_one_file(files: dict[str, str]) -> None:
    code, out, err = _run(
        files["both"],
        "--gold-column",
        "2",
        "--pred-column",
        "3",
        "--pred-column",
        "4",
        "--test",
        "randomization",
        "--n-resamples",
        "99",
        "-f",
        "conlleval",
    )
    assert code == 0, err
    assert "tagger: both.conll:3" in out and "tagger: both.conll:4" in out
    assert "both.conll:4 vs both.conll:3" in out and "randomization" in out


def test_docstart_lines_are_not_tokens(files: dict[str, str]) -> None:
    code, out, _ = _run(files["a"], "-f", "conlleval")
    assert code == 0 and out.startswith("processed 10 tokens with 4 phrases")


def test_strict_mode_and_scheme(tmp_path: Path) -> None:
    path = _write(tmp_path / "x.conll", [["I-X", "I-X", "O"]], [["B-X", "I-X", "O"]])
    assert "FB1: 100.00" in _run(path, "-f", "conlleval")[1]
    code, out, _ = _run(path, "-f", "conlleval", "--mode", "strict")
    assert code == 0 and "with 0 phrases; found: 1 phrases; correct: 0." in out
    code, _, err = _run(path, "--scheme", "ioe2")
    assert code == 2 and "B-X" in err and "ioe2" in err


def _error(code: int, err: str, where: str) -> None:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"assay: error: {where}"), err


def test_errors_name_the_file_and_line(tmp_path: Path, files: dict[str, str]) -> None:
    bad_tag = tmp_path / "bad.conll"
    bad_tag.write_text("a NN O O\nb NN B-X Q-X\n", encoding="utf-8")
    code, _, err = _run(str(bad_tag))
    _error(code, err, f"{bad_tag}:2:")
    assert "'Q-X'" in err
    ragged = tmp_path / "ragged.conll"
    ragged.write_text("a NN O O\n\nb B-X O\n", encoding="utf-8")
    _error(*_run(str(ragged))[::2], f"{ragged}:3:")
    short = _write(tmp_path / "short.conll", GOLD[:2], PRED_A[:2])
    code, _, err = _run(files["b"], short)
    _error(code, err, f"{short}:")
    assert "sentence 3 is missing" in err
    other_gold = _write(tmp_path / "other.conll", PRED_B, PRED_A)
    code, _, err = _run(files["b"], other_gold)
    _error(code, err, f"{other_gold}:2:")  # the first differing gold tag
    assert "gold" in err
    empty = tmp_path / "empty.conll"
    empty.write_text("\n\n", encoding="utf-8")
    _error(*_run(str(empty))[::2], f"{empty}:")
    _error(*_run(files["a"], "--pred-column", "7")[::2], f"{files['a']}:")
    _error(*_run(str(tmp_path / "missing.conll"))[::2], "")


def test_bad_options_exit_2(files: dict[str, str]) -> None:
    assert _run(files["a"], "--scheme", "iob9")[0] == 2
    assert _run(files["a"], "--mode", "lenient")[0] == 2
    code, _, err = _run(files["a"], files["b"], "--alpha", "2")
    _error(code, err, "")
    code, _, err = _run(files["a"], files["b"], "--baseline", "nope")
    _error(code, err, "")
