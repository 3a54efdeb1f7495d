"""What every command shares: error handling, the presenter, and the typer options.

- :func:`errors` — every :class:`~assay.errors.AssayError` (and an unreadable input or
  unwritable output file) becomes one line ``assay: error: ...`` on stderr and exit code 2,
  never a traceback; a closed pipe (``assay ... | head``) exits quietly.
- :func:`present` — writes a :class:`~assay.report.Report` in the chosen format to stdout or
  a file; with no ``--format`` the terminal gets the table and anything else TSV.
- ``FormatOption``, ``OutputOption``, ``TiesOption``, ... — the ``Annotated`` types of the
  options several commands take, so they read the same everywhere.

Only typer, the standard library and assay's light foundation are imported here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .._options import Missing, NoRelevant, OutputFormat, ShortQueries, Ties
from ..errors import AssayError

if TYPE_CHECKING:
    from ..report import Report

__all__ = [
    "DEFAULT_METRICS",
    "FormatOption",
    "JudgedOnlyOption",
    "MetricOption",
    "MissingOption",
    "NoRelevantOption",
    "OutputOption",
    "ShortQueriesOption",
    "TiesOption",
    "choose_format",
    "emit",
    "err",
    "errors",
    "load_collection",
    "present",
    "print_rich",
    "unique_names",
    "warn",
]

#: Metrics of ``assay evaluate`` and ``assay compare`` when no ``-m`` is given.
DEFAULT_METRICS = ["map", "ndcg@10", "P@10", "RR", "R@100"]

# ---------------------------------------------------------------- shared options

FormatOption = Annotated[
    OutputFormat | None,
    typer.Option("-f", "--format", help="Output format (default: table on a terminal, else tsv)."),
]
OutputOption = Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file.")]
MetricOption = Annotated[
    list[str] | None,
    typer.Option(
        "-m",
        "--metric",
        help="Metric, repeatable: ndcg@10, P(rel=2)@5, map, ndcg_cut.10, P.5,10 ... "
        f"(default: {' '.join(DEFAULT_METRICS)}). `assay metrics` lists them.",
    ),
]
TiesOption = Annotated[Ties, typer.Option(help="Tied scores: docno (trec_eval), input, average.")]
MissingOption = Annotated[
    Missing,
    typer.Option(help="Qrels queries absent from a run: zero (trec_eval -c), skip, error."),
]
NoRelevantOption = Annotated[
    NoRelevant,
    typer.Option(
        help="Queries where a metric is undefined (no relevant document): zero, one, skip, nan."
    ),
]
ShortQueriesOption = Annotated[
    ShortQueries,
    typer.Option(
        help="Queries with fewer than k judged documents, for metrics at cutoff k: score "
        "(trec_eval, LightGBM) or skip (left out of the mean, as np.nanmean in LTR notebooks)."
    ),
]
JudgedOnlyOption = Annotated[
    bool,
    typer.Option(
        "--judged-only", "-J", help="Drop unjudged documents before ranking (trec_eval -J)."
    ),
]

# ---------------------------------------------------------------- errors and messages


def err(message: str) -> None:
    """``assay: error: message`` on stderr."""
    sys.stderr.write(f"assay: error: {message}\n")


def warn(message: str) -> None:
    """``assay: warning: message`` on stderr."""
    sys.stderr.write(f"assay: warning: {message}\n")


@contextmanager
def errors() -> Iterator[None]:
    """AssayError -> one line on stderr and exit code 2; never a traceback for bad input."""
    try:
        yield
    except AssayError as exc:
        err(str(exc))
        raise typer.Exit(2) from None
    except BrokenPipeError:
        raise typer.Exit(0) from None
    except OSError as exc:  # an unreadable input or an unwritable output file
        where = f"{exc.filename}: " if exc.filename is not None else ""
        err(f"{where}{exc.strerror or exc}")
        raise typer.Exit(2) from None


# ---------------------------------------------------------------- output


def emit(text: str, output: Path | None) -> None:
    """``text`` to stdout, or to the file ``output``."""
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        output.write_text(text, encoding="utf-8")


def choose_format(fmt: OutputFormat | None, output: Path | None) -> OutputFormat:
    """The format asked for; else the table on a terminal and TSV elsewhere (a file too)."""
    if fmt is not None:
        return fmt
    return "table" if output is None and sys.stdout.isatty() else "tsv"


def present(
    report: Report,
    fmt: OutputFormat | None,
    output: Path | None = None,
    *,
    width: int | None = 240,
) -> None:
    """Write ``report`` in ``fmt`` (see :func:`choose_format`). The terminal table is at
    least ``width`` columns wide when stdout is not a terminal, and exactly that wide in a
    file (``None``: the console's own width)."""
    chosen = choose_format(fmt, output)
    if chosen != "table":
        emit(report.render(chosen), output)
        return
    print_rich(report.rich(), output, width=width)


def print_rich(renderable: Any, output: Path | None = None, *, width: int | None = 240) -> None:
    """A rich renderable to stdout (or ``output``), wide enough for ``width`` columns."""
    from rich.console import Console

    if output is not None:
        with output.open("w", encoding="utf-8") as fh:
            Console(file=fh, width=width).print(renderable)
        return
    console = Console()
    if width is not None and not console.is_terminal:
        console = Console(width=max(console.width, width))
    console.print(renderable)


def load_collection(
    qrels: str,
    runs: list[str],
    *,
    qrels_format: str | None = None,
    run_format: str | None = None,
) -> tuple[Any, list[Any]]:
    """The qrels and the runs, each run named by :func:`unique_names`."""
    from ..data import Qrels, Run

    q = Qrels.read(qrels, format=qrels_format)
    names = unique_names(runs)
    return q, [Run.read(p, format=run_format, name=n) for p, n in zip(runs, names, strict=True)]


def unique_names(paths: list[str]) -> list[str]:
    """File names (without a ``.gz``) when they are unique, else the paths as given."""
    names = [os.path.basename(p[:-3] if p.endswith(".gz") else p) or p for p in paths]
    if len(set(names)) == len(names):
        return names
    return paths
