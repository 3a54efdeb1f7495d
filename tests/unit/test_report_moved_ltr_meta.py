"""The learning-to-rank and meta-evaluation reports moved to their families (``assay.ltr``,
``assay.meta``); their old names in ``assay.report`` still resolve, to the same objects, with
a DeprecationWarning naming the new home, and are no longer listed."""

from __future__ import annotations

import importlib

import pytest

import assay.report

MOVED = {
    "analysis_report": "assay.ltr.report",
    "experiment_document": "assay.ltr.document",
    "experiment_report": "assay.ltr.report",
    "stats_report": "assay.ltr.report",
    "assessors_report": "assay.meta.report",
    "discpower_report": "assay.meta.report",
    "rbo_report": "assay.meta.report",
    "repro_report": "assay.meta.report",
    "topicsize_report": "assay.meta.report",
}


@pytest.mark.parametrize("name", sorted(MOVED))
def test_a_moved_report_resolves_with_a_warning(name: str) -> None:
    home = MOVED[name]
    with pytest.warns(DeprecationWarning, match=f"assay.report.{name} moved to {home}.{name}"):
        value = getattr(assay.report, name)
    assert value is getattr(importlib.import_module(home), name)
    assert name not in assay.report.__all__


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        assay.report.no_such_report  # noqa: B018
