"""Hostile saved results through ``assay report`` (every format) and ``assay plot`` (the
listing in every format, and the exported file): every run ends with exit code 0 or a
one-line error (exit 2), never an internal error, and no output holds a hostile fragment in
the form that is live in its format (a terminal escape, ``\\input{``, ``<script>``, a
mention, a link, a formula at the start of a CSV field, a row starting with ``[``).

Examples: ``ASSAY_FUZZ_EXAMPLES`` (a few dozen by default).
``python tests/properties/saved_census.py --examples 3000`` counts the outcomes of thousands,
with time and memory.
"""

from __future__ import annotations

import csv
import io
import re
import tempfile
from pathlib import Path

import typer.main
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from assay.cli import app
from strategies.fuzz import fuzz_settings
from strategies.saved import RAW, saved_results

#: The click command of the app, built once (typer builds it anew on every invocation, which
#: would be most of the time of a run).
_COMMAND = typer.main.get_command(app)
_RUNNER = CliRunner()


def invoke(*args: str | Path) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``assay ARGS``, in process."""
    result = _RUNNER.invoke(_COMMAND, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


#: (command line after the saved file, the format of its standard output or file).
RUNS = [
    *((("report", "-f", f), f) for f in ("latex", "markdown", "table")),
    *((("plot", "-f", f), f) for f in ("csv", "tsv", "json", "jsonl", "markdown", "latex")),
    (("report",), "html"),
    (("plot", "-o", "OUT.svg"), "svg"),
    (("plot", "-o", "OUT.png"), "png"),
    (("plot", "-o", "OUT.pdf"), "pdf"),
]
#: The cheap runs every example makes; one of the drawing ones is drawn per example.
TEXT_RUNS, DRAWING_RUNS = RUNS[:9], RUNS[9:]

_FORMULA = ("=", "+", "-", "@")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)")


def problems(fmt: str, code: int, out: str, err: str) -> list[str]:
    """What is wrong with one run: an exit code other than 0 and 2, an error that is not one
    line, a hostile fragment live in the output."""
    if code == 2:
        one_line = err.startswith("assay: error: ") and err.count("\n") == 1 and not out
        live = [c for c in RAW["table"] if c in err.rstrip("\n")]
        return ([] if one_line else [f"not one line: {err!r}"]) + [
            f"raw {c!r} in the error" for c in live
        ]
    if code != 0:
        return [f"exit code {code}: {err[-300:]!r}"]
    found = [f"raw {c!r} in {fmt}" for c in RAW.get(fmt, ()) if c in out]
    if fmt == "latex":
        found += [
            f"a LaTeX row starts with {line[:1]!r}"
            for line in out.splitlines()
            if line.startswith(("[", "*"))
        ]
    if fmt == "html" and re.search("\u200b(?!_)", out):
        found.append("a zero-width space in html other than before a leading _")
    if fmt == "csv":
        found += [f"a formula in csv: {f!r}" for f in _csv_fields(out) if _is_formula(f)]
    return found


def _csv_fields(text: str) -> list[str]:
    """Every field of a CSV text; the csv module's field limit (process-wide, and read by
    assay's task readers) is lifted only while this reads, as a hostile title may be a
    megabyte long."""
    old = csv.field_size_limit(2**31 - 1)
    try:
        return [f for row in csv.reader(io.StringIO(text, newline="")) for f in row]
    finally:
        csv.field_size_limit(old)


def _is_formula(field: str) -> bool:
    return field.startswith(_FORMULA) and not _NUMBER.fullmatch(field)


def attempt(saved: bytes, args: tuple[str, ...], fmt: str) -> list[str]:
    """Run ``assay ARGS[0] SAVED ARGS[1:]`` on the saved bytes; its problems."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "saved.json"
        path.write_bytes(saved)
        rest = [a.replace("OUT", str(Path(d) / "out")) for a in args[1:]]
        code, out, err = invoke(args[0], path, *rest)
        if code == 0 and fmt == "svg":
            out = (Path(d) / "out.svg").read_text("utf-8")
        return problems(fmt, code, out, err)


@fuzz_settings(30)
@given(saved=saved_results(), drawing=st.sampled_from(DRAWING_RUNS))
def test_hostile_saved_results_are_shown_inert_or_refused_in_one_line(
    saved: bytes, drawing: tuple[tuple[str, ...], str]
) -> None:
    found = []
    for args, fmt in [*TEXT_RUNS, drawing]:
        found += [f"{' '.join(args)}: {p}" for p in attempt(saved, args, fmt)]
    assert not found, found
