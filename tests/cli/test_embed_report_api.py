"""``assay embed --report`` is the Python API's page: the CLI's HTML and
``assay.embeddings.evaluate(...).html(title=...)`` are the same bytes, with and without
per-query confidences (seeded embeddings written to files)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from assay.classification import read_labels, read_scores
from assay.cli import app
from assay.embeddings.reader import read_embeddings

pytest.importorskip("matplotlib")

TITLE = "assay embed"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    rng = np.random.default_rng(7)
    labels = rng.integers(0, 5, 80)
    x = (rng.normal(size=(5, 8))[labels] + rng.normal(scale=0.9, size=(80, 8))).astype(np.float32)
    paths = {"emb": tmp_path / "q.npy", "labels": tmp_path / "q.txt", "conf": tmp_path / "c.txt"}
    np.save(paths["emb"], x)
    paths["labels"].write_text("".join(f"c{v}\n" for v in labels))
    paths["conf"].write_text("".join(f"{v}\n" for v in rng.random(80)))
    return {k: str(v) for k, v in paths.items()}


def _cli_page(tmp_path: Path, *args: str) -> bytes:
    out = tmp_path / "cli.html"
    result = CliRunner().invoke(app, ["embed", *args, "--report", str(out), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return out.read_bytes()


def test_summary_page_is_the_api_s(files: dict[str, str], tmp_path: Path) -> None:
    from assay.embeddings import evaluate

    cli = _cli_page(tmp_path, files["emb"], files["labels"], "--backend", "numpy")
    result = evaluate(
        read_embeddings(files["emb"]), list(read_labels(files["labels"])), backend="numpy"
    )
    assert result.html(title=TITLE).encode("utf-8") == cli


def test_page_with_confidences_is_the_api_s(files: dict[str, str], tmp_path: Path) -> None:
    from assay.embeddings import evaluate

    args = ["-m", "precision@1", "-m", "map@r", "-m", "ndcg@5", "--distance", "cosine"]
    cli = _cli_page(
        tmp_path, files["emb"], files["labels"], *args, "--confidence", files["conf"], "--curve"
    )
    result = evaluate(
        read_embeddings(files["emb"]),
        list(read_labels(files["labels"])),
        metrics=["precision@1", "map@r", "ndcg@5"],
        distance="cosine",
        confidences=read_scores(files["conf"]),
        view="curve",
    )
    assert result.html(title=TITLE).encode("utf-8") == cli
    assert len(repr(result)) < 2000 and len(repr(result.retrieval)) < 2000
