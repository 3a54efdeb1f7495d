"""Several hard clusterings of the same items against one gold clustering, every one tested
against a baseline: :func:`compare`, giving a :class:`~assay.report.PairedComparison`
(family ``"clustering"``, unit ``"items"``).

The clustering measures (ARI, NMI, purity, ...) are functions of the whole contingency table,
not means of per-item values, so the paired tests resample *items* and recompute the measure
from the resampled table (:mod:`assay.clustering._resampled`, vectorised over resamples):

- ``test="bootstrap"`` (default, B = 1000) — :func:`assay.stats.paired_bootstrap_test` with
  the measure as its statistic: every resample draws n items with replacement, the same
  items for both clusterings; θ = S(system) − S(baseline), p = (#{|θ* − θ| ≥ |θ|} + 1) /
  (B + 1), and the interval of θ is the percentile interval of θ*. A resampled item keeps
  its gold and predicted clusters, so duplicates land in the same cells (Efron &
  Tibshirani 1993; Koehn 2004 for corpus statistics).
- ``test="randomization"`` (N = 10000) — :func:`assay.stats.stratified_shuffling_test`
  (approximate randomisation, Noreen 1989; Yeh 2000): every resample swaps the two
  clusterings' assignments of a random half of the items and recomputes both scores;
  p = (#{|θ*| ≥ |θ|} + 1) / (N + 1). The interval of θ is then the paired bootstrap's with
  1000 resamples.

What the swap test tests, and why the bootstrap is the default. Cluster ids only mean
something within a clustering, so the two systems' ids are kept apart (namespaced: system
A's cluster 3 is not system B's cluster 3); a swapped item joins the other system's
cluster, with that system's other swapped items of the same id. The p-value is exact (up
to Monte-Carlo error) for the null hypothesis that the two systems' assignments are
*exchangeable item by item*: that for every item, which system produced which assignment
is a coin flip. Every swap pattern is then as likely as the observed one, and θ* is
symmetric about 0 (a pattern and its complement give opposite θ*). That hypothesis is much
stronger than "the two systems are equally good": a swapped clustering mixes two
partitions, its clusters are fragments of both systems' clusters, and its score falls for
both sides alike, so the swapped differences θ* are narrower than the differences two
equally good systems show. In simulations of equally good systems (40 items, 4 gold
clusters, each system keeping each item's gold cluster with probability 1/2 and drawing it
at random otherwise; 300 pairs, 199 swaps) the test rejected 20% of the pairs at α = 0.05
on ARI, where the paired bootstrap rejected 5.7% (ARI, purity) to 9.7% (NMI). Use it when
exchangeability is the question (two runs of one randomised method, say); to compare two
systems' quality use the bootstrap. A result built with it carries a note saying so.

Copies in a bootstrap resample. A resample repeats items, and copies of an item are in the
same cluster in both clusterings. The pair-counting measures (Rand, ARI, Fowlkes–Mallows,
pairwise P/R/F) count pairs of *distinct* items, so a pair of copies is not counted (it
would be a pair that no clustering can get wrong, and bias every resample towards
agreement). The information and purity measures have no such pairs: their resamples look
more consistent than the data (entropies shrink, small clusters become pure), so their
score intervals lean upward and can lie above the score with few items per cluster (the
result's note says so). The difference of two systems is less affected — both gain from
the same copies — and is what the test and the interval of ``diff`` are about.

The t, Wilcoxon and sign tests need a value per item and do not apply (an
:class:`~assay.errors.OptionError` says so). For the same reason there are no wins, ties
and losses per item and no per-item effect size: every :class:`~assay.stats.PairResult`
has ``n = 0``, ``wins = ties = losses = 0`` and ``effect_size`` NaN. Each system's score
has a percentile bootstrap interval over items (:func:`assay.stats.bootstrap_ci`); the
p-values of the systems against the baseline are corrected together within each metric
(``correction``), ``significant`` is p_adjusted < ``alpha``, and one ``seed`` serves every
test and interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import _options as opt
from .._options import Correction, ResamplingTest
from .._result import provenance
from ..errors import InputError, OptionError
from ..report.paired import PairedComparison
from ..stats.pairs import PairResult
from ._core import codes
from ._resampled import HARD_MEASURES, CellStatistic, cell_codes, records
from .options import ClusteringTest

__all__ = ["CI_RESAMPLES", "DEFAULT_METRICS", "DEFAULT_RESAMPLES", "compare"]

#: The measures compared by default.
DEFAULT_METRICS = ("adjusted_rand_index", "nmi")
#: Resamples of each test when ``n_resamples`` is not given.
DEFAULT_RESAMPLES = {"bootstrap": 1000, "randomization": 10000}
#: Bootstrap resamples of the intervals when the test is the randomisation test.
CI_RESAMPLES = 1000

#: What the reader of a score interval should know (see the module documentation).
_BOOTSTRAP_NOTE = (
    "score intervals: percentile bootstrap over items; for NMI, AMI and purity they lean "
    "upward (a resample repeats items)"
)

_SWAP_NOTE = (
    "randomization: a test of item-by-item exchangeability of the two clusterings, which "
    "rejects too often as a test of equal quality; prefer the bootstrap"
)

#: The paired tests of the other families that need a value per item.
_PER_ITEM_TESTS = ("t", "wilcoxon", "sign")


def compare(
    labels_true: ArrayLike,
    predictions: Mapping[str, ArrayLike] | Sequence[ArrayLike],
    *,
    baseline: str | None = None,
    metrics: str | Sequence[str] = DEFAULT_METRICS,
    test: ClusteringTest = "bootstrap",
    n_resamples: int | None = None,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    confidence: float = 0.95,
) -> PairedComparison:
    """Compare hard clusterings of the same items against the gold one, each against
    ``baseline``, by resampling items (see the module documentation).

    Parameters
    ----------
    labels_true : array_like
        The gold cluster label of each item (any hashable labels).
    predictions : mapping of str to array_like, or sequence of array_like
        Each system's cluster label of each item, aligned with ``labels_true`` (a sequence:
        systems named ``system1``, ``system2``, ...).
    baseline : str, optional
        The system every other is tested against (default: the first).
    metrics : str or sequence of str
        Declared hard-clustering measures (``assay metrics --family clustering``):
        ``adjusted_rand_index``, ``nmi``, ``ami``, ``rand_index``, ``fowlkes_mallows``,
        ``pairwise_precision``, ``pairwise_recall``, ``pairwise_f``, ``purity``,
        ``inverse_purity``, ``purity_f1`` (with their default parameters).
    test : {"bootstrap", "randomization"}
        The paired test over items.
    n_resamples : int, optional
        Resamples of the test (default 1000 bootstrap, 10000 randomization).
    seed : int
        One seed for every test and interval.
    correction : str
        Multiple-comparison correction of the p-values, within each metric (``holm``,
        ``bonferroni``, ``bh``, ``none``).
    alpha : float
        ``significant`` is ``p_adjusted < alpha``.
    confidence : float
        Level of the bootstrap intervals (scores and differences).

    Returns
    -------
    PairedComparison
        Each system's score with its interval, and a :class:`~assay.stats.PairResult` per
        system but the baseline and metric (``n = 0``: no per-item wins and losses).

    Examples
    --------
    >>> from assay.clustering import compare
    >>> gold = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    >>> good = [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8]
    >>> poor = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]
    >>> cmp = compare(gold, {"poor": poor, "good": good}, n_resamples=200)
    >>> pair = cmp.pair("good", "adjusted_rand_index")
    >>> cmp.baseline, cmp.scores["adjusted_rand_index"]["good"], pair.diff > 0, pair.n
    ('poor', 1.0, True, 0)
    """
    from ..stats import correct

    test_name, n_resamples, seed, confidence, correction_name, alpha = _check(
        test, n_resamples, seed, confidence, correction, alpha
    )
    chosen = _metrics(metrics)
    gold, named = _clusterings(labels_true, predictions)
    names = list(named)
    base = names[0] if baseline is None else baseline
    if base not in named:
        raise InputError(f"baseline {base!r} is not one of the systems ({', '.join(names)})")
    others = [s for s in names if s != base]
    ci_resamples = n_resamples if test_name == "bootstrap" else CI_RESAMPLES
    # One union table: every system's cell codes index the same cells (namespaced clusters).
    cells, per_system = cell_codes(gold, [named[s] for s in names])
    coded = {s: records(c) for s, c in zip(names, per_system, strict=True)}
    scores: dict[str, dict[str, float]] = {}
    intervals: dict[str, dict[str, tuple[float, float]]] = {}
    pairs: list[PairResult] = []
    for metric in chosen:
        statistic = CellStatistic(cells, metric, int(gold.size))
        scores[metric], intervals[metric] = _scores(
            statistic, coded, ci_resamples, seed, confidence
        )
        tests = [
            _pair_test(statistic, coded[s], coded[base], test_name, n_resamples, seed, confidence)
            for s in others
        ]
        adjusted = correct([t[0] for t in tests], correction=cast(Correction, correction_name))
        pairs += [
            PairResult(
                system=s,
                baseline=base,
                metric=metric,
                diff=scores[metric][s] - scores[metric][base],
                ci_low=low,
                ci_high=high,
                p_value=p,
                p_adjusted=float(q),
                significant=bool(q < alpha),
            )
            for s, (p, low, high), q in zip(others, tests, adjusted, strict=True)
        ]
    return PairedComparison(
        family="clustering",
        unit="items",
        systems=tuple(names),
        baseline=base,
        metrics=chosen,
        scores=scores,
        intervals=intervals,
        pairs=tuple(pairs),
        test=test_name,
        correction=correction_name,
        alpha=alpha,
        confidence=confidence,
        n=int(gold.size),
        higher_is_better=dict.fromkeys(chosen, True),
        notes=(_BOOTSTRAP_NOTE, _SWAP_NOTE) if test_name == "randomization" else (_BOOTSTRAP_NOTE,),
        provenance=provenance(
            measure="clustering.compare",
            test=test_name,
            n_resamples=n_resamples,
            ci_resamples=ci_resamples,
            seed=seed,
            confidence=confidence,
            correction=correction_name,
            alpha=alpha,
            baseline=base,
            metrics=list(chosen),
            resampled="items (cluster ids namespaced per system)",
        ),
    )


def _check(
    test: Any, n_resamples: Any, seed: Any, confidence: Any, correction: Any, alpha: Any
) -> tuple[str, int, int, float, str, float]:
    if isinstance(test, str) and test in _PER_ITEM_TESTS:
        raise OptionError(
            f"test {test!r} needs a value per item, and clustering measures are scores of the "
            "whole contingency table: use test='bootstrap' or test='randomization' "
            "(they resample items and recompute the measure)",
            option="test",
        )
    test = opt.choice(test, ClusteringTest, "test")
    n_resamples = DEFAULT_RESAMPLES[test] if n_resamples is None else opt.n_resamples(n_resamples)
    correction = opt.choice(correction, Correction, "correction", aliases=opt.CORRECTION_ALIASES)
    return (
        test,
        n_resamples,
        opt.seed(seed),
        opt.confidence(confidence),
        correction,
        opt.alpha(alpha),
    )


def _metrics(metrics: Any) -> tuple[str, ...]:
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise OptionError("metrics: give at least one measure", option="metrics")
    for name in names:
        if not isinstance(name, str) or name not in HARD_MEASURES:
            raise OptionError(
                f"metrics: {name!r} is not a hard-clustering measure that can be compared; "
                f"choose from {', '.join(HARD_MEASURES)}",
                option="metrics",
            )
    return tuple(dict.fromkeys(names))


def _clusterings(
    labels_true: ArrayLike, predictions: Mapping[str, ArrayLike] | Sequence[ArrayLike]
) -> tuple[NDArray[np.int64], dict[str, NDArray[np.int64]]]:
    """The gold codes and each system's codes (0..k-1), all over the same n ≥ 2 items."""
    if isinstance(predictions, Mapping):
        items = [(str(k), v) for k, v in predictions.items()]
    elif isinstance(predictions, (str, bytes)):
        raise InputError("predictions must be a mapping or a sequence of clusterings")
    else:
        items = [(f"system{i + 1}", v) for i, v in enumerate(predictions)]
    if len(items) < 2:
        raise InputError(f"a comparison needs at least two clusterings, got {len(items)}")
    gold, _ = codes(labels_true, "labels_true")
    if gold.size < 2:
        raise InputError(f"resampling items needs at least 2 items, got {gold.size}")
    out = {}
    for name, labels in items:
        pred, _ = codes(labels, f"predictions[{name!r}]")
        if pred.size != gold.size:
            raise InputError(
                f"labels_true has {gold.size} items but clustering {name!r} has {pred.size}"
            )
        out[name] = pred
    return gold, out


def _scores(
    statistic: CellStatistic,
    coded: Mapping[str, NDArray[np.int64]],
    n_resamples: int,
    seed: int,
    confidence: float,
) -> tuple[dict[str, float], dict[str, tuple[float, float]]]:
    """Each system's score and its percentile bootstrap interval over items."""
    from ..stats import bootstrap_ci

    scores, intervals = {}, {}
    for name, rec in coded.items():
        res = bootstrap_ci(
            (rec[:, 0], rec[:, 1]),
            statistic,
            n_resamples=n_resamples,
            seed=seed,
            ci_method="percentile",
            confidence=confidence,
        )
        scores[name] = float(res.statistic)
        intervals[name] = cast(tuple[float, float], res.ci)
    return scores, intervals


def _pair_test(
    statistic: CellStatistic,
    system: NDArray[np.int64],
    base: NDArray[np.int64],
    test: str,
    n_resamples: int,
    seed: int,
    confidence: float,
) -> tuple[float, float, float]:
    """(p-value, interval low, high) of one system against the baseline. Under
    ``randomization`` the records are the items' cells: a swap gives the item the other
    system's (namespaced) cluster, with the same gold cluster."""
    from ..stats import corpus_pair_test

    res = corpus_pair_test(
        system,
        base,
        statistic,
        test=cast(ResamplingTest, test),
        n_resamples=n_resamples,
        ci_resamples=CI_RESAMPLES,
        seed=seed,
        confidence=confidence,
    )
    low, high = cast(tuple[float, float], res.ci)
    return float(res.pvalue), low, high
