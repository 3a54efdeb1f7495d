"""Token classification (tagging): chunk/entity precision, recall and F1 from tag sequences,
token accuracy, and nervaluate's partial-match measures.

Every measure takes ``y_true`` and ``y_pred`` positionally -- lists of sentences, each a
list of tags (seqeval's layout), or :class:`~assay.tagging.conll.TagSequences` read from a CoNLL
file -- and its options keyword-only; all are declared in the metric registry (``assay
metrics``, ``docs/metrics.md``). Spans come from :mod:`assay.tagging.spans`
(``scheme``, ``mode``), partial matches from :mod:`assay.tagging.partial`, the counts
behind the span measures from :mod:`assay.tagging.counts`.

Conventions (names follow ``docs/parameters.md``):

- A gold and a predicted span match when they have the same start, end and type (conlleval,
  seqeval). Per type: precision = matched / predicted, recall = matched / gold, F1 =
  2·matched / (predicted + gold); support = gold spans. Types are those of either side,
  sorted (conlleval and seqeval list them so).
- ``average``: ``micro`` (counts summed over types first: conlleval's overall line and
  seqeval's ``micro avg``), ``macro`` (unweighted mean over types), ``weighted`` (mean
  weighted by support; all supports 0: the unweighted mean).
- ``zero_division``: the value of a ratio whose denominator is 0 (precision of a type never
  predicted, recall of a type absent from the gold, anything with no spans at all): ``0``
  (default; conlleval's and seqeval's), ``1`` or ``"nan"`` (left out of macro and weighted
  means). With no span on either side, the macro mean is the ``zero_division`` value, as
  the micro and weighted ones are (seqeval gives NaN there, a mean of nothing).
- Sentences of different lengths, different sentence counts and tags that the scheme does
  not allow are :class:`~assay.errors.InputError`\\s naming the file and line (or the
  position in the lists). Empty input (no tokens) is an
  :class:`~assay.errors.EmptyInputError`.
"""

from __future__ import annotations

import functools

import pyarrow.compute as pc

from .._options import ZeroDivision, choice
from ..errors import EmptyInputError, MetricError
from ..metrics.labels import ZERO_DIVISION, zero_division_value
from ..metrics.registry import FROM_SIGNATURE, Param, Peer, measure, one_of
from .conll import Tags, TagSequences, check_aligned
from .counts import SpanCounts, match_spans, prepare, span_counts
from .options import MatchScheme, SpanAverage, TaggingMode, TaggingScheme
from .partial import PartialCounts, partial_counts
from .spans import check_mode, check_scheme

__all__ = [
    "SpanCounts",
    "match_spans",
    "ner_f1",
    "ner_precision",
    "ner_recall",
    "span_counts",
    "span_f1",
    "span_precision",
    "span_recall",
    "token_accuracy",
]

FAMILY = "tagging"

SCHEME = Param(
    "scheme",
    FROM_SIGNATURE,
    check_scheme,
    "tagging scheme: iob1, iob2 (bio), ioe1, ioe2, bioes (iobes), bilou, io",
)
MODE = Param(
    "mode",
    FROM_SIGNATURE,
    check_mode,
    "conlleval (an I- tag may open a chunk, as conlleval and seqeval's default) or strict "
    "(only well-formed chunks of the scheme, as seqeval's strict mode)",
)
SPAN_AVERAGE = Param(
    "average",
    FROM_SIGNATURE,
    one_of("average", SpanAverage),
    "micro (counts summed over types), macro (unweighted mean over types), weighted (by support)",
)
MATCH = Param(
    "match",
    FROM_SIGNATURE,
    one_of("match", MatchScheme),
    "nervaluate's scheme: strict (boundaries and type), exact (boundaries), partial (overlap, "
    "half credit), type (overlap and type)",
)

_tags_measure = functools.partial(measure, family=FAMILY, input="tag sequences")
_span_measure = functools.partial(_tags_measure, params=(SCHEME, MODE, SPAN_AVERAGE, ZERO_DIVISION))
_ner_measure = functools.partial(_tags_measure, params=(SCHEME, MODE, MATCH, ZERO_DIVISION))


# ---------------------------------------------------------------- span measures


@_span_measure(
    aliases=("chunk_precision",),
    peers=(
        Peer("seqeval", "seqeval.metrics.precision_score"),
        Peer("conlleval", "conlleval", "Reports percentages (x 100)."),
    ),
)
def span_precision(
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    average: SpanAverage = "micro",
    zero_division: ZeroDivision = 0,
) -> float:
    """Span precision: matched spans / predicted spans, a span matching a gold span of the
    same start, end and type (conlleval's and seqeval's precision; Tjong Kim Sang & Buchholz
    2000, CoNLL-2000 shared task).

    Reference: Tjong Kim Sang & Buchholz (2000), "Introduction to the CoNLL-2000 shared task:
    chunking", CoNLL; conlleval.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence.
    scheme : {"iob1", "iob2", "ioe1", "ioe2", "bioes", "bilou", "io"}
        Which tag prefixes are allowed.
    mode : {"conlleval", "strict"}
        ``conlleval``: an I- tag may open a chunk; ``strict``: only well-formed chunks.
    average : {"micro", "macro", "weighted"}
        How the types are combined (see the module docstring).
    zero_division : {0, 1, "nan"}
        The value of a ratio whose denominator is 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.tagging import span_precision
    >>> gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    >>> pred = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    >>> round(span_precision(gold, pred), 4), span_precision(gold, pred, average="macro")
    (0.6667, 0.5)
    """
    counts = span_counts(y_true, y_pred, scheme=scheme, mode=mode)
    return float(counts.precision(average, zero_division))


@_span_measure(
    aliases=("chunk_recall",),
    peers=(
        Peer("seqeval", "seqeval.metrics.recall_score"),
        Peer("conlleval", "conlleval", "Reports percentages (x 100)."),
    ),
)
def span_recall(
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    average: SpanAverage = "micro",
    zero_division: ZeroDivision = 0,
) -> float:
    """Span recall: matched spans / gold spans (conlleval's and seqeval's recall; Tjong Kim
    Sang & Buchholz 2000).

    Reference: Tjong Kim Sang & Buchholz (2000), "Introduction to the CoNLL-2000 shared task:
    chunking", CoNLL; conlleval.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence.
    scheme : {"iob1", "iob2", "ioe1", "ioe2", "bioes", "bilou", "io"}
        Which tag prefixes are allowed.
    mode : {"conlleval", "strict"}
        ``conlleval``: an I- tag may open a chunk; ``strict``: only well-formed chunks.
    average : {"micro", "macro", "weighted"}
        How the types are combined (see the module docstring).
    zero_division : {0, 1, "nan"}
        The value of a ratio whose denominator is 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.tagging import span_recall
    >>> gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    >>> pred = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    >>> round(span_recall(gold, pred), 4), round(span_recall(gold, pred, average="macro"), 4)
    (0.6667, 0.6667)
    """
    counts = span_counts(y_true, y_pred, scheme=scheme, mode=mode)
    return float(counts.recall(average, zero_division))


@_span_measure(
    aliases=("chunk_f1", "fb1"),
    peers=(
        Peer("seqeval", "seqeval.metrics.f1_score"),
        Peer("conlleval", "conlleval", "Reports FB1 as a percentage (x 100)."),
    ),
)
def span_f1(
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    average: SpanAverage = "micro",
    zero_division: ZeroDivision = 0,
) -> float:
    """Span F1 = 2·matched / (predicted + gold), the harmonic mean of span precision and
    recall (conlleval's FB1 / 100, seqeval's f1_score; Tjong Kim Sang & Buchholz 2000).

    Reference: Tjong Kim Sang & Buchholz (2000), "Introduction to the CoNLL-2000 shared task:
    chunking", CoNLL; conlleval.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence.
    scheme : {"iob1", "iob2", "ioe1", "ioe2", "bioes", "bilou", "io"}
        Which tag prefixes are allowed.
    mode : {"conlleval", "strict"}
        ``conlleval``: an I- tag may open a chunk; ``strict``: only well-formed chunks.
    average : {"micro", "macro", "weighted"}
        How the types are combined (see the module docstring).
    zero_division : {0, 1, "nan"}
        The value of a ratio whose denominator is 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.tagging import span_f1
    >>> gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    >>> pred = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    >>> round(span_f1(gold, pred), 4), round(span_f1(gold, pred, average="macro"), 4)
    (0.6667, 0.5556)
    """
    counts = span_counts(y_true, y_pred, scheme=scheme, mode=mode)
    return float(counts.f1(average, zero_division))


@_tags_measure(
    aliases=("tag_accuracy",),
    peers=(
        Peer("seqeval", "seqeval.metrics.accuracy_score"),
        Peer("conlleval", "conlleval", "Reports accuracy as a percentage (x 100)."),
    ),
)
def token_accuracy(y_true: Tags, y_pred: Tags) -> float:
    """Token accuracy = tokens whose predicted tag equals the gold tag / tokens (conlleval's
    accuracy / 100, seqeval's accuracy_score).

    Reference: Tjong Kim Sang & Buchholz (2000), "Introduction to the CoNLL-2000 shared task:
    chunking", CoNLL; conlleval.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence (of equal lengths).

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.tagging import token_accuracy
    >>> gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    >>> pred = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    >>> round(token_accuracy(gold, pred), 4)
    0.8333
    """
    gold = TagSequences.from_lists(y_true, "y_true")
    pred = TagSequences.from_lists(y_pred, "y_pred")
    check_aligned(gold, pred)
    if gold.n_tokens == 0:
        raise EmptyInputError("no tags to evaluate (every sentence is empty)")
    return int(pc.sum(pc.equal(gold.tags, pred.tags)).as_py() or 0) / gold.n_tokens


# ---------------------------------------------------------------- nervaluate's measures


def ner_counts(
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    match: MatchScheme = "strict",
) -> tuple[PartialCounts, dict[str, PartialCounts]]:
    """nervaluate's counts (overall, per type) of one ``match`` scheme."""
    scheme, mode = check_scheme(scheme), check_mode(mode)
    match = choice(match, MatchScheme, "match", error=MetricError)
    _, gold, pred = prepare(y_true, y_pred, scheme, mode)
    overall, per_type = partial_counts(gold, pred, match)
    return overall, dict(per_type)


#: nervaluate computes the partial-match measures, every scheme at once.
_NERVALUATE = (
    Peer(
        "nervaluate",
        "nervaluate.Evaluator",
        "Reports every match scheme at once; assay computes one (match).",
    ),
)


@_ner_measure(peers=_NERVALUATE)
def ner_precision(
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    match: MatchScheme = "strict",
    zero_division: ZeroDivision = 0,
) -> float:
    """nervaluate's precision of a ``match`` scheme: (correct + ½·partial) / actual, actual =
    predicted spans (Segura-Bedmar et al. 2013, SemEval-2013 task 9.1; nervaluate).

    Reference: Segura-Bedmar, Martínez & Herrero-Zazo (2013), "SemEval-2013 task 9: extraction
    of drug-drug interactions from biomedical texts", SemEval; nervaluate.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence.
    scheme, mode
        How spans are read (as for :func:`span_f1`).
    match : {"strict", "exact", "partial", "type"}
        nervaluate's scheme (:mod:`assay.tagging.partial`).
    zero_division : {0, 1, "nan"}
        The value of a ratio whose denominator is 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.tagging import ner_precision
    >>> gold = [["B-PER", "I-PER", "O"]]
    >>> pred = [["B-PER", "O", "B-LOC"]]
    >>> ner_precision(gold, pred, match="partial"), ner_precision(gold, pred)
    (0.25, 0.0)
    """
    counts, _ = ner_counts(y_true, y_pred, scheme=scheme, mode=mode, match=match)
    return counts.precision(zero_division_value(zero_division))


@_ner_measure(peers=_NERVALUATE)
def ner_recall(
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    match: MatchScheme = "strict",
    zero_division: ZeroDivision = 0,
) -> float:
    """nervaluate's recall of a ``match`` scheme: (correct + ½·partial) / possible, possible =
    gold spans (Segura-Bedmar et al. 2013; nervaluate).

    Reference: Segura-Bedmar, Martínez & Herrero-Zazo (2013), "SemEval-2013 task 9: extraction
    of drug-drug interactions from biomedical texts", SemEval; nervaluate.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence.
    scheme, mode
        How spans are read (as for :func:`span_f1`).
    match : {"strict", "exact", "partial", "type"}
        nervaluate's scheme (:mod:`assay.tagging.partial`).
    zero_division : {0, 1, "nan"}
        The value of a ratio whose denominator is 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.tagging import ner_recall
    >>> gold = [["B-PER", "I-PER", "O"]]
    >>> pred = [["B-PER", "O", "B-LOC"]]
    >>> ner_recall(gold, pred, match="partial"), ner_recall(gold, pred)
    (0.5, 0.0)
    """
    counts, _ = ner_counts(y_true, y_pred, scheme=scheme, mode=mode, match=match)
    return counts.recall(zero_division_value(zero_division))


@_ner_measure(peers=_NERVALUATE)
def ner_f1(
    y_true: Tags,
    y_pred: Tags,
    *,
    scheme: TaggingScheme = "iob2",
    mode: TaggingMode = "conlleval",
    match: MatchScheme = "strict",
    zero_division: ZeroDivision = 0,
) -> float:
    """nervaluate's F1 of a ``match`` scheme: 2PR / (P + R) of :func:`ner_precision` and
    :func:`ner_recall`, 0 when P + R = 0 (Segura-Bedmar et al. 2013; nervaluate).

    Reference: Segura-Bedmar, Martínez & Herrero-Zazo (2013), "SemEval-2013 task 9: extraction
    of drug-drug interactions from biomedical texts", SemEval; nervaluate.

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags, sentence by sentence.
    scheme, mode
        How spans are read (as for :func:`span_f1`).
    match : {"strict", "exact", "partial", "type"}
        nervaluate's scheme (:mod:`assay.tagging.partial`).
    zero_division : {0, 1, "nan"}
        The value of a ratio whose denominator is 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.tagging import ner_f1
    >>> gold = [["B-PER", "I-PER", "O"]]
    >>> pred = [["B-PER", "O", "B-LOC"]]
    >>> round(ner_f1(gold, pred, match="partial"), 4), ner_f1(gold, pred)
    (0.3333, 0.0)
    """
    counts, _ = ner_counts(y_true, y_pred, scheme=scheme, mode=mode, match=match)
    return counts.f1(zero_division_value(zero_division))
