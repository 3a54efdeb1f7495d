"""Generation evaluation (translation, summarisation, question answering, paraphrase):
BLEU, chrF/chrF++ and TER through sacrebleu, ROUGE-1/2/L/Lsum through rouge-score (both in
the ``nlp`` extra: ``pip install 'assay[nlp]'``), with per-item values, provenance
(sacrebleu's signature), bootstrap confidence intervals and sacrebleu's paired significance
tests between systems, corrected for multiple comparisons.

- one system: :func:`bleu`, :func:`chrf`, :func:`ter` (corpus), :func:`sentence_bleu`,
  :func:`sentence_chrf`, :func:`sentence_ter`, :func:`score` (any metric by name) ->
  :class:`GenerationScore`; :func:`rouge` -> :class:`RougeScores`;
- several systems: :func:`compare_systems` -> :class:`SystemComparison`;
- metrics with options: :func:`metric` (``metric("bleu", tokenize="intl")``).

References are one stream (a sequence of strings, one per item) or several streams
(sacrebleu's layout: ``references[j][i]`` is the j-th reference of item i; ``None`` where an
item has fewer references). Plain-text files: :mod:`assay.io.segments`.
"""

from __future__ import annotations

from ._corpus import (
    GenerationScore,
    RougeScores,
    bleu,
    chrf,
    rouge,
    score,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
    ter,
)
from ._scorers import GenerationMetric, metric
from ._significance import SystemComparison, SystemScore, compare_systems

__all__ = [
    "GenerationMetric",
    "GenerationScore",
    "RougeScores",
    "SystemComparison",
    "SystemScore",
    "bleu",
    "chrf",
    "compare_systems",
    "metric",
    "rouge",
    "score",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "ter",
]
