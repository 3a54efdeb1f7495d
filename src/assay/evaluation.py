"""Evaluation: qrels x runs x metrics -> :class:`~assay.results.Results` (``assay.evaluate``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ._options import Missing, NoRelevant, Ties
from ._options import depth as check_depth
from ._result import provenance
from .data import Conventions, Qrels, RankInfo, Run, rank
from .errors import ConventionError, InputError
from .metrics import Metric, parse_all
from .results import MetricValues, Results, aggregate

__all__ = ["MetricValues", "Results", "aggregate", "evaluate"]


def _as_runs(runs: Run | Sequence[Run] | Mapping[str, Run]) -> list[Run]:
    if isinstance(runs, Run):
        out = [runs]
    elif isinstance(runs, Mapping):
        out = []
        for name, run in runs.items():
            if not isinstance(run, Run):
                raise InputError(f"runs[{name!r}] is a {type(run).__name__}, expected an assay.Run")
            out.append(run if run.name == name else run.rename(str(name)))
    else:
        out = list(runs)
        for run in out:
            if not isinstance(run, Run):
                raise InputError(f"expected assay.Run objects, got {type(run).__name__}")
    if not out:
        raise InputError("no run given")
    names = [r.name for r in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InputError(
            f"run names must be unique; repeated: {', '.join(dup)} "
            "(rename with Run.rename or pass a dict {name: run})"
        )
    return out


def _metrics(metrics: Any, conv: Conventions) -> list[Metric]:
    metric_list = parse_all(metrics)
    if conv.ties == "average":
        bad = [str(m) for m in metric_list if not m.spec.average_ties]
        if bad:
            raise ConventionError(
                f"ties='average' has no closed form for {', '.join(bad)}; "
                "use ties='docno' or ties='input' for these metrics"
            )
    return metric_list


def _queries(n: int) -> str:
    return f"quer{'y' if n == 1 else 'ies'}"


def _join_warnings(run: Run, info: RankInfo, conv: Conventions) -> list[str]:
    """What the join counted for one run, said once each."""
    out = []
    if info.unknown_queries:
        out.append(
            f"run {run.name!r}: {len(info.unknown_queries)} {_queries(len(info.unknown_queries))} "
            f"not in the qrels ignored ({info.unknown_rows} results), "
            f"e.g. {info.unknown_queries[0]!r}"
        )
    if info.missing_queries and conv.missing != "error":
        verb = "scored as empty rankings" if conv.missing == "zero" else "skipped"
        out.append(
            f"run {run.name!r}: {len(info.missing_queries)} qrels "
            f"{_queries(len(info.missing_queries))} without results {verb} "
            f"(missing={conv.missing!r}), e.g. {info.missing_queries[0]!r}"
        )
    if info.dropped_unjudged:
        out.append(
            f"run {run.name!r}: {info.dropped_unjudged} unjudged results "
            "dropped before ranking (judged_only=True)"
        )
    return out


def _values(run: Run, m: Metric, ranked: Any, info: RankInfo, conv: Conventions) -> MetricValues:
    """One metric's per-query values for one run, with the conventions applied."""
    # A qrels query the run has no results for is ranked as an empty list when
    # missing="zero": every metric takes its own value there (0 for most, 1 for rbp_resid),
    # the same value the empty list reached through judged_only gets.
    values = np.asarray(m(ranked), dtype=np.float64)
    undefined = np.isnan(values)
    n_undef = int(undefined.sum())
    queries = ranked.query_ids
    if n_undef:
        if conv.no_relevant == "zero":
            values = np.where(undefined, 0.0, values)
        elif conv.no_relevant == "one":
            values = np.where(undefined, 1.0, values)
        elif conv.no_relevant == "skip":
            values, queries = values[~undefined], queries[~undefined]
    skipped = n_undef if conv.no_relevant == "skip" else 0
    agg = aggregate(values, m.spec.aggregate)
    return MetricValues(run.name, str(m), queries, values, agg, n_undef, skipped)


def _undefined_warning(run: Run, m: Metric, mv: MetricValues, conv: Conventions) -> list[str]:
    if not mv.undefined or conv.no_relevant == "zero":
        return []
    return [
        f"run {run.name!r}: {m!s} undefined for {mv.undefined} {_queries(mv.undefined)} "
        f"(no_relevant={conv.no_relevant!r})"
    ]


def _provenance(
    qrels: Qrels, runs: list[Run], metrics: list[Metric], conv: Conventions, depth: int | None
) -> dict[str, Any]:
    return provenance(
        conventions=conv.to_dict(),
        metrics=[str(m) for m in metrics],
        depth=depth,
        qrels={
            "source": qrels.source,
            "queries": qrels.n_queries,
            "judgments": len(qrels),
            "max_grade": qrels.max_grade,
        },
        runs={
            r.name: {"source": r.source, "queries": r.n_queries, "results": len(r)} for r in runs
        },
        numpy=np.__version__,
        pyarrow=pa.__version__,
    )


def evaluate(
    qrels: Qrels,
    runs: Run | Sequence[Run] | Mapping[str, Run],
    metrics: str | Metric | Sequence[str | Metric],
    *,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    depth: int | None = None,
) -> Results:
    """Evaluate runs against qrels.

    ``ties`` ("docno" | "input" | "average"), ``missing`` ("zero" | "skip" | "error"),
    ``no_relevant`` ("zero" | "one" | "skip" | "nan") and ``judged_only`` are the conventions
    of :mod:`assay.conventions`; ``depth`` keeps the first ``depth`` documents of every
    ranking (trec_eval's ``-M``). The grade scale ERR and pFound use is the qrels'
    ``max_grade``, recorded in the provenance.
    """
    if not isinstance(qrels, Qrels):
        raise InputError(f"qrels must be an assay.Qrels, got {type(qrels).__name__}")
    conv = Conventions(ties=ties, missing=missing, no_relevant=no_relevant, judged_only=judged_only)
    depth = check_depth(depth)
    metric_list = _metrics(metrics, conv)
    run_list = _as_runs(runs)
    data: dict[tuple[str, str], MetricValues] = {}
    warnings: list[str] = []
    for run in run_list:
        ranked, info = rank(qrels, run, conv, depth)
        warnings += _join_warnings(run, info, conv)
        for m in metric_list:
            data[(run.name, str(m))] = _values(run, m, ranked, info, conv)
        for m in metric_list:
            warnings += _undefined_warning(run, m, data[(run.name, str(m))], conv)
    prov = _provenance(qrels, run_list, metric_list, conv, depth)
    return Results([r.name for r in run_list], metric_list, conv, data, warnings, prov)
