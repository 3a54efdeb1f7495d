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

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from ._corpus import GenerationScore as GenerationScore
    from ._corpus import bleu as bleu
    from ._corpus import chrf as chrf
    from ._corpus import score as score
    from ._corpus import sentence_bleu as sentence_bleu
    from ._corpus import sentence_chrf as sentence_chrf
    from ._corpus import sentence_ter as sentence_ter
    from ._corpus import ter as ter
    from ._rouge import RougeScores as RougeScores
    from ._rouge import rouge as rouge
    from ._scorers import GenerationMetric as GenerationMetric
    from ._scorers import configure_metrics as configure_metrics
    from ._scorers import metric as metric
    from ._significance import SystemComparison as SystemComparison
    from ._significance import SystemScore as SystemScore
    from ._significance import compare_systems as compare_systems
    from .reader import read_reference_streams as read_reference_streams
    from .report import generation_report as generation_report

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
