"""ROUGE of one system through rouge-score: per-item precision, recall and F-measure of
every type, their means and bootstrap intervals."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._options import BootstrapMethod
from .._result import Result, provenance
from ..errors import InputError
from ..report.reported import Reported
from ._scorers import (
    Streams,
    as_hypotheses,
    as_streams,
    keyword_data,
    make_rouge_scorer,
    rouge_items,
)
from .options import GENERATION_METRIC_ALIASES, RougeType

if TYPE_CHECKING:
    from ..report.output import Report

FloatArray = NDArray[np.float64]


ROUGE_MEASURES = ("precision", "recall", "fmeasure")


@dataclass(frozen=True, eq=False, repr=False)
class RougeScores(Result, Reported):
    """ROUGE of one system: for every type, per-item precision, recall and F-measure
    (``items[type]``, an (n, 3) array in that order), their means over the items (the
    corpus score, as rouge-score's aggregators) and, when asked for, bootstrap confidence
    intervals of the means. ``scores[type]["fmeasure"]`` is a mean (``result[type]`` is
    ``scores[type]``); ``records()`` has one row per type and measure, as ``report()``.
    Made by :func:`rouge`.

    Parameters
    ----------
    types : list of str
        The ROUGE types, in the order asked.
    items : mapping of str to ndarray of float
        Per type, an (n, 3) array: each item's precision, recall and F-measure.
    scores : mapping of str to mapping of str to float
        Per type, the means of ``precision``, ``recall`` and ``fmeasure``.
    intervals : mapping of str to mapping of str to (float, float)
        Per type and measure, the bootstrap interval of the mean (empty without
        ``confidence``, or with one item).
    provenance : mapping of str to any, optional
        assay's and Python's versions, the backend, the types, options, bootstrap settings
        and the numbers of items and reference streams.

    Examples
    --------
    >>> from assay.generation import rouge
    >>> r = rouge(
    ...     references=["a b c d", "e f g"],
    ...     hypotheses=["a b c e", "e f g"],
    ...     rouge_types=["rouge1", "rougeL"],
    ... )
    >>> r.types, r["rouge1"]["fmeasure"], r.items["rouge1"][:, 2].tolist()
    (['rouge1', 'rougeL'], 0.875, [0.75, 1.0])
    >>> len(r.records()), r.records()[0]["measure"]
    (6, 'precision')
    """

    family = "generation"

    types: list[str]
    items: Mapping[str, FloatArray]
    scores: Mapping[str, Mapping[str, float]]
    intervals: Mapping[str, Mapping[str, tuple[float, float]]]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __getitem__(self, rouge_type: str) -> Mapping[str, float]:
        return self.scores[rouge_type]

    def records(self) -> list[dict[str, Any]]:
        """One row per type and measure: ``rouge_type``, ``measure``, ``value``, ``ci_low``,
        ``ci_high`` (NaN without an interval)."""
        rows = []
        for t in self.types:
            for m in ROUGE_MEASURES:
                low, high = self.intervals.get(t, {}).get(m, (math.nan, math.nan))
                rows.append(
                    {
                        "rouge_type": t,
                        "measure": m,
                        "value": self.scores[t][m],
                        "ci_low": low,
                        "ci_high": high,
                    }
                )
        return rows

    def report(self) -> Report:
        from .report import records_report

        return records_report(self.records(), self.provenance)


def _rouge_types(rouge_types: Any) -> list[str]:
    if isinstance(rouge_types, str):
        rouge_types = [rouge_types]
    types = [
        cast(
            str,
            opt.choice(
                t, RougeType, "rouge_types", aliases=GENERATION_METRIC_ALIASES, ignore_case=True
            ),
        )
        for t in rouge_types
    ]
    if not types:
        raise InputError("rouge_types is empty")
    return list(dict.fromkeys(types))


@keyword_data("references", "hypotheses")
def rouge(
    *,
    references: Sequence[str] | Sequence[Sequence[str | None]],
    hypotheses: Sequence[str],
    rouge_types: Sequence[RougeType] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
    use_stemmer: bool = False,
    split_summaries: bool = False,
    confidence: float | None = None,
    ci_method: BootstrapMethod = "percentile",
    n_resamples: int = 1000,
    seed: int = 0,
) -> RougeScores:
    """ROUGE-N and ROUGE-L/Lsum (Lin 2004) precision, recall and F-measure of every item, by
    rouge-score's ``RougeScorer`` (its tokenizer: lower-cased, non-alphanumerics replaced by
    spaces, optional Porter stemming; ``rougeLsum`` splits summaries at newlines, or with
    nltk's sentence splitter if ``split_summaries``). With several references an item is
    scored by ``score_multi`` (the reference with the highest F-measure, per type).

    Corpus scores are the means over the items. With ``confidence`` (e.g. 0.95), each mean
    gets a bootstrap interval (:func:`assay.stats.bootstrap_mean_ci`: ``ci_method``,
    ``n_resamples``, ``seed``). rouge-score's ``BootstrapAggregator`` draws from NumPy's
    global random state and reports percentiles of the resampled means; the default
    percentile method is the same estimator, seeded and reproducible.

    Parameters
    ----------
    references, hypotheses
        As :func:`score` (keyword-only).
    rouge_types
        The ROUGE types scored.
    use_stemmer, split_summaries
        rouge-score's options.
    confidence, ci_method, n_resamples, seed
        The bootstrap intervals of the means (none when ``confidence`` is None).

    Returns
    -------
    RougeScores
        Per-item and mean precision, recall and F-measure of every type.

    Examples
    --------
    >>> from assay.generation import rouge
    >>> r = rouge(references=["a b c d"], hypotheses=["a b c e"], rouge_types=["rouge1"])
    >>> r["rouge1"]["fmeasure"]
    0.75
    """
    from ..stats import bootstrap_mean_ci

    hyps = as_hypotheses(hypotheses)
    streams = as_streams(references, len(hyps))
    types = _rouge_types(rouge_types)
    use_stemmer = opt.flag(use_stemmer, "use_stemmer")
    split_summaries = opt.flag(split_summaries, "split_summaries")
    confidence = None if confidence is None else opt.confidence(confidence)
    ci_method = cast(BootstrapMethod, opt.choice(ci_method, BootstrapMethod, "ci_method"))
    n_resamples = opt.n_resamples(n_resamples)
    seed = opt.seed(seed)
    scorer = make_rouge_scorer(types, use_stemmer=use_stemmer, split_summaries=split_summaries)
    items = _rouge_matrix(scorer, hyps, streams, types)
    scores = {
        t: dict(zip(ROUGE_MEASURES, items[t].mean(axis=0).tolist(), strict=True)) for t in types
    }
    intervals: dict[str, dict[str, tuple[float, float]]] = {}
    if confidence is not None and len(hyps) > 1:
        for t in types:
            low, high = bootstrap_mean_ci(
                items[t].T,
                n_resamples=n_resamples,
                seed=seed,
                ci_method=ci_method,
                confidence=confidence,
            )
            intervals[t] = {
                m: (float(low[k]), float(high[k])) for k, m in enumerate(ROUGE_MEASURES)
            }
    return RougeScores(
        types=types,
        items=items,
        scores=scores,
        intervals=intervals,
        provenance=provenance(
            backend="rouge-score",
            rouge_types=types,
            use_stemmer=use_stemmer,
            split_summaries=split_summaries,
            confidence=confidence,
            ci_method=ci_method if confidence is not None else None,
            n_resamples=n_resamples if confidence is not None else None,
            seed=seed if confidence is not None else None,
            n_items=len(hyps),
            n_references=len(streams),
        ),
    )


def _rouge_matrix(
    scorer: Any, hyps: list[str], streams: Streams, types: list[str]
) -> dict[str, FloatArray]:
    """(n, 3) arrays of precision, recall and F-measure, per type."""
    rows = rouge_items(scorer, hyps, streams)
    return {t: np.array([tuple(r[t]) for r in rows], dtype=np.float64) for t in types}
