"""The files a command writes (``-o``, ``--report``, ``--save``): checked before any work.

- An output never names one of the command's inputs, nor another of its outputs: the same
  file is the same device and inode where it exists (symbolic and hard links), else the same
  resolved path (``./x``, ``dir/../x``). ``-`` (standard output) never clashes.
- An output is written in the format its extension names, or refused in one line listing
  the extensions its option accepts; a file without an extension gets the option's default
  format, and an explicit format that contradicts the extension is refused.

:func:`guard` puts :func:`check_outputs` in front of every command the command group
resolves (:mod:`assay.cli._group`), so every command is covered by this one place, whatever its
options: the parameters named ``output``, ``report`` and ``save`` are outputs, and any
other parameter value naming an existing file is an input.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

import typer

from .._files import same_file
from ..errors import OptionError

__all__ = ["EXTENSIONS", "check_outputs", "extension_format", "guard"]

#: Parameters naming a file the command writes.
OUTPUTS = ("output", "report", "save")
#: Parameters that are not inputs though their value may spell a file name: the folder
#: ``assay ltr train --out`` writes into, and labels (``fuse --name fused.run -o fused.run``).
NOT_INPUTS = ("out", "title", "name", "baseline", "positive")
#: Commands whose ``--out`` names a file they write (the aggregated labels, the crowd qrels):
#: it is checked against the inputs and the other outputs like ``-o``; its format is the
#: command's own to check (elsewhere ``--out`` is a folder: ``assay ltr train``).
OUT_FILES = ("aggregate-labels", "crowd-qrels")

#: ``-o`` of the commands that print a table: extension -> format.
TABLE = {
    ".tsv": "tsv",
    ".txt": "table",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".tex": "latex",
}
#: ``assay report -o``: the page, or its tables.
PAGE = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".tex": "latex",
    ".txt": "table",
}
#: ``assay plot -o``.
PLOT = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
#: ``--report``: a self-contained HTML page.
REPORT = {".html": "html", ".htm": "html"}
#: ``--save``: JSON, or Parquet (the records as rows, the documents as metadata).
SAVE = {".json": "json", ".parquet": "parquet"}
#: ``assay fuse -o``: a TREC run, whose files have no one extension; refused are only the
#: extensions of the other formats, which reading the run back would go by.
OTHER_THAN_TREC = sorted({*TABLE, *PAGE, *PLOT, *SAVE} - {".txt"})

#: Extension -> format of every output option, by (command, parameter); "output" of any
#: other command is TABLE.
EXTENSIONS: dict[tuple[str, str], dict[str, str]] = {
    ("report", "output"): PAGE,
    ("plot", "output"): PLOT,
    ("*", "report"): REPORT,
    ("*", "save"): SAVE,
}
#: The parameter holding the explicit format of a command's ``-o`` file.
FORMAT_PARAMS = {"plot": "plot_format"}


def _suffix(path: str) -> str:
    p = Path(path[:-3] if path.lower().endswith(".gz") else path)
    return p.suffix.lower()


def _accepted(command: str, param: str) -> dict[str, str] | None:
    """The extensions an output option accepts (None: any TREC file name)."""
    if (command, param) == ("fuse", "output"):
        return None
    return EXTENSIONS.get((command, param)) or EXTENSIONS.get(("*", param)) or TABLE


def extension_format(command: str, param: str, path: str, fmt: str | None) -> str | None:
    """The format the file ``path`` of option ``param`` is to be written in: ``fmt`` when
    given, else the one its extension names (None: no extension, the option's default).
    An extension no format of the option has, or one that contradicts ``fmt``, is an
    :class:`~assay.errors.OptionError`."""
    flag = _FLAGS.get(param, f"--{param}")
    accepted, ext = _accepted(command, param), _suffix(path)
    if accepted is None:
        if ext in OTHER_THAN_TREC:
            raise OptionError(
                f"{flag} {path}: a fused run is written as TREC text; {ext} names another "
                "format (name it .txt, .run or .trec)",
                option=param,
            )
        return fmt
    if path.lower().endswith(".gz"):
        raise OptionError(
            f"{flag} {path}: {flag} is not compressed; name it without .gz (accepted: "
            f"{', '.join(accepted)})",
            option=param,
        )
    if not ext and (fmt is not None or accepted is not PLOT):
        return fmt
    named = accepted.get(ext)
    if named is None:
        hint = _HINTS.get((ext, param), "")
        raise OptionError(
            f"{flag} {path}: no format of {flag} has the extension {ext or '(none)'} (accepted: "
            f"{', '.join(accepted)}{'' if accepted is PLOT else ', or no extension'}){hint}",
            option=param,
        )
    if fmt is not None and fmt != named and ext != ".txt":
        raise OptionError(
            f"{flag} {path}: the extension {ext} names {named}, but the format asked for is {fmt}",
            option=param,
        )
    return fmt or named


_FLAGS = {"output": "-o/--output", "report": "--report", "save": "--save", "out": "--out"}
#: What to do instead, for the extensions a person is likely to try.
_HINTS = {
    (".parquet", "output"): "; --save FILE.parquet saves the records as Parquet",
    (".html", "output"): "; --report FILE.html writes the HTML report",
    (".pdf", "report"): "; assay plot draws a saved result's plots to PDF, PNG or SVG",
    (".png", "report"): "; assay plot draws a saved result's plots to PDF, PNG or SVG",
    (".svg", "report"): "; assay plot draws a saved result's plots to PDF, PNG or SVG",
}


def _paths(value: Any) -> Iterator[str]:
    if isinstance(value, str | os.PathLike):
        yield os.fspath(value)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _paths(v)


def _inputs(params: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(parameter, path) of every parameter value that names an existing file or folder."""
    for name, value in params.items():
        if name in OUTPUTS or name in NOT_INPUTS:
            continue
        for path in _paths(value):
            if path != "-" and os.path.exists(path):
                yield name, path


def _inside(out: str, folder: str) -> bool:
    """``out`` is an existing file somewhere under the input folder ``folder``."""
    if not (os.path.isdir(folder) and os.path.isfile(out)):
        return False
    real = os.path.realpath(folder)
    return os.path.realpath(out).startswith(real.rstrip(os.sep) + os.sep)


def check_outputs(command: str, params: Mapping[str, Any], arguments: Collection[str] = ()) -> None:
    """Refuse (:class:`~assay.errors.OptionError`) an output of ``command`` that is one of its
    inputs or another of its outputs, or whose extension names no format of its option.
    ``params`` are the values by parameter name, ``arguments`` the positional ones."""
    names = (*OUTPUTS, "out") if command in OUT_FILES else OUTPUTS
    outputs = [(n, os.fspath(v)) for n in names if (v := params.get(n)) not in (None, "-")]
    inputs = list(_inputs(params))
    for i, (name, out) in enumerate(outputs):
        for source, path in inputs:
            what = "an input" if source in arguments else "--" + source.replace("_", "-")
            if _inside(out, path):
                raise OptionError(
                    f"{_FLAGS[name]} {out} is a file in {path}, a folder the command reads "
                    f"({what}): refusing to write over it; write outside that folder",
                    option=name,
                )
            if same_file(out, path):
                raise OptionError(
                    f"{_FLAGS[name]} {out} is {what} of the command ({path}): refusing to "
                    "write over it; choose another file",
                    option=name,
                )
        for other, earlier in outputs[:i]:
            if same_file(out, earlier):
                raise OptionError(
                    f"{_FLAGS[other]} {earlier} and {_FLAGS[name]} {out} name the same file: "
                    "one would overwrite the other",
                    option=name,
                )
    for name, out in outputs:
        if name not in OUTPUTS:
            continue
        fmt_param = FORMAT_PARAMS.get(command, "fmt") if name == "output" else None
        extension_format(command, name, out, params.get(fmt_param) if fmt_param else None)


def guard(command: Any) -> None:
    """Make ``command`` (and the subcommands of a group) run :func:`check_outputs` on its
    parameters before anything else: a clash is one line ``assay: error: ...`` and exit
    code 2. Installed by the command group on every command it resolves."""
    for sub in getattr(command, "commands", {}).values():
        guard(sub)
    if getattr(command, "callback", None) is None or getattr(command, "_outputs_checked", False):
        return
    invoke = command.invoke

    def checked(ctx: Any) -> Any:
        # The command's own path below the root ("ltr train"), from the contexts: the root's
        # name is the program's ("assay", or "python -m assay" when run as a module).
        parts: list[str] = []
        at = ctx
        while at.parent is not None:
            parts.append(str(at.info_name))
            at = at.parent
        name = " ".join(reversed(parts)) or str(ctx.info_name)
        arguments = {str(p.name) for p in ctx.command.params if p.param_type_name == "argument"}
        try:
            check_outputs(name, ctx.params, arguments)
        except OptionError as exc:
            from ._common import err

            err(str(exc))
            raise typer.Exit(2) from None
        return invoke(ctx)

    command.invoke = checked
    command._outputs_checked = True
