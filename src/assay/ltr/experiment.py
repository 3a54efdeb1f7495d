"""Evaluating and comparing rankers on a learning-to-rank collection, through assay's own
metric kernels (:func:`assay.evaluate`, :func:`assay.compare`) with the community's
conventions stated: exponential gain, input-order ties, and LightGBM's NDCG of 1 for a
query without a relevant document (``no_relevant="one"``), next to trec_eval's 0.

:func:`run_experiment` is the whole notebook in one call: fit every model (several seeds if
asked) on train, early-stop on vali, evaluate and compare on test, and report the spread of
each model's scores over seeds (Reimers & Gurevych 2017).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .._options import (
    CIMethod,
    CompareTest,
    Correction,
    NoRelevant,
    ShortQueries,
    Ties,
    choice,
    integer,
)
from .._options import alpha as check_alpha
from .._options import n_resamples as check_resamples
from .._options import seed as check_seed
from .._result import Result, provenance
from ..comparison import Comparison, compare
from ..errors import InputError, OptionError
from ..evaluation import Results
from ..ranking.seed_comparison import SeedComparison
from ..report.reported import Reported
from .dataset import LTR_NO_RELEVANT, LTR_TIES, LetorDataset, normalize
from .models import Model, make_model, with_seed
from .options import FeatureNorm, ModelName
from .seeds import SeedSpread, fit_seeds, seed_comparisons, spread
from .stats import data_summary

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = [
    "LTR_METRICS",
    "Experiment",
    "compare_scores",
    "evaluate_scores",
    "run_experiment",
]

#: NDCG@1/3/5/10 with exponential gain, MAP, ERR@10, MRR, discordant pairs and pairwise
#: accuracy. Not MSE: a ranker's scores are only an order (LambdaMART's are on no label scale),
#: so their squared error against the grades says nothing of the ranking and a comparison
#: "found" LambdaMART significantly worse; ``metrics=[..., "mse"]`` still asks for it.
LTR_METRICS: tuple[str, ...] = (
    "ndcg(gain='exp')@1",
    "ndcg(gain='exp')@3",
    "ndcg(gain='exp')@5",
    "ndcg(gain='exp')@10",
    "AP",
    "err@10",
    "RR",
    "discordant_pairs",
    "pairwise_accuracy",
)


def _runs(data: LetorDataset, scores: Mapping[str, ArrayLike]) -> list[Any]:
    if not scores:
        raise InputError("no model scores to evaluate")
    return [data.run(s, name) for name, s in scores.items()]


def evaluate_scores(
    data: LetorDataset,
    scores: Mapping[str, ArrayLike],
    metrics: Sequence[str] = LTR_METRICS,
    *,
    ties: Ties = LTR_TIES,
    no_relevant: NoRelevant = LTR_NO_RELEVANT,
    short_queries: ShortQueries = "score",
) -> Results:
    """Per-query values of every model's scores on ``data``'s labels, through
    :func:`assay.evaluate` (every query has every document, so ``missing`` never applies).

    Parameters
    ----------
    data
        The split the scores are for (its labels judge them).
    scores
        ``{model name: one score per row of data}``.
    metrics
        Metric names (default :data:`LTR_METRICS`).
    ties, no_relevant, short_queries
        The conventions (LightGBM's by default: input-order ties, NDCG 1 for a query
        without a relevant document).

    Returns
    -------
    Results
        One run per model.

    Examples
    --------
    >>> from assay import ltr
    >>> test = ltr.mslr_like(20, n_features=8, informative=2, seed=1)
    >>> res = ltr.evaluate_scores(test, {"labels": test.labels}, ["ndcg(gain='exp')@10"])
    >>> res.aggregate("labels", "ndcg(gain='exp')@10")
    1.0
    """
    if not scores:
        raise InputError("no model scores to evaluate")
    ev = data.evaluator(metrics, ties=ties, no_relevant=no_relevant, short_queries=short_queries)
    return ev.evaluate({name: data.model_scores(s) for name, s in scores.items()})


def compare_scores(
    data: LetorDataset,
    scores: Mapping[str, ArrayLike],
    metrics: Sequence[str] = LTR_METRICS,
    *,
    baseline: str | None = None,
    test: CompareTest = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    ci_method: CIMethod = "bca",
    ties: Ties = LTR_TIES,
    no_relevant: NoRelevant = LTR_NO_RELEVANT,
    short_queries: ShortQueries = "score",
) -> Comparison:
    """Paired comparison of models' scores on ``data`` through :func:`assay.compare`.

    Parameters
    ----------
    data
        The split the scores are for (its labels judge them).
    scores
        ``{model name: one score per row of data}``; the first is the baseline unless
        ``baseline`` names another.
    metrics
        Metric names (default :data:`LTR_METRICS`).
    baseline, test, n_resamples, seed, correction, alpha, ci_method
        As :func:`assay.compare`.
    ties, no_relevant, short_queries
        The conventions (LightGBM's by default).

    Returns
    -------
    Comparison
        The models' means, confidence intervals and paired tests against the baseline.

    Examples
    --------
    >>> from assay import ltr
    >>> test = ltr.mslr_like(30, n_features=8, informative=2, seed=1)
    >>> scores = {"labels": test.labels, "reversed": -test.labels}
    >>> cmp = ltr.compare_scores(test, scores, ["ndcg(gain='exp')@10"], n_resamples=200)
    >>> cmp.pair("reversed", "labels", "ndcg(gain='exp')@10").significant
    True
    """
    return compare(
        data.qrels(),
        _runs(data, scores),
        list(metrics),
        baseline=baseline,
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        correction=correction,
        alpha=alpha,
        ci_method=ci_method,
        ties=ties,
        missing="error",
        no_relevant=no_relevant,
        short_queries=short_queries,
    )


# ---------------------------------------------------------------- experiment


@dataclass(frozen=True, eq=False, repr=False)
class Experiment(Result, Reported):
    """Models fitted on train and compared on the evaluation split.

    ``comparison`` compares the models' first-seed runs (against the baseline);
    ``spread`` gives each model's score distribution over seeds; ``trec_zero`` re-evaluates
    the normalised metrics with trec_eval's ``no_relevant="zero"``; ``models`` holds the
    fitted models (per model, one per seed) and ``scores`` their scores on the evaluation
    split. ``splits`` are the data the models were fitted and evaluated on (normalised when
    asked), which :meth:`document` analyses; they are no part of the records.

    :meth:`report` is the table ``assay ltr run`` prints, :meth:`document` the content of
    its ``--report`` page and :meth:`~assay.report.Reported.html` the page itself.

    Parameters
    ----------
    split : str
        The split the models were evaluated on (``test``, else ``vali``).
    comparison : Comparison
        The comparison of the models' first-seed runs against the baseline.
    spread : list of SeedSpread
        Each model's score distribution over seeds, per metric.
    trec_zero : Results
        The normalised metrics evaluated with trec_eval's ``no_relevant="zero"``.
    models : mapping of str to list of Model
        The fitted models, per model one per seed.
    scores : mapping of str to list of numpy.ndarray
        Their scores on the evaluation split, per model one array per seed.
    seeds : list of int
        The seeds the models were fitted with.
    no_relevant_queries : int
        The evaluation split's queries without a relevant document.
    provenance : mapping
        The settings that produced the result.
    splits : mapping of str to LetorDataset
        The data the models were fitted and evaluated on.
    seed_comparisons : mapping of str to SeedComparison
        With several seeds, per metric: every model's score distribution over seeds and,
        against the baseline, ASO's ε_min both ways and the paired test of the seed-averaged
        per-query scores (:func:`assay.compare_seeds`); empty with one seed.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(40, n_features=8, informative=2, seed=1)
    >>> exp = ltr.run_experiment(splits, ["linear", "random"], seeds=2, metrics=["ndcg@10"],
    ...                          n_resamples=200)
    >>> exp.split, exp.seeds, list(exp.models)
    ('test', [0, 1], ['linear', 'random'])
    >>> round(exp.comparison.pair("random", "linear", "ndcg@10").diff, 4)
    -0.2082
    """

    family = "ltr"

    split: str
    comparison: Comparison
    spread: list[SeedSpread]
    trec_zero: Results
    models: Mapping[str, list[Model]]
    scores: Mapping[str, list[np.ndarray]]
    seeds: list[int]
    no_relevant_queries: int
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    splits: Mapping[str, LetorDataset] = field(default_factory=dict, repr=False)
    seed_comparisons: Mapping[str, SeedComparison] = field(default_factory=dict)

    @property
    def results(self) -> Results:
        """The per-query values of the compared runs (the comparison's)."""
        return self.comparison.results

    def __repr__(self) -> str:
        # The headline numbers: each model's mean and, against the baseline, the difference
        # and its corrected p-value, for the first metrics (one screen).
        from .._result import REPR_LIMIT

        cmp = self.comparison
        base = str(cmp.baseline or cmp.runs[0])
        parts = []
        for m in cmp.metrics[:4]:
            models = []
            for r in cmp.runs:
                mean = f"{r} {cmp.summary(r, m).mean:.4f}"
                if r != base:
                    p = cmp.pair(r, base, m)
                    mean += f" ({p.diff:+.4f}, p={p.p_adjusted:.3g})"
                models.append(mean)
            parts.append(f"{m}: {', '.join(models)}")
        more = f", … {len(cmp.metrics) - 4} more metrics" if len(cmp.metrics) > 4 else ""
        text = (
            f"Experiment(split={self.split!r}, baseline={base!r}, seeds={self.seeds!r}, "
            f"{'; '.join(parts)}{more})"
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 1] + "…"

    def report(self) -> Report:
        """The models x metrics table: means with confidence intervals and ▲/▼ against the
        baseline, the differences with their corrected p-values, and, with several seeds,
        each model's mean ± sd over seeds; the legend states the conventions."""
        from .report import experiment_report

        return experiment_report(self)

    def document(self) -> Document:
        """The report's content: the table, per-query plots, and (with the ``splits``) the
        metric against trees and feature importance of the first LambdaMART,
        effectiveness by query length and precision-recall curves."""
        import warnings

        from ..errors import AssayWarning
        from .document import experiment_document, report_analyses, report_curves

        if not self.splits:
            return experiment_document(self)
        with warnings.catch_warnings():
            # The undefined queries of these evaluations were reported with the experiment.
            warnings.simplefilter("ignore", AssayWarning)
            return experiment_document(
                self,
                analyses=report_analyses(self, self.splits),
                curves=report_curves(self, self.splits),
            )

    def records(self) -> list[dict[str, Any]]:
        """Comparison rows (``kind`` "mean" and "difference") and, with several seeds, spread
        rows (``kind`` "seeds")."""
        rows = []
        for r in self.comparison.records():
            kind = "mean" if r["baseline"] is None else "difference"
            rows.append(
                {"model": r["run"], "kind": kind, **{k: v for k, v in r.items() if k != "run"}}
            )
        for s in self.spread if len(self.seeds) > 1 else ():
            over = self.seed_comparisons.get(s.metric)
            against = over is not None and s.model != over.baseline
            rows.append(
                {
                    "model": s.model,
                    "kind": "seeds",
                    "metric": s.metric,
                    "value": s.mean,
                    "std": s.std,
                    "min": s.minimum,
                    "max": s.maximum,
                    "n": s.n,
                    "eps_min": over.eps_min(s.model) if over is not None and against else None,
                }
            )
        return rows


def _baseline(models: Sequence[Model], baseline: str | None) -> str:
    """The baseline's name, checked before anything is fitted (a repeated model too)."""
    names = [m.name for m in models]
    repeated = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if repeated is not None:
        raise InputError(f"model {repeated!r} given twice")
    if baseline is None:
        return names[0]
    if baseline not in names:
        raise OptionError(
            f"baseline {baseline!r} is not one of the models ({', '.join(names)})",
            option="baseline",
        )
    return baseline


def _split_for_evaluation(splits: Mapping[str, LetorDataset]) -> str:
    for name in ("test", "vali"):
        if name in splits:
            return name
    raise InputError("the collection has no test or vali split to evaluate on")


def run_experiment(
    splits: Mapping[str, LetorDataset],
    models: Sequence[str | Model] = ("linear", "lambdamart"),
    *,
    baseline: str | None = None,
    seeds: int | Sequence[int] = 1,
    seed: int = 0,
    num_threads: int = 1,
    norm: FeatureNorm | None = None,
    metrics: Sequence[str] = LTR_METRICS,
    test: CompareTest = "randomization",
    n_resamples: int = 10000,
    correction: Correction = "holm",
    alpha: float = 0.05,
    ci_method: CIMethod = "bca",
    ties: Ties = LTR_TIES,
    no_relevant: NoRelevant = LTR_NO_RELEVANT,
    short_queries: ShortQueries = "score",
    progress: Callable[[str, int, int], None] | None = None,
) -> Experiment:
    """Fit ``models`` on ``splits["train"]``, early-stop on ``"vali"`` when present, and
    compare them on ``"test"`` (else ``"vali"``): what ``assay ltr run`` does.

    Parameters
    ----------
    splits
        The collection's splits (:func:`assay.ltr.load`), with a ``"train"`` split.
    models
        Two or more models: names as :func:`~assay.ltr.make_model` takes them, or model
        objects.
    baseline
        The model every other is compared with (a model's name; default: the first).
    seeds, seed
        The fits of each model that give its spread over seeds: a count (seeds ``seed``,
        ``seed + 1``, ...) or the seeds themselves (distinct, e.g. ``[1, 2, 3, 4, 5]``); the
        comparison uses the first. ``seed`` also seeds the randomisation test and the
        bootstrap.
    num_threads
        LightGBM's threads (the models are the same bits for any count).
    norm
        Normalise features within queries first (``min-max`` or ``zscore``).
    metrics
        Metric names (default :data:`LTR_METRICS`).
    test, n_resamples, correction, alpha, ci_method
        The comparison's options, as :func:`assay.compare`.
    ties, no_relevant, short_queries
        The conventions (LightGBM's by default).
    progress
        Called as ``progress(label, done, total)`` while models train.

    Returns
    -------
    Experiment
        The comparison, the spread over seeds and the fitted models; ``report()`` is the
        table ``assay ltr run`` prints and ``html(title=...)`` its ``--report`` page.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(40, n_features=8, informative=2, seed=1)
    >>> exp = ltr.run_experiment(splits, ["linear", "random"], n_resamples=200)
    >>> exp.split, exp.comparison.baseline, len(exp.records()) > 0
    ('test', 'linear', True)
    """
    seed = check_seed(seed)
    seed_list = fit_seeds(seeds, seed)
    n_seeds = len(seed_list)
    # The comparison's options, checked before any model is fitted: a typo must not cost a
    # training run (the comparison checks them again, as it does for every caller).
    check_resamples(n_resamples)
    check_alpha(alpha)
    choice(test, CompareTest, "test")
    choice(ci_method, CIMethod, "ci_method")
    integer(num_threads, "num_threads", minimum=1)
    if "train" not in splits:
        raise InputError("the collection has no train split")
    if len(models) < 2:
        raise InputError("an experiment compares at least two models")
    if norm is not None:
        splits = {k: normalize(v, norm=norm) for k, v in splits.items()}
    where = _split_for_evaluation(splits)
    vali = splits.get("vali") if where != "vali" else None
    target = splits[where]
    bases = [
        make_model(cast(ModelName, spec), seed=seed, num_threads=num_threads)
        if isinstance(spec, str)
        else spec
        for spec in models
    ]
    base_name = _baseline(bases, baseline)
    fitted: dict[str, list[Any]] = {}
    scores: dict[str, list[np.ndarray]] = {}
    for base in bases:
        fitted[base.name], scores[base.name] = [], []
        for fit_seed in seed_list:
            model = with_seed(base, fit_seed)
            label = base.name if n_seeds == 1 else f"{base.name} (seed {fit_seed})"
            tick = None if progress is None else (lambda d, t, lab=label: progress(lab, d, t))
            model.fit(splits["train"], vali, progress=tick)
            fitted[base.name].append(model)
            scores[base.name].append(model.predict(target))
    first = {name: s[0] for name, s in scores.items()}
    names = list(first)
    conv: dict[str, Any] = {
        "ties": ties,
        "no_relevant": no_relevant,
        "short_queries": short_queries,
    }
    cmp = compare_scores(
        target,
        first,
        metrics,
        baseline=base_name,
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        correction=correction,
        alpha=alpha,
        ci_method=ci_method,
        **conv,
    )
    seed_runs = {
        f"{name}[seed={s}]": values
        for name, ss in scores.items()
        for s, values in zip(seed_list, ss, strict=True)
    }
    per_seed = evaluate_scores(target, seed_runs, metrics, **conv)
    by_model = {name: [f"{name}[seed={s}]" for s in seed_list] for name in names}
    over_seeds = (
        seed_comparisons(per_seed, by_model, test, n_resamples, correction, alpha, seed, base_name)
        if n_seeds > 1
        else {}
    )
    zero = evaluate_scores(
        target, first, metrics, ties=ties, no_relevant="zero", short_queries=short_queries
    )
    relevant = np.bincount(target.qidx, weights=target.labels > 0, minlength=target.n_queries)
    return Experiment(
        split=where,
        comparison=cmp,
        spread=spread(per_seed, by_model),
        trec_zero=zero,
        models=fitted,
        scores=scores,
        seeds=list(seed_list),
        no_relevant_queries=int((relevant == 0).sum()),
        splits=dict(splits),
        seed_comparisons=over_seeds,
        provenance=provenance(
            data=data_summary(target),
            split=where,
            train=splits["train"].name,
            vali=None if vali is None else vali.name,
            models=names,
            seeds=list(seed_list),
            norm=norm,
            model_settings={n: repr(m[0]) for n, m in fitted.items()},
            comparison=dict(cmp.provenance),
        ),
    )
