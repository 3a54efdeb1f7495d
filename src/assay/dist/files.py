"""Evaluation of run files on a Dask scheduler: what ``assay evaluate --dask`` calls."""

from __future__ import annotations

import gc
import logging
import os
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from .._files import unique_names
from .._optional import require
from ..errors import InputError

if TYPE_CHECKING:
    from .._options import InputFormat, Missing, NoRelevant, ShortQueries, Ties
    from ..results import Results

__all__ = ["evaluate_files"]


def evaluate_files(
    address: str,
    qrels: str,
    runs: Sequence[str],
    metrics: str | Sequence[str],
    *,
    qrels_format: InputFormat | str | None = None,
    run_format: InputFormat | str | None = None,
    columns: Mapping[str, str | None] | None = None,
    timeout: float | None = None,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    short_queries: ShortQueries = "score",
) -> Results:
    """:func:`assay.dist.evaluate` of run files on the Dask scheduler at ``address`` (or on
    a cluster of this machine's cores: ``"local"``).

    Parameters
    ----------
    address : str
        The scheduler (``tcp://host:8786``) or ``"local"``; checked before any data is read.
    qrels : str
        The qrels file, read here.
    runs : sequence of str
        TREC text or Parquet run files or Parquet dataset folders, at the same path on
        every worker; each run named by its file name.
    metrics : str or sequence of str
        Metric names.
    qrels_format, run_format, columns
        How the files are read (see :func:`assay.ranking.load_collection`).
    timeout : float, optional
        Give up when no task finishes for this long (see :func:`assay.dist.evaluate`).
    ties, missing, no_relevant, judged_only, short_queries
        The conventions of :func:`assay.evaluate`.

    Returns
    -------
    Results
        The values :func:`assay.evaluate` gives (without the inputs: no precision-recall
        curves in its report).

    Examples
    --------
    >>> from assay import datasets, dist, evaluate
    >>> qrels, runs = datasets.synthetic(n_queries=5, docs_per_query=5, seed=0)
    >>> qrels.to_trec("qrels.txt")
    >>> runs["run1"].to_trec("run1.txt")
    >>> res = dist.evaluate_files("local", "qrels.txt", ["run1.txt"], ["map"])
    >>> res.runs
    ['run1.txt']
    >>> res.aggregate("run1.txt", "map") == evaluate(qrels, runs["run1"], ["map"]).aggregate(
    ...     "run1", "map")
    True
    """
    distributed = require("distributed")
    from ..ranking.collection import load_collection
    from .evaluate import evaluate
    from .scheduler import check_address

    check_address(address)  # before any data is read: what to type or configure
    # P2P shuffles log their start and end at WARNING: not news for a user.
    logging.getLogger("distributed.shuffle").setLevel(logging.ERROR)
    given = dict(columns or {})
    q, _ = load_collection(qrels, [], qrels_format=qrels_format, columns=given)
    paths = list(runs)
    frames = {n: _run(p, run_format) for p, n in zip(paths, unique_names(paths), strict=True)}
    names: dict[str, Any] = {role: given.get(role) or role for role in ("query", "doc", "score")}
    conventions: dict[str, Any] = {
        "ties": ties,
        "missing": missing,
        "no_relevant": no_relevant,
        "judged_only": judged_only,
        "short_queries": short_queries,
    }
    with ExitStack() as stack:
        unreachable = None
        try:
            if address == "local":
                cluster = stack.enter_context(distributed.LocalCluster(dashboard_address=None))
                stack.enter_context(distributed.Client(cluster))
            else:
                stack.enter_context(distributed.Client(address))
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            # TypeError: distributed's word for a connection it cannot set up (a TLS or UCX
            # setting check_address could not see); still the address's fault, not a bug.
            unreachable = f"cannot reach the Dask scheduler at {address}: {exc}"
        if unreachable is not None:
            # The Client that failed is left in a reference cycle (the traceback). Collected
            # at some later allocation, its __del__ stops distributed's IO loop, which
            # deadlocks a Client being started at that moment (seen in the test suite: two
            # commands in one process). Collected here, with the traceback gone, it is not.
            gc.collect()
            raise InputError(unreachable)
        return evaluate(q, frames, metrics, timeout=timeout, **conventions, **names)


def _run(path: str, fmt: str | None) -> Any:
    """A run file as what :func:`assay.dist.evaluate` takes: a Parquet path (a file or a
    dataset folder) or a TREC text file as a Dask DataFrame."""
    from ..io.formats import detect_format
    from . import read_trec_run  # the package's name: what a caller replaces is used

    if os.path.isdir(path) or (fmt or detect_format(path)) == "parquet":
        return path
    if (fmt or detect_format(path)) == "trec":
        return read_trec_run(path)
    raise InputError("--dask reads TREC text or Parquet runs", source=path)
