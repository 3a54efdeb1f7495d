"""``assay`` commands run with bounded memory and time, each in its own process, measured.

:func:`run_commands` starts one worker interpreter (this file run as a script) that imports
assay once and then forks a child per command: the child caps its address space
(``RLIMIT_AS``) and its time (``SIGALRM``), runs the command as the console script would and
exits with its code; the worker reports the exit code (or the signal that ended the child),
the child's stderr, its wall time and its peak resident memory (``wait4``). Forking from a
warm interpreter costs milliseconds where a fresh ``assay`` costs a second and a half, so a
suite of a few dozen commands stays within seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: Address space of each command (the worker's own ~0.4 GB of imports included).
MEMORY = 2 << 30
#: Seconds of each command.
TIMEOUT = 60


@dataclass(frozen=True)
class Outcome:
    """How one command ended: ``code`` (None when a signal ended it, named by ``signal``)."""

    argv: list[str]
    code: int | None
    signal: int | None
    stdout_bytes: int
    stderr: str
    seconds: float
    max_rss_mb: float


def run_commands(
    commands: list[list[str]], *, cwd: Path, memory: int = MEMORY, timeout: int = TIMEOUT
) -> list[Outcome]:
    """Run each ``assay`` argument list in ``cwd`` (see the module documentation)."""
    request = json.dumps({"commands": commands, "memory": memory, "timeout": timeout})
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, __file__],
        input=request,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=True,
        timeout=len(commands) * (timeout + 5) + 60,
    )
    return [Outcome(**row) for row in json.loads(done.stdout)]


def _child(argv: list[str], memory: int, timeout: int, out: int, err: int) -> None:
    import resource
    import signal

    os.dup2(out, 1)
    os.dup2(err, 2)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(timeout)
    sys.argv = ["assay", *argv]
    code = 0
    try:
        from assay.cli import main

        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 99
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _one(argv: list[str], memory: int, timeout: int) -> dict[str, object]:
    import tempfile
    import time

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(argv, memory, timeout, out.fileno(), err.fileno())
        _, status, usage = os.wait4(pid, 0)
        seconds = time.monotonic() - start
        out.seek(0, 2)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        return {
            "argv": argv,
            "code": os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "stdout_bytes": out.tell(),
            "stderr": stderr[-2000:],
            "seconds": round(seconds, 3),
            "max_rss_mb": round(usage.ru_maxrss / 1024, 1),
        }


def _serve() -> None:
    request = json.load(sys.stdin)
    import numpy  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    import assay.cli
    import assay.ltr.letor  # noqa: F401

    rows = [_one(argv, request["memory"], request["timeout"]) for argv in request["commands"]]
    json.dump(rows, sys.stdout)


if __name__ == "__main__":
    _serve()
