"""Data text written to stdout (``assay trec-eval``'s output, ``assay fuse``'s run) is made
inert on a terminal -- an ESC, OSC, BEL or bidirectional override from an id or a run tag is
shown escaped, never run -- and stays byte for byte in a file or a pipe (issue 25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.cli import _terminal
from support.cli import invoke

HOSTILE_Q = "q\x1b[31m"  # would turn the terminal red
HOSTILE_TAG = "t\x1b]0;pwned\x07\u202e"  # an OSC title change and a right-to-left override


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(f"{HOSTILE_Q} 0 d1 1\n{HOSTILE_Q} 0 d2 0\n", encoding="utf-8")
    run.write_text(
        f"{HOSTILE_Q} Q0 d1 1 2.0 {HOSTILE_TAG}\n{HOSTILE_Q} Q0 d2 2 1.0 {HOSTILE_TAG}\n",
        encoding="utf-8",
    )
    return qrels, run


def _inert(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\x1b" in text


def test_trec_eval_on_a_terminal_escapes_ids_and_run_tag(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_terminal, "on_terminal", lambda: True)
    code, out, _ = invoke("trec-eval", "-q", *files)
    assert code == 0
    _inert(out)
    assert "runid                 \tall\tt\\x1b]0;pwned\\x07\\u202e\n" in out
    assert "map                   \tq\\x1b[31m\t1.0000\n" in out


def test_trec_eval_to_a_pipe_is_trec_evals_bytes(files: tuple[Path, Path]) -> None:
    code, out, _ = invoke("trec-eval", "-q", *files)
    assert code == 0
    assert f"runid                 \tall\t{HOSTILE_TAG}\n" in out
    assert f"map                   \t{HOSTILE_Q}\t1.0000\n" in out


def test_fuse_to_a_terminal_escapes_and_to_a_pipe_does_not(
    files: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, run = files
    other = tmp_path / "other"
    other.write_text(f"{HOSTILE_Q} Q0 d2 1 5.0 x\n", encoding="utf-8")
    code, raw, _ = invoke("fuse", run, other, "--name", HOSTILE_TAG)
    assert code == 0 and HOSTILE_Q in raw and HOSTILE_TAG in raw
    monkeypatch.setattr(_terminal, "on_terminal", lambda: True)
    code, out, _ = invoke("fuse", run, other, "--name", HOSTILE_TAG)
    assert code == 0
    _inert(out)
    assert out == _terminal.inert(raw)
    assert out.count("\n") == raw.count("\n") == 2


def test_inert_keeps_tabs_newlines_and_plain_text() -> None:
    assert _terminal.inert("P_5\tq1\t0.2000\nmap\tall\t1\n") == "P_5\tq1\t0.2000\nmap\tall\t1\n"
    assert _terminal.inert("a\x1bb\tc\u200bd\n") == "a\\x1bb\tc\\u200bd\n"
