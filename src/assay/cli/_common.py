"""What every command shares: error handling, the presenter, and the typer options.

- :func:`errors` — every :class:`~assay.errors.AssayError` (and an unreadable input or
  unwritable output file) becomes one line ``assay: error: ...`` on stderr and exit code 2,
  never a traceback; a closed pipe (``assay ... | head``) exits quietly.
- :func:`present` — writes a :class:`~assay.report.Report` in the chosen format to stdout or
  a file; with no ``--format`` the terminal gets the table and anything else TSV.
- ``FormatOption``, ``OutputOption``, ``TiesOption``, ... — the ``Annotated`` types of the
  options several commands take, so they read the same everywhere.

Only typer, the standard library and assay's light foundation are imported here (and the
ranking core's file loader, :mod:`assay.ranking.collection`, as light at module level).
"""

from __future__ import annotations

import os
import shutil
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .._files import atomic_open, distinct_inputs, unique_names
from .._options import (
    Correction,
    InputFormat,
    Missing,
    NoRelevant,
    OutputFormat,
    ShortQueries,
    Ties,
)
from ..errors import AssayError, AssayWarning
from ..ranking.collection import load_collection
from ._outputs import extension_format

if TYPE_CHECKING:
    from ..report import Report

__all__ = [
    "DEFAULT_METRICS",
    "AlphaOption",
    "ConfidenceOption",
    "CorrectionOption",
    "DocColumnOption",
    "FormatOption",
    "JudgedOnlyOption",
    "MetricOption",
    "MissingOption",
    "NoRelevantOption",
    "OutputOption",
    "QrelsFormatOption",
    "QueryColumnOption",
    "QuietOption",
    "RelevanceColumnOption",
    "ReportOption",
    "RunFormatOption",
    "SaveOption",
    "ScoreColumnOption",
    "SeedOption",
    "ShortQueriesOption",
    "TiesOption",
    "busy",
    "check_baseline",
    "check_report",
    "choose_format",
    "distinct_inputs",
    "emit",
    "err",
    "errors",
    "exhausted",
    "load_collection",
    "one_line",
    "present",
    "print_rich",
    "progress_bar",
    "tables_documents",
    "terminal_width",
    "unique_names",
    "unwarned",
    "warn",
    "write_documents",
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
SeedOption = Annotated[
    int, typer.Option(help="Seed of every random procedure (same seed, same numbers).")
]
ConfidenceOption = Annotated[float, typer.Option(help="Level of the confidence intervals.")]
AlphaOption = Annotated[float, typer.Option(help="Significance level of the marks.")]
CorrectionOption = Annotated[
    Correction,
    typer.Option(help="Multiple-comparison correction of the p-values (per metric)."),
]
QrelsFormatOption = Annotated[
    InputFormat | None,
    typer.Option(help="Force the qrels format (default: from the file extension, else trec)."),
]
RunFormatOption = Annotated[
    InputFormat | None,
    typer.Option(help="Force the run format (default: from the file extension, else trec)."),
]
QueryColumnOption = Annotated[
    str | None,
    typer.Option(help="Query id column of CSV/TSV/Parquet/JSONL qrels and runs (default: query)."),
]
DocColumnOption = Annotated[
    str | None,
    typer.Option(help="Document id column of tabular qrels and runs (default: doc)."),
]
ScoreColumnOption = Annotated[
    str | None, typer.Option(help="Score column of tabular runs (default: score).")
]
RelevanceColumnOption = Annotated[
    str | None, typer.Option(help="Grade column of tabular qrels (default: relevance).")
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

ReportOption = Annotated[
    Path | None,
    typer.Option(
        "--report",
        help="Also write a self-contained HTML report (tables and plots) to this file "
        "(needs assay[plot]).",
    ),
]
SaveOption = Annotated[
    Path | None,
    typer.Option(
        "--save",
        help="Also save the result (records, provenance, tables, plot data) as JSON, or as "
        "Parquet for a .parquet file (the records as rows, the rest as metadata), to report "
        "later without recomputing: assay report FILE.",
    ),
]

QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet", help="No progress bars or notes on stderr (warnings and errors still)."
    ),
]

# ---------------------------------------------------------------- errors and messages


def one_line(text: str) -> str:
    """``text`` on one line, control characters shown as escapes: a file or run name from the
    data can neither end the line nor send escape sequences to the terminal."""
    flat = " ".join(text.split())
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in flat)


def err(message: str) -> None:
    """``assay: error: message`` on stderr (one line)."""
    sys.stderr.write(f"assay: error: {one_line(message)}\n")


def warn(message: str) -> None:
    """``assay: warning: message`` on stderr (one line)."""
    sys.stderr.write(f"assay: warning: {one_line(message)}\n")


@contextmanager
def errors() -> Iterator[None]:
    """Around a command's work: an :class:`~assay.errors.AssayError` becomes one line on
    stderr and exit code 2 (never a traceback for bad input); assay's warnings, issued
    through :mod:`warnings` by the library, become ``assay: warning:`` lines, once each."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AssayWarning)
        try:
            yield
        except AssayError as exc:
            _say(caught)
            err(str(exc))
            raise typer.Exit(2) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None
        except (MemoryError, RecursionError) as exc:
            _say(caught)
            err(exhausted(exc))
            raise typer.Exit(2) from None
        except ValueError as exc:
            if _too_big(exc):
                message = exhausted(MemoryError(str(exc)))
            elif "embedded null" in str(exc):  # os and open() refuse a path holding NUL
                message = NUL_PATH
            else:
                raise
            _say(caught)
            err(message)
            raise typer.Exit(2) from None
        except OSError as exc:  # an unreadable input or an unwritable output file
            _say(caught)
            where = f"{exc.filename}: " if exc.filename is not None else ""
            err(f"{where}{exc.strerror or exc}")
            raise typer.Exit(2) from None
        _say(caught)


#: The one line for a file name holding NUL, which the operating system refuses.
NUL_PATH = "a file name holds a NUL character (\\x00); no file can be named so"


def exhausted(exc: BaseException) -> str:
    """The one line for a command that ran out of memory or of stack: what happened, during
    which command, and what a person can change (these are limits of the machine, not bugs)."""
    ctx = _current_context()
    command = f"'{ctx.command_path}'" if ctx is not None else "the command"
    if isinstance(exc, RecursionError):
        return (
            f"input nested too deeply while running {command} (Python's recursion limit); "
            "try a flatter input"
        )
    return (
        f"out of memory while running {command}; try smaller inputs, fewer resamples or "
        "queries, or a machine with more memory"
    )


def _current_context() -> Any:
    """The running command's click context (typer 0.2x carries its own copy of click)."""
    try:
        from typer._click.globals import get_current_context
    except ImportError:  # an older typer: click itself
        from click import get_current_context  # type: ignore[no-redef]  # why: the same function, older typer
    return get_current_context(silent=True)


#: NumPy's refusals of an array larger than memory can ever hold: the same condition as a
#: MemoryError, met before allocating (a size computed from a huge option or header).
_TOO_BIG = (
    "array is too big",
    "Maximum allowed dimension exceeded",
    "Maximum allowed size exceeded",
)


def _too_big(exc: ValueError) -> bool:
    return any(text in str(exc) for text in _TOO_BIG)


@contextmanager
def unwarned() -> Iterator[None]:
    """assay's warnings silenced: for the auxiliary evaluations of a report (its curves and
    analyses), whose undefined queries the result itself has already reported."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AssayWarning)
        yield


def _say(caught: list[warnings.WarningMessage]) -> None:
    """Print the caught warnings: assay's as one line each (duplicates once), others as
    Python would."""
    seen: set[str] = set()
    pending, caught[:] = list(caught), []
    for w in pending:
        if not issubclass(w.category, AssayWarning):
            # Written directly: inside catch_warnings(record=True), warnings.showwarning
            # appends to ``caught`` itself, and iterating over it would never end.
            sys.stderr.write(warnings.formatwarning(w.message, w.category, w.filename, w.lineno))
            continue
        text = str(w.message)
        if text not in seen:
            seen.add(text)
            warn(text)


# ---------------------------------------------------------------- progress


def interactive(quiet: bool = False) -> bool:
    """Whether progress is shown: stderr is a terminal and ``--quiet`` was not given."""
    return not quiet and sys.stderr.isatty()


def _progress(*columns: Any) -> Any:
    from rich.console import Console
    from rich.progress import Progress

    return Progress(*columns, console=Console(stderr=True, force_terminal=True), transient=True)


@contextmanager
def progress_bar(quiet: bool = False) -> Iterator[Callable[[str, int, int], None] | None]:
    """A rich progress bar on stderr, one task per label, fed by ``tick(label, done, total)``
    (None when stderr is not a terminal or with ``--quiet``)."""
    if not interactive(quiet):
        yield None
        return
    from rich.progress import BarColumn, TaskProgressColumn, TextColumn, TimeRemainingColumn

    from ..report.escape import rich

    tasks: dict[str, Any] = {}
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
    )
    with _progress(*columns) as bar:

        def tick(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(f"training {rich(label)}", total=total)
            bar.update(tasks[label], completed=done)

        yield tick


@contextmanager
def busy(message: str, quiet: bool = False) -> Iterator[None]:
    """A spinner with the elapsed time on stderr while work that reports no count runs
    (resampling, k-NN search, reading and evaluating big files); nothing when stderr is not
    a terminal or with ``--quiet``. Transient: the line is gone when the work ends."""
    if not interactive(quiet):
        yield
        return
    from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

    from ..report.escape import rich

    with _progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn()) as bar:
        bar.add_task(rich(message), total=None)
        yield


# ---------------------------------------------------------------- output


def emit(text: str, output: Path | None) -> None:
    """``text`` to stdout, or to the file ``output`` (whole or not at: see
    :mod:`assay._files`)."""
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        with atomic_open(output, "w", encoding="utf-8") as fh:
            fh.write(text)


def choose_format(fmt: OutputFormat | None, output: Path | None) -> OutputFormat:
    """The format asked for; else the one the output file's extension names; else the table
    on a terminal and TSV elsewhere. An extension no format has, or one that contradicts
    ``fmt``, is an :class:`~assay.errors.OptionError`."""
    if output is not None:
        named = extension_format("", "output", str(output), fmt)
        return "tsv" if named is None else named  # type: ignore[return-value]  # why: a format name (typed str)
    if fmt is not None:
        return fmt
    return "table" if sys.stdout.isatty() else "tsv"


def terminal_width() -> int | None:
    """Columns of the terminal stdout writes to (or ``$COLUMNS``); None elsewhere."""
    if "COLUMNS" in os.environ:
        try:
            return max(int(os.environ["COLUMNS"]), 20)
        except ValueError:
            pass
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def present(report: Report, fmt: OutputFormat | None, output: Path | None = None) -> None:
    """Write ``report`` in ``fmt`` (see :func:`choose_format`) to stdout or ``output``. On a
    terminal (or with ``$COLUMNS`` set) the table is laid out to fit its width, never cropped:
    transposed or in long form when too wide, prose wrapped; in a file or a pipe it is plain
    text at its natural width."""
    chosen = choose_format(fmt, output)
    if chosen != "table":
        emit(report.render(chosen), output)
        return
    width = terminal_width() if output is None else None
    if width is not None:
        print_rich(report.rich(width), width=width)
    else:
        emit(report.render("table"), output)


def print_rich(renderable: Any, output: Path | None = None, *, width: int | None = None) -> None:
    """A rich renderable to stdout (or ``output``), ``width`` columns wide (None: the
    console's own width)."""
    from rich.console import Console

    if output is not None:
        with atomic_open(output, "w", encoding="utf-8") as fh:
            Console(file=fh, width=width).print(renderable)
        return
    Console(width=width).print(renderable)


def check_report(report: Path | None) -> None:
    """Before any work: an HTML report needs matplotlib (else one line naming the extra)."""
    if report is not None:
        from .._optional import require

        require("matplotlib")


def write_documents(
    docs: list[Any], *, report: Path | None, save: Path | None, title: str, quiet: bool = False
) -> None:
    """Save the report documents as JSON (``--save``) and render them as one HTML page
    (``--report``; a spinner while the plots are drawn)."""
    if save is not None:
        from ..report.document import save as write

        write(docs, save)
    if report is not None:
        from ..report.html import to_html

        with busy("drawing the report", quiet):
            page = to_html(docs, title=title)
        with atomic_open(report, "w", encoding="utf-8") as fh:
            fh.write(page)


def tables_documents(
    shown: Report,
    *,
    family: str,
    heading: str,
    report: Path | None,
    save: Path | None,
    title: str,
    sections: list[Any] | None = None,
    quiet: bool = False,
) -> None:
    """``--report`` and ``--save`` of a result shown by its tables (and ``sections``)."""
    if report is None and save is None:
        return
    from ..report.sections_tasks import tables_document

    doc = tables_document(heading, family, shown, sections=sections or [])
    write_documents([doc], report=report, save=save, title=title, quiet=quiet)


def check_baseline(baseline: str | None, paths: list[str], what: str) -> None:
    """``--baseline`` of a command whose baseline is a file: one of ``paths`` or a file to add
    to them; anything else says both (it was "nope: no such file")."""
    from ..errors import OptionError

    if baseline is None or baseline in paths or os.path.exists(baseline):
        return
    raise OptionError(
        f"--baseline {baseline!r} is neither one of the {what} files ({', '.join(paths)}) "
        "nor a file",
        option="baseline",
    )
