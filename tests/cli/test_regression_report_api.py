"""``assay regression --report`` is the page the Python API builds in two calls
(:func:`assay.regression.evaluate`, then ``.html``), byte for byte, on NIST's Norris data
(../shared/data/regression), and what it prints is the result's own report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import assay
from assay.io.segments import read_numbers
from conftest import shared_file
from support.cli import invoke

TITLE = "assay regression"


def _norris_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    """GOLD (y), the certified least-squares fit and x itself, one number per line."""
    lines = shared_file("regression", "Norris.dat").read_text(encoding="utf-8").splitlines()
    start = max(i for i, line in enumerate(lines) if line.strip().startswith("Data:"))
    data = np.array([list(map(float, ln.split())) for ln in lines[start + 1 :] if ln.strip()])
    cert = json.loads(shared_file("regression", "expected_norris.json").read_text("utf-8"))
    y, x = data[:, 0], data[:, 1]
    fit = cert["certified"]["B0"] + cert["certified"]["B1"] * x
    paths = []
    for name, values in (("gold.txt", y), ("fit.txt", fit), ("x.txt", x)):
        path = tmp_path / name
        path.write_text("".join(f"{v!r}\n" for v in values.tolist()), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], paths[2]


def test_the_report_page_is_the_apis(tmp_path: Path) -> None:
    gold, fit, x = _norris_files(tmp_path)
    page = tmp_path / "out.html"
    code, out, err = invoke(
        "regression", gold, fit, x, "--n-resamples", "200", "--report", page, "-f", "tsv"
    )
    assert code == 0, err
    y_true = read_numbers(str(gold))
    preds = {p.name: read_numbers(str(p)) for p in (fit, x)}
    result = assay.regression.evaluate(y_true, preds, n_resamples=200)
    assert result.html(title=TITLE) == page.read_text(encoding="utf-8")
    assert out == result.report().render("tsv")


def test_one_model_has_no_comparison(tmp_path: Path) -> None:
    gold, fit, _ = _norris_files(tmp_path)
    page = tmp_path / "one.html"
    code, _, err = invoke("regression", gold, fit, "--n-resamples", "50", "--report", page)
    assert code == 0, err
    result = assay.regression.evaluate(
        read_numbers(str(gold)), {"fit.txt": read_numbers(str(fit))}, n_resamples=50
    )
    assert result.comparison is None
    assert result.html(title=TITLE) == page.read_text(encoding="utf-8")
    assert len(repr(result)) < 2000 and "mae=" in repr(result)


def test_the_old_renderer_name_is_a_deprecated_alias() -> None:
    import pytest

    import assay.report
    from assay.regression.render import models_report

    with pytest.warns(DeprecationWarning, match="assay.regression.render.models_report"):
        assert assay.report.regression_report is models_report
    assert "regression_report" not in assay.report.__all__
