"""Seeded synthetic collections: graded qrels and runs of controlled quality.

Each query has ``docs_per_query`` candidate documents with grades drawn from ``grade_probs``.
A run scores every candidate as ``grade + noise * N(0, 1)`` (and keeps the top ``depth``), so a
smaller ``noise`` is a better system. Everything is vectorised: millions of rows in a second.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import _options as opt
from .data import Qrels, Run

__all__ = ["synthetic"]


def _ids(prefix: str, numbers: np.ndarray) -> pa.Array:
    return pc.binary_join_element_wise(prefix, pc.cast(pa.array(numbers), pa.string()), "")


def synthetic(
    *,
    n_queries: int = 50,
    docs_per_query: int = 100,
    noise: Sequence[float] = (0.5, 1.0, 2.0),
    run_names: Sequence[str] | None = None,
    grade_probs: Sequence[float] = (0.6, 0.2, 0.12, 0.06, 0.02),
    judged_fraction: float = 1.0,
    depth: int | None = None,
    score_decimals: int | None = 4,
    seed: int = 0,
) -> tuple[Qrels, dict[str, Run]]:
    """A seeded collection: ``(qrels, {name: run})`` with one run per ``noise`` level.

    ``judged_fraction`` < 1 leaves a random share of candidates out of the qrels (unjudged);
    ``score_decimals`` rounds scores (creating ties, as real systems do); ``depth`` truncates
    each ranked list.
    """
    nq = opt.integer(n_queries, "n_queries", minimum=1)
    nd = opt.integer(docs_per_query, "docs_per_query", minimum=1)
    judged_fraction = opt.number(judged_fraction, "judged_fraction", low=0, high=1, low_open=True)
    depth = opt.depth(depth)
    if score_decimals is not None:
        score_decimals = opt.integer(score_decimals, "score_decimals", minimum=0)
    sigmas = [opt.number(x, "noise", low=0) for x in noise]
    names = (
        list(run_names) if run_names is not None else [f"run{i + 1}" for i in range(len(sigmas))]
    )
    if not sigmas or len(names) != len(sigmas):
        raise opt.OptionError(
            f"run_names must name one run per noise level ({len(sigmas)}), got {len(names)}",
            option="run_names",
        )
    probs = np.array([opt.number(p, "grade_probs", low=0) for p in grade_probs], dtype=np.float64)
    if probs.size == 0 or probs.sum() <= 0:
        raise opt.OptionError("grade_probs must hold a positive probability", option="grade_probs")
    probs = probs / probs.sum()
    rng = np.random.default_rng(opt.seed(seed))
    n = nq * nd
    grades = rng.choice(len(probs), size=n, p=probs).astype(np.int32)
    qnum = np.repeat(np.arange(1, nq + 1), nd)
    dnum = np.arange(n)
    qids = _ids("q", qnum)
    dids = _ids("d", dnum)
    judged = rng.random(n) < judged_fraction if judged_fraction < 1 else np.ones(n, dtype=bool)
    qrels = Qrels.from_columns(
        qids.filter(pa.array(judged)),
        dids.filter(pa.array(judged)),
        grades[judged],
        source="<synthetic>",
    )
    runs: dict[str, Run] = {}
    for name, sigma in zip(names, sigmas, strict=True):
        scores = grades + sigma * rng.standard_normal(n)
        if score_decimals is not None:
            scores = np.round(scores, score_decimals)
        keep = np.ones(n, dtype=bool)
        if depth is not None and depth < nd:
            # Keep each query's top `depth` by score.
            order = np.lexsort((-scores, qnum))
            pos = np.arange(n) - np.repeat(np.arange(nq) * nd, nd)
            keep = np.zeros(n, dtype=bool)
            keep[order[pos < depth]] = True
        runs[name] = Run.from_columns(
            qids.filter(pa.array(keep)),
            dids.filter(pa.array(keep)),
            scores[keep],
            name=name,
            source="<synthetic>",
        )
    return qrels, runs
