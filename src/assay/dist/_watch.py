"""Two ways a Dask evaluation could fail without a word, closed here.

- A cluster that stops working (its only worker died, every worker is busy elsewhere for
  ever) would leave the client waiting for ever: :func:`compute` gives up, in one line, when
  no task has finished for ``timeout`` seconds (:data:`DEFAULT_TIMEOUT`, or
  ``$ASSAY_DASK_TIMEOUT``).
- A run file that changes after the work was planned (a run still being written) would be
  read in the byte ranges of its old size, its new rows lost: each task re-stats its file
  (:func:`check_unchanged`) and refuses one whose size or modification time moved.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from .._options import number
from ..errors import AssayError, InputError

__all__ = [
    "DEFAULT_TIMEOUT",
    "ClusterError",
    "ClusterTimeoutError",
    "check_unchanged",
    "compute",
    "fingerprint",
]

#: Seconds without a finished task after which a Dask evaluation gives up.
DEFAULT_TIMEOUT = 600.0
#: The environment variable that sets it (seconds).
TIMEOUT_VARIABLE = "ASSAY_DASK_TIMEOUT"

Fingerprint = tuple[int, int]


class ClusterError(AssayError, RuntimeError):
    """The Dask cluster could not run the evaluation."""


class ClusterTimeoutError(ClusterError, TimeoutError):
    """The Dask cluster finished no task within the deadline."""


def timeout_seconds(timeout: float | None) -> float:
    """``timeout``, else ``$ASSAY_DASK_TIMEOUT``, else :data:`DEFAULT_TIMEOUT`; a positive
    number of seconds (an :class:`~assay.errors.OptionError` otherwise)."""
    if timeout is not None:
        return number(timeout, "timeout", low=0, low_open=True)
    given = os.environ.get(TIMEOUT_VARIABLE)
    if given is None or not given.strip():
        return DEFAULT_TIMEOUT
    try:
        value = float(given)
    except ValueError:
        value = float("nan")
    return number(value, TIMEOUT_VARIABLE, low=0, low_open=True)


def fingerprint(path: str) -> Fingerprint:
    """The size and modification time (ns) of ``path``."""
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


def fingerprints(path: str) -> dict[str, Fingerprint]:
    """Every file of ``path`` (a file, or a dataset folder walked) with its fingerprint."""
    if not os.path.isdir(path):
        return {path: fingerprint(path)}
    found = {}
    for folder, _, names in os.walk(path):
        for name in names:
            found[os.path.join(folder, name)] = fingerprint(os.path.join(folder, name))
    return found


def check_unchanged(planned: Mapping[str, Fingerprint]) -> None:
    """Refuse (:class:`~assay.errors.InputError`) a file whose size or modification time is
    not what it was when the work was planned: its new rows would be lost silently."""
    for path, (size, mtime) in planned.items():
        try:
            now = fingerprint(path)
        except FileNotFoundError:
            raise InputError("removed while it was being evaluated on Dask", source=path) from None
        if now != (size, mtime):
            raise InputError(
                f"changed while it was being evaluated on Dask ({size} bytes when planned, "
                f"{now[0]} now): evaluate it once it is complete",
                source=path,
            )


def compute(lazy: Any, timeout: float) -> Any:
    """``dask.compute(lazy)`` (a mapping of lists of delayed values); on a distributed
    client, a :class:`ClusterTimeoutError` when no task finishes for ``timeout`` seconds."""
    from .._optional import require

    dask = require("dask")
    try:
        from distributed import default_client

        client = default_client()  # type: ignore[no-untyped-call]  # why: distributed leaves it unannotated
    except (ImportError, ValueError):  # no distributed client: the local scheduler
        return dask.compute(lazy)[0]
    from distributed import KilledWorker

    flat = [(key, task) for key, tasks in lazy.items() for task in tasks]
    futures = client.compute([task for _, task in flat])
    try:
        _wait(client, futures, timeout)
        values = client.gather(futures)
    except KilledWorker as exc:  # a task that kept killing its workers (memory, a crash)
        client.cancel(futures)
        worker = getattr(getattr(exc, "last_worker", None), "address", "?")
        raise ClusterError(
            f"Dask workers died running the task {getattr(exc, 'task', '?')} (last on {worker}), "
            "so it was given up: out of memory on the workers?"
        ) from None
    except BaseException:
        client.cancel(futures)
        raise
    computed: dict[Any, list[Any]] = {key: [] for key in lazy}
    for (key, _), value in zip(flat, values, strict=True):
        computed[key].append(value)
    return computed


def _wait(client: Any, futures: list[Any], timeout: float) -> None:
    """Until every future is done (or one failed); a :class:`ClusterTimeoutError` after
    ``timeout`` seconds without one finishing."""
    from distributed import wait

    done, last = 0, time.monotonic()
    while True:
        try:
            wait(futures, timeout=min(1.0, timeout), return_when="ALL_COMPLETED")  # type: ignore[no-untyped-call]  # why: distributed leaves wait unannotated
            return
        except TimeoutError:
            pass
        now = sum(f.done() for f in futures)
        if any(f.status == "error" for f in futures):
            return  # gather raises the task's own error
        if now > done:
            done, last = now, time.monotonic()
        elif time.monotonic() - last > timeout:
            workers = len(client.scheduler_info().get("workers", {}))
            raise ClusterTimeoutError(
                f"the Dask cluster finished no task in {timeout:g} s ({done} of {len(futures)} "
                f"done, {workers} worker(s) alive): giving up; set the deadline with "
                f"--dask-timeout or ${TIMEOUT_VARIABLE}"
            )
