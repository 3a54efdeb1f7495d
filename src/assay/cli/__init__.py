"""The ``assay`` command line: a typer app with one module per command.

Adding a command (this is how every command is written):

1. Write ``src/assay/cli/<name>.py`` with the command function and
   ``register(app: typer.Typer) -> None``, which adds it (``app.command("name")(func)``, or
   ``app.add_typer(group, name="name")`` for a group of subcommands).
2. At module level import only typer, the standard library, the ``Literal`` types of the
   options (:mod:`assay._options`, a family's ``assay.<family>.options``) and
   :mod:`assay.cli._common`; import NumPy, assay's computing modules and :mod:`assay.report`
   inside the command function, so that ``assay --help`` stays fast. Never import this
   package (``assay.cli``) from a command module: it imports them.
3. Inside the command: ``with errors():`` around the work (an
   :class:`~assay.errors.AssayError` becomes one line on stderr and exit code 2), read the
   inputs, call ONE library function and hand its result's report to ``present(result.report(),
   fmt, output)`` (``--report``/``--save``: ``write_documents([result.document()], ...)``);
   what the report holds is the library's, not the command's. Warnings go through ``warn``.
   Use the shared options of ``_common`` (``FormatOption``, ``OutputOption``, ``TiesOption``,
   ...) where they apply.
4. Name the module in its family's entry of :data:`assay._families.FAMILIES` (``cli=``; by
   default the module is named after the family): :data:`COMMANDS` below is derived from it;
   and the names it registers in :data:`COMMAND_MODULES` (``assay NAME`` imports only the
   module of NAME).

The console script ``assay`` and ``python -m assay`` both call :func:`main`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Annotated

import typer

from .._families import FAMILIES
from .._version import __version__
from ._common import DEFAULT_METRICS
from ._exit import finish
from ._group import CommandGroup

__all__ = ["COMMANDS", "COMMAND_MODULES", "DEFAULT_METRICS", "app", "app_for", "main"]

#: Command modules, in the order ``assay --help`` lists their commands: the ranking core's
#: (evaluate, compare, trec_eval), the registry's and the demo's, each family's in the order
#: of the one family list (:data:`assay._families.FAMILIES`, its ``cli`` modules), then the
#: commands over saved results (report, plot).
COMMANDS: tuple[str, ...] = (
    *(module for f in FAMILIES if f.core for module in f.cli_modules),
    "metrics",
    "demo",
    *(module for f in FAMILIES if not f.core for module in f.cli_modules),
    "report",
    "plot",
)


#: The module of each command, by the name typed (``assay NAME``; a group's subcommands come
#: with it): ``assay NAME ...`` imports only that module. ``tests/cli/test_cli_startup.py``
#: checks it against what the modules of :data:`COMMANDS` register.
COMMAND_MODULES: dict[str, str] = {
    "evaluate": "evaluate",
    "compare": "compare",
    "seeds": "seeds",
    "trec-eval": "trec_eval",
    "gdeval": "gdeval",
    "ndeval": "ndeval",
    "metrics": "metrics",
    "demo": "demo",
    "classify": "classify",
    "agree": "agree",
    "cluster": "cluster",
    "regression": "regression",
    "tagging": "tagging",
    "embed": "embed",
    "generation": "generation",
    "ltr": "ltr",
    "fuse": "fusion",
    "aggregate": "fusion",
    "meta": "meta",
    "leaderboard": "leaderboard",
    "aggregate-labels": "crowd",
    "crowd-qrels": "crowd_qrels",
    "report": "report",
    "plot": "plot",
}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"assay {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Offline evaluation of ranking and NLP systems."""


def _new_app(modules: Sequence[str]) -> typer.Typer:
    """The ``assay`` app with the commands of ``modules`` (names in :data:`COMMANDS`)."""
    new = typer.Typer(
        name="assay",
        cls=CommandGroup,
        help="Offline evaluation of ranking and NLP systems: trec_eval-exact metrics, fast.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    new.callback()(_root)
    for name in modules:
        import_module(f"{__name__}.{name}").register(new)
    return new


def _whole() -> typer.Typer:
    """``assay.cli.app``, every command: built on first use (a one-command run never does)."""
    built: typer.Typer | None = globals().get("app")
    if built is None:
        built = globals()["app"] = _new_app(COMMANDS)
    return built


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        return _whole()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def app_for(args: Sequence[str]) -> typer.Typer:
    """The app that runs ``assay ARGS``: the whole app (``assay.cli.app``), or, when the
    first argument names a command, an app holding only that command.

    Typer turns every registered command into a click command (reading each function's
    signature and type hints) before it parses anything, and every command's module would
    be imported: most of the CLI's own start-up for a one-command run. The one-command app
    parses the same arguments the same way (the command's help, its usage errors, its
    output); ``assay``, ``assay --help``, ``--version`` and an unknown name (its "no such
    command" error) get the whole app.

    Parameters
    ----------
    args : sequence of str
        The command line after ``assay``.

    Returns
    -------
    typer.Typer
        The app to call with ``args``.

    Examples
    --------
    >>> from assay.cli import app, app_for
    >>> [c.name for c in app_for(["evaluate", "qrels", "run"]).registered_commands]
    ['evaluate']
    >>> app_for(["--help"]) is app
    True
    """
    module = COMMAND_MODULES.get(args[0]) if args else None
    if module is None:
        return _whole()
    only = _new_app([module])
    only.registered_commands = [c for c in only.registered_commands if c.name == args[0]]
    only.registered_groups = [g for g in only.registered_groups if g.name == args[0]]
    return only


def main() -> None:
    """Console-script entry point: the command, then the process's end (:func:`._exit.finish`:
    without the interpreter's teardown when nothing needs it)."""
    try:
        app_for(sys.argv[1:])()
    except SystemExit as exc:
        finish(exc.code)
