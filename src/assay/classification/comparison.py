"""Several classifiers on the same items, every one against a baseline: :func:`compare`, a
:class:`~assay.report.PairedComparison` (family ``"classification"``, unit ``"items"``).

Each metric is a label measure of the family (``assay metrics --family classification``),
written as its name with parameters (``"f1(average='macro')"``). How a pair is tested depends
on the metric:

- **accuracy** is the mean of the per-item correctness c_i ∈ {0, 1}, so its difference is the
  mean of per-item differences c_i(system) − c_i(baseline). ``test="mcnemar"`` (default) is
  McNemar's test on the discordant items (:func:`assay.stats.mcnemar`, ``mcnemar="exact"``,
  ``"mid-p"`` or ``"chi2"``); ``randomization`` (sign flips, i.e. swapping the two systems'
  predictions of random items), ``t``, ``wilcoxon``, ``sign`` and ``bootstrap`` are
  :func:`assay.stats.paired_pvalues` on the differences. The interval of the difference is the
  percentile bootstrap of their mean (:func:`assay.stats.bootstrap_mean_ci`), the effect size
  Cohen's d_z (:func:`assay.stats.cohens_d_paired`).
- **corpus-level measures** (F1, MCC, balanced accuracy, ...) are not means over items; they
  are recomputed from the resampled items' confusion matrices
  (:mod:`assay.classification.resampled`). ``randomization`` is approximate randomisation
  (:func:`assay.stats.stratified_shuffling_test`: each resample swaps the two systems'
  predictions of a random half of the items), ``bootstrap`` the paired bootstrap
  (:func:`assay.stats.paired_bootstrap_test`, the same resampled items for both systems).
  The interval of the difference is always the paired bootstrap's percentile interval; there
  is no effect size. McNemar's, t, Wilcoxon and sign tests do not apply (an OptionError).

Each system's score has a percentile bootstrap interval over items. ``wins``, ``ties`` and
``losses`` count the items the system labels right and the baseline wrong, both alike, the
system wrong and the baseline right, whatever the metric. The p-values of the pairs are
corrected together within each metric (``correction``). With three systems or more,
Cochran's Q (:func:`assay.stats.cochran_q`) tests whether all are equally accurate
(``omnibus["cochran_q"]``). One ``seed`` serves every test and interval: the same seed gives
the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import _options as opt
from .._options import Correction, McNemarMethod, ResamplingTest, ZeroDivision
from .._result import provenance
from ..errors import InputError, OptionError
from ..metrics.labels import as_labels, check_pair, unique
from ..metrics.registry import Metric
from ..report.paired import PairedComparison
from ..stats.pairs import PairResult
from ..stats.result import StatResult
from .measures import Label
from .options import ClassificationTest
from .resampled import LabelSpace, MatrixMeasure, cell_matrices, check_measure, matrix_measure

__all__ = ["compare"]

FloatArray = NDArray[np.float64]

#: The tests that resample items, and so apply to every measure.
RESAMPLING_TESTS = ("randomization", "bootstrap")


def compare(
    y_true: ArrayLike,
    predictions: Mapping[str, ArrayLike] | Sequence[ArrayLike],
    *,
    baseline: str | None = None,
    metrics: str | Metric | Sequence[str | Metric] = ("accuracy",),
    test: ClassificationTest = "mcnemar",
    mcnemar: McNemarMethod = "exact",
    n_resamples: int = 10000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    confidence: float = 0.95,
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> PairedComparison:
    """Compare classifiers' predicted labels of the same items, every one against ``baseline``
    on each metric; see the module docstring for the tests.

    Parameters
    ----------
    y_true : array_like
        The true label of each item.
    predictions : mapping of str to array_like, or sequence of array_like
        Each system's predicted labels, aligned with ``y_true`` (a sequence: systems named
        ``system1``, ``system2``, ...). At least two.
    baseline : str, optional
        The system every other is compared with (default: the first).
    metrics : str, Metric or sequence of them, default ("accuracy",)
        Label measures of the family with their parameters (``"f1(average='macro')"``,
        ``"mcc"``, ``"balanced_accuracy"``; ``assay metrics --family classification``).
    test : {"mcnemar", "randomization", "bootstrap", "t", "wilcoxon", "sign"}
        The paired test; only ``randomization`` and ``bootstrap`` apply to measures other
        than accuracy.
    mcnemar : {"exact", "mid-p", "chi2"}
        McNemar's p-value (:func:`assay.stats.mcnemar`), with ``test="mcnemar"``.
    n_resamples : int
        Resamples of the resampling tests and of every bootstrap interval.
    seed : int
        One seed for every test and interval.
    correction : str
        Multiple-comparison correction of the pairs' p-values within each metric (``holm``,
        ``bonferroni``, ``bh``, ``none``).
    alpha : float
        ``significant`` is ``p_adjusted < alpha``.
    confidence : float
        Level of the intervals.
    pos_label : label, optional
        The positive class of measures with ``average='binary'`` that name none.
    zero_division : {0, 1, "nan"}
        The value of an undefined ratio for measures whose name does not set it.

    Returns
    -------
    PairedComparison
        Scores with intervals, one :class:`~assay.stats.PairResult` per system and metric,
        and Cochran's Q over all systems (three or more) in ``omnibus``.

    Examples
    --------
    >>> from assay import classification
    >>> gold = ["a", "b", "a", "c", "b", "a", "c", "b", "a", "a"]
    >>> cmp = classification.compare(gold, {
    ...     "old": ["a", "a", "a", "c", "a", "b", "c", "a", "a", "b"],
    ...     "new": ["a", "b", "a", "c", "b", "a", "c", "a", "a", "a"]},
    ...     metrics=["accuracy", "f1(average='macro')"], test="bootstrap", n_resamples=500)
    >>> pair = cmp.pair("new")
    >>> pair.baseline, round(pair.diff, 2), (pair.wins, pair.ties, pair.losses)
    ('old', 0.4, (4, 6, 0))
    >>> round(cmp.scores["f1(average='macro')"]["new"], 4)
    0.903
    """
    from ..stats import correct

    checked = _options(test, mcnemar, n_resamples, seed, correction, alpha, confidence)
    test_name, mcnemar, n_resamples, seed, correction, alpha, confidence = checked
    gold, named = _labelled(y_true, predictions)
    names = list(named)
    base = names[0] if baseline is None else baseline
    if base not in named:
        raise InputError(f"baseline {base!r} is not one of the systems ({', '.join(names)})")
    chosen = _metrics(metrics, pos_label, zero_division)
    for m in chosen:
        if m.name != "accuracy" and test_name not in RESAMPLING_TESTS:
            raise OptionError(
                f"test={test_name!r} applies to accuracy only (per-item correctness); {m} is a "
                "corpus-level measure: use test='randomization' or test='bootstrap'",
                option="test",
            )
    # the family's own measures give the scores, and refuse what they refuse
    scores = {str(m): {s: float(m(gold, named[s])) for s in names} for m in chosen}
    for label, values in scores.items():
        undefined = [s for s, v in values.items() if math.isnan(v)]
        if undefined:
            raise InputError(
                f"{label} is undefined (NaN) for {', '.join(map(repr, undefined))}: a test "
                "needs a score for every system (choose zero_division=0 or 1, or another "
                "measure)"
            )
    space, t, codes = _encoded(gold, named, chosen)
    correct_rows = np.vstack([(codes[s] == t).astype(np.float64) for s in names])
    # one record per item and system: its confusion-matrix cell, true · K + predicted
    cells = {s: (t * space.k + codes[s]).astype(np.float64) for s in names}
    others = [s for s in names if s != base]
    settings = _Settings(test_name, mcnemar, n_resamples, seed, confidence)
    intervals: dict[str, dict[str, tuple[float, float]]] = {}
    pairs: list[PairResult] = []
    for m in chosen:
        label = str(m)
        if m.name == "accuracy":
            low, high = _mean_intervals(correct_rows, settings)
            tested = _accuracy_pairs(correct_rows, names, base, settings)
        else:
            measure = matrix_measure(m, space)
            low, high = _score_intervals(measure, space.k, cells, names, settings)
            tested = [
                _corpus_pair(measure, space.k, cells[s], cells[base], settings) for s in others
            ]
        intervals[label] = {s: (float(low[i]), float(high[i])) for i, s in enumerate(names)}
        adjusted: Sequence[float] = (
            correct([p for p, *_ in tested], correction=correction).tolist() if tested else []
        )
        for (p, diff, lo, hi, effect), q, s in zip(tested, adjusted, others, strict=True):
            pairs.append(
                _pair(s, base, m, (p, float(q), diff, lo, hi, effect), alpha, correct_rows, names)
            )
    omnibus: dict[str, StatResult] = {}
    if len(names) >= 3:
        from ..stats import cochran_q

        omnibus["cochran_q"] = cochran_q(correct_rows)
    return PairedComparison(
        family="classification",
        unit="items",
        systems=tuple(names),
        baseline=base,
        metrics=tuple(str(m) for m in chosen),
        scores=scores,
        intervals=intervals,
        pairs=tuple(pairs),
        test=test_name if test_name != "mcnemar" else f"mcnemar ({mcnemar})",
        correction=correction,
        alpha=alpha,
        confidence=confidence,
        n=int(t.shape[0]),
        higher_is_better={str(m): m.higher_is_better for m in chosen},
        omnibus=omnibus,
        provenance=provenance(
            test=test_name,
            mcnemar=mcnemar,
            n_resamples=n_resamples,
            seed=seed,
            correction=correction,
            alpha=alpha,
            confidence=confidence,
            ci_method="percentile",
            baseline=base,
            metrics=[m.canonical for m in chosen],
        ),
    )


class _Settings:
    """The checked options every test and interval takes."""

    def __init__(
        self, test: str, mcnemar: str, n_resamples: int, seed: int, confidence: float
    ) -> None:
        self.test, self.mcnemar = test, mcnemar
        self.n_resamples, self.seed, self.confidence = n_resamples, seed, confidence


def _options(
    test: Any,
    mcnemar: Any,
    n_resamples: Any,
    seed: Any,
    correction: Any,
    alpha: Any,
    confidence: Any,
) -> tuple[str, McNemarMethod, int, int, Correction, float, float]:
    return (
        opt.choice(test, ClassificationTest, "test"),
        cast(McNemarMethod, opt.choice(mcnemar, McNemarMethod, "mcnemar")),
        opt.n_resamples(n_resamples),
        opt.seed(seed),
        cast(
            Correction,
            opt.choice(correction, Correction, "correction", aliases=opt.CORRECTION_ALIASES),
        ),
        opt.alpha(alpha),
        opt.confidence(confidence),
    )


def _labelled(
    y_true: ArrayLike, predictions: Mapping[str, ArrayLike] | Sequence[ArrayLike]
) -> tuple[NDArray[Any], dict[str, NDArray[Any]]]:  # Any: the labels' own dtype
    """The gold labels and each system's, checked as the family's measures check a pair."""
    if isinstance(predictions, Mapping):
        items = [(str(k), v) for k, v in predictions.items()]
    elif isinstance(predictions, str | bytes) or not isinstance(predictions, Sequence):
        raise InputError(
            "predictions must be a mapping of system names to labels, or a list of label "
            f"sequences (got {type(predictions).__name__})"
        )
    else:
        items = [(f"system{i + 1}", v) for i, v in enumerate(predictions)]
    if len(items) < 2:
        raise InputError(f"a comparison needs at least two systems, got {len(items)}")
    gold = as_labels(y_true, "y_true")
    named: dict[str, NDArray[Any]] = {}
    for name, values in items:
        try:
            _, pred = check_pair(gold, as_labels(values, f"predictions[{name!r}]"))
        except InputError as exc:
            raise InputError(f"system {name!r}: {exc}") from None
        named[name] = pred
    if gold.shape[0] < 2:
        raise InputError(f"a comparison needs at least 2 items, got {gold.shape[0]}")
    return gold, named


def _metrics(
    metrics: str | Metric | Sequence[str | Metric], pos_label: Any, zero_division: Any
) -> list[Metric]:
    """The metrics, with ``pos_label`` and ``zero_division`` filled in where their names leave
    the declaration's default."""
    from ..metrics import make, parse_all
    from ..metrics.labels import ZERO_DIVISION

    zero_division = ZERO_DIVISION.check(zero_division)
    parsed = parse_all(metrics, family="classification")
    if not parsed:
        raise OptionError("metrics is empty: name at least one measure", option="metrics")
    out = []
    for m in parsed:
        if m.spec.input != "labels":
            raise OptionError(
                f"{m} is computed from scores; compare takes predicted labels (label measures: "
                "`assay metrics --family classification`)",
                option="metrics",
            )
        params = dict(m.kwargs())
        defaults = {p.name: p.default for p in m.spec.params}
        if "pos_label" in params and params["pos_label"] is None and pos_label is not None:
            params["pos_label"] = pos_label
        if "zero_division" in params and params["zero_division"] == defaults["zero_division"]:
            params["zero_division"] = zero_division
        made = make(m.spec, m.k, **params).labelled(str(m))
        check_measure(made)
        out.append(made)
    return out


def _encoded(
    gold: NDArray[Any], named: Mapping[str, NDArray[Any]], metrics: list[Metric]
) -> tuple[LabelSpace, NDArray[np.int64], dict[str, NDArray[np.int64]]]:
    """One label space over the gold labels, every prediction and the labels the measures
    name (``labels=``, ``pos_label``), and the codes of each sequence."""
    extra: list[Any] = []
    for m in metrics:
        params = m.kwargs()
        if params.get("labels") is not None:
            extra.extend(np.asarray(params["labels"]).tolist())
        if params.get("average") == "binary":
            extra.append(1 if params.get("pos_label") is None else params["pos_label"])
    pieces = [gold, *named.values()]
    if extra:
        pieces.append(np.asarray(extra))
    uniq, inv = unique(np.concatenate(pieces), "y_true, the predictions and the labels")
    n = gold.shape[0]
    codes = {s: inv[(i + 1) * n : (i + 2) * n].astype(np.int64) for i, s in enumerate(named)}
    return LabelSpace(uniq), inv[:n].astype(np.int64), codes


# ---------------------------------------------------------------- accuracy: per-item tests


def _mean_intervals(rows: FloatArray, s: _Settings) -> tuple[FloatArray, FloatArray]:
    from ..stats import bootstrap_mean_ci

    return bootstrap_mean_ci(
        rows,
        n_resamples=s.n_resamples,
        seed=s.seed,
        ci_method="percentile",
        confidence=s.confidence,
    )


def _accuracy_pairs(
    rows: FloatArray, names: list[str], base: str, s: _Settings
) -> list[tuple[float, float, float, float, float]]:
    """(p, diff, ci low, ci high, effect size) of every system but the baseline on accuracy."""
    from ..stats import cohens_d_paired, paired_pvalues
    from ..stats.contingency import mcnemar_pvalues

    b = names.index(base)
    others = [i for i, name in enumerate(names) if name != base]
    if not others:
        return []
    diffs = rows[others] - rows[b]
    if s.test == "mcnemar":
        _, pvalues = mcnemar_pvalues(
            np.count_nonzero(diffs < 0, axis=1),
            np.count_nonzero(diffs > 0, axis=1),
            cast(McNemarMethod, s.mcnemar),
        )
    else:
        pvalues = paired_pvalues(
            diffs, test=cast(Any, s.test), n_resamples=s.n_resamples, seed=s.seed
        )
    low, high = _mean_intervals(diffs, s)
    effect = np.atleast_1d(cohens_d_paired(rows[others], np.tile(rows[b], (len(others), 1))))
    return [
        (float(pvalues[j]), float(diffs[j].mean()), float(low[j]), float(high[j]), float(effect[j]))
        for j in range(len(others))
    ]


# ---------------------------------------------------------------- corpus-level measures


def _cells_statistic(measure: MatrixMeasure, k: int) -> Any:
    """The measure of per-item cell codes (true · k + predicted), items along ``axis``: the
    statistic :mod:`assay.stats` calls on one system's records or on a block of resamples of
    them. Swapping two systems' records of an item swaps their predictions (the true label
    is the same), so the records serve the randomisation test as they are."""

    def statistic(cells: FloatArray, axis: int = -1) -> FloatArray:
        return measure(cell_matrices(np.moveaxis(np.asarray(cells), axis, -1), k))

    return statistic


def _score_intervals(
    measure: MatrixMeasure,
    k: int,
    cells: Mapping[str, FloatArray],
    names: list[str],
    s: _Settings,
) -> tuple[FloatArray, FloatArray]:
    from ..stats import bootstrap_ci

    statistic = _cells_statistic(measure, k)
    low, high = [], []
    for name in names:
        res = bootstrap_ci(
            cells[name],
            statistic,
            n_resamples=s.n_resamples,
            seed=s.seed,
            ci_method="percentile",
            confidence=s.confidence,
        )
        ci = res.ci if res.ci is not None else (math.nan, math.nan)
        low.append(ci[0])
        high.append(ci[1])
    return np.asarray(low), np.asarray(high)


def _corpus_pair(
    measure: MatrixMeasure, k: int, system: FloatArray, base: FloatArray, s: _Settings
) -> tuple[float, float, float, float, float]:
    """(p, diff, ci low, ci high, NaN effect size) of one system against the baseline."""
    from ..stats import corpus_pair_test

    res = corpus_pair_test(
        system,
        base,
        _cells_statistic(measure, k),
        test=cast(ResamplingTest, s.test),
        n_resamples=s.n_resamples,
        seed=s.seed,
        confidence=s.confidence,
    )
    low, high = res.ci if res.ci is not None else (math.nan, math.nan)
    return float(res.pvalue), float(res.statistic), float(low), float(high), math.nan


def _pair(
    system: str,
    base: str,
    metric: Metric,
    values: tuple[float, float, float, float, float, float],
    alpha: float,
    rows: FloatArray,
    names: list[str],
) -> PairResult:
    p, q, diff, low, high, effect = values
    d = rows[names.index(system)] - rows[names.index(base)]
    return PairResult(
        system=system,
        baseline=base,
        metric=str(metric),
        diff=diff,
        ci_low=low,
        ci_high=high,
        p_value=p,
        p_adjusted=q,
        significant=bool(q < alpha),
        higher_is_better=metric.higher_is_better,
        effect_size=effect,
        wins=int(np.count_nonzero(d > 0)),
        ties=int(np.count_nonzero(d == 0)),
        losses=int(np.count_nonzero(d < 0)),
        n=int(d.shape[0]),
    )
