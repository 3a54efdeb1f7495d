"""The command group behind ``assay``: how the CLI talks when something is wrong, and how its
help names the values a person types.

- A usage error (an unknown option, a bad choice, a missing argument) is one line
  ``assay: error: ... (see 'assay CMD -h')`` and exit code 2, like every other error.
- Running out of memory or of stack (``MemoryError``, ``RecursionError``) is one line
  ``assay: error: out of memory while running 'assay CMD'; try ...`` and exit code 2.
- An unexpected exception (a bug) is one line ``assay: internal error: ...`` and exit code 70
  (``EX_SOFTWARE``), never a traceback; ``ASSAY_DEBUG=1`` lets it through with its traceback
  (the test suite sets it, so a bug fails the test that meets it).
- Help shows what to type: ``QRELS``, ``RUN...``, ``METRIC``, ``N``, ``FILE`` — not Python
  types (``<list[str]>``); choices stay listed (``<docno|input|average>``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from typer.core import TyperGroup
from typer.exceptions import TyperException

from ._outputs import guard

__all__ = ["CommandGroup"]

#: Exit status of an internal error (BSD sysexits' EX_SOFTWARE).
INTERNAL_ERROR = 70

#: Metavars of options whose name does not say what is typed.
_METAVARS = {
    "int": "N",
    "float": "X",
    "Path": "FILE",
}
#: Options named for a file they write or read.
_FILE_OPTIONS = {"output", "report", "save", "scores", "reference", "reference_labels"}


class CommandGroup(TyperGroup):
    """``assay``'s command group (see the module documentation)."""

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
        _guard_closed_streams()
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except TyperException as exc:
            sys.exit(_usage_error(exc))
        except ClosedOutputError:
            sys.stderr.write("assay: error: standard output is closed\n")
            sys.exit(2)
        except (MemoryError, RecursionError) as exc:
            # Outside a command's errors() (while parsing or loading): still the machine's
            # limit, not a bug, and still one line.
            from ._common import exhausted

            sys.stderr.write(f"assay: error: {_printable(exhausted(exc))}\n")
            sys.exit(2)
        except Exception as exc:
            if isinstance(exc, ValueError) and "embedded null" in str(exc):
                # A path holding NUL, met before the command's own errors() (its -o checks).
                from ._common import NUL_PATH

                sys.stderr.write(f"assay: error: {NUL_PATH}\n")
                sys.exit(2)
            if os.environ.get("ASSAY_DEBUG"):
                raise
            sys.exit(_internal_error(exc))
        sys.exit(code if isinstance(code, int) else 0)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _name_what_is_typed(command)
            guard(command)  # its output files checked before it runs
        return command


def _usage_error(exc: TyperException) -> int:
    """Report a usage error on one line; its exit code (2)."""
    code = int(getattr(exc, "exit_code", 2))
    if type(exc).__name__ == "NoArgsIsHelpError":  # bare ``assay``: the help, as asked for
        exc.show()  # type: ignore[attr-defined]  # why: NoArgsIsHelpError's own method
        return code
    if type(exc).__name__ == "Abort":
        sys.stderr.write("assay: aborted\n")
        return 1
    message = " ".join(exc.format_message().split()) if hasattr(exc, "format_message") else ""
    message = message.replace("Value error, ", "").rstrip(".")
    command = getattr(getattr(exc, "ctx", None), "command_path", "assay")
    sys.stderr.write(f"assay: error: {_printable(message or str(exc))} (see '{command} -h')\n")
    return code


class ClosedOutputError(OSError):
    """A write to a standard stream the shell closed (``assay ... >&-``)."""


class _ClosedStream:
    """Stands for a closed stdout: not a terminal; writing to it is a ClosedOutputError."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        raise ClosedOutputError("standard output is closed")

    def flush(self) -> None:
        pass


def _guard_closed_streams() -> None:
    """Python sets a closed standard stream to None: stdout becomes a stream whose writes
    fail with one line (output to ``-o FILE`` still works); a closed stderr is silenced."""
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process


def _internal_error(exc: Exception) -> int:
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    sys.stderr.write(
        f"assay: internal error: {_printable(what)} (a bug: please report it with the command; "
        "ASSAY_DEBUG=1 shows the traceback)\n"
    )
    return INTERNAL_ERROR


def _printable(text: str) -> str:
    """One line with control characters shown as escapes (nothing reaches the terminal raw)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in " ".join(text.split()))


def _name_what_is_typed(command: Any) -> None:
    """Set the metavar of every argument and non-choice option that has none."""
    for sub in getattr(command, "commands", {}).values():
        _name_what_is_typed(sub)
    for param in getattr(command, "params", ()):
        if param.metavar is not None or getattr(param, "is_flag", False):
            continue
        if param.param_type_name == "argument":
            _plain_argument(param)
        elif not _is_choice(param):
            param.metavar = _option_metavar(param.name, _kind(param))


def _is_choice(param: Any) -> bool:
    desc = getattr(param, "type_descriptor", None)  # typer >= 0.29
    if desc is not None:
        return bool(desc.is_choice)
    return getattr(getattr(param, "type", None), "choices", None) is not None


def _kind(param: Any) -> str:
    """The option's value type: int, float, Path or str."""
    desc = getattr(param, "type_descriptor", None)
    if desc is not None:
        return str(getattr(desc.annotation, "__name__", "str"))
    name = str(getattr(getattr(param, "type", None), "name", "text"))
    for key, kind in (("int", "int"), ("float", "float"), ("path", "Path")):
        if key in name.lower():
            return kind
    return "str"


def _plain_argument(param: Any) -> None:
    """``QRELS`` / ``RUN...`` / ``[FILE]`` in the usage line and the help, without a type."""
    name = param.name.upper()
    if param.nargs != 1:
        name = name.removesuffix("S") + "..."
    usage = name if param.required else f"[{name}]"
    param.metavar = name
    param.display_type_rich = lambda ctx: ""
    param.get_usage_pieces = lambda ctx: [usage]


def _option_metavar(name: str, kind: str) -> str:
    if name in _FILE_OPTIONS:
        return "FILE"
    return _METAVARS.get(kind) or name.upper().replace("_", "-")
