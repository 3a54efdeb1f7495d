"""Analyses of rankers on a learning-to-rank collection, RankEval's set (Lucchese et al.,
SIGIR 2017) and beyond: the per-query distribution of a metric, effectiveness by query
length and by number of relevant documents, the score distribution per relevance grade,
feature importance (LightGBM's gain and split counts, and model-agnostic permutation
importance as the drop in a metric), the metric against the number of trees, and feature
statistics. Each returns an :class:`Analysis`: rows of plain values with provenance. Metric
values come from :func:`assay.evaluate`'s kernels under the LTR conventions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import to_np
from .._options import flag, integer
from .._options import seed as check_seed
from .._result import Result, provenance
from ..evaluation import Results
from ..report.reported import Reported
from .dataset import LTR_NO_RELEVANT, LTR_TIES, LetorDataset
from .experiment import evaluate_scores
from .models import LambdaMART, Model
from .options import AnalysisKind, ModelName
from .stats import data_summary, feature_stats

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = [
    "ANALYSES",
    "Analysis",
    "analyze",
    "by_query_length",
    "by_relevant",
    "feature_importance",
    "feature_table",
    "query_distribution",
    "score_distribution",
    "trees_curve",
]

#: The analyses by name (the CLI's choices).
ANALYSES: tuple[AnalysisKind, ...] = (
    "queries",
    "length",
    "relevant",
    "scores",
    "importance",
    "trees",
    "features",
)
NDCG10 = "ndcg(gain='exp')@10"


@dataclass(frozen=True, eq=False, repr=False)
class Analysis(Result, Reported):
    """One analysis of a learning-to-rank collection: its kind, columns and rows.

    Built by :func:`analyze`. ``records()``: the rows. :meth:`report` is the table
    ``assay ltr analyze`` prints, :meth:`document` its ``--report`` content (the plot of
    trees, importance, length and relevant, and the table).

    Parameters
    ----------
    kind : str
        The analysis (``queries``, ``length``, ``relevant``, ``scores``, ``importance``,
        ``trees`` or ``features``).
    title : str
        What the table shows, in words.
    columns : tuple of str
        The columns of the rows, in order.
    rows : list of dict
        The rows, ``{column: value}``.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> res = ltr.analyze(splits, "features")
    >>> res.kind, res.title, res.columns[:3]
    ('features', 'feature statistics (test)', ('feature', 'minimum', 'maximum'))
    >>> res.rows[1]["minimum"], res.rows[1]["maximum"]
    (1.0, 1.0)
    """

    family = "ltr"

    kind: str
    title: str
    columns: tuple[str, ...]
    rows: list[dict[str, Any]]  # Any: each column's values (names, counts, scores)
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def records(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.rows]

    def report(self) -> Report:
        """Its rows under its columns (numbers to 4 decimals on display)."""
        from .report import analysis_report

        return analysis_report(self)

    def document(self) -> Document:
        """Its plot (when it has one) and its table."""
        from .document import analysis_document

        return analysis_document(self)


def _conventions() -> dict[str, Any]:
    return {"ties": LTR_TIES, "no_relevant": LTR_NO_RELEVANT}


def _per_query(
    data: LetorDataset, results: Results, run: str, metric: str
) -> tuple[np.ndarray, np.ndarray]:
    """(dataset query index, value) of one run's per-query values."""
    mv = results[run, metric]
    at = to_np(pc.index_in(pa.array(mv.queries, pa.string()), value_set=data.query_ids), fill=-1)
    return at, mv.values


def _summary(values: np.ndarray) -> dict[str, float]:
    if len(values) == 0:
        return dict.fromkeys(("mean", "std", "min", "q25", "median", "q75", "max"), float("nan"))
    q = np.quantile(values, [0.0, 0.25, 0.5, 0.75, 1.0])
    return {
        "mean": float(values.mean()),
        "std": float(values.std()),
        "min": float(q[0]),
        "q25": float(q[1]),
        "median": float(q[2]),
        "q75": float(q[3]),
        "max": float(q[4]),
    }


def query_distribution(data: LetorDataset, results: Results, metric: str = NDCG10) -> Analysis:
    """Per model: the distribution of a metric over queries (mean, sd, quartiles) and the
    share of queries at 0 and at 1 (RankEval's query-wise performance)."""
    rows = []
    for run in results.runs:
        _, v = _per_query(data, results, run, metric)
        rows.append(
            {
                "model": run,
                "metric": metric,
                "queries": len(v),
                **_summary(v),
                "at_0": float(np.mean(v == 0)) if len(v) else float("nan"),
                "at_1": float(np.mean(v == 1)) if len(v) else float("nan"),
            }
        )
    cols = (
        "model",
        "metric",
        "queries",
        "mean",
        "std",
        "min",
        "q25",
        "median",
        "q75",
        "max",
        "at_0",
        "at_1",
    )
    return Analysis("queries", f"{metric} over queries", cols, rows, _prov(data, results, metric))


def _grouped(
    data: LetorDataset,
    results: Results,
    metric: str,
    key: np.ndarray,
    edges: Sequence[int],
    what: str,
) -> list[dict[str, Any]]:
    """Mean metric per model within groups of queries by ``key`` (bins [edges[i], edges[i+1]))."""
    bins = np.asarray(edges)
    rows = []
    for run in results.runs:
        at, v = _per_query(data, results, run, metric)
        group = np.searchsorted(bins, key[at], side="right") - 1
        for g in range(len(bins) - 1):
            sel = group == g
            if not sel.any():
                continue
            hi = int(bins[g + 1]) - 1
            label = f"{int(bins[g])}" if hi == bins[g] else f"{int(bins[g])}-{hi}"
            rows.append(
                {"model": run, what: label, "queries": int(sel.sum()), "mean": float(v[sel].mean())}
            )
    return rows


def by_query_length(
    data: LetorDataset, results: Results, metric: str = NDCG10, *, groups: int = 4
) -> Analysis:
    """Mean metric per model by documents per query, in ``groups`` bins of about equal
    numbers of queries (quantiles of the query lengths)."""
    n = integer(groups, "groups", minimum=1)
    sizes = data.sizes
    edges = np.unique(np.quantile(sizes, np.linspace(0, 1, n + 1)).round().astype(np.int64))
    edges[-1] = sizes.max() + 1
    rows = _grouped(data, results, metric, sizes, list(edges), "docs_per_query")
    cols = ("model", "docs_per_query", "queries", "mean")
    return Analysis(
        "length", f"{metric} by documents per query", cols, rows, _prov(data, results, metric)
    )


def by_relevant(data: LetorDataset, results: Results, metric: str = NDCG10) -> Analysis:
    """Mean metric per model by number of relevant documents (label > 0) of the query:
    0, 1, 2-5, 6-10, 11-20, 21-50, more."""
    relevant = np.bincount(data.qidx, weights=data.labels > 0, minlength=data.n_queries).astype(
        np.int64
    )
    edges = [0, 1, 2, 6, 11, 21, 51, max(int(relevant.max()) + 1, 52)]
    rows = _grouped(data, results, metric, relevant, edges, "relevant_docs")
    cols = ("model", "relevant_docs", "queries", "mean")
    return Analysis(
        "relevant",
        f"{metric} by relevant documents per query",
        cols,
        rows,
        _prov(data, results, metric),
    )


def score_distribution(data: LetorDataset, scores: Mapping[str, np.ndarray]) -> Analysis:
    """Per model and relevance grade: count, mean, sd and quartiles of the scores (RankEval's
    document graded relevance)."""
    rows = []
    grades = data.labels
    for model, s in scores.items():
        s = np.asarray(s, dtype=np.float64)
        for g in np.unique(grades):
            v = s[grades == g]
            rows.append({"model": model, "grade": float(g), "documents": len(v), **_summary(v)})
    cols = ("model", "grade", "documents", "mean", "std", "min", "q25", "median", "q75", "max")
    return Analysis(
        "scores", "scores per relevance grade", cols, rows, provenance(data=data_summary(data))
    )


def feature_importance(
    model: Model,
    data: LetorDataset,
    *,
    metric: str = NDCG10,
    seed: int = 0,
    top: int | None = None,
    permutation: bool = True,
) -> Analysis:
    """Per feature: LightGBM's total gain and split count (for :class:`LambdaMART`), and
    permutation importance, the drop in mean ``metric`` on ``data`` when the feature's column
    is shuffled across all documents (Breiman 2001). One seeded permutation per feature, in
    feature order, so the figures do not depend on threads. Features that are constant in
    ``data`` cannot change a prediction: their drop is 0 without re-scoring. Rows are sorted
    by drop, largest first (``top`` keeps the first rows). ``permutation=False`` skips the
    permutations (one re-scoring per feature): the drops are NaN and rows are sorted by gain
    (for a :class:`LambdaMART`; else kept in feature order)."""
    rng = np.random.default_rng(check_seed(seed))
    base_scores = model.predict(data)
    base = evaluate_scores(data, {"base": base_scores}, [metric]).aggregate("base", metric)
    if flag(permutation, "permutation"):
        drops = _permutation_drops(model, data, metric, base, rng)
    else:
        drops = np.full(data.n_features, np.nan)
    gain = (
        model.importance("gain")
        if isinstance(model, LambdaMART)
        else np.full(data.n_features, np.nan)
    )
    split = (
        model.importance("split")
        if isinstance(model, LambdaMART)
        else np.full(data.n_features, np.nan)
    )
    key = drops if permutation else np.nan_to_num(gain, nan=0.0)
    order = np.argsort(-key, kind="stable")
    if top is not None:
        order = order[: integer(top, "top", minimum=1)]
    rows = [
        {
            "feature": int(j) + data.index_base,
            "permutation_drop": float(drops[j]),
            "gain": float(gain[j]),
            "split": float(split[j]),
        }
        for j in order
    ]
    prov = provenance(
        data=data_summary(data),
        model=model.name,
        metric=metric,
        seed=seed,
        permutation=permutation,
        baseline_value=base,
        **_conventions(),
    )
    return Analysis(
        "importance",
        f"feature importance ({model.name})",
        ("feature", "permutation_drop", "gain", "split"),
        rows,
        prov,
    )


def _permutation_drops(
    model: Any, data: LetorDataset, metric: str, base: float, rng: np.random.Generator
) -> np.ndarray:
    """Per feature: ``base`` minus the mean metric with the feature's column shuffled."""
    x = data.dense(np.float32)
    stats = feature_stats(data)
    varies = stats.minimum != stats.maximum
    drops = np.zeros(data.n_features)
    ev = data.evaluator(metric, ties=LTR_TIES, no_relevant=LTR_NO_RELEVANT)
    for j in range(data.n_features):
        perm = rng.permutation(data.n_docs)
        if not varies[j]:
            continue
        column = x[:, j].copy()
        x[:, j] = column[perm]
        shuffled = replace(data, features=x)
        (value,) = ev(model.predict(shuffled)).values()
        drops[j] = base - value
        x[:, j] = column
    return drops


def _only(values: Mapping[str, float]) -> float:
    (value,) = values.values()
    return value


def trees_curve(
    model: LambdaMART, splits: Mapping[str, LetorDataset], *, metric: str = NDCG10, step: int = 1
) -> Analysis:
    """``metric`` after 1, 1 + step, ... trees on each split given (e.g. vali and test),
    scored by assay's kernels from the model's predictions with that many trees; LightGBM's
    own per-tree NDCG on train and vali is in ``model.evals_result_``."""
    every = integer(step, "step", minimum=1)
    total = int(model.booster_.current_iteration())
    counts = list(range(1, total + 1, every))
    if counts[-1] != total:
        counts.append(total)
    rows = []
    for split, data in splits.items():
        ev = data.evaluator(metric, ties=LTR_TIES, no_relevant=LTR_NO_RELEVANT)
        for t in counts:
            rows.append(
                {
                    "split": split,
                    "trees": t,
                    "value": _only(ev(model.predict(data, trees=t))),
                    "best": t == model.best_iteration_,
                }
            )
    prov = provenance(
        model=model.name,
        metric=metric,
        step=every,
        trees=total,
        best_iteration=model.best_iteration_,
        **_conventions(),
    )
    return Analysis(
        "trees", f"{metric} by number of trees", ("split", "trees", "value", "best"), rows, prov
    )


def feature_table(data: LetorDataset) -> Analysis:
    """Feature statistics (:func:`~assay.ltr.stats.feature_stats`) as an analysis."""
    fs = feature_stats(data)
    cols = ("feature", "minimum", "maximum", "mean", "std", "nonzero", "non_finite")
    return Analysis(
        "features", f"feature statistics ({data.name})", cols, fs.records(), fs.provenance
    )


def _prov(data: LetorDataset, results: Results, metric: str) -> dict[str, Any]:
    return provenance(
        data=data_summary(data), metric=metric, conventions=results.conventions.to_dict()
    )


# ---------------------------------------------------------------- by name


def analyze(
    splits: Mapping[str, LetorDataset],
    kind: AnalysisKind,
    models: Sequence[ModelName] = ("linear", "lambdamart"),
    *,
    split: str = "test",
    metric: str = NDCG10,
    seed: int = 0,
    num_threads: int = 1,
    step: int = 1,
    top: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> Analysis:
    """One analysis of ``splits[split]`` by name, fitting ``models`` on ``splits["train"]``
    (early stopping on ``"vali"`` unless it is the split analysed) when it needs them.

    Parameters
    ----------
    splits
        The collection's splits (:func:`assay.ltr.load`), with a ``"train"`` split unless
        ``kind`` is ``"features"``.
    kind
        ``queries`` (per-query distribution), ``length`` / ``relevant`` (effectiveness by
        query length / relevant documents), ``scores`` (scores per grade), ``importance``
        (permutation importance of the first LambdaMART, else of the first model),
        ``trees`` (the metric against the number of trees of the first LambdaMART) or
        ``features`` (feature statistics; no model is fitted).
    models
        The models fitted, by name (:func:`assay.ltr.make_model`).
    split, metric, seed, num_threads
        The split analysed, the metric, the seed of the models and of the permutations, and
        LightGBM's threads.
    step, top
        ``trees``: evaluate every ``step`` trees; ``importance``: keep the ``top`` features.
    progress
        Called as ``progress(label, done, total)`` while models train.

    Returns
    -------
    Analysis
        Its rows; ``report()`` is the table ``assay ltr analyze`` prints.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(30, n_features=8, informative=2, seed=1)
    >>> ltr.analyze(splits, "features").kind
    'features'
    """
    from ..errors import InputError
    from .models import make_model

    if split not in splits:
        raise InputError(f"no {split} split (have {', '.join(splits)})")
    integer(step, "step", minimum=1)
    if top is not None:
        integer(top, "top", minimum=1)
    target = splits[split]
    if kind == "features":
        return feature_table(target)
    fitted = []
    for name in models:
        m = make_model(name, seed=seed, num_threads=num_threads)
        tick = None if progress is None else (lambda d, t, lab=m.name: progress(lab, d, t))
        m.fit(splits["train"], splits.get("vali") if split != "vali" else None, progress=tick)
        fitted.append(m)
    scores = {m.name: m.predict(target) for m in fitted}
    if kind == "scores":
        return score_distribution(target, scores)
    if kind in ("importance", "trees"):
        trees = [m for m in fitted if isinstance(m, LambdaMART)]
        chosen = trees[0] if trees else fitted[0]
        if kind == "importance":
            return feature_importance(chosen, target, metric=metric, seed=seed, top=top)
        if not trees:
            raise InputError("the trees analysis needs --models lambdamart")
        curve = {s: d for s, d in splits.items() if s != "train"} or {"train": splits["train"]}
        return trees_curve(trees[0], curve, metric=metric, step=step)
    res = evaluate_scores(target, scores, [metric])
    if kind == "queries":
        return query_distribution(target, res, metric)
    if kind == "length":
        return by_query_length(target, res, metric)
    return by_relevant(target, res, metric)
