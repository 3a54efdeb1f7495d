"""The docs derived from the metric declarations stay in sync with them."""

import assay
from assay.metrics import REGISTRY
from assay.metrics.catalog import document
from conftest import ROOT


def test_metrics_doc_is_generated_from_declarations() -> None:
    text = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")
    assert text == document(), "docs/metrics.md is stale: run `make docs`"


def test_every_metric_has_formula_and_reference_docstring() -> None:
    for spec in REGISTRY.values():
        doc = " ".join(spec.doc.split())
        assert spec.summary and len(spec.summary) > 10, spec.name
        assert any(ch in doc for ch in "=/^"), f"{spec.name}: docstring lacks a formula"


def test_readme_first_screen_has_the_two_setup_commands() -> None:
    first = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:25]
    assert any(line.startswith("make demo") for line in first)
    assert any(line.startswith("make test") for line in first)
    assert assay.__version__
