"""The shared comparison result of the item- and query-scored families: records, tables in
every format, the page, the markers and an untrusted name escaped."""

from __future__ import annotations

import math

import pytest

from assay.report import PAIRED_COMPARISON_FIELDS, PairedComparison
from assay.stats import PairResult, StatResult


def _comparison(name: str = "b", diff: float = 0.1, significant: bool = True) -> PairedComparison:
    pair = PairResult(
        system=name,
        baseline="a",
        metric="error",
        diff=diff,
        ci_low=diff - 0.05,
        ci_high=diff + 0.05,
        p_value=0.01,
        p_adjusted=0.02,
        significant=significant,
        higher_is_better=False,
        wins=3,
        ties=5,
        losses=12,
        n=20,
    )
    return PairedComparison(
        family="classification",
        unit="items",
        systems=("a", name),
        baseline="a",
        metrics=("error",),
        scores={"error": {"a": 0.2, name: 0.2 + diff}},
        intervals={"error": {"a": (0.1, 0.3), name: (math.nan, math.nan)}},
        pairs=(pair,),
        test="mcnemar",
        correction="holm",
        alpha=0.05,
        confidence=0.9,
        n=20,
        higher_is_better={"error": False},
        omnibus={"cochran_q": StatResult.of(4.0, 0.045, None, "Cochran's Q", {"df": 1})},
        notes=("a note",),
    )


def test_a_worse_error_rate_is_marked_down_and_records_hold_every_field():
    cmp = _comparison()
    assert cmp.markers("b", "error") == "▼"
    assert cmp.markers("a", "error") == ""
    assert cmp.pair("b").diff == 0.1
    with pytest.raises(KeyError):
        cmp.pair("a")
    rows = cmp.records()
    assert [r["kind"] for r in rows] == ["score", "score", "difference"]
    assert set(rows[-1]) == set(PAIRED_COMPARISON_FIELDS)
    assert math.isnan(rows[1]["ci_low"])


def test_not_significant_has_no_marker():
    assert _comparison(significant=False).markers("b", "error") == ""


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "tsv", "csv", "jsonl", "json"])
def test_every_format_renders(fmt):
    text = _comparison().report().render(fmt)
    assert "0.3000" in text or "0.3" in text
    if fmt in ("table", "markdown", "latex"):
        assert "cochran_q" in text.replace("\\_", "_")


def test_the_page_has_the_tables_and_the_forest_plot_and_escapes_names():
    cmp = _comparison(name="<script>x</script>")
    doc = cmp.document()
    assert [s["title"] for s in doc["sections"]] == ["Results", "Differences against the baseline"]
    page = cmp.html(title="t")
    assert "<script>x</script>" not in page
    assert "&lt;script&gt;" in page


def test_repr_is_one_screen():
    text = repr(_comparison(name="x" * 5000))
    assert len(text) <= 2000 and text.startswith("PairedComparison(")
