"""The evaluation of one tagger: every measure of the tagging family at once, per type and
averaged, with the spans, per-sentence counts and provenance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._options import SpanAverage, TaggingMode, TaggingScheme, ZeroDivision
from .._result import Result, provenance
from ..errors import MetricError
from ..io.conll import TagSequences
from ..metrics.tagging import SpanCounts, span_counts
from ..metrics.tagging_partial import MATCH_SCHEMES, PartialCounts, partial_counts_all
from ..metrics.tagging_spans import Spans, check_mode, check_scheme

__all__ = ["AVERAGES", "TaggingReport", "tagging_report"]

IntArray = NDArray[np.int64]
AVERAGES: tuple[SpanAverage, ...] = ("micro", "macro", "weighted")
#: Columns of :meth:`TaggingReport.records`.
RECORD_COLUMNS = ("match", "type", "measure", "value", "aggregate")


@dataclass(frozen=True, eq=False)
class TaggingReport(Result):
    """Span (chunk) evaluation of one tagger against the gold tags.

    ``counts`` (:class:`~assay.metrics.tagging.SpanCounts`): per type matched, predicted and
    gold spans, the spans and which matched; :meth:`precision`, :meth:`recall`, :meth:`f1`
    per type (``average=None``) or averaged; ``accuracy`` (token accuracy);
    ``token_counts``: seqeval's ``performance_measure`` (TP: equal tags other than O, FP:
    a wrong non-O prediction, FN: a non-O gold tag predicted O, TN: both O); ``partial``:
    nervaluate's counts for each match scheme overall, ``partial_types`` per type;
    ``sentence_counts``: (sentences × 3) matched, predicted and gold spans per sentence,
    the per-item values of the significance tests.

    ``records()``: long rows ``{match, type, measure, value, aggregate}``: ``match`` is
    ``span`` (exact spans), ``token`` or a match scheme (``strict``, ``exact``, ``partial``,
    ``type``). A row of one entity type has its ``type`` and ``aggregate`` None; a row over
    the types has ``type`` None and ``aggregate`` ``micro``/``macro``/``weighted`` (span
    averages) or ``overall`` (tokens, and each match scheme's totals), so that no entity type
    (``all``, say) can be taken for an aggregate.
    """

    scheme: str
    mode: str
    zero_division: ZeroDivision
    counts: SpanCounts
    n_sentences: int
    token_counts: Mapping[str, int]
    partial: Mapping[str, PartialCounts]
    partial_types: Mapping[str, Mapping[str, PartialCounts]]
    sentence_counts: IntArray
    provenance: Mapping[str, Any] = field(default_factory=dict)

    @property
    def types(self) -> tuple[str, ...]:
        return self.counts.types

    @property
    def n_tokens(self) -> int:
        return self.counts.n_tokens

    @property
    def accuracy(self) -> float:
        return self.counts.token_accuracy

    @property
    def gold_spans(self) -> Spans:
        return self.counts.gold_spans

    @property
    def pred_spans(self) -> Spans:
        return self.counts.pred_spans

    def precision(self, average: SpanAverage | None = "micro") -> Any:
        return self.counts.precision(_average(average), self.zero_division)

    def recall(self, average: SpanAverage | None = "micro") -> Any:
        return self.counts.recall(_average(average), self.zero_division)

    def f1(self, average: SpanAverage | None = "micro") -> Any:
        return self.counts.f1(_average(average), self.zero_division)

    def __getitem__(self, name: str) -> float:
        """``report["f1"]`` (micro), ``report["macro f1"]``, ``report["accuracy"]``."""
        if name == "accuracy":
            return self.accuracy
        average, _, measure = name.rpartition(" ")
        if measure in ("precision", "recall", "f1"):
            return float(getattr(self, measure)(average or "micro"))
        raise KeyError(name)

    def records(self) -> list[dict[str, Any]]:
        rows = self._span_rows()
        rows += [
            {"match": "token", "type": None, "measure": k, "value": v, "aggregate": "overall"}
            for k, v in self._token_values().items()
        ]
        zd = _zero(self.zero_division)
        for match in MATCH_SCHEMES:
            groups = [(None, self.partial[match]), *self.partial_types[match].items()]
            for kind, c in groups:
                values = {**c.as_dict(), "precision": c.precision(zd), "recall": c.recall(zd)}
                values["f1"] = c.f1(zd)
                marker = "overall" if kind is None else None
                rows += [
                    {"match": match, "type": kind, "measure": k, "value": v, "aggregate": marker}
                    for k, v in values.items()
                ]
        return rows

    def _span_rows(self) -> list[dict[str, Any]]:
        c = self.counts
        per_type = (self.precision(None), self.recall(None), self.f1(None))
        rows = []
        for i, kind in enumerate(c.types):
            values = {
                "precision": float(per_type[0][i]),
                "recall": float(per_type[1][i]),
                "f1": float(per_type[2][i]),
                "support": int(c.gold[i]),
                "predicted": int(c.pred[i]),
                "correct": int(c.tp[i]),
            }
            rows += [
                {"match": "span", "type": kind, "measure": k, "value": v, "aggregate": None}
                for k, v in values.items()
            ]
        for average in AVERAGES:
            values = {
                "precision": self.precision(average),
                "recall": self.recall(average),
                "f1": self.f1(average),
                "support": int(c.gold.sum()),
            }
            if average == "micro":
                values |= {"predicted": int(c.pred.sum()), "correct": int(c.tp.sum())}
            rows += [
                {"match": "span", "type": None, "measure": k, "value": v, "aggregate": average}
                for k, v in values.items()
            ]
        return rows

    def _token_values(self) -> dict[str, Any]:
        return {
            "accuracy": self.accuracy,
            "tokens": self.n_tokens,
            "sentences": self.n_sentences,
            "correct": self.counts.correct_tokens,
            **{k.lower(): v for k, v in self.token_counts.items()},
        }


def _average(average: SpanAverage | None) -> str | None:
    return (
        None if average is None else opt.choice(average, SpanAverage, "average", error=MetricError)
    )


def _zero(zero_division: ZeroDivision) -> float:
    return float("nan") if zero_division == "nan" else float(zero_division)


def sentence_counts(counts: SpanCounts, n_sentences: int) -> IntArray:
    """(sentences × 3): matched, predicted and gold spans of every sentence."""
    gold, pred = counts.gold_spans, counts.pred_spans
    return np.stack(
        [
            np.bincount(gold.sentence[counts.gold_hit], minlength=n_sentences),
            np.bincount(pred.sentence, minlength=n_sentences),
            np.bincount(gold.sentence, minlength=n_sentences),
        ],
        axis=1,
    ).astype(np.int64)


def _described(seqs: TagSequences) -> str:
    return f"{seqs.source} ({seqs.name})" if seqs.source is not None else seqs.name


def tagging_report(
    y_true: Any,
    y_pred: Any,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    zero_division: ZeroDivision = 0,
) -> TaggingReport:
    """Every tagging measure of one prediction: span precision, recall, F1 and support per
    type and averaged (micro, macro, weighted), token accuracy and seqeval's token counts,
    nervaluate's four match schemes overall and per type, and the per-sentence counts.

    ``y_true``, ``y_pred``: lists of sentences (lists of tags) or
    :class:`~assay.io.conll.TagSequences` (:func:`assay.io.conll.read_conll`). See
    :mod:`assay.metrics.tagging` for the conventions, :mod:`assay.metrics.tagging_spans`
    for ``scheme`` and ``mode``.
    """
    scheme, mode = check_scheme(scheme), check_mode(mode)
    zero_division = opt.choice(zero_division, opt.ZeroDivision, "zero_division", error=MetricError)
    gold = TagSequences.from_lists(y_true, "y_true")
    pred = TagSequences.from_lists(y_pred, "y_pred")
    counts = span_counts(gold, pred, scheme=scheme, mode=mode)
    matched = partial_counts_all(counts.gold_spans, counts.pred_spans, MATCH_SCHEMES)
    partial = {match: overall for match, (overall, _) in matched.items()}
    partial_types = {match: per_type for match, (_, per_type) in matched.items()}
    inputs = {"y_true": _described(gold), "y_pred": _described(pred)}
    return TaggingReport(
        scheme=scheme,
        mode=mode,
        zero_division=zero_division,
        counts=counts,
        n_sentences=gold.n_sentences,
        token_counts=counts.token_counts,
        partial=partial,
        partial_types=partial_types,
        sentence_counts=sentence_counts(counts, gold.n_sentences),
        provenance=provenance(
            scheme=scheme,
            mode=mode,
            zero_division=zero_division,
            inputs=inputs,
            tokens=counts.n_tokens,
            sentences=gold.n_sentences,
        ),
    )
