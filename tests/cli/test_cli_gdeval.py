"""``assay gdeval`` in process: its output is the library's text, gdeval's flags, gzip
input, and bad input as one line with exit 2 (the outputs themselves are oracle tests:
oracles/test_gdeval_outputs.py; against gdeval.pl: peers/test_ranking_gdeval.py)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from assay.compat.gdeval import evaluate_gdeval
from support.cli import assert_one_line_error, invoke

QRELS = "1 0 a 2\n1 0 b 1\n2 0 c 1\n3 0 e 0\n"
RUN = "1 Q0 b 1 2.0 sys\n1 Q0 a 2 1.0 sys\n2 Q0 d 1 1.0 sys\n3 Q0 e 1 1.0 sys\n"
BASE = "1 Q0 a 1 2.0 base\n2 Q0 c 1 1.0 base\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("qrels", QRELS), ("run", RUN), ("base", BASE)):
        out[name] = tmp_path / name
        out[name].write_text(text, encoding="utf-8")
    return out


def test_output_is_the_library_text(files: dict[str, Path]) -> None:
    code, out, _ = invoke("gdeval", "-k", "5", files["qrels"], files["run"])
    assert code == 0
    assert out == evaluate_gdeval(files["qrels"], files["run"], k=5).text()
    assert out.splitlines()[-1] == "sys,amean,0.39835,0.07520"


def test_risk_flags(files: dict[str, Path]) -> None:
    args = ("-c", "-baseline", files["base"], "-riskAlpha", "1")
    code, out, _ = invoke("gdeval", *args, files["qrels"], files["run"])
    assert code == 0
    want = evaluate_gdeval(
        files["qrels"], files["run"], all_topics=True, baseline=files["base"], risk_alpha=1
    )
    assert out == want.text()
    assert out.splitlines()[1].startswith("sys (rel to. base; rs=1+a; a=1),1,")


def test_gzip_input_as_gdeval_reads_it(files: dict[str, Path], tmp_path: Path) -> None:
    packed = tmp_path / "run.gz"
    packed.write_bytes(gzip.compress(RUN.encode()))
    plain = invoke("gdeval", files["qrels"], files["run"])[1]
    assert invoke("gdeval", files["qrels"], packed)[1] == plain
    assert plain.startswith("runid,")


def test_version_and_help() -> None:
    code, out, _ = invoke("gdeval", "-v")
    assert code == 0 and "version 1.3" in out
    for flag in ("-help", "-h", "--help"):
        code, out, _ = invoke("gdeval", flag)
        assert code == 0 and "-riskAlpha" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("-x",), "usage"),
        (("-k", "0"), "-k"),
        (("-riskAlpha", "-1", "-baseline", "base"), "risk_alpha"),
    ],
)
def test_bad_flags_are_one_line(files: dict[str, Path], args: tuple[str, ...], needle: str) -> None:
    argv = [str(files["base"]) if a == "base" else a for a in args]
    code, out, err = invoke("gdeval", *argv, files["qrels"], files["run"])
    assert_one_line_error(code, out, err, needle)


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("qrels", "1 0 a 2\n1 0 b 5\n", ":2:"),  # a grade above gdeval's 4
        ("qrels", "x 0 a 2\n", ":1:"),  # a topic that is not numeric
        ("run", "1 Q0 a 1 1.0 sys\n1 Q0 b one 0.5 sys\n", ":2:"),  # a rank that is not
        ("run", "1 Q0 a 1 1.0 sys\n1 Q0 a 2 0.5 sys\n", ":2:"),  # a document twice
        ("run", "1 Q0 a 1 nan sys\n", ":1:"),  # a score that is not finite
    ],
)
def test_format_errors_name_file_and_line(
    files: dict[str, Path], name: str, text: str, line: str
) -> None:
    files[name].write_text(text, encoding="utf-8")
    code, out, err = invoke("gdeval", files["qrels"], files["run"])
    assert_one_line_error(code, out, err, name, line)


def test_missing_file(files: dict[str, Path], tmp_path: Path) -> None:
    code, out, err = invoke("gdeval", files["qrels"], tmp_path / "nope")
    assert_one_line_error(code, out, err, "cannot open", "nope")
