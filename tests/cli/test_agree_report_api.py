"""``assay agree --report`` is the page the Python API builds in two calls
(:func:`assay.agreement.evaluate`, then ``.html``), byte for byte, and what it prints is the
result's own report: on Krippendorff's (2011) published example and on seeded random
ratings of two raters (Cohen's and Fleiss' kappas apply)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import assay
from assay.agreement import read_ratings
from support.cli import invoke
from support.examples import KRIPP_2011

TITLE = "assay agree"


def _kripp(tmp_path: Path) -> Path:
    path = tmp_path / "kripp.csv"
    lines = ["unit,A,B,C,D"]
    for u, row in enumerate(KRIPP_2011, 1):
        lines.append(f"u{u}," + ",".join("" if math.isnan(v) else str(int(v)) for v in row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _two_raters(tmp_path: Path) -> Path:
    rng = np.random.default_rng(26)
    a = rng.choice(["pos", "neg", "neutral"], size=40)
    b = np.where(rng.random(40) < 0.7, a, rng.choice(["pos", "neg", "neutral"], size=40))
    path = tmp_path / "two.tsv"
    rows = [f"item{i}\t{x}\t{y}" for i, (x, y) in enumerate(zip(a, b, strict=True))]
    path.write_text("id\tann1\tann2\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


#: (input file, CLI options, the same options of evaluate).
CASES = [
    (
        _kripp,
        ["--level", "interval", "--bootstrap", "200", "--seed", "3"],
        {"level": "interval", "n_resamples": 200, "seed": 3},
    ),
    (_two_raters, [], {}),
]


@pytest.mark.parametrize(("make", "options", "kwargs"), CASES)
def test_the_report_page_is_the_apis(tmp_path: Path, make, options, kwargs) -> None:  # type: ignore[no-untyped-def]
    path = make(tmp_path)
    page = tmp_path / "out.html"
    code, out, err = invoke("agree", path, *options, "--report", page, "-f", "json")
    assert code == 0, err
    result = assay.agreement.evaluate(read_ratings(path), **kwargs)
    assert result.html(title=TITLE) == page.read_text(encoding="utf-8")
    assert out == result.report().render("json")
    assert "Coincidence matrix" in result.html(title=TITLE)
    assert len(repr(result)) < 2000


def test_the_old_reader_names_are_deprecated_aliases() -> None:
    import assay.io

    with pytest.warns(DeprecationWarning, match="assay.agreement"):
        assert assay.io.read_ratings is assay.agreement.read_ratings
    with pytest.warns(DeprecationWarning, match="assay.agreement"):
        assert assay.io.Ratings is assay.agreement.Ratings
    assert "read_ratings" not in assay.io.__all__


def test_a_fleiss_kappa_reads_on_one_screen() -> None:
    rng = np.random.default_rng(0)
    table = rng.integers(1, 6, size=(5000, 8)).tolist()
    kappa = assay.agreement.fleiss_kappa(table)
    assert len(repr(kappa)) < 2000 and "value=" in repr(kappa)
    alpha = assay.agreement.krippendorff_alpha(np.array(table).T.tolist())
    assert len(repr(alpha)) < 2000
