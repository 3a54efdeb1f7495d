"""``assay.dist.evaluate``: :func:`assay.evaluate` over Dask DataFrames."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from .._optional import require
from .._options import Missing, NoRelevant, ShortQueries, Ties
from ..data import Conventions, Qrels, Run, default_name
from ..errors import InputError
from ..evaluation import (
    BlockValues,
    block_values,
    combine_blocks,
    results_from_parts,
    setup,
)
from ..metrics import Metric
from ..results import Results
from ._watch import Fingerprint, check_unchanged, compute, fingerprints, timeout_seconds

if TYPE_CHECKING:
    from dask.dataframe import DataFrame as DaskFrame

__all__ = [
    "evaluate",
]

#: One run on Dask: a Dask DataFrame, or a Parquet file or dataset directory read as one.
DaskRun: TypeAlias = "DaskFrame | str | os.PathLike[str]"


def _partition_values(
    frame: Any,
    qrels: Qrels,
    metrics: list[Metric],
    conv: Conventions,
    depth: int | None,
    columns: tuple[str, str, str],
    name: str,
    planned: dict[str, Fingerprint] | None = None,
) -> list[BlockValues]:
    """One partition (a pandas DataFrame of whole queries) as block values; ``planned``: the
    run's files as they were when the work was planned, checked unchanged."""
    check_unchanged(planned or {})
    if len(frame) == 0:
        return []
    query, doc, score = columns
    run = Run.from_columns(
        frame[query].astype(str).to_numpy(),
        frame[doc].astype(str).to_numpy(),
        frame[score].to_numpy(dtype="float64"),
        name=name,
    )
    return [block_values(qrels, run, metrics, conv, depth=depth)]


def _as_frame(run: Any, key: str) -> Any:
    """A Dask DataFrame, or a Parquet file or dataset (a directory) read as one."""
    dd = require("dask.dataframe")
    if isinstance(run, dd.DataFrame):
        return run
    if isinstance(run, str | os.PathLike):
        path = os.fspath(run)
        if not os.path.exists(path):
            raise InputError("no such file or directory", source=path)
        import pyarrow as pa

        try:
            return dd.read_parquet(path)
        except (pa.ArrowInvalid, OSError) as exc:
            # Arrow's message ("Could not read schema...") names no remedy; a TREC text run
            # goes through dist.read_trec_run.
            raise InputError(
                "is not a Parquet file or dataset (a TREC text run: read it with "
                "assay.dist.read_trec_run)",
                source=path,
            ) from exc
    raise InputError(
        f"runs[{key!r}] is a {type(run).__name__}, not a Dask DataFrame or a Parquet path"
    )


def _planned(runs: Any) -> dict[str, dict[str, Fingerprint]]:
    """The files of the runs given by path, as they are now: {run name: {file: (size,
    mtime)}} (named as :func:`_as_frames` names them)."""
    if isinstance(runs, str | os.PathLike):
        runs = {default_name(os.fspath(runs).rstrip("/")): runs}
    if not isinstance(runs, Mapping):
        return {}
    paths = {str(k): os.fspath(v) for k, v in runs.items() if isinstance(v, str | os.PathLike)}
    return {name: fingerprints(path) for name, path in paths.items() if os.path.exists(path)}


def _as_frames(runs: Any) -> dict[str, Any]:
    dd = require("dask.dataframe")
    if isinstance(runs, dd.DataFrame):
        return {"run": runs}
    if isinstance(runs, str | os.PathLike):
        return {default_name(os.fspath(runs).rstrip("/")): _as_frame(runs, "run")}
    if not isinstance(runs, Mapping):
        raise InputError(
            "runs must be a Dask DataFrame, a Parquet path or a mapping {name: either}"
        )
    out = {str(key): _as_frame(run, str(key)) for key, run in runs.items()}
    if not out:
        raise InputError("no run given")
    return out


def evaluate(
    qrels: Qrels,
    runs: DaskRun | Mapping[str, DaskRun],
    metrics: str | Metric | Sequence[str | Metric],
    *,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    short_queries: ShortQueries = "score",
    depth: int | None = None,
    query: str = "query",
    doc: str = "doc",
    score: str = "score",
    shuffled: bool = False,
    timeout: float | None = None,
) -> Results:
    """Evaluate runs on Dask against qrels, with the per-query values of :func:`assay.evaluate`.

    The rows are shuffled by query so that each query is whole in one partition (a Parquet
    dataset's partitions may split queries); the combination checks it and refuses a query
    met in two partitions (:class:`~assay.evaluation.SplitQueryError`). The computation runs
    on the current Dask scheduler (a ``distributed.Client`` if one is active). Each task
    checks that the run file (or every file of a Parquet dataset given by its path) still has
    the size and modification time it had when the work was planned, and refuses one that
    changed.

    Parameters
    ----------
    qrels : Qrels
        The judgments (a path, a data frame or a ``{query: {doc: grade}}`` dict is read as
        one).
    runs : dask.dataframe.DataFrame, path or mapping of str to either
        A Dask DataFrame (named "run"), a Parquet file or dataset directory (named after it),
        or ``{name: either}``.
    metrics : str, Metric or sequence of them
        The metrics, as :func:`assay.evaluate` takes them (``"ndcg@10"``, ``"map"``, ...).
    ties, missing, no_relevant, judged_only, short_queries
        Evaluation conventions, as :func:`assay.evaluate` (see docs/conventions.md).
        ``ties="input"`` follows the rows' order within each partition, which a shuffle keeps
        only per input partition: use ``docno`` or ``average`` unless the frame is already
        partitioned by query in its original order (``shuffled=True``).
    depth : int, optional
        Keep the first ``depth`` documents of every ranking.
    query, doc, score : str, default "query", "doc", "score"
        The frames' column names.
    shuffled : bool, default False
        The frames are already partitioned by query: no shuffle (the split-query check still
        runs).
    timeout : float, optional
        On a distributed client, seconds without any task finishing before the evaluation
        gives up (:class:`ClusterTimeoutError`): a cluster whose workers died would otherwise
        be waited for for ever. Default ``$ASSAY_DASK_TIMEOUT``, else 600.

    Returns
    -------
    Results
        Per-query values and aggregates of every run and metric, as :func:`assay.evaluate`
        gives them.

    Examples
    --------
    >>> from assay import datasets, dist, evaluate
    >>> qrels, runs = datasets.synthetic(n_queries=20, docs_per_query=10, seed=0)
    >>> runs["run1"].to_trec("run1.txt")
    >>> frame = dist.read_trec_run("run1.txt", partition_bytes=2000)
    >>> res = dist.evaluate(qrels, {"run1": frame}, ["ndcg@10", "map"])
    >>> print(f"{res.aggregate('run1', 'ndcg@10'):.4f} {res.aggregate('run1', 'map'):.4f}")
    0.9770 0.9685
    >>> res.mean() == evaluate(qrels, runs["run1"], ["ndcg@10", "map"]).mean()
    True
    """
    dask = require("dask")
    qrels, conv, depth, metric_list = setup(
        qrels,
        metrics,
        "assay.dist.evaluate",
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
        depth=depth,
    )
    deadline = timeout_seconds(timeout)
    frames = _as_frames(runs)
    planned = _planned(runs)
    columns = (query, doc, score)
    lazy = {}
    # One node of the graph: the qrels travel to each worker once, not with every task, with
    # their document dictionary made (ids that repeat across queries travel once; the workers'
    # Run-based join needs it anyway).
    qrels.doc_ids  # noqa: B018 - made here, on the client, once
    shared = dask.delayed(qrels, pure=True)
    for name, frame in frames.items():
        missing_cols = [c for c in columns if c not in frame.columns]
        if missing_cols:
            raise InputError(f"run {name!r} has no column(s) {', '.join(missing_cols)}")
        parts = frame if shuffled else frame.shuffle(on=query)
        lazy[name] = [
            dask.delayed(_partition_values)(
                p, shared, metric_list, conv, depth, columns, name, planned.get(name)
            )
            for p in parts.to_delayed()
        ]
    computed = compute(lazy, deadline)
    combined = {
        name: combine_blocks(qrels, name, (b for part in parts for b in part), metric_list, conv)
        for name, parts in computed.items()
    }
    for name, (_, _, _, summary) in combined.items():
        summary.update(source="<dask>", partitions=frames[name].npartitions)
    return results_from_parts(qrels, combined, metric_list, conv, depth)
