"""Topic-by-run score matrices, the input of discriminative power and topic-set size design.

Both take either the :class:`~assay.results.Results` of :func:`assay.evaluate` or a mapping
metric → (mapping run → per-topic vector, or an (n_topics, n_runs) array). Every run of one
metric must have a value for the same topics: a topic one run lacks is an error naming it,
never a silently shorter comparison.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, shown
from ..results import Results

__all__ = ["ScoreMatrix", "score_matrices"]


@dataclass(frozen=True)
class ScoreMatrix:
    """One metric: ``values`` (n_topics, n_runs), the run names and the topic ids."""

    metric: str
    runs: tuple[str, ...]
    topics: tuple[str, ...]
    values: np.ndarray


def score_matrices(
    scores: Results | Mapping[str, Any], where: str, *, min_runs: int = 2, min_topics: int = 2
) -> list[ScoreMatrix]:
    """The score matrix of every metric, checked: finite values, ``min_runs`` runs and
    ``min_topics`` topics at least."""
    if isinstance(scores, Results):
        out = [_from_results(scores, m, where) for m in scores.metric_names]
    elif isinstance(scores, Mapping):
        if not scores:
            raise InputError(f"{where}: no metric given")
        out = [_from_mapping(str(m), v, where) for m, v in scores.items()]
    else:
        raise InputError(
            f"{where}: scores must be assay.evaluate's Results or a mapping metric -> "
            f"(mapping run -> per-topic values, or an (n_topics, n_runs) array); "
            f"got {type(scores).__name__}"
        )
    for s in out:
        n, k = s.values.shape
        if k < min_runs:
            raise InputError(f"{where}: {s.metric}: needs at least {min_runs} runs (got {k})")
        if n < min_topics:
            raise InputError(f"{where}: {s.metric}: needs at least {min_topics} topics (got {n})")
        if not np.isfinite(s.values).all():
            raise InputError(
                f"{where}: {s.metric}: per-topic values must be finite (NaN or inf found; "
                "evaluate with no_relevant='zero' or 'skip')"
            )
    return out


def _from_results(res: Results, metric: str, where: str) -> ScoreMatrix:
    columns = [res[r, metric] for r in res.runs]
    topics = [str(q) for q in columns[0].queries]
    for run, col in zip(res.runs, columns, strict=True):
        other = [str(q) for q in col.queries]
        if other != topics:
            missing = sorted(set(topics) ^ set(other))
            raise InputError(
                f"{where}: {metric}: runs {res.runs[0]!r} and {run!r} have values for "
                f"different topics (e.g. {', '.join(shown(t) for t in missing[:3])}); "
                "evaluate with missing='zero'"
            )
    matrix = np.column_stack([np.asarray(c.values, dtype=np.float64) for c in columns])
    return ScoreMatrix(metric, tuple(res.runs), tuple(topics), matrix)


def _from_mapping(metric: str, value: Any, where: str) -> ScoreMatrix:
    if isinstance(value, Mapping):
        runs = [str(r) for r in value]
        cols = [np.asarray(v, dtype=np.float64).ravel() for v in value.values()]
        if len({c.shape[0] for c in cols}) > 1:
            lengths = ", ".join(f"{r}={c.shape[0]}" for r, c in zip(runs, cols, strict=True))
            raise InputError(
                f"{where}: {metric}: runs have different numbers of topics ({lengths})"
            )
        matrix = np.column_stack(cols) if cols else np.zeros((0, 0))
    else:
        matrix = np.asarray(value, dtype=np.float64)
        if matrix.ndim != 2:
            raise InputError(
                f"{where}: {metric}: expected an (n_topics, n_runs) array, got shape {matrix.shape}"
            )
        runs = [str(i) for i in range(matrix.shape[1])]
    if len(set(runs)) != len(runs):
        raise InputError(f"{where}: {metric}: run names must be distinct")
    topics = tuple(str(i) for i in range(matrix.shape[0]))
    return ScoreMatrix(metric, tuple(runs), topics, matrix)


def pairs_of(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Column indices (i, j), i < j, of every pair of ``k`` runs, in row-major order."""
    i, j = np.triu_indices(k, 1)
    return i.astype(np.intp), j.astype(np.intp)


def names_list(values: Sequence[Any]) -> list[str]:
    return [str(v) for v in values]
