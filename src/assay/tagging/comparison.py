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
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._options import Correction, ResamplingTest, ZeroDivision
from .._result import REPR_LIMIT, Result, provenance, short
from ..errors import InputError
from ..report.reported import Reported
from ..stats.pairs import PairResult
from .conll import Tags, TagSequences
from .evaluation import HEADING, TaggingReport, tagging_report
from .options import TaggingMode, TaggingScheme, TaggingTest

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["TaggerComparison", "TaggerPair", "compare_taggers", "evaluate", "micro_f1"]

DEFAULT_RESAMPLES = {"bootstrap": 1000, "randomization": 10000}
#: Bootstrap resamples of the intervals when the test is the randomisation test.
CI_RESAMPLES = 1000


def micro_f1(records: NDArray[np.float64], axis: int = 0) -> NDArray[np.float64]:
    """Span F1 of the summed per-sentence (matched, predicted, gold) counts along ``axis``:
    the statistic of the paired tests, recomputed from the resampled sentences.

    Parameters
    ----------
    records : array of shape (..., sentences, 3)
        Matched, predicted and gold spans per sentence
        (:attr:`TaggingReport.sentence_counts`), or resamples of them.
    axis : int
        The axis of the sentences.

    Returns
    -------
    numpy.ndarray
        2·Σmatched / (Σpredicted + Σgold), 0 where both sums are 0 (a 0-d array for one
        corpus).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.tagging import micro_f1
    >>> float(micro_f1(np.array([[1.0, 2.0, 1.0], [0.0, 0.0, 1.0]])))
    0.5
    """
    totals = np.sum(records, axis=axis)
    tp, pred, gold = totals[..., 0], totals[..., 1], totals[..., 2]
    den = pred + gold
    return np.where(den > 0, 2.0 * tp / np.where(den > 0, den, 1.0), 0.0)


def _f1_columns(tp: Any, pred: Any, gold: Any, axis: int = -1) -> Any:
    """The same statistic on the three counts given as separate samples (bootstrap_ci)."""
    return micro_f1(np.stack([tp, pred, gold], axis=-1), axis=axis if axis >= 0 else axis - 1)


#: One tagger against the baseline: :class:`assay.stats.PairResult` (``system`` is the
#: tagger, ``metric`` the micro span F1, ``n`` 0: a difference of corpus-level scores).
#: The name of the type tagging had before every family shared one.
TaggerPair = PairResult
#: The metric of the pairs: corpus-level micro span F1.
PAIR_METRIC = "span_f1"
#: Taggers and pairs a ``repr()`` lists before "… n more".
_SHOWN = 8


@dataclass(frozen=True, eq=False, repr=False)
class TaggerComparison(Reported, Result):
    """Taggers on the same gold tags (see the module docstring). ``reports[name]``: each
    tagger's :class:`TaggingReport`; ``intervals[name]``: the percentile bootstrap interval
    of its span F1; ``pairs``: every tagger but the baseline against it.

    ``records()``: per tagger its micro precision, recall, F1 (with interval) and token
    accuracy, then per pair the F1 difference (with interval, p-values and decision).

    Its outputs: :meth:`report` (the table of ``assay tagging`` with several taggers),
    :meth:`document` and :meth:`html` (the ``--report`` page), :meth:`conlleval` and a
    one-screen ``repr()`` with every tagger's F1 and every difference's p-value. Built by
    :func:`compare_taggers`.

    Parameters
    ----------
    names : tuple of str
        The taggers, in the order given.
    baseline : str
        The tagger the others are compared with.
    test, correction : str
        The paired test and the multiple-comparison correction of its p-values.
    alpha, confidence : float
        The significance level and the level of the intervals.
    reports : mapping of str to TaggingReport
        Each tagger's report.
    intervals : mapping of str to tuple of float
        The percentile bootstrap interval of each tagger's span F1.
    pairs : tuple of PairResult
        Every tagger but the baseline against it.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.tagging import compare_taggers
    >>> gold = [["B-PER", "I-PER", "O", "B-LOC"]] * 5
    >>> cmp = compare_taggers(gold, {"a": [["B-PER", "I-PER", "O", "B-ORG"]] * 5, "b": gold},
    ...                       n_resamples=100)
    >>> cmp.baseline, [p.system for p in cmp.pairs], round(cmp.reports["b"].f1("micro"), 4)
    ('a', ['b'], 1.0)
    """

    family = "tagging"

    names: tuple[str, ...]
    baseline: str
    test: str
    correction: str
    alpha: float
    confidence: float
    reports: Mapping[str, TaggingReport]
    intervals: Mapping[str, tuple[float, float]]
    pairs: tuple[PairResult, ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def pair(self, tagger: str) -> PairResult:
        """``tagger`` against the baseline (a ``KeyError`` if it is the baseline or unknown)."""
        for p in self.pairs:
            if p.system == tagger:
                return p
        raise KeyError(tagger)

    def report(self) -> Report:
        """The table ``assay tagging`` prints for several taggers (see
        :mod:`assay.tagging.tables`)."""
        from .tables import comparison_report

        return comparison_report(self)

    def document(self) -> Document:
        """The ``--report`` page's content: the table as one section, with the records and
        provenance."""
        from ..report.sections_tasks import tables_document

        return tables_document(HEADING, self.family, self.report())

    def conlleval(self) -> str:
        """conlleval's output per tagger, then a line per paired test (``-f conlleval``)."""
        from .conlleval import conlleval_text

        return conlleval_text(self)

    def __repr__(self) -> str:
        f1 = _listed(
            [f"{short(n, 50)}: {float(self.reports[n].f1()):.4f}" for n in self.names], ", "
        )
        pairs = _listed(
            [
                f"{short(p.system, 50)} diff={p.diff:+.4f} p={p.p_value:.4g} "
                f"p_adjusted={p.p_adjusted:.4g}{' *' if p.significant else ''}"
                for p in self.pairs
            ],
            "; ",
        )
        text = (
            f"TaggerComparison(baseline={short(self.baseline, 50)}, test={self.test!r}, "
            f"correction={self.correction!r}, alpha={self.alpha}, f1={{{f1}}}, pairs=[{pairs}])"
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 2] + "…)"

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
            row = _row(p.system, f"f1 diff vs {p.baseline}", p.diff, p.ci_low, p.ci_high)
            rows.append(
                row
                | {"pvalue": p.p_value, "p_adjusted": p.p_adjusted, "significant": p.significant}
            )
        return rows


def _listed(items: list[str], sep: str, shown: int = _SHOWN) -> str:
    """The first ``shown`` items, then how many more (a repr stays on one screen)."""
    more = f"{sep}… {len(items) - shown} more" if len(items) > shown else ""
    return sep.join(items[:shown]) + more


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


def _named(predictions: Mapping[str, Tags] | Sequence[Tags]) -> dict[str, TagSequences]:
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
    y_true: Tags,
    predictions: Mapping[str, Tags] | Sequence[Tags],
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
    """Evaluate several taggers on the same gold sentences and test each against
    ``baseline`` on span F1 by resampling sentences; see the module docstring.

    Parameters
    ----------
    y_true : list of sentences (lists of tags) or TagSequences
        The gold tags.
    predictions : mapping of name to sentences, or a list of them
        Each tagger's tags (a list: named tagger1, tagger2, ...).
    scheme, mode, zero_division
        As for :func:`tagging_report`.
    baseline : str, optional
        The tagger every other is tested against (default: the first).
    test : {"bootstrap", "randomization"}
        The paired test on corpus-level span F1.
    n_resamples : int, optional
        Resamples of the test (default 1000 bootstrap, 10000 randomization).
    seed : int
        One seed for every test and interval.
    confidence : float
        Of the bootstrap intervals.
    correction : str
        Of the p-values against the baseline (``holm``, ``bonferroni``, ``bh``, ``none``...).
    alpha : float
        ``significant`` is ``p_adjusted < alpha``.

    Returns
    -------
    TaggerComparison
        Each tagger's :class:`TaggingReport` and F1 interval, and its
        :class:`~assay.stats.PairResult` against the baseline.

    Examples
    --------
    >>> from assay.tagging import compare_taggers
    >>> gold = [["B-PER", "I-PER", "O"], ["B-LOC", "O"], ["O", "B-ORG"]]
    >>> good = [["B-PER", "I-PER", "O"], ["B-LOC", "O"], ["O", "B-ORG"]]
    >>> bad = [["B-PER", "O", "O"], ["O", "O"], ["O", "B-ORG"]]
    >>> cmp = compare_taggers(gold, {"good": good, "bad": bad}, n_resamples=200)
    >>> pair = cmp.pair("bad")
    >>> pair.system, pair.baseline, round(pair.diff, 4)
    ('bad', 'good', -0.6)
    """
    from ..stats import bootstrap_ci, correct

    checked = _check(test, n_resamples, seed, confidence, correction, alpha)
    test_name, n_resamples, seed, confidence, correction_name, alpha = checked
    gold = TagSequences.from_lists(y_true, "y_true")
    named = _named(predictions)
    base = next(iter(named)) if baseline is None else baseline
    if base not in named:
        raise InputError(f"baseline {base!r} is not one of the taggers ({', '.join(named)})")
    reports = {
        name: tagging_report(
            gold, pred, scheme=scheme, mode=mode, zero_division=zero_division, name=name
        )
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
    adjusted: Sequence[float] | NDArray[np.float64] = (
        correct([r[0] for r in tests.values()], correction=cast(Correction, correction_name))
        if tests
        else []
    )
    pairs = tuple(
        PairResult(
            system=name,
            baseline=base,
            metric=PAIR_METRIC,
            diff=diff,
            ci_low=low,
            ci_high=high,
            p_value=p,
            p_adjusted=float(q),
            significant=bool(q < alpha),
        )
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
    from ..stats import corpus_pair_test

    res = corpus_pair_test(
        tagger.sentence_counts.astype(np.float64),
        base.sentence_counts.astype(np.float64),
        micro_f1,
        test=cast(ResamplingTest, test),
        n_resamples=n_resamples,
        ci_resamples=CI_RESAMPLES,
        seed=seed,
        confidence=confidence,
    )
    low, high = cast(tuple[float, float], res.ci)
    return float(res.pvalue), float(res.statistic), low, high


def evaluate(
    gold: Tags,
    predictions: Mapping[str, Tags] | Sequence[Tags],
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
) -> TaggingReport | TaggerComparison:
    """What ``assay tagging`` computes: one tagger's :func:`tagging_report` (named by its
    key), or, for several, :func:`compare_taggers` (the test options apply only then).

    Parameters
    ----------
    gold : list of sentences (lists of tags) or TagSequences
        The gold tags.
    predictions : mapping of name to sentences, or a list of them
        The taggers' tags (a list: named tagger1, tagger2, ...).
    scheme, mode, zero_division
        As for :func:`tagging_report`.
    baseline, test, n_resamples, seed, confidence, correction, alpha
        As for :func:`compare_taggers`.

    Returns
    -------
    TaggingReport or TaggerComparison
        Its ``report()`` is the table ``assay tagging`` prints, ``html(title=...)`` the page
        its ``--report`` writes, ``conlleval()`` its ``-f conlleval`` text.

    Examples
    --------
    >>> from assay.tagging import evaluate
    >>> gold = [["B-PER", "I-PER", "O"], ["B-LOC", "O"]]
    >>> rep = evaluate(gold, {"mine": [["B-PER", "I-PER", "O"], ["O", "O"]]})
    >>> rep.tagger, round(rep.f1(), 4)
    ('mine', 0.6667)
    """
    named = _named(predictions)
    if len(named) == 1:
        name, pred = next(iter(named.items()))
        return tagging_report(
            gold, pred, scheme=scheme, mode=mode, zero_division=zero_division, name=name
        )
    return compare_taggers(
        gold,
        named,
        scheme=scheme,
        mode=mode,
        baseline=baseline,
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        confidence=confidence,
        correction=correction,
        alpha=alpha,
        zero_division=zero_division,
    )
