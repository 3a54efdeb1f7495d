"""Token classification (named entities, chunks): span precision, recall and F1 per type and
averaged, token accuracy, nervaluate's partial-match schemes, and paired significance tests
between taggers that resample sentences.

- measures (declared in the metric registry): :func:`span_precision`, :func:`span_recall`,
  :func:`span_f1`, :func:`token_accuracy`, :func:`ner_precision`, :func:`ner_recall`,
  :func:`ner_f1`;
- one tagger, everything at once: :func:`tagging_report` -> :class:`TaggingReport`;
- several taggers on one gold: :func:`compare_taggers` -> :class:`TaggerComparison`
  (:func:`micro_f1`: the statistic it tests, on per-sentence counts);
- spans: :func:`extract_spans` -> :class:`Spans` (or :meth:`Spans.from_sentences`),
  matched nervaluate's way by :func:`partial_counts`; files: :func:`read_conll` (CoNLL columns)
  -> :class:`ConllData` of :class:`TagSequences`.

Input: lists of sentences, each a list of tags (seqeval's layout), or tag sequences read
from CoNLL column files. ``scheme`` (iob1, iob2, ioe1, ioe2, bioes, bilou, io) says which
tags are allowed; ``mode`` how spans are read: ``conlleval`` (CoNLL-2000's conlleval and
seqeval's default: an I- tag may open a chunk) or ``strict`` (only well-formed chunks, as
seqeval's strict mode). The rules are in :mod:`assay.metrics.tagging_spans`, the measures'
conventions in :mod:`assay.metrics.tagging`, the matching in
:mod:`assay.metrics.tagging_partial`.
"""

from __future__ import annotations

from ..io.conll import ConllData, TagSequences, read_conll
from ..metrics.tagging import (
    SpanCounts,
    ner_f1,
    ner_precision,
    ner_recall,
    span_counts,
    span_f1,
    span_precision,
    span_recall,
    token_accuracy,
)
from ..metrics.tagging_partial import PartialCounts, partial_counts
from ..metrics.tagging_spans import Spans, extract_spans
from ._compare import TaggerComparison, TaggerPair, compare_taggers, micro_f1
from ._report import TaggingReport, tagging_report

__all__ = [
    "ConllData",
    "PartialCounts",
    "SpanCounts",
    "Spans",
    "TagSequences",
    "TaggerComparison",
    "TaggerPair",
    "TaggingReport",
    "compare_taggers",
    "extract_spans",
    "micro_f1",
    "ner_f1",
    "ner_precision",
    "ner_recall",
    "partial_counts",
    "read_conll",
    "span_counts",
    "span_f1",
    "span_precision",
    "span_recall",
    "tagging_report",
    "token_accuracy",
]
