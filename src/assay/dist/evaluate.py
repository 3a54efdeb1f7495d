"""``assay.dist.evaluate``: :func:`assay.evaluate` over Dask DataFrames."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._optional import require
from .._options import Missing, NoRelevant, Ties
from .._options import depth as check_depth
from ..data import Conventions, Qrels, Run
from ..errors import InputError
from ..evaluation import (
    BlockValues,
    block_values,
    combine_blocks,
    resolve_metrics,
    results_from_parts,
)
from ..metrics import Metric
from ..results import Results


def _partition_values(
    frame: Any,
    qrels: Qrels,
    metrics: list[Metric],
    conv: Conventions,
    depth: int | None,
    columns: tuple[str, str, str],
    name: str,
) -> list[BlockValues]:
    """One partition (a pandas DataFrame of whole queries) as block values."""
    if len(frame) == 0:
        return []
    query, doc, score = columns
    run = Run.from_columns(
        frame[query].astype(str).to_numpy(),
        frame[doc].astype(str).to_numpy(),
        frame[score].to_numpy(dtype="float64"),
        name=name,
    )
    return [block_values(qrels, run, metrics, conv, depth)]


def _as_frames(runs: Any) -> dict[str, Any]:
    dd = require("dask.dataframe")
    if isinstance(runs, dd.DataFrame):
        return {"run": runs}
    if isinstance(runs, Mapping):
        out = dict(runs)
    else:
        raise InputError("runs must be a Dask DataFrame or a mapping {name: Dask DataFrame}")
    for key, frame in out.items():
        if not isinstance(frame, dd.DataFrame):
            raise InputError(f"runs[{key!r}] is a {type(frame).__name__}, not a Dask DataFrame")
    if not out:
        raise InputError("no run given")
    return out


def evaluate(
    qrels: Qrels,
    runs: Any,
    metrics: str | Metric | Sequence[str | Metric],
    *,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    depth: int | None = None,
    query: str = "query",
    doc: str = "doc",
    score: str = "score",
    shuffled: bool = False,
) -> Results:
    """Evaluate Dask DataFrame runs (``{name: ddf}``, or one ddf named "run") against qrels.

    Options are those of :func:`assay.evaluate`; ``query``/``doc``/``score`` name the
    columns. The computation runs on the current Dask scheduler (a ``distributed.Client`` if
    one is active). ``ties="input"`` follows the rows' order within each partition, which a
    shuffle keeps only per input partition: use ``docno`` or ``average`` unless the frame is
    already partitioned by query in its original order (``shuffled=True``).
    """
    dask = require("dask")
    if not isinstance(qrels, Qrels):
        raise InputError(f"qrels must be an assay.Qrels, got {type(qrels).__name__}")
    conv = Conventions(ties=ties, missing=missing, no_relevant=no_relevant, judged_only=judged_only)
    depth = check_depth(depth)
    metric_list = resolve_metrics(metrics, conv)
    frames = _as_frames(runs)
    columns = (query, doc, score)
    lazy = {}
    for name, frame in frames.items():
        missing_cols = [c for c in columns if c not in frame.columns]
        if missing_cols:
            raise InputError(f"run {name!r} has no column(s) {', '.join(missing_cols)}")
        parts = frame if shuffled else frame.shuffle(on=query)
        lazy[name] = [
            dask.delayed(_partition_values)(p, qrels, metric_list, conv, depth, columns, name)
            for p in parts.to_delayed()
        ]
    (computed,) = dask.compute(lazy)
    combined = {
        name: combine_blocks(
            qrels, name, (b for part in parts for b in part), metric_list, conv
        )
        for name, parts in computed.items()
    }
    for name, (_, _, _, summary) in combined.items():
        summary.update(source="<dask>", partitions=frames[name].npartitions)
    return results_from_parts(qrels, combined, metric_list, conv, depth)
