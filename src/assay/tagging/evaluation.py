"""The evaluation of one tagger: every measure of the tagging family at once, per type and
averaged, with the spans, per-sentence counts and provenance (:func:`tagging_report` ->
:class:`TaggingReport`, which builds its own report, page and conlleval text)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._options import ZeroDivision
from .._result import Result, provenance, short
from ..errors import MetricError
from ..report.reported import Reported
from .conll import Tags, TagSequences
from .counts import SpanCounts, span_counts
from .options import SpanAverage, TaggingMode, TaggingScheme
from .partial import MATCH_SCHEMES, PartialCounts, partial_counts_all
from .spans import Spans, check_mode, check_scheme

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["AVERAGES", "TaggingReport", "tagging_report"]

IntArray = NDArray[np.int64]
AVERAGES: tuple[SpanAverage, ...] = ("micro", "macro", "weighted")
#: Columns of :meth:`TaggingReport.records`.
RECORD_COLUMNS = ("match", "type", "measure", "value", "aggregate")


#: The heading of the tagging family's section in the HTML report (``assay tagging --report``).
HEADING = "Tagging"
#: Micro averages shown by ``repr()``.
_HEADLINE = ("precision", "recall", "f1")


@dataclass(frozen=True, eq=False, repr=False)
class TaggingReport(Reported, Result):
    """Span (chunk) evaluation of one tagger against the gold tags.

    ``counts`` (:class:`~assay.tagging.counts.SpanCounts`): per type matched, predicted and
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

    Its outputs: :meth:`report` (the tables of ``assay tagging``, records named by
    ``name``), :meth:`document` and :meth:`html` (the ``--report`` page), :meth:`conlleval`
    (conlleval's text) and a one-screen ``repr()`` of the micro averages. Built by
    :func:`tagging_report`.

    Parameters
    ----------
    scheme, mode : str
        The tagging scheme and the span extraction mode.
    zero_division : float or "warn"
        The value of a measure whose denominator is 0.
    counts : SpanCounts
        The span and token counts.
    n_sentences : int
        The number of sentences.
    token_counts : mapping of str to int
        seqeval's token-level TP, FP, FN and TN.
    partial : mapping of str to PartialCounts
        nervaluate's counts for each match scheme, over every type.
    partial_types : mapping of str to mapping of str to PartialCounts
        The same per match scheme and type.
    sentence_counts : numpy.ndarray
        Matched, predicted and gold spans per sentence.
    provenance : mapping
        The settings that produced the result.
    name : str, optional
        The tagger's name in the report.

    Examples
    --------
    >>> from assay.tagging import tagging_report
    >>> rep = tagging_report([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "B-ORG"]])
    >>> rep.f1("micro"), rep.accuracy, rep.sentence_counts.tolist()
    (0.5, 0.75, [[1, 2, 2]])
    """

    family = "tagging"

    scheme: str
    mode: str
    zero_division: ZeroDivision
    counts: SpanCounts
    n_sentences: int
    token_counts: Mapping[str, int]
    partial: Mapping[str, PartialCounts]
    partial_types: Mapping[str, Mapping[str, PartialCounts]]
    sentence_counts: IntArray
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    #: The tagger's name in the report (None: its input, as in ``provenance``).
    name: str | None = None

    @property
    def tagger(self) -> str:
        """The tagger's name: ``name``, else its input (``provenance["inputs"]["y_pred"]``)."""
        if self.name is not None:
            return self.name
        return str(self.provenance.get("inputs", {}).get("y_pred", "y_pred"))

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
        """Span precision (matched / predicted spans): a float averaged by ``average`` (``micro``,
        ``macro``, ``weighted``), or per type, in the order of ``types`` (``None``)."""
        return self.counts.precision(_average(average), self.zero_division)

    def recall(self, average: SpanAverage | None = "micro") -> Any:
        """Span recall (matched / gold spans): a float averaged by ``average`` (``micro``,
        ``macro``, ``weighted``), or per type, in the order of ``types`` (``None``)."""
        return self.counts.recall(_average(average), self.zero_division)

    def f1(self, average: SpanAverage | None = "micro") -> Any:
        """Span F1 (2·matched / (predicted + gold spans)): a float averaged by ``average`` (``micro``,
        ``macro``, ``weighted``), or per type, in the order of ``types`` (``None``)."""
        return self.counts.f1(_average(average), self.zero_division)

    def __getitem__(self, name: str) -> float:
        """``report["f1"]`` (micro), ``report["macro f1"]``, ``report["accuracy"]``."""
        if name == "accuracy":
            return self.accuracy
        average, _, measure = name.rpartition(" ")
        if measure in ("precision", "recall", "f1"):
            return float(getattr(self, measure)(average or "micro"))
        raise KeyError(name)

    def report(self) -> Report:
        """The tables ``assay tagging`` prints for one tagger (see :mod:`assay.tagging.tables`)."""
        from .tables import single_report

        return single_report(self)

    def document(self) -> Document:
        """The ``--report`` page's content: the tables as one section, with the records and
        provenance."""
        from ..report.sections_tasks import tables_document

        return tables_document(HEADING, self.family, self.report())

    def conlleval(self) -> str:
        """conlleval's output for this tagger, byte for byte (``assay tagging -f conlleval``)."""
        from .conlleval import conlleval_text

        return conlleval_text(self)

    def __repr__(self) -> str:
        micro = ", ".join(f"{m}={float(getattr(self, m)()):.4f}" for m in _HEADLINE)
        return (
            f"TaggingReport(tagger={short(self.tagger, 100)}, scheme={self.scheme!r}, "
            f"mode={self.mode!r}, sentences={self.n_sentences}, tokens={self.n_tokens}, "
            f"types={short(self.types, 400)}, micro {micro}, accuracy={self.accuracy:.4f})"
        )

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
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    zero_division: ZeroDivision = 0,
    name: str | None = None,
) -> TaggingReport:
    """Every tagging measure of one prediction: span precision, recall, F1 and support per
    type and averaged (micro, macro, weighted), token accuracy and seqeval's token counts,
    nervaluate's four match schemes overall and per type, and the per-sentence counts.

    See :mod:`assay.tagging.measures` for the conventions, :mod:`assay.tagging.spans` for
    ``scheme`` and ``mode``.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence (seqeval's layout), or read
        from CoNLL column files (:func:`assay.tagging.read_conll`).
    scheme : {"iob1", "iob2", "ioe1", "ioe2", "bioes", "bilou", "io"}
        Which tag prefixes are allowed (``bio``, ``iobes``, ``biluo``: other names).
    mode : {"conlleval", "strict"}
        ``conlleval``: an I- tag may open a chunk; ``strict``: only well-formed chunks.
    zero_division : {0, 1, "nan"}
        The value of a ratio whose denominator is 0.
    name : str, optional
        The tagger's name in the report's records (default: its input).

    Returns
    -------
    TaggingReport
        Its measures, counts and spans; ``report()``, ``html()`` and ``conlleval()`` give
        what ``assay tagging`` prints and writes.

    Examples
    --------
    >>> from assay.tagging import tagging_report
    >>> gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    >>> pred = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    >>> rep = tagging_report(gold, pred, name="mine")
    >>> round(rep.f1(), 4), rep.accuracy, rep.types
    (0.6667, 0.8333333333333334, ('LOC', 'ORG', 'PER'))
    >>> print(rep.conlleval(), end="")
    processed 6 tokens with 3 phrases; found: 3 phrases; correct: 2.
    accuracy:  83.33%; precision:  66.67%; recall:  66.67%; FB1:  66.67
                  LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  0
                  ORG: precision:  50.00%; recall: 100.00%; FB1:  66.67  2
                  PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1
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
        name=name,
        provenance=provenance(
            scheme=scheme,
            mode=mode,
            zero_division=zero_division,
            inputs=inputs,
            tokens=counts.n_tokens,
            sentences=gold.n_sentences,
        ),
    )
