"""Saved results (``--save``) are untrusted input (issue 25): ``assay report`` and
``assay plot`` show every field of them inert in every format (no LaTeX, Markdown, HTML or
SVG from the file, no live mention or link), refuse a malformed or oversized file in one
line, and bound the work of drawing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.report.document import document, dumps, section
from assay.report.table import Cell, Column, DisplayTable
from support.cli import assert_one_line_error, invoke
from support.latex import typeset

INPUT = "\\input{/etc/passwd}"


def _saved(path: Path, *items: Any, title: str = "result") -> Path:
    """A saved result holding one section of ``items`` (tables, plot specifications)."""
    path.write_text(dumps([document(title, "ranking", [section("s", *items)])]), "utf-8")
    return path


def _table(*names: str, latex: str | None = None) -> DisplayTable:
    return DisplayTable(
        [Column("run", latex=latex), Column("P@5", align="right")],
        [[name, "0.5000"] for name in names],
    )


def _edited(path: Path, edit: Any) -> Path:
    """``path`` with its JSON changed by ``edit(data)``."""
    data = json.loads(path.read_text("utf-8"))
    edit(data)
    path.write_text(json.dumps(data), "utf-8")
    return path


# ---------------------------------------------------------------- LaTeX


def test_a_saved_latex_header_is_never_written_raw(tmp_path: Path) -> None:
    saved = _saved(tmp_path / "x.json", _table("bm25", latex=INPUT))
    code, out, err = invoke("report", saved, "-f", "latex")
    assert code == 0, err
    assert "\\input" not in out
    assert out.splitlines()[2] == "run & P@5 \\\\"  # the escaped name instead


def test_assay_own_latex_headers_stay_latex(tmp_path: Path) -> None:
    saved = _saved(tmp_path / "x.json", _table("bm25", latex="Run"))
    code, out, _ = invoke("report", saved, "-f", "latex")
    assert code == 0 and out.splitlines()[2] == "Run & P@5 \\\\"


def test_every_latex_header_assay_writes_is_trusted() -> None:
    """Each ``latex=`` header in the report modules is in the list the renderer trusts (a
    new one left out would show its name escaped)."""
    import ast

    import assay.report
    from assay.report.table import LATEX_HEADERS

    found = set()
    for module in Path(assay.report.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            literal = isinstance(node, ast.keyword) and isinstance(node.value, ast.Constant)
            if literal and node.arg == "latex" and isinstance(node.value.value, str):
                found.add(node.value.value)
    assert found and found <= LATEX_HEADERS, found - LATEX_HEADERS


def test_a_non_string_latex_field_is_one_line(tmp_path: Path) -> None:
    saved = _edited(
        _saved(tmp_path / "x.json", _table("a")),
        lambda d: d["documents"][0]["sections"][0]["items"][0]["table"]["columns"][0].update(
            latex={"x": 1}
        ),
    )
    for fmt in ("latex", "markdown", "table", "html"):
        assert_one_line_error(*invoke("report", saved, "-f", fmt), "columns[0].latex", "string")


@pytest.mark.parametrize("start", ["[3cm]run", " [3cm]run", "*run"])
def test_a_latex_row_starting_with_a_bracket_or_star_is_guarded(tmp_path: Path, start: str) -> None:
    saved = _saved(tmp_path / "x.json", _table(start))
    code, out, _ = invoke("report", saved, "-f", "latex")
    assert code == 0
    row = out.splitlines()[4]
    assert row.startswith("{}") and row.endswith("\\\\"), row


def test_a_row_named_3cm_is_typeset_as_text(tmp_path: Path) -> None:
    saved = _saved(tmp_path / "x.json", _table("[3cm]run.txt", "*star", "ok"))
    code, out, _ = invoke("report", saved, "-f", "latex")
    assert code == 0
    text = typeset(out, tmp_path)
    assert "[3cm]run.txt" in text and "*star" in text


def test_marks_from_a_saved_result_are_text_in_math_mode() -> None:
    from assay.report import escape

    assert escape.latex_marks("▲a\\x") == "\\blacktriangle{}a\\mbox{\\textbackslash{}}x".replace(
        "{}a", "a"
    )


# ---------------------------------------------------------------- Markdown


def test_markdown_leaves_no_mention_or_link_live(tmp_path: Path) -> None:
    names = ("@octocat", "see http://x.org/a", "www.example.com", "mail me@example.org")
    saved = _saved(tmp_path / "x.json", _table(*names))
    code, out, _ = invoke("report", saved, "-f", "markdown")
    assert code == 0
    for live in ("@octocat", "http://", "www.", "me@example"):
        assert live not in out, live
    assert "@&#8203;octocat" in out and "http:&#8203;//x.org" in out
    assert "| P@5 |" in out  # a metric's @ is not a mention


# ---------------------------------------------------------------- plots


def _line(name: str, title: str = "") -> dict[str, Any]:
    return {
        "kind": "line",
        "title": "curves",
        "panels": [{"title": title, "series": [{"name": name, "x": [0, 1], "y": [0, 1]}]}],
    }


def test_a_run_named_with_a_leading_underscore_keeps_its_legend_entry(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    saved = _saved(tmp_path / "x.json", _line("_hidden"))
    code, out, err = invoke("report", saved)
    assert code == 0, err
    assert "\u200b_hidden</text>" in out


def test_svg_ids_are_prefixed_in_markup_only(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    saved = _saved(tmp_path / "x.json", _line("a", title="url(#clip)"))
    code, out, _ = invoke("report", saved)
    assert code == 0
    assert ">url(#clip)</text>" in out  # the title as written
    assert 'clip-path="url(#p0-0-' in out  # matplotlib's own references still prefixed


def _refused(tmp_path: Path, spec: dict[str, Any], *needles: str) -> None:
    saved = _saved(tmp_path / "x.json", spec)
    for args in (("report", saved), ("plot", saved, "-o", tmp_path / "x.png")):
        assert_one_line_error(*invoke(*args), *needles)
    assert not (tmp_path / "x.png").exists()


def test_thousands_of_panels_are_refused(tmp_path: Path) -> None:
    spec = {"kind": "diff", "panels": [{"values": [1.0]}] * 5000}
    _refused(tmp_path, spec, "x.json", "panels", "at most 36")


def test_thousands_of_labels_are_refused(tmp_path: Path) -> None:
    labels = [f"q{i}" for i in range(3000)]
    spec = {"kind": "hbar", "panels": [{"labels": labels, "values": [1.0] * 3000}]}
    _refused(tmp_path, spec, "x.json", "3000 labels, more than 400", "ASSAY_MAX_PLOT_LABELS")


def test_the_label_cap_is_lifted_by_its_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    spec = {"kind": "hbar", "panels": [{"labels": ["a", "b", "c"], "values": [1, 2, 3]}]}
    saved = _saved(tmp_path / "x.json", spec)
    monkeypatch.setenv("ASSAY_MAX_PLOT_LABELS", "2")
    for args in (("report", saved), ("plot", saved, "-o", tmp_path / "x.svg")):
        assert_one_line_error(*invoke(*args), "3 labels, more than 2", "ASSAY_MAX_PLOT_LABELS")
    monkeypatch.setenv("ASSAY_MAX_PLOT_LABELS", "3")
    assert invoke("plot", saved, "-o", tmp_path / "x.svg")[0] == 0


def test_a_long_text_is_refused(tmp_path: Path) -> None:
    spec = {"kind": "diff", "title": "x" * 30_000, "panels": [{"values": [1.0]}]}
    _refused(tmp_path, spec, "characters")


@pytest.mark.parametrize(
    ("key", "value", "needle"),
    [("width", 1e6, "width"), ("panel_height", 1e5, "panel_height"), ("columns", 0, "columns")],
)
def test_a_huge_figure_is_refused(tmp_path: Path, key: str, value: Any, needle: str) -> None:
    spec = {"kind": "diff", key: value, "panels": [{"values": [1.0]}]}
    _refused(tmp_path, spec, needle)


def test_a_figure_of_too_many_pixels_is_refused(tmp_path: Path) -> None:
    spec = {
        "kind": "diff",
        "width": 40,
        "panel_height": 20,
        "columns": 1,
        "panels": [{"values": [1.0]}] * 4,
    }
    _refused(tmp_path, spec, "pixels")


def test_the_report_wide_panel_cap_is_lifted_by_its_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    spec = {"kind": "diff", "panels": [{"values": [1.0, -1.0]}] * 2}
    saved = _saved(tmp_path / "x.json", spec, spec)
    monkeypatch.setenv("ASSAY_MAX_PLOT_PANELS", "3")
    assert_one_line_error(*invoke("report", saved), "4 panels", "ASSAY_MAX_PLOT_PANELS")
    monkeypatch.setenv("ASSAY_MAX_PLOT_PANELS", "4")
    code, out, _ = invoke("report", saved)
    assert code == 0 and out.count("<svg") == 2


@pytest.mark.parametrize(
    ("item", "needle"),
    [
        ("plot", "items[0]: expected an object"),
        ({"plot": "x"}, "items[0].plot: expected an object"),
        ({"plot": {"kind": "pie", "panels": []}}, "kind: expected one of"),
        ({"plot": {"kind": "line", "panels": [{"series": [{"name": 1}]}]}}, "series[0].name"),
        ({"plot": {"kind": "box", "panels": [{"groups": ["a"], "values": [[None]]}]}}, "values"),
        (
            {"plot": {"kind": "heatmap", "panels": [{"rows": ["a"], "cols": ["b"], "matrix": []}]}},
            "matrix",
        ),
        ({"plot": {"kind": "diff", "panels": [{"values": [10**400]}]}}, "floating-point"),
        ({"table": {"columns": [{"name": "a"}], "rows": [["x"]]}}, "rows[0][0]"),
        ({"table": {"columns": [{"name": "a"}], "rows": [[["x", 1, "", ""]]]}}, "true or false"),
        ({"table": {"columns": [{"name": "a"}], "rows": [[], []]}}, "one per column"),
        ({"other": 1}, '"table" or a "plot"'),
        (
            {"plot": {"kind": "scatter", "panels": [{"x": [1], "y": [1], "labels": None}]}},
            "labels: expected a list",
        ),
        (
            {"plot": {"kind": "scatter", "panels": [{"x": [1], "y": [1], "highlight": [1]}]}},
            "highlight",
        ),
        (
            {"plot": {"kind": "hbar", "panels": [{"labels": [], "values": [], "color": None}]}},
            "color",
        ),
        (
            {"plot": {"kind": "heatmap", "panels": [{"rows": [], "cols": [], "matrix": []}]}},
            "at least one row",
        ),
    ],
)
def test_malformed_items_are_one_line(tmp_path: Path, item: Any, needle: str) -> None:
    saved = _edited(
        _saved(tmp_path / "x.json"),
        lambda d: d["documents"][0]["sections"].append({"title": "t", "items": [item]}),
    )
    for args in (("report", saved, "-f", "latex"), ("plot", saved), ("report", saved)):
        assert_one_line_error(*invoke(*args), "x.json", needle)


# ---------------------------------------------------------------- reading


def _raw(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "x.json"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


HEAD = '{"format": "assay-report", "version": 1, "documents": '


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (HEAD + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
        (HEAD + '[], "x": ' + "9" * 5000 + "}", "digits"),
        (HEAD + '[], "x": NaN}', "NaN is not a JSON number"),
        (HEAD + '[{"sections": [], "p": ' + "[" * 200 + "]" * 200 + "}]}", "64 deep"),
    ],
)
def test_json_python_cannot_parse_is_one_line(tmp_path: Path, text: str, needle: str) -> None:
    saved = _raw(tmp_path, text)
    for args in (("report", saved, "-f", "latex"), ("plot", saved)):
        assert_one_line_error(*invoke(*args), "x.json", needle)


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    text = dumps([document("r", "ranking", [section("s", _table("bm25"))])])
    saved = _raw(tmp_path, b"\xef\xbb\xbf" + text.encode())
    code, out, err = invoke("report", saved, "-f", "markdown")
    assert code == 0, err
    assert "| bm25 | 0.5000 |" in out


def test_a_saved_file_beyond_the_size_cap_is_refused_until_lifted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = _saved(tmp_path / "x.json", _table("bm25"))
    size = saved.stat().st_size
    monkeypatch.setenv("ASSAY_MAX_SAVED_BYTES", str(size - 1))
    assert_one_line_error(*invoke("report", saved, "-f", "latex"), "ASSAY_MAX_SAVED_BYTES")
    monkeypatch.setenv("ASSAY_MAX_SAVED_BYTES", str(size))
    assert invoke("report", saved, "-f", "latex")[0] == 0
    monkeypatch.setenv("ASSAY_MAX_SAVED_BYTES", "lots")
    assert_one_line_error(*invoke("report", saved, "-f", "latex"), "ASSAY_MAX_SAVED_BYTES")


def test_an_unsupported_plot_extension_blames_the_output(tmp_path: Path) -> None:
    saved = _saved(tmp_path / "x.json", {"kind": "diff", "panels": [{"values": [1.0]}]})
    assert_one_line_error(*invoke("plot", saved, "-o", tmp_path / "x.jpg"), ".jpg", ".png")


# ---------------------------------------------------------------- every text field


def _hostile_everywhere(path: Path, marker: str) -> Path:
    """A saved result with ``marker`` in every text field of a table and of a plot."""
    table = DisplayTable(
        [Column(marker, latex=marker), Column(marker, align="right")],
        [[marker, Cell(marker, strong=True, marks=marker, note=marker)]],
        title=marker,
        caption=marker,
        legend=marker,
        pivot=marker,
    )
    plot = {
        "kind": "bars",
        "title": marker,
        "caption": marker,
        "xlabel": marker,
        "panels": [
            {
                "title": marker,
                "xlabel": marker,
                "ylabel": marker,
                "categories": [marker],
                "series": [{"name": marker, "values": [1]}],
            }
        ],
    }
    path.write_text(
        dumps(
            [
                document(
                    marker,
                    marker,
                    [section(marker, table, plot, text=marker)],
                    provenance={marker: marker},
                )
            ]
        ),
        "utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("fmt", "raw"),
    [
        ("latex", ["\\input", "\x1b", "\u202e", "\u200b"]),
        ("markdown", ["<script>", "@user", "http://", "\x1b", "\u202e", "\u2028"]),
        ("table", ["\x1b", "\u202e", "\u200b", "\u2028", "\x07"]),
        ("html", ["<script>", "\x1b", "\u202e", "\u2028"]),
    ],
)
def test_every_text_field_is_inert(tmp_path: Path, fmt: str, raw: list[str]) -> None:
    if fmt == "html":
        pytest.importorskip("matplotlib")
    marker = "[3cm]<script>\\input{x}\x1b]0;t\x07\u202e\u200b\u2028 @user http://x $=1"
    saved = _hostile_everywhere(tmp_path / "x.json", marker)
    code, out, err = invoke("report", saved, "-f", fmt)
    assert code == 0, err
    for needle in raw:
        assert needle not in out, (fmt, needle)
    if fmt == "latex":  # no row starts with an optional argument of the \\ before it
        assert not any(line.startswith(("[", "*")) for line in out.splitlines())
