"""``assay classify --report`` is the page :func:`assay.classification.evaluate` builds: the
same bytes from the Python API in two calls (the files read with the family's reader)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assay import classification
from support.cli import invoke

LABELS = np.array(["bird", "cat", "dog"])


def _write(tmp_path: Path, n: int = 240, seed: int = 7) -> tuple[Path, Path, Path]:
    """Seeded labels, predictions agreeing with them 70% of the time, and scores of ``dog``."""
    rng = np.random.default_rng(seed)
    gold = rng.choice(LABELS, n, p=[0.2, 0.5, 0.3])
    pred = np.where(rng.random(n) < 0.7, gold, rng.choice(LABELS, n))
    scores = np.round(rng.random(n) + 0.5 * (gold == "dog"), 4)
    paths = tmp_path / "gold.txt", tmp_path / "pred.txt", tmp_path / "scores.txt"
    for path, values in zip(paths, (gold, pred, scores), strict=True):
        path.write_text("".join(f"{v}\n" for v in values.tolist()), encoding="utf-8")
    return paths


def test_report_page_from_the_api(tmp_path: Path) -> None:
    gold, pred, scores = _write(tmp_path)
    page = tmp_path / "cli.html"
    args = ("--scores", scores, "--positive", "dog", "--average", "macro")
    code, _, err = invoke("classify", gold, pred, *args, "--report", page)
    assert code == 0, err

    y_true, y_pred = classification.read_labels(gold), classification.read_labels(pred)
    s = classification.read_scores(scores)
    result = classification.evaluate(y_true, y_pred, s, pos_label="dog", average="macro")
    assert result.html(title="assay classify") == page.read_text(encoding="utf-8")


def test_printed_table_from_the_api(tmp_path: Path) -> None:
    gold, pred, _ = _write(tmp_path, seed=11)
    code, out, err = invoke("classify", gold, pred, "--format", "tsv")
    assert code == 0, err
    result = classification.evaluate(
        classification.read_labels(gold), classification.read_labels(pred)
    )
    assert result.report().render("tsv") in (out, out.removesuffix("\n"))


def test_repr_is_one_screen_and_notebooks_get_tables(tmp_path: Path) -> None:
    gold, pred, scores = _write(tmp_path, n=2000)
    result = classification.evaluate(
        classification.read_labels(gold),
        classification.read_labels(pred),
        classification.read_scores(scores),
        pos_label="dog",
    )
    assert len(repr(result)) < 2000 and "accuracy=" in repr(result)
    assert len(repr(result.measures)) < 2000
    assert "<table" in result._repr_html_()
