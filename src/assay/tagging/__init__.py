"""Token classification (named entities, chunks): span precision, recall and F1 per type and
averaged, token accuracy, nervaluate's partial-match schemes, and paired significance tests
between taggers that resample sentences.

- measures (declared in the metric registry, :mod:`assay.tagging.measures`):
  :func:`span_precision`, :func:`span_recall`, :func:`span_f1`, :func:`token_accuracy`,
  :func:`ner_precision`, :func:`ner_recall`, :func:`ner_f1`;
- one tagger, everything at once: :func:`tagging_report` -> :class:`TaggingReport`;
- several taggers on one gold: :func:`compare_taggers` -> :class:`TaggerComparison`
  (:func:`micro_f1`: the statistic it tests, on per-sentence counts; each tagger against the
  baseline: a :class:`~assay.stats.PairResult`, once called :data:`TaggerPair`);
- what ``assay tagging`` computes, one tagger or several: :func:`evaluate`; every result
  builds its own outputs (``report()``, ``html()``, ``conlleval()``; :func:`conlleval_text`);
- spans: :func:`extract_spans` -> :class:`Spans` (or :meth:`Spans.from_sentences`),
  matched nervaluate's way by :func:`partial_counts`; files: :func:`read_conll` (CoNLL columns)
  -> :class:`ConllData` of :class:`TagSequences`.

Input: lists of sentences, each a list of tags (seqeval's layout), or tag sequences read
from CoNLL column files. ``scheme`` (iob1, iob2, ioe1, ioe2, bioes, bilou, io) says which
tags are allowed; ``mode`` how spans are read: ``conlleval`` (CoNLL-2000's conlleval and
seqeval's default: an I- tag may open a chunk) or ``strict`` (only well-formed chunks, as
seqeval's strict mode). The rules are in :mod:`assay.tagging.spans`, the measures'
conventions in :mod:`assay.tagging.measures`, the matching in :mod:`assay.tagging.partial`,
the option values in :mod:`assay.tagging.options`.

Modules, by role: :mod:`~assay.tagging.conll` (the data type and the reader),
:mod:`~assay.tagging.spans`, :mod:`~assay.tagging.partial`, :mod:`~assay.tagging.counts`,
:mod:`~assay.tagging.measures`,
:mod:`~assay.tagging.evaluation` (one tagger), :mod:`~assay.tagging.comparison` (several),
:mod:`~assay.tagging.tables` and :mod:`~assay.tagging.conlleval` (their outputs). Their
public names load lazily from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import LazyNames

_LAZY = {
    # data and reader
    "ConllData": "conll",
    "TagSequences": "conll",
    "read_conll": "conll",
    # spans and counts
    "Spans": "spans",
    "extract_spans": "spans",
    "PartialCounts": "partial",
    "partial_counts": "partial",
    "SpanCounts": "counts",
    "span_counts": "counts",
    # measures
    "span_precision": "measures",
    "span_recall": "measures",
    "span_f1": "measures",
    "token_accuracy": "measures",
    "ner_precision": "measures",
    "ner_recall": "measures",
    "ner_f1": "measures",
    # one tagger, several
    "TaggingReport": "evaluation",
    "tagging_report": "evaluation",
    "TaggerComparison": "comparison",
    "TaggerPair": "comparison",
    "compare_taggers": "comparison",
    "evaluate": "comparison",
    "micro_f1": "comparison",
    # outputs
    "conlleval_text": "conlleval",
}


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .comparison import TaggerComparison as TaggerComparison
    from .comparison import TaggerPair as TaggerPair
    from .comparison import compare_taggers as compare_taggers
    from .comparison import evaluate as evaluate
    from .comparison import micro_f1 as micro_f1
    from .conll import ConllData as ConllData
    from .conll import TagSequences as TagSequences
    from .conll import read_conll as read_conll
    from .conlleval import conlleval_text as conlleval_text
    from .counts import SpanCounts as SpanCounts
    from .counts import span_counts as span_counts
    from .evaluation import TaggingReport as TaggingReport
    from .evaluation import tagging_report as tagging_report
    from .measures import ner_f1 as ner_f1
    from .measures import ner_precision as ner_precision
    from .measures import ner_recall as ner_recall
    from .measures import span_f1 as span_f1
    from .measures import span_precision as span_precision
    from .measures import span_recall as span_recall
    from .measures import token_accuracy as token_accuracy
    from .partial import PartialCounts as PartialCounts
    from .partial import partial_counts as partial_counts
    from .spans import Spans as Spans
    from .spans import extract_spans as extract_spans

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = sorted(_LAZY)
