"""Choosing fusion parameters (run weights, the RRF constant) that maximise a metric on
training queries."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._options import choice, integer, number
from .._options import seed as check_seed
from .._result import Result, provenance
from ..errors import EmptyInputError, OptionError
from .methods import (
    Stacked,
    check_depth,
    check_method,
    check_norm,
    check_rrf_k,
    fuse,
    fused_scores,
    stack,
)
from .options import FusionMethod, Normalization, Search

if TYPE_CHECKING:
    import pyarrow as pa

    from ..data import Qrels, Run

__all__ = ["FusionOptimum", "optimize_fusion"]

#: The RRF constants tried by a grid search.
RRF_KS = (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)
_DEFAULT_RRF_K = 60.0


@dataclass(frozen=True, eq=False, repr=False)
class FusionOptimum(Result):
    """The fusion parameters that maximise a metric, and the run fused with them.

    Built by :func:`optimize_fusion`. ``records()``: one row per trial, in the order tried
    (``trial``, ``rrf_k``, the weights as ``weight_1`` ... per run, ``score``).

    Parameters
    ----------
    method, norm : str
        The fusion method and the score normalisation.
    metric : str
        The metric maximised.
    weights : list of float or None
        The chosen run weights (None for ``rrf``, which searches ``rrf_k`` only).
    rrf_k : float
        The chosen RRF constant (60 for the other methods).
    score : float
        The mean ``metric`` of the fused run on the training queries.
    run : Run
        The runs fused with the chosen parameters, over all queries.
    trials : list of dict
        Every candidate tried, in order: ``{"weights", "rrf_k", "score"}``.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay import Qrels, Run
    >>> from assay.fusion import optimize_fusion
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d1": 1.0, "d2": 2.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0}, "q2": {"d1": 2.0, "d2": 1.0}}, name="b")
    >>> q = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 0, "d2": 1}})
    >>> best = optimize_fusion(q, [a, b], method="rrf", metric="P@1", rrf_ks=[10, 60])
    >>> best.weights, best.rrf_k, best.score
    (None, 10.0, 0.5)
    >>> best.records()
    [{'trial': 1, 'rrf_k': 10.0, 'score': 0.5}, {'trial': 2, 'rrf_k': 60.0, 'score': 0.5}]
    """

    method: str
    norm: str
    metric: str
    weights: list[float] | None
    rrf_k: float
    score: float  # mean metric on the training queries
    run: Run  # the fused run with the chosen parameters (all queries)
    trials: list[dict[str, Any]] = field(default_factory=list)  # Any: weights, rrf_k, score
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def records(self) -> list[dict[str, Any]]:
        rows = []
        for i, trial in enumerate(self.trials):
            row: dict[str, Any] = {"trial": i + 1, "rrf_k": trial["rrf_k"]}
            for j, w in enumerate(trial["weights"] or []):
                row[f"weight_{j + 1}"] = w
            row["score"] = trial["score"]
            rows.append(row)
        return rows


def _simplex(n: int, step: float) -> list[tuple[float, ...]]:
    m = round(1 / step)
    out = []
    for c in itertools.product(range(m + 1), repeat=n - 1):
        if sum(c) <= m:
            out.append(tuple(x / m for x in (*c, m - sum(c))))
    return out


def _candidates(
    method: str,
    n_runs: int,
    search: str,
    rng: np.random.Generator,
    *,
    n_iter: int,
    step: float,
    rrf_ks: list[float],
) -> list[tuple[list[float] | None, float]]:
    """The (weights, rrf_k) pairs to try, in order."""
    if method == "rrf":
        k_values = rrf_ks if search == "grid" else rng.uniform(1, 100, n_iter).tolist()
        return [(None, float(x)) for x in k_values]
    if search == "grid":
        ws = [list(x) for x in _simplex(n_runs, step)]
    else:
        ws = rng.dirichlet(np.ones(n_runs), n_iter).tolist()
    return [(x, _DEFAULT_RRF_K) for x in ws]


def _trials(
    train: Qrels,
    st: Stacked,
    candidates: list[tuple[list[float] | None, float]],
    *,
    method: str,
    norm: str,
    metric: str,
    depth: int | None,
) -> list[dict[str, Any]]:
    """Every candidate's mean ``metric`` on ``train``."""
    from ..data import Run
    from ..evaluation import evaluate

    trials = []
    qids, query_codes, rows = _training_groups(st, train)
    for wts, kv in candidates:
        w = np.ones(st.n_runs) if wts is None else np.asarray(wts)
        fused = fused_scores(st, method, norm, w, kv, 1.0)[rows]
        run = Run.from_codes(
            qids, st.docs, query_codes, st.g_d[rows], fused, name="fused", depth=depth
        )
        score = evaluate(train, run, metric).aggregate("fused", metric)
        trials.append({"weights": wts, "rrf_k": kv, "score": score})
    return trials


def _training_groups(st: Stacked, train: Qrels) -> tuple[pa.Array, np.ndarray, np.ndarray]:
    """The query ids of ``train``'s queries the runs hold, each group's code into them, and
    which groups those are. Trials score the training queries only: fusion is per query, so
    leaving the others out changes no training score, and a query held out of training is not
    then said, once per trial, to be missing from the qrels."""
    import pyarrow.compute as pc

    from .._arrow import from_np, to_np

    judged = to_np(pc.is_in(st.qids, value_set=train.query_ids), fill=False).astype(bool)
    rows = np.flatnonzero(judged[st.g_q])
    renumber = np.cumsum(judged) - 1
    return st.qids.filter(from_np(judged)), renumber[st.g_q[rows]], rows


def _check_rrf_ks(rrf_ks: Any) -> list[float]:
    values = [check_rrf_k(x, "rrf_ks") for x in rrf_ks]
    if not values:
        raise OptionError("rrf_ks must hold at least one value", option="rrf_ks")
    return values


def optimize_fusion(
    qrels: Qrels,
    runs: Sequence[Run] | Mapping[str, Run],
    *,
    method: FusionMethod | str = "wsum",
    metric: str = "ndcg@10",
    norm: Normalization | str | None = "min-max",
    search: Search = "grid",
    n_iter: int = 50,
    seed: int = 0,
    train_queries: Sequence[str] | None = None,
    step: float = 0.1,
    rrf_ks: Sequence[float] = RRF_KS,
    depth: int | None = None,
) -> FusionOptimum:
    """Choose fusion parameters maximising ``metric`` (mean over ``train_queries``, default
    all qrels queries) of the fused run, by :func:`assay.evaluate`.

    Searched: for ``rrf``, ``rrf_k`` (``grid``: the values ``rrf_ks``; ``random``: ``n_iter``
    draws uniform on [1, 100]); for every other method the run weights (``grid``: the simplex
    with step ``step``, in (0, 1]; ``random``: ``n_iter`` Dirichlet(1) draws). Ties keep the
    first candidate (grid order, or draw order); ``random`` is seeded by ``seed``. The
    returned run is fused with the chosen parameters over all queries. Bad options raise
    :class:`~assay.errors.OptionError`.

    Parameters
    ----------
    qrels : Qrels
        The judgments the metric is computed with.
    runs : sequence of Run or mapping of str to Run
        The runs to fuse.
    method : str
        The fusion method (:data:`FUSION_METHODS`); ``rrf`` searches ``rrf_k``, every other
        method the run weights.
    metric : str
        The metric maximised, e.g. ``"ndcg@10"``.
    norm : str or None
        The per-query score normalisation (:data:`NORMS`).
    search : {"grid", "random"}
        A grid of candidates or ``n_iter`` random draws.
    n_iter : int
        The number of random draws (``search="random"``).
    seed : int
        The seed of the random draws.
    train_queries : sequence of str, optional
        The queries the metric is averaged over (default: every qrels query).
    step : float
        The step of the weight grid, in (0, 1].
    rrf_ks : sequence of float
        The RRF constants of the grid (``method="rrf"``).
    depth : int, optional
        Keep the top ``depth`` documents of each fused query.

    Returns
    -------
    FusionOptimum
        The chosen weights (or ``rrf_k``), the score reached and the fused run.

    Examples
    --------
    >>> from assay import Qrels, Run
    >>> from assay.fusion import optimize_fusion
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d1": 1.0, "d2": 2.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0}, "q2": {"d1": 2.0, "d2": 1.0}}, name="b")
    >>> q = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 0, "d2": 1}})
    >>> best = optimize_fusion(q, [a, b], metric="P@1", step=0.5)
    >>> best.weights, best.score
    ([1.0, 0.0], 1.0)
    """
    m, nm, depth = check_method(method), check_norm(norm), check_depth(depth)
    search = choice(search, Search, "search")
    n_iter, seed = integer(n_iter, "n_iter", minimum=1), check_seed(seed)
    step = number(step, "step", low=0, high=1, low_open=True)
    ks = _check_rrf_ks(rrf_ks)
    run_list = list(runs.values()) if isinstance(runs, Mapping) else list(runs)
    st = stack(run_list)
    train = qrels if train_queries is None else qrels.restrict(train_queries)
    if len(train) == 0:
        raise EmptyInputError("no training queries with judgments")
    rng = np.random.default_rng(seed)
    candidates = _candidates(m, st.n_runs, search, rng, n_iter=n_iter, step=step, rrf_ks=ks)
    trials = _trials(train, st, candidates, method=m, norm=nm, metric=metric, depth=depth)
    best = max(range(len(trials)), key=lambda i: (trials[i]["score"], -i))
    wts, kv, score = trials[best]["weights"], trials[best]["rrf_k"], trials[best]["score"]
    run = fuse(run_list, method=m, norm=nm, weights=wts, rrf_k=kv, depth=depth, name=f"{m}-opt")
    settings = provenance(
        method=m,
        norm=nm,
        metric=metric,
        search=search,
        n_iter=n_iter,
        seed=seed,
        step=step,
        rrf_ks=ks,
        depth=depth,
        train_queries=None if train_queries is None else list(train_queries),
    )
    return FusionOptimum(m, nm, metric, wts, kv, score, run, trials, settings)
