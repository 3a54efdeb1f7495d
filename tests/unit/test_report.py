"""assay.report: value formatters, escaping, the records renderer and the display table."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import OptionError
from assay.report import (
    Cell,
    Column,
    DisplayTable,
    Report,
    count,
    escape,
    json_value,
    plain,
    render_records,
    short,
    to_latex,
    to_markdown,
    to_rich,
    to_text,
    values_report,
)

LATEX_SPECIALS = "& % $ # _ { } ~ ^ \\"


def render_rich(table: DisplayTable, width: int = 120) -> str:
    from rich.console import Console

    console = Console(width=width, record=True, file=io.StringIO())
    console.print(to_rich(table))
    return console.export_text()


# ---------------------------------------------------------------- values


def test_plain_short_json() -> None:
    assert plain(0.1) == "0.1" and plain(1 / 3) == repr(1 / 3)
    assert plain(np.float64(0.25)) == "0.25"  # not "np.float64(0.25)"
    assert plain(3) == "3" and plain(np.int64(3)) == "3"
    assert plain(math.nan) == "nan" and plain(None) == "" and plain(True) == "True"
    assert plain("x|y") == "x|y"
    assert short(1 / 3) == "0.3333" and short(2) == "2" and short(math.nan) == "nan"
    assert short(1234.5678, ".6g") == "1234.57" and short("band") == "band"
    assert json_value(math.nan) is None and json_value(np.float64(0.5)) == 0.5
    assert isinstance(json_value(np.int64(2)), int) and json_value("a") == "a"
    assert count(1500.0) == 1500 and isinstance(count(1500.0), int)
    assert count(2.5) == 2.5 and math.isnan(count(math.nan)) and count("x") == "x"


@settings(max_examples=50, deadline=None)
@given(st.floats(allow_nan=False))
def test_plain_round_trips(x: float) -> None:
    assert float(plain(x)) == x


# ---------------------------------------------------------------- escaping


def test_latex_escapes_every_special_character() -> None:
    assert escape.latex(LATEX_SPECIALS) == (
        r"\& \% \$ \# \_ \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )
    assert escape.latex("my_run&co") == r"my\_run\&co"
    assert escape.latex_marks("▲") == r"\blacktriangle"
    assert escape.latex_marks("▼") == r"\blacktriangledown"
    assert escape.latex_marks("ab") == "ab"


def test_markdown_escapes_pipes_inline_syntax_and_html() -> None:
    assert escape.markdown("a|b|c") == r"a\|b\|c"
    assert escape.markdown("no pipes & _stars_") == r"no pipes \& \_stars\_"
    assert escape.markdown("<script>x</script>") == r"\<script\>x\</script\>"
    assert escape.markdown("[a](javascript:x)") == r"\[a\](javascript:x)"
    assert escape.markdown("0.2500 -1.5e-3") == "0.2500 -1.5e-3"  # numbers untouched


def test_control_characters_are_shown_never_sent() -> None:
    evil = "run\x1b]0;title\x07\nnext\tcol\u2028x"
    for text in (
        escape.terminal(evil),
        escape.rich(evil),
        escape.markdown(evil),
        escape.latex(evil),
    ):
        assert text.isprintable() and "\n" not in text
    assert escape.terminal(evil) == "run\\x1b]0;title\\x07\\nnext\\tcol\\u2028x"
    assert escape.tsv("a\tb\nc\\d") == "a\\tb\\nc\\\\d"


def test_rich_escapes_markup() -> None:
    assert escape.rich("bm25[bold]") == r"bm25\[bold]"
    assert escape.rich("[0.1, 0.2]") == "[0.1, 0.2]"


# ---------------------------------------------------------------- display table

TABLE = DisplayTable(
    [
        Column("run", latex="Run", style="bold"),
        Column("P@5", align="right"),
        Column("a|b_%", align="right"),
    ],
    [
        ["x&y_1", Cell("0.5000", strong=True), Cell("0.2500", marks="▲", note="[0.1, 0.3]")],
        ["bm25[bold] | {~^}", "0.4000", Cell("0.1000", marks="ab")],
    ],
    caption="ties=docno",
    legend="▲: better than base_line",
)


def test_to_markdown() -> None:
    assert to_markdown(TABLE) == (
        "| run | P@5 | a\\|b\\_% |\n"
        "|---|---:|---:|\n"
        "| x\\&y\\_1 | **0.5000** | 0.2500<sup>▲</sup> \\[0.1, 0.3\\] |\n"
        "| bm25\\[bold\\] \\| {\\~^} | 0.4000 | 0.1000<sup>ab</sup> |\n"
        "\n"
        "ties=docno\n"
        "\n"
        "▲: better than base\\_line\n"
    )


def test_to_latex() -> None:
    assert to_latex(TABLE) == (
        "\\begin{tabular}{lrr}\n"
        "\\toprule\n"
        "Run & P@5 & a\\textbar{}b\\_\\% \\\\\n"
        "\\midrule\n"
        "x\\&y\\_1 & \\textbf{0.5000} & 0.2500$^{\\blacktriangle}$ {\\scriptsize [0.1, 0.3]} \\\\\n"
        "bm25[bold] \\textbar{} \\{\\textasciitilde{}\\textasciicircum{}\\} & 0.4000 & 0.1000$^{ab}$ \\\\\n"
        "\\bottomrule\n"
        "\\end{tabular}\n"
        "% ties=docno\n"
        "% ▲: better than base\\_line\n"
    )


def test_every_latex_special_in_a_cell() -> None:
    table = DisplayTable([Column("name")], [[LATEX_SPECIALS]])
    body = to_latex(table).splitlines()[4]
    assert body == escape.latex(LATEX_SPECIALS) + " \\\\"
    # every special character is preceded by a backslash or replaced by a command
    stripped = body.replace("\\textasciitilde{}", "").replace("\\textasciicircum{}", "")
    stripped = stripped.replace("\\textbackslash{}", "").removesuffix(" \\\\")
    for ch in "&%$#_{}":
        assert all(stripped[i - 1] == "\\" for i, c in enumerate(stripped) if c == ch), ch


def test_to_rich() -> None:
    text = render_rich(TABLE)
    assert "bm25[bold] | {~^}" in text  # not taken for markup
    assert "0.2500▲ [0.1, 0.3]" in text and "0.1000ab" in text
    assert "ties=docno" in text and "base_line" in text  # caption and legend
    legend_only = DisplayTable(TABLE.columns, TABLE.rows, legend="L [x]")
    assert "L [x]" in render_rich(legend_only)


def test_rich_sections_and_title() -> None:
    table = DisplayTable([Column("q")], [["1"], ["all"], ["2"]], title="T", sections=frozenset({1}))
    lines = render_rich(table, width=40).splitlines()
    assert lines[0].strip() == "T"
    assert sum(1 for line in lines if line.startswith("├")) == 1  # one rule after "all"


def test_to_text() -> None:
    assert to_text(TABLE) == (
        "run                   P@5               a|b_%\n"
        "-----------------  ------  ------------------\n"
        "x&y_1              0.5000  0.2500▲ [0.1, 0.3]\n"
        "bm25[bold] | {~^}  0.4000            0.1000ab\n"
        "ties=docno\n"
        "▲: better than base_line\n"
    )


# ---------------------------------------------------------------- records

ROWS = [
    {"metric": "f1", "label": "a|b", "value": 2 / 3},
    {"metric": "support", "label": "a,b", "value": 3},
    {"metric": "mcc", "value": math.nan},
]


def test_tsv_and_csv() -> None:
    columns = ("metric", "label", "value")
    tsv = render_records(ROWS, "tsv", columns=columns)
    assert tsv == f"metric\tlabel\tvalue\nf1\ta|b\t{2 / 3!r}\nsupport\ta,b\t3\nmcc\t\tnan\n"
    rows = list(csv.reader(io.StringIO(render_records(ROWS, "csv", columns=columns))))
    assert rows == [
        list(columns),
        ["f1", "a|b", repr(2 / 3)],
        ["support", "a,b", "3"],
        ["mcc", "", "nan"],
    ]


def test_jsonl_and_json() -> None:
    lines = render_records(ROWS, "jsonl", columns=("metric",)).splitlines()
    assert [json.loads(line) for line in lines] == [
        {"metric": "f1", "label": "a|b", "value": 2 / 3},
        {"metric": "support", "label": "a,b", "value": 3},
        {"metric": "mcc", "value": None},
    ]
    doc = json.loads(
        render_records(ROWS, "json", columns=(), key="records", document={"settings": {"k": 1}})
    )
    assert list(doc) == ["records", "settings"] and doc["records"][2]["value"] is None


def test_unknown_record_format() -> None:
    with pytest.raises(OptionError, match="format"):
        render_records(ROWS, "yaml", columns=())  # type: ignore[arg-type]


# ---------------------------------------------------------------- reports


def test_values_report_formats() -> None:
    report = values_report({"alpha": 0.8125, "band": "reliable", "n": 4}, caption="c")
    assert isinstance(report, Report)
    assert report.render("tsv") == "metric\tvalue\nalpha\t0.8125\nband\treliable\nn\t4\n"
    assert report.render("markdown") == (
        "| metric | value |\n|---|---:|\n| alpha | 0.8125 |\n| band | reliable |\n| n | 4 |\n\nc\n"
    )
    assert report.render("latex").splitlines()[2] == "Metric & Value \\\\"
    assert json.loads(report.render("json"))["results"][2] == {"metric": "n", "value": 4}
    assert report.render("table").splitlines()[-1] == "c"
    with pytest.raises(OptionError):
        report.render("html")  # type: ignore[arg-type]


def test_latex_header_source_is_used_as_written() -> None:
    """``Column.latex`` is LaTeX assay writes ($\\Delta$ typesets as Δ); a plain header, which
    may come from the data, is escaped."""
    table = DisplayTable([Column("diff [CI]", latex="$\\Delta$ [CI]"), Column("a_$")], [["1", "2"]])
    assert to_latex(table).splitlines()[2] == "$\\Delta$ [CI] & a\\_\\$ \\\\"
