"""The ``assay`` command line run in process with typer's CliRunner."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from assay.cli import app, app_for
from assay.metrics import parse

runner = CliRunner()


def commands() -> Iterator[tuple[str, Callable[..., Any]]]:
    """(name as typed, the function behind it) for every command of the app, the subcommands
    of a group (``ltr run``, ``meta rbo``) included."""
    for info in app.registered_commands:
        yield info.name or info.callback.__name__, info.callback
    for group in app.registered_groups:
        for info in group.typer_instance.registered_commands:
            yield f"{group.name} {info.name or info.callback.__name__}", info.callback


def invoke(*args: str | Path, input: bytes | str | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``assay ARGS``; any exception but SystemExit is raised.
    The app is the one the console script runs (only the named command is built)."""
    argv = [str(a) for a in args]
    result = runner.invoke(app_for(argv), argv, input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    """Exit code 2, nothing on stdout, one line ``assay: error: …`` holding every needle."""
    assert code == 2
    assert out == ""
    assert err.startswith("assay: error: ")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def label(name: str) -> str:
    """assay's label for a metric name (in any accepted syntax)."""
    (metric,) = parse(name)
    return str(metric)


def tsv_rows(text: str) -> list[tuple[str, str, str, str]]:
    """The rows (run, metric, query, value) of ``assay evaluate``'s TSV, checked to start with
    its header line and to mark exactly the aggregate rows (empty query) in ``aggregate``."""
    lines = text.splitlines()
    assert lines[0] == "run\tmetric\tquery\tvalue\taggregate", lines[:1]
    rows = []
    for line in lines[1:]:
        fields = line.split("\t")
        assert len(fields) == 5, line
        assert (fields[2] == "") == (fields[4] in ("mean", "gmean", "sum")), line
        rows.append((fields[0], fields[1], fields[2], fields[3]))
    return rows
