"""The pieces of the HTML report: tables as HTML, report documents as data (round trip,
refusals), plots as inline SVG (escaping, unique ids, edge cases of every kind)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assay.errors import InputError
from assay.report import escape
from assay.report.document import document, dumps, load, section, table_from_dict, table_to_dict
from assay.report.html import table_html, to_html
from assay.report.table import Cell, Column, DisplayTable

TABLE = DisplayTable(
    [Column("run"), Column("P@5", align="right", latex="P@5")],
    [["a<b>", Cell("0.5000", strong=True, marks="▼", note="[0.4, 0.6]")], ["c&d", "0.2"]],
    title="T<i>",
    caption="cap",
    legend="▼: worse",
)


def test_a_table_as_html_escapes_and_decorates() -> None:
    out = table_html(TABLE)
    assert '<th scope="row">a&lt;b&gt;</th>' in out and "c&amp;d" in out
    assert '<td class="num"><strong>0.5000</strong><sup class="down">▼</sup>' in out
    assert '<span class="note">[0.4, 0.6]</span>' in out
    assert "<caption>T&lt;i&gt;</caption>" in out
    assert '<p class="legend">cap</p><p class="legend">▼: worse</p>' in out


def test_a_table_survives_the_round_trip_through_json() -> None:
    again = table_from_dict(json.loads(json.dumps(table_to_dict(TABLE))))
    assert again.cells() == TABLE.cells()
    assert [(c.name, c.align, c.latex) for c in again.columns] == [
        (c.name, c.align, c.latex) for c in TABLE.columns
    ]
    assert (again.title, again.caption, again.legend) == (TABLE.title, TABLE.caption, TABLE.legend)


def test_saved_documents_load_back_and_others_are_refused(tmp_path: Path) -> None:
    doc = document("r", "ranking", [section("s", TABLE)], records=[{"v": float("nan")}])
    path = tmp_path / "saved.json"
    path.write_text(dumps([doc]), encoding="utf-8")
    (loaded,) = load(path)
    assert loaded == doc and loaded["records"] == [{"v": None}]
    path.write_text(json.dumps({"format": "assay-report", "version": 2, "documents": []}))
    with pytest.raises(InputError, match="version 2"):
        load(path)
    path.write_text(json.dumps({"format": "assay-report", "version": 1, "documents": [{}]}))
    with pytest.raises(InputError, match="well-formed"):
        load(path)


def test_a_section_without_items_or_text_is_left_out() -> None:
    doc = document("r", "x", [section("empty", None), section("kept", TABLE)])
    assert [s["title"] for s in doc["sections"]] == ["kept"]


def test_matplotlib_text_is_shown_as_written() -> None:
    assert escape.matplotlib("$x$ costs $5") == r"\$x\$ costs \$5"
    assert escape.matplotlib("a\nb") == "a\\nb"
    assert escape.html("<a href='x'>") == "&lt;a href=&#x27;x&#x27;&gt;"


@pytest.fixture
def mpl() -> None:
    pytest.importorskip("matplotlib")


KINDS = {
    "box": {"groups": ["a", "b"], "values": [[0.1, 0.5], []]},
    "diff": {"values": [0.2, 0.0, -0.1]},
    "line": {"series": [{"name": "<run>", "x": [0, 1], "y": [0, None], "best": 1}]},
    "hbar": {"labels": ["f1", "f2"], "values": [1.0, None]},
    "bars": {"categories": ["1-5", "6-9"], "series": [{"name": "m", "values": [0.5, None]}]},
    "heatmap": {"rows": ["a"], "cols": ["a", "b"], "matrix": [[0, 3]]},
    "interval": {
        "labels": ["a", "b", "c"],
        "values": [1.0, 0.5, None],
        "low": [0.5, None, None],
        "high": [None, 0.7, None],
    },
    "scatter": {"x": [0.1, 0.9], "y": [0.2, 0.1], "highlight": [False, True]},
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_draws_an_inline_svg(mpl: None, kind: str) -> None:
    from assay.report.plots import svg

    spec = {"kind": kind, "title": "$t$ <b>", "panels": [dict(KINDS[kind], title="p<&>")]}
    out = svg(spec, "k1")
    assert out.startswith('<svg role="img" ')
    assert "<title>$t$ &lt;b&gt;</title>" in out
    assert "<?xml" not in out and "<metadata" not in out and "<b>" not in out
    ids = re.findall(r'\bid="([^"]+)"', out)
    assert ids and all(i.startswith("k1-") for i in ids)
    refs = re.findall(r"url\(#([^)]+)\)|href=\"#([^\"]+)\"", out)
    assert all(any(r) and (r[0] or r[1]).startswith("k1-") for r in refs)


def test_empty_panels_still_draw(mpl: None) -> None:
    from assay.report.plots import svg

    for kind, panel in [("box", {"groups": ["a"], "values": [[]]}), ("diff", {"values": []}),
                        ("scatter", {"x": [], "y": [], "highlight": []})]:  # fmt: skip
        assert svg({"kind": kind, "panels": [panel]}).startswith("<svg")


def test_two_plots_on_a_page_share_no_id(mpl: None) -> None:
    spec = {"kind": "line", "title": "", "panels": [KINDS["line"]]}
    page = to_html([document("r", "x", [section("s", spec, spec)])])
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_a_contingency_table_orders_numbers_as_numbers() -> None:
    from assay.clustering.document import crosstab

    rows, cols, counts = crosstab([10, 2, 2, 10], [1, 0, 0, 0])
    assert (rows, cols) == (["2", "10"], ["0", "1"])
    assert counts.tolist() == [[2, 0], [1, 1]]
    rows, _, _ = crosstab(["b", "a<"], ["x", "x"])
    assert rows == ["a<", "b"]


def test_a_contingency_table_of_many_clusters_is_a_sentence_not_a_dense_table() -> None:
    """40,000 singleton gold clusters against 20,000 pairs would be 800M cells: the page says
    how many clusters there are instead (and the boundary itself is shown)."""
    from assay.clustering.document import MAX_CLUSTERS, contingency_section

    n = 40_000
    big = contingency_section(list(range(n)), [k // 2 for k in range(n)])
    assert big["items"] == [] and "40000 gold and 20000 predicted clusters" in big["text"]
    edge = contingency_section(list(range(MAX_CLUSTERS)), [0] * MAX_CLUSTERS)
    assert [next(iter(item)) for item in edge["items"]][-1] == "table"


def test_a_heatmap_starts_its_scale_at_zero(mpl: None) -> None:
    from assay.report.plots import figure

    spec = {"kind": "heatmap", "panels": [{"rows": ["a"], "cols": ["x", "y"], "matrix": [[2, 3]]}]}
    image = figure(spec).axes[0].images[0]
    assert image.get_clim() == (0.0, 3.0)
    texts = {t.get_text(): t.get_color() for t in figure(spec).axes[0].texts}
    assert texts == {"2": "white", "3": "white"}


def test_box_plots_are_labelled_by_run(mpl: None) -> None:
    from assay.report.plots import figure

    spec = {"kind": "box", "panels": [{"groups": ["bm25", "dense"], "values": [[0.1, 0.3], [0.5]]}]}
    ax = figure(spec).axes[0]
    labels = {t.get_text(): t.get_position()[1] for t in ax.get_yticklabels()}
    assert labels == {"bm25": 2, "dense": 1}  # the first run on top


def test_any_result_has_a_document(mpl: None) -> None:
    import assay
    from assay.classification import classification_report
    from assay.report import any_document

    doc = any_document(classification_report(["a", "b", "a"], ["a", "a", "a"]))
    assert doc["family"] == "result" and doc["records"] and doc["sections"][0]["items"]
    qrels, runs = assay.datasets.synthetic(n_queries=5, docs_per_query=5, seed=1)
    res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5"])
    doc = any_document(res, title="mine")
    assert doc["title"] == "mine" and doc["family"] == "ranking"
    assert "<svg" in to_html([doc])


def test_differences_are_drawn_for_the_first_runs_and_say_so() -> None:
    import assay
    from assay.ranking import results_document
    from assay.ranking.sections import MAX_DIFF_RUNS

    noise = [0.5 + i / 4 for i in range(MAX_DIFF_RUNS + 2)]
    qrels, runs = assay.datasets.synthetic(n_queries=5, docs_per_query=5, noise=noise, seed=1)
    doc = results_document(assay.evaluate(qrels, list(runs.values()), ["P@5"]))
    (diffs,) = [s for s in doc["sections"] if s["title"].startswith("Per-query differences")]
    assert len(diffs["items"]) == MAX_DIFF_RUNS
    assert (
        diffs["text"]
        == f"The first {MAX_DIFF_RUNS} of the {MAX_DIFF_RUNS + 1} runs compared with it."
    )


def test_a_parquet_without_assay_metadata_is_refused(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"a": [1]}), str(path))
    with pytest.raises(InputError, match="report metadata"):
        load(path)
    path.write_text("not parquet")
    with pytest.raises(InputError, match="not a Parquet file"):
        load(path)
