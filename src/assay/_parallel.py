"""An ordered map on a few threads, for work that spends its time in NumPy and Arrow (which
release the GIL): parsing and evaluating the blocks of a streamed run.

Results come back in input order whatever the thread count, so what is computed from them
is the same on one thread or many; an exception is raised where its item's result would
have been, after the items before it.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = [
    "ordered_map",
    "worker_count",
]

T = TypeVar("T")
R = TypeVar("R")

#: Environment variable that sets the thread count (1: everything on the calling thread).
THREADS_VARIABLE = "ASSAY_THREADS"


def worker_count() -> int:
    """Threads to use: ``ASSAY_THREADS`` if set (at least 1), else the CPUs this process may
    run on, at most 4 (each thread holds a block in memory)."""
    value = os.environ.get(THREADS_VARIABLE, "").strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def ordered_map(
    fn: Callable[[T], R], items: Iterable[T], *, workers: int | None = None
) -> Iterator[R]:
    """``map(fn, items)`` on ``workers`` threads, at most ``workers + 1`` items in flight
    (memory stays bounded by a few items); items are drawn on the calling thread."""
    n = worker_count() if workers is None else workers
    if n <= 1:
        yield from map(fn, items)
        return
    # Imported here: a run read whole (every small one) never starts a thread.
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(n, thread_name_prefix="assay")
    pending: deque[Future[R]] = deque()
    try:
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) > n:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
