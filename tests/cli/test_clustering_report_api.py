"""``assay cluster --report`` is the page :func:`assay.clustering.evaluate` builds: the same
bytes from the Python API in two calls (the files read with the family's reader)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assay import clustering
from support.cli import invoke


def _write(tmp_path: Path, items: int, kept: int, seed: int = 5) -> tuple[Path, Path]:
    """Seeded item<TAB>cluster files: a predicted clustering agreeing with the gold one for
    60% of the items, over its first ``kept`` items."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 8, items)
    pred = np.where(rng.random(items) < 0.6, gold, rng.integers(0, 10, items))
    g, p = tmp_path / "gold.tsv", tmp_path / "pred.tsv"
    g.write_text("".join(f"i{i}\tk{c}\n" for i, c in enumerate(gold.tolist())))
    p.write_text("".join(f"i{i}\tk{c}\n" for i, c in enumerate(pred.tolist()[:kept])))
    return g, p


@pytest.mark.parametrize(("kept", "kind"), [(200, "hard"), (150, "soft")])
def test_report_page_from_the_api(tmp_path: Path, kept: int, kind: str) -> None:
    gold, pred = _write(tmp_path, 200, kept)
    page = tmp_path / "cli.html"
    code, _, err = invoke("cluster", gold, pred, "--report", page)
    assert code == 0, err

    result = clustering.evaluate(*clustering.read_clusterings(gold, pred))
    assert result.kind == kind
    assert result.html(title="assay cluster") == page.read_text(encoding="utf-8")


def test_soft_clusterings_and_the_notebook_view(tmp_path: Path) -> None:
    gold, pred = tmp_path / "g.txt", tmp_path / "p.txt"
    gold.write_text("a b c:0.5\nc d e\nf g\n")
    pred.write_text("a b\nc:2 d e f\ng\n")
    code, out, err = invoke("cluster", gold, pred, "--format", "tsv")
    assert code == 0, err
    result = clustering.evaluate(*clustering.read_clusterings(gold, pred))
    assert result.kind == "soft" and result.notes == ()
    assert result.report().render("tsv") in (out, out.removesuffix("\n"))
    assert len(repr(result)) < 2000 and "nmpu=" in repr(result)
    assert "<table" in result._repr_html_()
