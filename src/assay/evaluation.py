"""Evaluation: qrels x runs x metrics -> :class:`Results` (``assay.evaluate``)."""

from __future__ import annotations

import platform
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from ._version import __version__
from .data import Conventions, Qrels, Run, rank
from .errors import ConventionError, InputError
from .metrics import Metric, parse_all

if TYPE_CHECKING:
    import pandas as pd

GM_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN


@dataclass
class MetricValues:
    """One run x metric: per-query values, the aggregate, and how many queries were skipped."""

    run: str
    metric: str
    queries: np.ndarray
    values: np.ndarray
    aggregate: float
    undefined: int = 0  # queries where the metric was undefined (handled by no_relevant)
    skipped: int = 0

    def __float__(self) -> float:
        return float(self.aggregate)

    def as_dict(self) -> dict[str, float]:
        return dict(zip(self.queries.tolist(), self.values.tolist(), strict=True))

    def __repr__(self) -> str:
        return f"{self.metric}[{self.run}] = {self.aggregate:.4f} over {len(self.values)} queries"


def aggregate(values: np.ndarray, how: str) -> float:
    """A metric's declared aggregate: arithmetic mean, geometric mean (floored) or sum."""
    if how == "sum":
        return float(values.sum())
    if len(values) == 0:
        return float("nan")
    if how == "gmean":
        return float(np.exp(np.mean(np.log(np.maximum(values, GM_FLOOR)))))
    return float(values.mean())


@dataclass
class Results:
    """Per-query values for every run x metric, aggregates, conventions and provenance."""

    runs: list[str]
    metrics: list[Metric]
    conventions: Conventions
    data: dict[tuple[str, str], MetricValues]
    warnings: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def metric_names(self) -> list[str]:
        return [str(m) for m in self.metrics]

    def _label(self, metric: str | Metric) -> str:
        if isinstance(metric, Metric):
            return str(metric)
        if metric in self.metric_names:
            return metric
        parsed = parse_all(metric)
        if len(parsed) != 1 or str(parsed[0]) not in self.metric_names:
            raise KeyError(f"metric {metric!r} was not evaluated; have {self.metric_names}")
        return str(parsed[0])

    def __getitem__(self, key: tuple[str, str | Metric]) -> MetricValues:
        run, metric = key
        if run not in self.runs:
            raise KeyError(f"run {run!r} was not evaluated; have {self.runs}")
        return self.data[(run, self._label(metric))]

    def per_query(self, run: str, metric: str | Metric) -> dict[str, float]:
        """``{query: value}`` for one run and metric."""
        return self[run, metric].as_dict()

    def aggregate(self, run: str, metric: str | Metric) -> float:
        return self[run, metric].aggregate

    def mean(self) -> dict[str, dict[str, float]]:
        """``{run: {metric: aggregate}}``. Each metric aggregates by its declaration: the
        arithmetic mean, except counts (summed, as trec_eval) and gm_map (geometric mean)."""
        return {r: {m: self.data[(r, m)].aggregate for m in self.metric_names} for r in self.runs}

    def records(self, per_query: bool = False) -> Iterator[dict[str, Any]]:
        """Rows ``{run, metric, query, value}``; ``query`` is ``"all"`` for the aggregate."""
        for r in self.runs:
            for m in self.metric_names:
                mv = self.data[(r, m)]
                if per_query:
                    for q, v in zip(mv.queries.tolist(), mv.values.tolist(), strict=True):
                        yield {"run": r, "metric": m, "query": q, "value": v}
                yield {"run": r, "metric": m, "query": "all", "value": mv.aggregate}

    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        """``{run: {metric: aggregate}}``, or with ``per_query=True`` the pytrec_eval layout
        ``{run: {query: {metric: value}}}``."""
        if not per_query:
            return self.mean()
        out: dict[str, dict[str, dict[str, float]]] = {}
        for r in self.runs:
            per: dict[str, dict[str, float]] = {}
            for m in self.metric_names:
                for q, v in self.data[(r, m)].as_dict().items():
                    per.setdefault(q, {})[m] = v
            out[r] = per
        return out

    def to_arrow(self, per_query: bool = True) -> pa.Table:
        rows = list(self.records(per_query=per_query))
        if per_query:
            rows = [x for x in rows if x["query"] != "all"]
        return pa.table(
            {
                "run": [x["run"] for x in rows],
                "metric": [x["metric"] for x in rows],
                "query": [x["query"] for x in rows],
                "value": pa.array([x["value"] for x in rows], pa.float64()),
            }
        )

    def to_pandas(self, per_query: bool = True) -> pd.DataFrame:
        """Long table (run, metric, query, value): per-query rows, or the aggregates."""
        from ._optional import require

        require("pandas")
        return self.to_arrow(per_query=per_query).to_pandas()

    def __repr__(self) -> str:
        lines = [
            f"Results({len(self.runs)} run(s) x {len(self.metrics)} metric(s); "
            f"conventions {self.conventions.to_dict()})"
        ]
        for r in self.runs:
            vals = ", ".join(f"{m}={self.data[(r, m)].aggregate:.4f}" for m in self.metric_names)
            lines.append(f"  {r}: {vals}")
        return "\n".join(lines)


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


def evaluate(
    qrels: Qrels,
    runs: Run | Sequence[Run] | Mapping[str, Run],
    metrics: str | Metric | Sequence[str | Metric],
    **conventions: Any,
) -> Results:
    """Evaluate runs against qrels.

    ``conventions``: ``ties`` ("docno" | "input" | "average"), ``missing`` ("zero" | "skip" |
    "error"), ``no_relevant`` ("zero" | "one" | "skip" | "nan"), ``judged_only`` (bool).
    See :mod:`assay.conventions`.
    """
    if not isinstance(qrels, Qrels):
        raise InputError(f"qrels must be an assay.Qrels, got {type(qrels).__name__}")
    conv = Conventions.from_kwargs(**conventions)
    metric_list = parse_all(metrics)  # type: ignore[arg-type]
    if conv.ties == "average":
        bad = [str(m) for m in metric_list if not m.spec.average_ties]
        if bad:
            raise ConventionError(
                f"ties='average' has no closed form for {', '.join(bad)}; "
                "use ties='docno' or ties='input' for these metrics"
            )
    run_list = _as_runs(runs)
    data: dict[tuple[str, str], MetricValues] = {}
    warnings: list[str] = []
    for run in run_list:
        ranked, info = rank(qrels, run, conv)
        if info.unknown_queries:
            warnings.append(
                f"run {run.name!r}: {len(info.unknown_queries)} quer"
                f"{'y' if len(info.unknown_queries) == 1 else 'ies'} not in the qrels ignored "
                f"({info.unknown_rows} results), e.g. {info.unknown_queries[0]!r}"
            )
        if info.missing_queries and conv.missing != "error":
            verb = "scored 0" if conv.missing == "zero" else "skipped"
            warnings.append(
                f"run {run.name!r}: {len(info.missing_queries)} qrels quer"
                f"{'y' if len(info.missing_queries) == 1 else 'ies'} without results {verb} "
                f"(missing={conv.missing!r}), e.g. {info.missing_queries[0]!r}"
            )
        if info.dropped_unjudged:
            warnings.append(
                f"run {run.name!r}: {info.dropped_unjudged} unjudged results "
                "dropped before ranking (judged_only=True)"
            )
        for m in metric_list:
            values = np.asarray(m.spec.kernel(ranked, m.k, **m.kwargs()), dtype=np.float64)
            undefined = np.isnan(values)
            if conv.missing == "zero" and not m.spec.from_qrels:
                values = np.where(info.missing_mask & ~undefined, 0.0, values)
            n_undef = int(undefined.sum())
            queries = ranked.query_ids
            if n_undef:
                if conv.no_relevant == "zero":
                    values = np.where(undefined, 0.0, values)
                elif conv.no_relevant == "one":
                    values = np.where(undefined, 1.0, values)
                elif conv.no_relevant == "skip":
                    values, queries = values[~undefined], queries[~undefined]
            agg = aggregate(values, m.spec.aggregate)
            data[(run.name, str(m))] = MetricValues(
                run.name,
                str(m),
                queries,
                values,
                agg,
                undefined=n_undef,
                skipped=n_undef if conv.no_relevant == "skip" else 0,
            )
        for m in metric_list:
            mv = data[(run.name, str(m))]
            if mv.undefined and conv.no_relevant != "zero":
                warnings.append(
                    f"run {run.name!r}: {m!s} undefined for {mv.undefined} "
                    f"quer{'y' if mv.undefined == 1 else 'ies'} "
                    f"(no_relevant={conv.no_relevant!r})"
                )
    provenance = {
        "assay_version": __version__,
        "conventions": conv.to_dict(),
        "metrics": [str(m) for m in metric_list],
        "qrels": {"source": qrels.source, "queries": qrels.n_queries, "judgments": len(qrels)},
        "runs": {
            r.name: {"source": r.source, "queries": r.n_queries, "results": len(r)}
            for r in run_list
        },
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pyarrow": pa.__version__,
    }
    return Results([r.name for r in run_list], metric_list, conv, data, warnings, provenance)
