"""``assay metrics``: every family (by the registry's name or the package's), plain-text
descriptions, and on a terminal of any width every word shown: wrapped, never cropped."""

from __future__ import annotations

import csv
import io
import re

import pytest
from rich.console import Console

from assay._families import FAMILIES
from assay.cli.metrics import _rows
from assay.metrics import REGISTRY, load_families
from assay.report import catalog_report
from support.cli import invoke

load_families()
NAMED = {f.name: f.metric_family for f in FAMILIES if f.metric_family is not None}


@pytest.mark.parametrize("name", sorted({*NAMED, *NAMED.values()}))
def test_every_family_lists_its_measures(name: str) -> None:
    code, out, err = invoke("metrics", "--family", name, "-f", "tsv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
    family = NAMED.get(name, name)
    assert [r["name"] for r in rows] == [s.name for s in REGISTRY.specs(family)]
    assert {r["family"] for r in rows} == {family}
    assert REGISTRY.specs(name) == REGISTRY.specs(family)  # Python takes the same names
    for r in rows:  # plain text: no reST roles or literals
        assert not re.search(r"``|:[a-z]+:`", r["summary"]), r


def _shown(width: int) -> str:
    """``assay metrics`` for every family as a terminal ``width`` columns wide shows it."""
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    console.print(catalog_report(_rows(None)).rich(width))
    return console.file.getvalue()  # type: ignore[attr-defined]  # why: the StringIO above


@pytest.mark.parametrize("width", [60, 80, 120, 200])
def test_a_terminal_of_any_width_shows_every_word(width: int) -> None:
    out = _shown(width)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width
    # Nothing cropped: every line of the boxed table ends with its right border.
    assert all(line.rstrip()[-1] in "┓┃┩│┤┘" for line in lines if line.strip()), width
    # Each column read top to bottom, white space dropped, holds every description whole (a
    # word wider than its column is folded, never cut).
    cells = [re.split("[│┃]", line)[1:-1] for line in lines if "│" in line]
    columns = ["".join("".join(row[j].split()) for row in cells) for j in range(len(cells[0]))]
    rows = _rows(None)
    longest = max(rows, key=lambda r: len(r["summary"]))
    assert len(longest["summary"]) > 200
    for row in rows:
        summary = "".join(row["summary"].split())
        assert any(summary in column for column in columns), (width, row["name"])
        assert row["name"] in out.split(), row["name"]


def test_the_cli_on_an_80_column_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = invoke("metrics", "--family", "agreement", "-f", "table")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    # The last column's cells, line after line, give back each description whole.
    last = [re.split("[│┃]", line)[-2].strip() for line in out.splitlines() if "│" in line]
    text = " ".join(" ".join(last).split())
    for row in _rows(["agreement"]):
        assert row["summary"] in text, row["name"]
