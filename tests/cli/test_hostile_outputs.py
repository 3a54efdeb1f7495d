"""Hostile strings through every output format: run names (file names), query ids and labels
holding ``<script>``, terminal escape sequences, newlines, tabs, ``|``, LaTeX specials and rich
markup. Every output must be well-formed (one record per row, one table row per line) and
inert (no raw HTML, no control characters, no live LaTeX command), and the machine formats
must give the names back exactly.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app
from support.latex import typeset

runner = CliRunner()

HOSTILE = {
    "html": "<script>alert(1)</script>",
    "escape": "run\x1b]0;pwned\x07\x1b[2J",
    "newline": "evil\nname",
    "tab": "tab\there",
    "pipe": "a|b",
    "latex": "\\input{/etc/passwd}%$#_&~^",
    "markup": "bm25[bold]x[/bold]",
    "separator": "line\u2028sep",
}
HOSTILE_QUERY = "q<i>|\x1b[31m$_"
CONTROL = [chr(c) for c in range(32) if chr(c) not in "\n"] + ["\x7f", "\x85", "\u2028", "\u2029"]


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """Qrels with a hostile query id, and one run per hostile name (the name is the file's)."""
    d = tmp_path_factory.mktemp("hostile")
    qrels, runs = assay.datasets.synthetic(n_queries=12, docs_per_query=10, seed=7)
    q = d / "qrels.tsv"
    table = qrels.to_arrow().to_pylist()
    lines = ["query\tdoc\trelevance"] + [
        f"{r['query']}\t{r['doc']}\t{r['relevance']}" for r in table
    ]
    lines.append(f"{HOSTILE_QUERY}\td1\t1")  # a query no run answers: scored as empty
    q.write_text("\n".join(lines) + "\n", encoding="utf-8")
    base = next(iter(runs.values()))
    paths = []
    for i, name in enumerate(HOSTILE.values()):
        path = d / name.replace("/", "_")
        (list(runs.values())[i % len(runs)] if i else base).to_trec(path)
        paths.append(path)
    return q, paths


def _compare(collection: tuple[Path, list[Path]], fmt: str, *extra: str) -> str:
    q, paths = collection
    result = runner.invoke(
        app,
        ["compare", str(q), *map(str, paths), "-m", "P@5", "-m", "map", "--n-resamples", "50",
         "-f", fmt, *extra],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _names(collection: tuple[Path, list[Path]]) -> list[str]:
    return [p.name for p in collection[1]]


def _inert_text(out: str) -> None:
    assert not any(c in out for c in CONTROL if c != "\t"), "a control character got through"


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_display_formats_carry_no_control_characters(
    collection: tuple[Path, list[Path]], fmt: str
) -> None:
    _inert_text(_compare(collection, fmt).replace("\t", ""))


def test_markdown_is_inert_and_one_row_per_line(collection: tuple[Path, list[Path]]) -> None:
    out = _compare(collection, "markdown")
    assert "<script>" not in out and "</script>" not in out
    for line in out.splitlines():
        if line.startswith("|"):
            assert line.endswith("|")
    body = [line for line in out.splitlines() if line.startswith("| (")]
    assert len(body) == len(HOSTILE)  # one row per run, none split


def test_latex_is_inert(collection: tuple[Path, list[Path]]) -> None:
    out = _compare(collection, "latex")
    assert "\\input{" not in out and "\\textbackslash{}input" in out
    for line in out.splitlines():
        stripped = line.strip()
        ok = (
            not stripped
            or stripped.startswith(
                ("%", "\\begin", "\\end", "\\toprule", "\\midrule", "\\bottomrule")
            )
            or stripped.endswith("\\\\")
        )
        assert ok, line


def test_latex_compiles_with_input_as_text(
    collection: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    text = typeset(_compare(collection, "latex"), tmp_path)
    assert "\\input{_etc_passwd}%$#_&~^" in text  # typeset as text, not executed
    assert "root:" not in text


def test_tsv_keeps_one_record_per_line(collection: tuple[Path, list[Path]]) -> None:
    out = _compare(collection, "tsv")
    lines = out.splitlines()
    width = len(lines[0].split("\t"))
    assert all(len(line.split("\t")) == width for line in lines)
    runs = {line.split("\t")[1] for line in lines[1:]}
    assert "evil\\nname" in runs and "tab\\there" in runs  # escaped, reversibly


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "json"])
def test_machine_formats_give_the_names_back(collection: tuple[Path, list[Path]], fmt: str) -> None:
    out = _compare(collection, fmt)
    if fmt == "csv":  # escaped as TSV is, reversibly
        runs = {_unescape(row["run"]) for row in csv.DictReader(io.StringIO(out))}
    elif fmt == "jsonl":
        runs = {json.loads(line)["run"] for line in out.splitlines()}
    else:
        runs = {row["run"] for row in json.loads(out)["records"]}
    assert runs == set(_names(collection))


_ESCAPE = re.compile(r"\\(\\|t|n|r|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")


def _unescape(field: str) -> str:
    """A field escaped by assay.report.escape.tsv (or .csv) as it was."""
    field = field[1:] if field[:1] == "'" and field[1:2] in "=+-@" else field

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        return {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}.get(code) or chr(int(code[1:], 16))

    return _ESCAPE.sub(one, field)


def test_rich_terminal_shows_markup_as_text(
    collection: tuple[Path, list[Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the terminal path: laid out by rich
    out = _compare(collection, "table")
    assert "bm25[bold]x[_bold]" in out  # the file name ("/" cannot be in one)
    _inert_text(out)


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "tsv"])
def test_hostile_query_ids_in_per_query_output(
    collection: tuple[Path, list[Path]], fmt: str
) -> None:
    q, paths = collection
    result = runner.invoke(app, ["evaluate", str(q), str(paths[0]), "-m", "P@5", "-q", "-f", fmt])
    assert result.exit_code == 0, result.stderr
    _inert_text(result.stdout.replace("\t", ""))
    assert "\\x1b" in result.stdout or "\\textbackslash{}x1b" in result.stdout
    if fmt == "markdown":
        assert "<i>" not in result.stdout and "\\<i\\>" in result.stdout


def test_error_messages_are_one_inert_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad\x1b[2Jname\nrun"
    bad.write_text("1 Q0 d1 1 x tag\n", encoding="utf-8")
    qrels = tmp_path / "q"
    qrels.write_text("1 0 d1 1\n", encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(qrels), str(bad)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "\x1b" not in result.stderr
    assert "\\x1b[2J" in result.stderr


FORMULAS = ["=HYPERLINK(1)", "@SUM(1)", "+cmd", "-2+3", "\u202eevil\u200b"]


def test_csv_neutralises_formulas_and_escapes_controls(
    collection: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    q, paths = collection
    runs = []
    for name in FORMULAS:
        runs.append(tmp_path / name)
        runs[-1].write_bytes(paths[0].read_bytes())
    result = runner.invoke(
        app, ["compare", str(q), *map(str, runs), "-m", "P@5", "--n-resamples", "20", "-f", "csv"]
    )
    assert result.exit_code == 0, result.stderr
    _inert_text(result.stdout)
    assert "\u202e" not in result.stdout and "\u200b" not in result.stdout
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    for row in rows:
        for field in row.values():
            if field[:1] in ("=", "+", "-", "@"):
                float(field)  # only a number may start like a formula
    assert {r["run"] for r in rows} >= {"'=HYPERLINK(1)", "'@SUM(1)", "'+cmd", "'-2+3"}
    assert {_unescape(r["run"]) for r in rows} == set(FORMULAS)
    # a number stays a number, a text that is a plain number too; text formulas are quoted
    rows = [{"run": "-cmd", "query": "-1", "value": -0.5}, {"run": "=1+1", "value": -1e-05}]
    out = assay.report.render_records(rows, "csv", columns=["run", "query", "value"])
    assert out == "run,query,value\n'-cmd,-1,-0.5\n'=1+1,,-1e-05\n"
