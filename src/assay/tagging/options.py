"""The option values of the tagging family, as ``Literal`` types (typing only, cheap to
import: the CLI declares its options with them). Their validation is
:func:`assay._options.choice` over these types, in the family's functions."""

from __future__ import annotations

from typing import Literal

__all__ = [
    "TAGGING_SCHEME_ALIASES",
    "MatchScheme",
    "SpanAverage",
    "TaggingFormat",
    "TaggingMode",
    "TaggingScheme",
    "TaggingTest",
]

#: Which prefixes a tag may have (:mod:`assay.tagging.spans`).
TaggingScheme = Literal["iob1", "iob2", "ioe1", "ioe2", "bioes", "bilou", "io"]
#: Other names of tagging schemes (keys lower-case: names are matched ignoring case).
TAGGING_SCHEME_ALIASES = {"bio": "iob2", "iobes": "bioes", "biluo": "bilou"}
#: How spans are read: conlleval's way, or only well-formed chunks (seqeval's strict mode).
TaggingMode = Literal["conlleval", "strict"]
#: How span measures are averaged over the entity types.
SpanAverage = Literal["micro", "macro", "weighted"]
#: nervaluate's match schemes (:mod:`assay.tagging.partial`).
MatchScheme = Literal["strict", "exact", "partial", "type"]
#: The paired test between taggers, resampling sentences.
TaggingTest = Literal["bootstrap", "randomization"]
#: ``assay tagging``'s output formats: the common ones and conlleval's own layout.
TaggingFormat = Literal["table", "tsv", "csv", "jsonl", "json", "markdown", "latex", "conlleval"]
