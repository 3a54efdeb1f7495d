"""``assay ndeval``: ndeval's option syntax, its CSV on stdout, and bad input as one line with
exit code 2 (the text itself is checked against the real binary in
tests/peers/test_compat_ndeval_binary.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli import assert_one_line_error, invoke

HEADER = (
    "runid,topic,ERR-IA@5,ERR-IA@10,ERR-IA@20,nERR-IA@5,nERR-IA@10,nERR-IA@20,alpha-DCG@5,"
    "alpha-DCG@10,alpha-DCG@20,alpha-nDCG@5,alpha-nDCG@10,alpha-nDCG@20,NRBP,nNRBP,MAP-IA,"
    "P-IA@5,P-IA@10,P-IA@20,strec@5,strec@10,strec@20"
)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    qrels = tmp_path / "qrels.div"
    qrels.write_text("1 1 a 1\n1 2 b 2\n1 2 c 0\n2 1 a 0\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 b 1 3.0 sys\n1 Q0 a 2 2.0 sys\n1 Q0 z 3 1.0 sys\n")
    return qrels, run


def test_csv_worked_by_hand(files: tuple[Path, Path]) -> None:
    code, out, err = invoke("ndeval", *files)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == HEADER
    row = lines[1].split(",")
    assert row[:2] == ["sys", "1"]
    # both subtopics covered by ranks 1-2: strec@5 = 1, P-IA@5 = 2 / (5 * 2)
    assert row[2 + 18] == "1.000000" and row[2 + 15] == "0.200000"
    # the greedy ideal is b, a (ties to the larger docno): alpha-nDCG@5 = 1
    assert row[2 + 9] == "1.000000"
    assert lines[2].startswith("sys,amean,")


def test_complete_divides_by_every_qrels_topic(files: tuple[Path, Path]) -> None:
    _, plain, _ = invoke("ndeval", *files)
    code, complete, _ = invoke("ndeval", "-c", *files)
    assert code == 0
    mean = float(plain.splitlines()[-1].split(",")[20])
    assert float(complete.splitlines()[-1].split(",")[20]) == pytest.approx(mean / 2, abs=1e-6)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-alpha", "2"], "alpha"),
        (["-M", "0"], "-M"),
        (["-x"], "usage"),
        (["-riskAlpha", "-1"], "risk_alpha"),
    ],
)
def test_bad_option_is_one_line(files: tuple[Path, Path], args: list[str], needle: str) -> None:
    code, out, err = invoke("ndeval", *args, *files)
    assert_one_line_error(code, out, err, needle)


def test_bad_qrels_line_names_file_and_line(files: tuple[Path, Path], tmp_path: Path) -> None:
    bad = tmp_path / "bad.qrels"
    bad.write_text("1 1 a 1\n1 x a 1\n")
    code, out, err = invoke("ndeval", bad, files[1])
    assert_one_line_error(code, out, err, "bad.qrels", "2")


def test_repeated_rank_is_an_error(files: tuple[Path, Path], tmp_path: Path) -> None:
    run = tmp_path / "dup.run"
    run.write_text("1 Q0 a 1 2.0 s\n1 Q0 b 1 1.0 s\n")
    code, out, err = invoke("ndeval", files[0], run)
    assert_one_line_error(code, out, err, "duplicate rank")
