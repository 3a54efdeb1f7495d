"""``assay generation --report`` is the Python API's page: the CLI's HTML and
``compare_systems(...).html(title=...)`` are the same bytes (one system, and several with a
baseline), on rouge-score's test corpus (../shared/data/generation)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from assay.cli import app
from assay.io.segments import read_segments
from support.generation import paired_systems, rouge_lines

pytest.importorskip("sacrebleu")
pytest.importorskip("rouge_score")
pytest.importorskip("matplotlib")

TITLE = "assay generation"


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _cli_page(*args: str, out: Path) -> bytes:
    result = CliRunner().invoke(app, ["generation", *args, "--report", str(out), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return out.read_bytes()


def test_one_system_page_is_the_api_s(tmp_path: Path) -> None:
    from assay.generation import compare_systems

    refs = _write(tmp_path / "target.txt", rouge_lines("target_large.txt")[:200])
    hyps = _write(tmp_path / "prediction.txt", rouge_lines("prediction_large.txt")[:200])
    cli = _cli_page(
        refs, hyps, "-m", "bleu", "-m", "rougeL", "--n-resamples", "200", out=tmp_path / "cli.html"
    )
    cmp = compare_systems(
        references=read_segments(refs),
        systems={"prediction.txt": read_segments(hyps)},
        metrics=["bleu", "rougeL"],
        n_resamples=200,
    )
    assert cmp.html(title=TITLE).encode("utf-8") == cli


def test_systems_with_a_baseline_page_is_the_api_s(tmp_path: Path) -> None:
    from assay.generation import compare_systems

    refs_lines, systems = paired_systems()
    refs = _write(tmp_path / "refs.txt", refs_lines)
    paths = {name: _write(tmp_path / f"{name}.txt", lines) for name, lines in systems.items()}
    names = list(paths)
    base = names[-1]
    cli = _cli_page(
        refs,
        *paths.values(),
        "--baseline",
        paths[base],
        "--test",
        "randomization",
        "--n-resamples",
        "300",
        out=tmp_path / "cli.html",
    )
    # The CLI lists the baseline first.
    ordered = [base, *(n for n in names if n != base)]
    cmp = compare_systems(
        references=read_segments(refs),
        systems={f"{n}.txt": read_segments(paths[n]) for n in ordered},
        baseline=f"{base}.txt",
        test="randomization",
        n_resamples=300,
    )
    assert cmp.html(title=TITLE).encode("utf-8") == cli
    assert len(repr(cmp)) < 2000 and len(repr(cmp.scores[f"{base}.txt", "bleu"])) < 2000
