"""How the ``assay`` process ends: once a command has finished, the process exits without the
interpreter's teardown when nothing can need it.

Tearing the interpreter down frees every object of every imported module one by one (NumPy,
pyarrow and its compute functions, typer: some 400 modules), which took 0.02-0.04 s of a
0.3 s ``assay evaluate`` of a 50-topic run, 10% of the whole process, for a result that is
already written. :func:`finish` skips it the way mypy does (flush the standard streams, then
``os._exit``), after running the ``atexit`` handlers, and only when skipping it can change
nothing: only the main thread alive (no thread to wait for), no tracer or profiler attached
(coverage writes its data at exit), ``ASSAY_DEBUG`` unset and both streams flushed without
error. Otherwise it is the ordinary ``sys.exit``. Files the commands write are closed by then
(they are written in ``with`` blocks, :mod:`assay._files`).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

__all__ = ["finish"]


def finish(code: str | int | None) -> NoReturn:
    """End the process with ``code`` (a :class:`SystemExit`'s code)."""
    if isinstance(code, str):
        sys.exit(code)  # a message: Python prints it, as ever
    if (
        threading.active_count() > 1
        or sys.gettrace() is not None
        or sys.getprofile() is not None
        or os.environ.get("ASSAY_DEBUG")
    ):
        sys.exit(code)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)  # a closed pipe and the like: the ordinary way reports it
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    finally:
        os._exit(code or 0)
