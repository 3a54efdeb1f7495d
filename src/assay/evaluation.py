"""Evaluation: qrels x runs x metrics -> :class:`~assay.results.Results` (``assay.evaluate``)."""

from __future__ import annotations

import math
import os
import warnings as _warnings
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ._arrow import from_np, to_np
from ._options import Missing, NoRelevant, ShortQueries, Ties, flag
from ._options import depth as check_depth
from ._parallel import ordered_map
from ._result import provenance
from .data import (
    Conventions,
    Qrels,
    QrelsLike,
    Ranked,
    RankInfo,
    Run,
    RunLike,
    default_name,
    missing_message,
    rank,
    rank_absent,
)
from .data.blockjoin import rank_block
from .data.join import lookalike_note
from .errors import (
    ConventionError,
    CoverageWarning,
    InputError,
    InputWarning,
    MissingQueryError,
    OptionError,
    shown,
)
from .io.trec import TrecColumns
from .metrics import Metric, parse_all
from .results import MetricValues, Results, RunInputs, aggregate

__all__ = [
    "STREAM_BYTES",
    "STREAM_ROWS",
    "BlockValues",
    "MetricValues",
    "Results",
    "SplitQueryError",
    "aggregate",
    "block_values",
    "combine_blocks",
    "evaluate",
    "resolve_metrics",
    "results_from_parts",
    "worth_streaming",
]


@dataclass(frozen=True)
class _RunFile:
    """A run given as a file, evaluated block by block (see :func:`evaluate`'s ``stream``)."""

    name: str
    path: str
    format: str


#: TREC run files at least this large, and Parquet run files of at least :data:`STREAM_ROWS`
#: rows, are evaluated block by block when ``stream=None``. The block path is the faster one
#: from about a million rows down (benchmarks/RESULTS.md; whole process at 1M rows: TREC
#: 0.48 s against 0.78 s read whole, Parquet 0.48-0.82 s against 1.20-1.44 s) and holds less;
#: below these sizes the two are alike, and a run whose queries are not together would be
#: read twice, so small files are read whole.
STREAM_BYTES = 8 << 20
STREAM_ROWS = 1 << 18


def _as_source(item: Any, name: str | None, stream: bool | None) -> Run | _RunFile:
    if isinstance(item, Run):
        return item if name is None or item.name == name else item.rename(name)
    if not isinstance(item, str | os.PathLike):
        run = Run.coerce(item, where="evaluate", role="a run")
        return run if name is None else run.rename(name)
    from .io.formats import detect_format

    path = os.fspath(item)
    fmt = detect_format(path)
    blockwise = fmt in ("trec", "parquet") and path != "-"
    if stream and not blockwise:
        raise OptionError(
            f"stream=True reads TREC text or Parquet files, not {fmt} ({path})", option="stream"
        )
    big = blockwise and stream is None and worth_streaming(path, fmt)
    if stream or big:
        return _RunFile(name or default_name(path), path, fmt)
    return Run.read(path) if name is None else Run.read(path).rename(name)


def worth_streaming(path: str, fmt: str) -> bool:
    """Whether ``evaluate(stream=None)`` reads this run file in blocks: TREC text of
    :data:`STREAM_BYTES` or more, Parquet of :data:`STREAM_ROWS` rows or more (its bytes say
    little: it is compressed). The one streaming decision: ``assay evaluate``/``compare``
    (:mod:`assay.ranking.collection`) and the fusion of run files follow it."""
    if not os.path.isfile(path):
        return False
    if fmt == "trec":
        return os.path.getsize(path) >= STREAM_BYTES
    import pyarrow.parquet as pq

    try:
        return bool(pq.ParquetFile(path).metadata.num_rows >= STREAM_ROWS)
    except (pa.ArrowInvalid, OSError):
        return False  # read whole, which reports the error


def _as_runs(runs: Any, stream: bool | None) -> list[Run | _RunFile]:
    # One run: a Run, a path, a data frame, one {query: {doc: score}} dict (or what is not a
    # collection at all, refused by name there).
    if Run.is_one(runs) or not isinstance(runs, Iterable):
        out = [_as_source(runs, None, stream)]
    elif isinstance(runs, Mapping):
        out = [_as_source(run, str(name), stream) for name, run in runs.items()]
    else:
        out = [_as_source(run, None, stream) for run in runs]
    if not out:
        raise InputError("no run given")
    names = [r.name for r in out]
    dup = sorted(n for n, c in Counter(names).items() if c > 1)
    if dup:
        raise InputError(
            f"run names must be unique; repeated: {', '.join(dup)} "
            "(rename with Run.rename or pass a dict {name: run})"
        )
    return out


def resolve_metrics(metrics: Any, conv: Conventions) -> list[Metric]:
    """Metric names or objects as metrics, checked against the tie convention."""
    metric_list = parse_all(metrics)
    if conv.ties == "average":
        bad = [str(m) for m in metric_list if not m.spec.average_ties]
        if bad:
            raise ConventionError(
                f"ties='average' has no closed form for {', '.join(bad)}; "
                "use ties='docno' or ties='input' for these metrics"
            )
    return metric_list


def setup(
    qrels: QrelsLike,
    metrics: Any,  # Any: what parse_all takes (a name, a Metric or a sequence of them)
    where: str,
    *,
    ties: Ties,
    missing: Missing,
    no_relevant: NoRelevant,
    judged_only: bool,
    short_queries: ShortQueries,
    depth: int | None,
) -> tuple[Qrels, Conventions, int | None, list[Metric]]:
    """The qrels, conventions, depth and metrics of an evaluation (:func:`evaluate`,
    :func:`assay.prepare`, :func:`assay.dist.evaluate`), each checked in that order; ``where``
    names the function in messages."""
    qrels = Qrels.coerce(qrels, where=where, role="qrels")
    conv = Conventions(
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
    )
    depth = check_depth(depth)
    return qrels, conv, depth, resolve_metrics(metrics, conv)


def _queries(n: int) -> str:
    return f"quer{'y' if n == 1 else 'ies'}"


#: A warning to issue: its class and its message.
Notice = tuple[type[Warning], str]


def join_warnings(run: str, info: RankInfo, conv: Conventions) -> list[Notice]:
    """What the join counted for one run, said once each."""
    out: list[Notice] = []
    if info.unknown_queries:
        n = len(info.unknown_queries)
        out.append(
            (
                InputWarning,
                f"run {run!r}: {n} {_queries(n)} not in the qrels ignored "
                f"({info.unknown_rows} results), e.g. {shown(info.unknown_queries[0])}"
                + lookalike_note(info.unknown_queries, info.missing_queries),
            )
        )
    if info.missing_queries and conv.missing != "error":
        n = len(info.missing_queries)
        verb = "scored as empty rankings" if conv.missing == "zero" else "skipped"
        out.append(
            (
                CoverageWarning,
                f"run {run!r}: {n} qrels {_queries(n)} without results {verb} "
                f"(missing={conv.missing!r}), e.g. {shown(info.missing_queries[0])}",
            )
        )
    if info.dropped_unjudged:
        out.append(
            (
                CoverageWarning,
                f"run {run!r}: {info.dropped_unjudged} unjudged results "
                "dropped before ranking (judged_only=True)",
            )
        )
    return out


def judged_counts(qrels: Qrels, queries: np.ndarray) -> np.ndarray:
    """Judged documents (grade >= 0) of each of ``queries`` (ids) in the qrels."""
    judged = qrels.grades >= 0
    per = np.bincount(qrels.query_codes[judged], minlength=qrels.n_queries)
    codes = to_np(pc.index_in(pa.array(queries, pa.string()), value_set=qrels.query_ids), fill=-1)
    return np.where(codes >= 0, per[np.maximum(codes, 0)], 0)


def conventional_values(
    name: str,
    m: Metric,
    values: np.ndarray,
    queries: np.ndarray,
    conv: Conventions,
    judged: np.ndarray | None = None,
) -> tuple[MetricValues, int]:
    """One metric's per-query values for one run, with ``short_queries`` and ``no_relevant``
    applied, and how many short queries were left out.

    A qrels query the run has no results for is ranked as an empty list when
    missing="zero": every metric takes its own value there (0 for most, 1 for rbp_resid),
    the same value the empty list reached through judged_only gets. Under
    short_queries="skip" a metric at cutoff k leaves out the queries with fewer than k judged
    documents (``judged``) before anything else. A text metric (relstring) keeps its
    strings, has no aggregate (NaN) and is never undefined."""
    if m.spec.value == "text":
        texts = np.asarray(values, dtype=object)
        return MetricValues(name, str(m), queries, texts, math.nan), 0
    values = np.asarray(values, dtype=np.float64)
    n_short = 0
    if conv.short_queries == "skip" and m.k is not None and judged is not None:
        long_enough = judged >= m.k
        n_short = int(len(long_enough) - np.count_nonzero(long_enough))
        values, queries = values[long_enough], queries[long_enough]
    undefined = np.isnan(values)
    n_undef = int(undefined.sum())
    if n_undef:
        if conv.no_relevant == "zero":
            values = np.where(undefined, 0.0, values)
        elif conv.no_relevant == "one":
            values = np.where(undefined, 1.0, values)
        elif conv.no_relevant == "skip":
            values, queries = values[~undefined], queries[~undefined]
    skipped = (n_undef if conv.no_relevant == "skip" else 0) + n_short
    agg = aggregate(values, m.spec.aggregate)
    return MetricValues(name, str(m), queries, values, agg, n_undef, skipped), n_short


def _short_warning(run: str, m: Metric, n_short: int) -> list[Notice]:
    if not n_short:
        return []
    message = (
        f"run {run!r}: {m!s} left out for {n_short} {_queries(n_short)} with fewer than "
        f"{m.k} judged documents (short_queries='skip')"
    )
    return [(CoverageWarning, message)]


def _undefined_warning(run: str, m: Metric, mv: MetricValues, conv: Conventions) -> list[Notice]:
    if not mv.undefined or conv.no_relevant == "zero":
        return []
    message = (
        f"run {run!r}: {m!s} undefined for {mv.undefined} {_queries(mv.undefined)} "
        f"(no_relevant={conv.no_relevant!r})"
    )
    return [(CoverageWarning, message)]


def _summary(run: Run) -> dict[str, Any]:
    return {"source": run.source, "queries": run.n_queries, "results": len(run)}


def _provenance(
    qrels: Qrels,
    runs: Mapping[str, dict[str, Any]],
    metrics: list[Metric],
    conv: Conventions,
    depth: int | None,
) -> dict[str, Any]:
    return provenance(
        conventions=conv.to_dict(),
        metrics=[m.canonical for m in metrics],
        depth=depth,
        qrels={
            "source": qrels.source,
            "queries": qrels.n_queries,
            "judgments": len(qrels),
            "max_grade": qrels.max_grade,
        },
        runs=dict(runs),
        numpy=np.__version__,
        pyarrow=pa.__version__,
    )


# ---------------------------------------------------------------- block by block


class SplitQueryError(InputError):
    """A query was evaluated in two blocks: its rows are not together in the input, so the
    blocks did not hold whole queries."""


def _blocks(source: _RunFile) -> Iterator[TrecColumns]:
    from .io.blocks import iter_parquet_run_blocks, iter_run_blocks

    if source.format == "parquet":
        return iter_parquet_run_blocks(source.path)
    return iter_run_blocks(source.path)


@dataclass(frozen=True)
class BlockValues:
    """One block's share of an evaluation: the qrels query codes it evaluated, every
    metric's values there, and what its join counted. Small and picklable, so blocks can be
    evaluated anywhere (a Dask worker) and combined in a fixed order."""

    codes: np.ndarray
    values: dict[str, np.ndarray]
    unknown: list[str]
    unknown_rows: int
    dropped: int
    results: int


def block_values(
    qrels: Qrels,
    block: Run | TrecColumns,
    metrics: Sequence[Metric],
    conventions: Conventions,
    *,
    depth: int | None = None,
) -> BlockValues:
    """Rank one block of whole queries (a :class:`Run`, or columns as read) against those
    queries' judgments only (no global document dictionary) and compute every metric there."""
    conv = replace(conventions, missing="skip")
    if isinstance(block, TrecColumns):
        done = rank_block(qrels, block, conv, depth=depth)
        if done is not None:
            return _metric_values(done.ranked, done.codes, done.info, len(block.query), metrics)
        block = Run.from_columns(
            block.query, block.doc, block.value, source=block.source, lines=block.lines
        )
    codes = to_np(pc.index_in(block.query_ids, value_set=qrels.query_ids), fill=-1)
    known = codes >= 0
    if not known.any():
        unknown = block.query_ids.to_pylist()
        empty = np.zeros(0, dtype=np.int64)
        return BlockValues(empty, {}, unknown, len(block), 0, len(block))
    sub = qrels.restrict(block.query_ids.filter(from_np(known)))
    ranked, info = rank(sub, block, conv, depth=depth)
    at = to_np(pc.index_in(pa.array(ranked.query_ids.tolist(), pa.string()), qrels.query_ids))
    return _metric_values(ranked, at, info, len(block), metrics)


def _metric_values(
    ranked: Ranked, codes: np.ndarray, info: RankInfo, rows: int, metrics: Sequence[Metric]
) -> BlockValues:
    values = (
        {str(m): np.asarray(m(ranked), dtype=_dtype(m)) for m in metrics}
        if len(codes)
        else {}  # none of the block's queries is in the qrels
    )
    return BlockValues(
        codes, values, info.unknown_queries, info.unknown_rows, info.dropped_unjudged, rows
    )


def _dtype(m: Metric) -> Any:
    """float64 for the per-query values of a metric, object for a text metric's strings."""
    return object if m.spec.value == "text" else np.float64


def _score_absent(
    qrels: Qrels,
    name: str,
    metric_list: list[Metric],
    raw: dict[str, np.ndarray],
    absent: np.ndarray,
    conv: Conventions,
) -> None:
    """The qrels queries no block held: an error, skipped, or scored as empty rankings."""
    ids = qrels.query_ids.take(from_np(absent)).to_pylist()
    if conv.missing == "error" and ids:
        raise MissingQueryError(missing_message(name, ids))
    if conv.missing == "zero" and ids:
        ranked = rank_absent(qrels.restrict(ids), conv)
        at = to_np(pc.index_in(pa.array(ranked.query_ids, pa.string()), value_set=qrels.query_ids))
        for m in metric_list:
            raw[str(m)][at] = m(ranked)


def combine_blocks(
    qrels: Qrels,
    name: str,
    parts: Iterable[BlockValues],
    metrics: Sequence[Metric],
    conventions: Conventions,
) -> tuple[dict[str, np.ndarray], np.ndarray, RankInfo, dict[str, Any]]:
    """Put the blocks' values at their queries' places (qrels order, whatever order the
    blocks come in), score the queries no block held, and count what the joins found.

    A query evaluated by two blocks means the blocks did not hold whole queries: a
    :class:`SplitQueryError` (reading a file, :func:`evaluate` falls back to memory)."""
    metric_list = list(metrics)
    raw = {str(m): np.full(qrels.n_queries, np.nan, dtype=_dtype(m)) for m in metric_list}
    present = np.zeros(qrels.n_queries, dtype=bool)
    unknown: dict[str, None] = {}
    counts = np.zeros(3, dtype=np.int64)  # unknown rows, dropped, results
    for part in parts:
        if present[part.codes].any():
            again = qrels.query_ids[int(part.codes[present[part.codes]][0])].as_py()
            raise SplitQueryError(f"{name}: the rows of query {again!r} are not together")
        present[part.codes] = True
        for key, values in part.values.items():
            raw[key][part.codes] = values
        unknown.update(dict.fromkeys(part.unknown))
        counts += (part.unknown_rows, part.dropped, part.results)
    absent = np.flatnonzero(~present)
    _score_absent(qrels, name, metric_list, raw, absent, conventions)
    evaluated = (
        np.flatnonzero(present) if conventions.missing == "skip" else np.arange(len(present))
    )
    info = RankInfo(
        sorted(unknown),  # byte order, as the in-memory join lists them
        int(counts[0]),
        qrels.query_ids.take(from_np(absent)).to_pylist(),
        ~present[evaluated],
        int(counts[1]),
    )
    queries = np.asarray(qrels.query_ids.take(from_np(evaluated)).to_pylist(), dtype=object)
    summary = {"queries": int(present.sum()) + len(unknown), "results": int(counts[2])}
    return {k: v[evaluated] for k, v in raw.items()}, queries, info, summary


def _evaluate_blocks(
    qrels: Qrels,
    source: _RunFile,
    metric_list: list[Metric],
    conv: Conventions,
    depth: int | None,
) -> tuple[dict[str, np.ndarray], np.ndarray, RankInfo, dict[str, Any]]:
    """Per-query values of a run file read block by block: identical to the in-memory path,
    with memory bounded by one block plus the qrels."""

    def values_of(block: TrecColumns) -> BlockValues:
        return block_values(qrels, block, metric_list, conv, depth=depth)

    parts = ordered_map(values_of, _blocks(source))
    values, queries, info, summary = combine_blocks(qrels, source.name, parts, metric_list, conv)
    summary = {"source": source.path, **summary, "read": "in blocks of whole queries"}
    return values, queries, info, summary


def results_from_parts(
    qrels: Qrels,
    runs: Mapping[str, tuple[dict[str, np.ndarray], np.ndarray, RankInfo, dict[str, Any]]],
    metrics: Sequence[Metric],
    conventions: Conventions,
    depth: int | None,
) -> Results:
    """Results from combined per-run values (see :func:`combine_blocks`), with the
    conventions, warnings and provenance of :func:`evaluate`."""
    data: dict[tuple[str, str], MetricValues] = {}
    notices: list[Notice] = []
    for name, (values, queries, info, _) in runs.items():
        notices += join_warnings(name, info, conventions)
        judged = judged_counts(qrels, queries) if conventions.short_queries == "skip" else None
        for m in metrics:
            mv, n_short = conventional_values(name, m, values[str(m)], queries, conventions, judged)
            data[(name, str(m))] = mv
            notices += _short_warning(name, m, n_short)
        for m in metrics:
            notices += _undefined_warning(name, m, data[(name, str(m))], conventions)
    # Said through the warnings module as well as kept in the result: a notebook user sees
    # that queries were scored by a convention without reading ``res.warnings``.
    for category, message in notices:
        _warnings.warn(message, category, stacklevel=3)
    summaries = {name: part[3] for name, part in runs.items()}
    prov = _provenance(qrels, summaries, list(metrics), conventions, depth)
    messages = [message for _, message in notices]
    return Results(list(runs), list(metrics), conventions, data, messages, prov)


# ---------------------------------------------------------------- evaluate


def _evaluate_one(
    qrels: Qrels,
    source: Run | _RunFile,
    metric_list: list[Metric],
    conv: Conventions,
    depth: int | None,
) -> tuple[dict[str, np.ndarray], np.ndarray, RankInfo, dict[str, Any]]:
    if isinstance(source, _RunFile):
        try:
            return _evaluate_blocks(qrels, source, metric_list, conv, depth)
        except SplitQueryError:
            message = (
                f"{source.path}: the rows of some query are not together, so the run cannot "
                "be read in blocks of whole queries; it was read whole instead"
            )
            _warnings.warn(message, InputWarning, stacklevel=4)
            source = Run.read(source.path).rename(source.name)
    ranked, info = rank(qrels, source, conv, depth=depth)
    values = {str(m): m(ranked) for m in metric_list}
    return values, ranked.query_ids, info, _summary(source)


def evaluate(
    qrels: QrelsLike,
    runs: RunLike | Sequence[RunLike] | Mapping[str, RunLike],
    metrics: str | Metric | Sequence[str | Metric],
    *,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    short_queries: ShortQueries = "score",
    depth: int | None = None,
    stream: bool | None = None,
) -> Results:
    """Evaluate runs against qrels.

    Parameters
    ----------
    qrels : Qrels
        The relevance judgments; also a file path, a pandas or polars DataFrame, a pyarrow
        Table or a ``{query: {doc: grade}}`` dict (pytrec_eval, ranx).
    runs : Run, path, or a sequence or mapping of them
        One run or several (a dict names them, ``{name: {query: {doc: score}}}``
        included; see ``Run.coerce``). A TREC run file of at least :data:`STREAM_BYTES` or
        a Parquet one of :data:`STREAM_ROWS` rows (or any, with ``stream=True``) is read in
        blocks of whole queries, each matched against its own queries' judgments, so memory
        is bounded by a block plus the qrels; the values are those of the in-memory path.
    metrics : str, Metric or a sequence of them
        ``"ndcg@10"``, ``"P(rel=2)@5"``, ``"map"``, trec_eval's ``"ndcg_cut.10"`` ...
        (``assay metrics`` lists them).
    ties : {"docno", "input", "average"}
        Tied scores: by document id descending (trec_eval), in input order, or averaged.
    missing : {"zero", "skip", "error"}
        Qrels queries a run has no results for: scored as empty rankings (trec_eval -c),
        left out, or an error.
    no_relevant : {"zero", "one", "skip", "nan"}
        Queries where a metric is undefined (no relevant document).
    judged_only : bool
        Drop unjudged documents before ranking (trec_eval -J).
    short_queries : {"score", "skip"}
        Queries with fewer than k judged documents, for metrics at cutoff k: scored, or
        left out of the mean.
    depth : int, optional
        Keep the first ``depth`` documents of every ranking (trec_eval's ``-M``).
    stream : bool, optional
        Read run files in blocks (True), whole (False), or by their size (None).

    Returns
    -------
    Results
        Per-query values and aggregates of every run x metric, with the conventions,
        warnings and provenance (the grade scale ERR and pFound use, the qrels'
        ``max_grade``, included). It keeps the inputs for its report's precision-recall
        curves: ``res.html(title=...)`` is the page ``assay evaluate --report`` writes.

    Examples
    --------
    >>> import assay
    >>> qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.5}, "q2": {"d4": 0.8, "d3": 0.1}}
    >>> res = assay.evaluate(qrels, {"bm25": run}, ["P@1", "map"])
    >>> res.mean()
    {'bm25': {'P@1': 0.5, 'map': 0.75}}
    >>> res.per_query("bm25", "P@1")
    {'q1': 1.0, 'q2': 0.0}
    """
    qrels, conv, depth, metric_list = setup(
        qrels,
        metrics,
        "evaluate",
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
        depth=depth,
    )
    sources = _as_runs(runs, flag(stream, "stream") if stream is not None else None)
    parts = {s.name: _evaluate_one(qrels, s, metric_list, conv, depth) for s in sources}
    res = results_from_parts(qrels, parts, metric_list, conv, depth)
    # Kept for the report's precision-recall curves; a run read in blocks stays a path.
    kept = {s.name: s if isinstance(s, Run) else s.path for s in sources}
    return replace(res, inputs=RunInputs(qrels, kept, depth))
