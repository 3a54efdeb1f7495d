"""The ``assay`` command line: a typer app with one module per command.

Adding a command (this is how every command is written):

1. Write ``src/assay/cli/<name>.py`` with the command function and
   ``register(app: typer.Typer) -> None``, which adds it (``app.command("name")(func)``, or
   ``app.add_typer(group, name="name")`` for a group of subcommands).
2. At module level import only typer, the standard library, :mod:`assay._options` (the
   ``Literal`` types of the options) and :mod:`assay.cli._common`; import NumPy, assay's
   computing modules and :mod:`assay.report` inside the command function, so that
   ``assay --help`` stays fast. Never import this package (``assay.cli``) from a command
   module: it imports them.
3. Inside the command: ``with errors():`` around the work (an
   :class:`~assay.errors.AssayError` becomes one line on stderr and exit code 2), build a
   :class:`~assay.report.Report` of the result and hand it to ``present(report, fmt,
   output)``; warnings go through ``warn``. Use the shared options of ``_common``
   (``FormatOption``, ``OutputOption``, ``TiesOption``, ...) where they apply.
4. Add the module to :data:`COMMANDS` below (the order of ``assay --help``).

The console script ``assay`` and ``python -m assay`` both call :func:`main`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Annotated, Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from .._version import __version__
from ._common import DEFAULT_METRICS

__all__ = ["COMMANDS", "DEFAULT_METRICS", "app", "main"]

#: Command modules, in the order ``assay --help`` lists their commands.
COMMANDS = (
    "evaluate",
    "compare",
    "metrics",
    "trec_eval",
    "demo",
    "classify",
    "cluster",
    "agree",
    "fusion",
    "generation",
    "regression",
    "meta",
)


class _Commands(TyperGroup):
    """The command group, with usage errors (an unknown option, a bad choice, a missing
    argument) reported as one line ``assay: error: ...`` and exit code 2, like every other
    error, instead of click's usage block."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except TyperException as exc:
            sys.exit(_usage_error(exc))
        sys.exit(code if isinstance(code, int) else 0)


def _usage_error(exc: TyperException) -> int:
    """Report a usage error on one line; its exit code (2)."""
    code = int(getattr(exc, "exit_code", 2))
    if type(exc).__name__ == "NoArgsIsHelpError":  # bare ``assay``: the help, as asked for
        exc.show()  # type: ignore[attr-defined]
        return code
    if type(exc).__name__ == "Abort":
        sys.stderr.write("assay: aborted\n")
        return 1
    message = " ".join(exc.format_message().split()) if hasattr(exc, "format_message") else ""
    message = message.replace("Value error, ", "").rstrip(".")
    command = getattr(getattr(exc, "ctx", None), "command_path", "assay")
    sys.stderr.write(f"assay: error: {message or exc} (see '{command} -h')\n")
    return code


app = typer.Typer(
    name="assay",
    cls=_Commands,
    help="Offline evaluation of ranking and NLP systems: trec_eval-exact metrics, fast.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"assay {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Offline evaluation of ranking and NLP systems."""


for _name in COMMANDS:
    import_module(f"{__name__}.{_name}").register(app)


def main() -> None:
    """Console-script entry point."""
    app()
