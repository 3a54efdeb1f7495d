"""The option types of :mod:`assay.generation` (typing only: importing this module is cheap,
so the CLI imports it at module level). Their validators are in :mod:`assay._options`."""

from __future__ import annotations

from typing import Literal

__all__ = [
    "GENERATION_METRIC_ALIASES",
    "BleuSmoothing",
    "BleuTokenize",
    "GenerationMetricName",
    "GenerationTest",
    "RougeType",
]

#: The generation metrics: sacrebleu's and rouge-score's.
GenerationMetricName = Literal[
    "bleu",
    "chrf",
    "chrf++",
    "ter",
    "rouge1",
    "rouge2",
    "rougeL",
    "rougeLsum",
]
#: Other spellings of generation metrics (keys lower-case: names are matched ignoring case).
GENERATION_METRIC_ALIASES = {
    "rougel": "rougeL",
    "rougelsum": "rougeLsum",
    "rouge-1": "rouge1",
    "rouge-2": "rouge2",
    "rouge-l": "rougeL",
    "rouge-lsum": "rougeLsum",
    "chrf2": "chrf",
    "chrf2++": "chrf++",
    "chrfpp": "chrf++",
    "sacrebleu": "bleu",
}
#: rouge-score's ROUGE types.
RougeType = Literal["rouge1", "rouge2", "rougeL", "rougeLsum"]
#: sacrebleu's BLEU tokenisers.
BleuTokenize = Literal[
    "13a",
    "none",
    "intl",
    "char",
    "zh",
    "ja-mecab",
    "ko-mecab",
    "spm",
    "flores101",
    "flores200",
    "spBLEU-1K",
]
#: sacrebleu's BLEU smoothing methods (Chen & Cherry 2014).
BleuSmoothing = Literal["exp", "floor", "add-k", "none"]
#: sacrebleu's paired tests: bootstrap resampling or approximate randomisation.
GenerationTest = Literal["bootstrap", "randomization"]
