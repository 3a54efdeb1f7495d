"""Several taggers on the same gold tags: each one's report with a bootstrap interval of its
span F1, and every tagger against a baseline by a paired test on corpus-level F1 that
resamples sentences (through :mod:`assay.stats`).

The per-item records are the per-sentence counts (matched, predicted, gold spans) of
:attr:`TaggingReport.sentence_counts`; the statistic is the micro span F1 of their sums,
2·Σmatched / (Σpredicted + Σgold) (0 when both sums are 0), so F1 is recomputed from the
resampled corpus, never averaged over sentences.

- ``test="bootstrap"`` — :func:`assay.stats.paired_bootstrap_test` with that statistic:
  B resamples of the sentences, the same sentences for both taggers; p = (#{|Δ* - Δ| ≥
  |Δ|} + 1) / (B + 1) and the percentile interval of Δ* (Koehn 2004; Berg-Kirkpatrick et
  al. 2012's test is the one-sided form). Default B = 1000.
- ``test="randomization"`` — :func:`assay.stats.stratified_shuffling_test` (approximate
  randomisation, Noreen 1989; Yeh 2000; sigf): each resample swaps the two taggers'
  predictions of a random half of the sentences; p = (#{|Δ*| ≥ |Δ|} + 1) / (N + 1).
  Default N = 10000; the interval of Δ is then the paired bootstrap's with 1000 resamples.

The p-values of the taggers against the baseline are corrected together (``correction``);
``significant`` is p_adjusted < ``alpha``. One ``seed`` serves every test and interval, so
the same seed gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._options import Correction, TaggingMode, TaggingScheme, TaggingTest, ZeroDivision
from .._result import Result, provenance
from ..errors import InputError
from ..io.conll import TagSequences
from ._report import TaggingReport, tagging_report

__all__ = ["TaggerComparison", "TaggerPair", "compare_taggers", "micro_f1"]

DEFAULT_RESAMPLES = {"bootstrap": 1000, "randomization": 10000}
#: Bootstrap resamples of the intervals when the test is the randomisation test.
CI_RESAMPLES = 1000


def micro_f1(records: NDArray[np.float64], axis: int = 0) -> Any:
    """Span F1 of the summed per-sentence (matched, predicted, gold) counts along ``axis``."""
    totals = np.sum(records, axis=axis)
    tp, pred, gold = totals[..., 0], totals[..., 1], totals[..., 2]
    den = pred + gold
    return np.where(den > 0, 2.0 * tp / np.where(den > 0, den, 1.0), 0.0)


def _f1_columns(tp: Any, pred: Any, gold: Any, axis: int = -1) -> Any:
    """The same statistic on the three counts given as separate samples (bootstrap_ci)."""
    return micro_f1(np.stack([tp, pred, gold], axis=-1), axis=axis if axis >= 0 else axis - 1)


@dataclass(frozen=True)
class TaggerPair:
    """One tagger against the baseline: F1 difference (tagger - baseline) with its paired
    bootstrap interval, the test's p-value, the corrected one and the decision."""

    tagger: str
    baseline: str
    diff: float
    ci_low: float
    ci_high: float
    pvalue: float
    p_adjusted: float
    significant: bool

    @property
    def direction(self) -> int:
        """+1 significantly better than the baseline, -1 worse, 0 otherwise."""
        if not self.significant or self.diff == 0:
            return 0
        return 1 if self.diff > 0 else -1


@dataclass(frozen=True, eq=False)
class TaggerComparison(Result):
    """Taggers on the same gold tags (see the module docstring). ``reports[name]``: each
    tagger's :class:`TaggingReport`; ``intervals[name]``: the percentile bootstrap interval
    of its span F1; ``pairs``: every tagger but the baseline against it.

    ``records()``: per tagger its micro precision, recall, F1 (with interval) and token
    accuracy, then per pair the F1 difference (with interval, p-values and decision)."""

    names: tuple[str, ...]
    baseline: str
    test: str
    correction: str
    alpha: float
    confidence: float
    reports: Mapping[str, TaggingReport]
    intervals: Mapping[str, tuple[float, float]]
    pairs: tuple[TaggerPair, ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def pair(self, tagger: str) -> TaggerPair:
        for p in self.pairs:
            if p.tagger == tagger:
                return p
        raise KeyError(tagger)

    def records(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for name in self.names:
            rep = self.reports[name]
            low, high = self.intervals[name]
            for measure, value in (
                ("precision", rep.precision()),
                ("recall", rep.recall()),
                ("f1", rep.f1()),
                ("accuracy", rep.accuracy),
            ):
                interval = measure == "f1"
                rows.append(
                    _row(
                        name, measure, value, low if interval else None, high if interval else None
                    )
                )
        for p in self.pairs:
            row = _row(p.tagger, f"f1 diff vs {p.baseline}", p.diff, p.ci_low, p.ci_high)
            rows.append(
                row | {"pvalue": p.pvalue, "p_adjusted": p.p_adjusted, "significant": p.significant}
            )
        return rows


def _row(
    tagger: str, measure: str, value: float, low: float | None, high: float | None
) -> dict[str, Any]:
    return {
        "tagger": tagger,
        "measure": measure,
        "value": float(value),
        "ci_low": low,
        "ci_high": high,
        "pvalue": None,
        "p_adjusted": None,
        "significant": None,
    }


def _named(predictions: Mapping[str, Any] | Sequence[Any]) -> dict[str, TagSequences]:
    items = (
        list(predictions.items())
        if isinstance(predictions, Mapping)
        else [(f"tagger{i + 1}", p) for i, p in enumerate(predictions)]
    )
    if not items:
        raise InputError("no tagger to evaluate")
    return {str(name): TagSequences.from_lists(p, str(name)) for name, p in items}


def _check(
    test: Any, n_resamples: Any, seed: Any, confidence: Any, correction: Any, alpha: Any
) -> tuple[str, int, int, float, str, float]:
    test = opt.choice(test, TaggingTest, "test")
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


def compare_taggers(
    y_true: Any,
    predictions: Mapping[str, Any] | Sequence[Any],
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    baseline: str | None = None,
    test: TaggingTest = "bootstrap",
    n_resamples: int | None = None,
    seed: int = 0,
    confidence: float = 0.95,
    correction: Correction = "holm",
    alpha: float = 0.05,
    zero_division: ZeroDivision = 0,
) -> TaggerComparison:
    """Evaluate several taggers (``predictions``: name -> sentences, or a list named tagger1,
    tagger2, ...) on the same gold sentences and test each against ``baseline`` (default:
    the first) on span F1 by resampling sentences; see the module docstring."""
    from ..stats import bootstrap_ci, correct

    checked = _check(test, n_resamples, seed, confidence, correction, alpha)
    test_name, n_resamples, seed, confidence, correction_name, alpha = checked
    gold = TagSequences.from_lists(y_true, "y_true")
    named = _named(predictions)
    base = next(iter(named)) if baseline is None else baseline
    if base not in named:
        raise InputError(f"baseline {base!r} is not one of the taggers ({', '.join(named)})")
    reports = {
        name: tagging_report(gold, pred, scheme=scheme, mode=mode, zero_division=zero_division)
        for name, pred in named.items()
    }
    if gold.n_sentences < 2:
        raise InputError(f"resampling sentences needs at least 2 sentences, got {gold.n_sentences}")
    ci_resamples = n_resamples if test_name == "bootstrap" else CI_RESAMPLES
    intervals = {}
    for name, rep in reports.items():
        columns = tuple(rep.sentence_counts[:, j].astype(np.float64) for j in range(3))
        res = bootstrap_ci(
            columns,
            _f1_columns,
            n_resamples=ci_resamples,
            seed=seed,
            ci_method="percentile",
            confidence=confidence,
        )
        intervals[name] = cast(tuple[float, float], res.ci)
    tests = {
        name: _pair_test(reports[name], reports[base], test_name, n_resamples, seed, confidence)
        for name in named
        if name != base
    }
    adjusted = correct([r[0] for r in tests.values()], correction=correction_name) if tests else []
    pairs = tuple(
        TaggerPair(name, base, diff, low, high, p, float(q), bool(q < alpha))
        for (name, (p, diff, low, high)), q in zip(tests.items(), adjusted, strict=True)
    )
    return TaggerComparison(
        names=tuple(named),
        baseline=base,
        test=test_name,
        correction=correction_name,
        alpha=alpha,
        confidence=confidence,
        reports=reports,
        intervals=intervals,
        pairs=pairs,
        provenance=provenance(
            scheme=reports[base].scheme,
            mode=reports[base].mode,
            test=test_name,
            n_resamples=n_resamples,
            ci_resamples=ci_resamples,
            seed=seed,
            confidence=confidence,
            correction=correction_name,
            alpha=alpha,
            statistic="micro span F1 of the resampled sentences",
            inputs={
                "y_true": gold.source or gold.name,
                **{n: s.source or n for n, s in named.items()},
            },
        ),
    )


def _pair_test(
    tagger: TaggingReport,
    base: TaggingReport,
    test: str,
    n_resamples: int,
    seed: int,
    confidence: float,
) -> tuple[float, float, float, float]:
    """(p-value, F1 difference, interval low, high) of one tagger against the baseline."""
    from ..stats import paired_bootstrap_test, stratified_shuffling_test

    a = tagger.sentence_counts.astype(np.float64)
    b = base.sentence_counts.astype(np.float64)
    boot = paired_bootstrap_test(
        a,
        b,
        micro_f1,
        n_resamples=n_resamples if test == "bootstrap" else CI_RESAMPLES,
        seed=seed,
        confidence=confidence,
    )
    pvalue = boot.pvalue
    if test == "randomization":
        pvalue = stratified_shuffling_test(
            a, b, micro_f1, n_resamples=n_resamples, seed=seed
        ).pvalue
    low, high = cast(tuple[float, float], boot.ci)
    return float(pvalue), float(boot.statistic), low, high
