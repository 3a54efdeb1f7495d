"""Generation evaluation (translation, summarisation, question answering, paraphrase):
BLEU, chrF/chrF++ and TER through sacrebleu, ROUGE-1/2/L/Lsum through rouge-score (both in
the ``nlp`` extra: ``pip install 'assay[nlp]'``), with per-item values, provenance
(sacrebleu's signature), bootstrap confidence intervals and sacrebleu's paired significance
tests between systems, corrected for multiple comparisons.

- one system: :func:`bleu`, :func:`chrf`, :func:`ter` (corpus), :func:`sentence_bleu`,
  :func:`sentence_chrf`, :func:`sentence_ter`, :func:`score` (any metric by name) ->
  :class:`GenerationScore`; :func:`rouge` -> :class:`RougeScores`;
- several systems: :func:`compare_systems` -> :class:`SystemComparison` (its ``report()``
  and ``html()`` are what ``assay generation`` prints and writes);
- metrics with options: :func:`metric` (``metric("bleu", tokenize="intl")``),
  :func:`configure_metrics` (options shared across metrics, as the CLI's flags);
- the metric registry's declarations (``assay metrics --family generation``):
  :mod:`assay.generation.measures`; option types: :mod:`assay.generation.options`.

Data arguments: the references come first, then the hypotheses (assay's rule, gold first:
see docs/parameters.md). :func:`compare_systems` and the registry's measures take them
positionally; :func:`score`, :func:`bleu`, :func:`chrf`, :func:`ter`, :func:`rouge` and the
``sentence_*`` functions take them by keyword only (``references=``, ``hypotheses=`` or
``hypothesis=``): sacrebleu's positional order is the reverse, so a positional call raises a
``TypeError`` instead of scoring the data swapped.

References are one stream (a sequence of strings, one per item) or several streams
(sacrebleu's layout: ``references[j][i]`` is the j-th reference of item i; ``None`` where an
item has fewer references). Plain-text files: :func:`assay.io.segments.read_segments` and
:func:`read_reference_streams`.
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY = {
    "GenerationMetric": "_scorers",
    "GenerationScore": "_corpus",
    "RougeScores": "_rouge",
    "SystemComparison": "_significance",
    "SystemScore": "_significance",
    "bleu": "_corpus",
    "chrf": "_corpus",
    "compare_systems": "_significance",
    "configure_metrics": "_scorers",
    "generation_report": "report",
    "metric": "_scorers",
    "read_reference_streams": "reader",
    "rouge": "_rouge",
    "score": "_corpus",
    "sentence_bleu": "_corpus",
    "sentence_chrf": "_corpus",
    "sentence_ter": "_corpus",
    "ter": "_corpus",
}

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
