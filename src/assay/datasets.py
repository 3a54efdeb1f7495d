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
from .errors import OptionError

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

    Each query has ``docs_per_query`` candidate documents with grades drawn from
    ``grade_probs``; a run scores every candidate as ``grade + noise * N(0, 1)``, so a smaller
    ``noise`` is a better system.

    Parameters
    ----------
    n_queries : int, default 50
        Queries, named "q1", "q2", ...
    docs_per_query : int, default 100
        Candidate documents of each query (named "d0", "d1", ... across the collection).
    noise : sequence of float, default (0.5, 1.0, 2.0)
        Standard deviation of each run's noise, one run per value (≥ 0).
    run_names : sequence of str, optional
        The runs' names, one per ``noise`` level; default "run1", "run2", ...
    grade_probs : sequence of float, default (0.6, 0.2, 0.12, 0.06, 0.02)
        Relative probabilities of grades 0, 1, 2, ... (normalised to sum to 1).
    judged_fraction : float, default 1.0
        Share of candidates judged, in (0, 1]; the others are left out of the qrels.
    depth : int, optional
        Keep each run's top ``depth`` documents per query.
    score_decimals : int or None, default 4
        Round scores to this many decimals (creating ties, as real systems do); None: no
        rounding.
    seed : int, default 0
        Seed of the grades, the judged share and the noise.

    Returns
    -------
    tuple
        ``(qrels, runs)``: a :class:`~assay.data.Qrels` and a dict name → :class:`~assay.data.Run`.

    Examples
    --------
    >>> from assay import datasets, evaluate
    >>> qrels, runs = datasets.synthetic(n_queries=20, docs_per_query=10, seed=0)
    >>> qrels.n_queries, len(qrels), list(runs)
    (20, 200, ['run1', 'run2', 'run3'])
    >>> means = evaluate(qrels, runs, "ndcg@10").mean()
    >>> print({name: round(m["ndcg@10"], 4) for name, m in means.items()})
    {'run1': 0.977, 'run2': 0.9389, 'run3': 0.8286}
    >>> _, small = datasets.synthetic(n_queries=5, noise=[1.0], run_names=["bm25"], depth=3)
    >>> len(small["bm25"])
    15
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
        raise OptionError(
            f"run_names must name one run per noise level ({len(sigmas)}), got {len(names)}",
            option="run_names",
        )
    probs = np.array([opt.number(p, "grade_probs", low=0) for p in grade_probs], dtype=np.float64)
    if probs.size == 0 or probs.sum() <= 0:
        raise OptionError("grade_probs must hold a positive probability", option="grade_probs")
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
