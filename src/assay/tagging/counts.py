"""The counts behind every span measure of the tagging family: both sides' spans on one
vocabulary (:func:`prepare`, with the warnings about span types that never meet and chunks
that strict mode drops), which spans match (:func:`match_spans`) and, per type, matched,
predicted and gold spans with token counts (:func:`span_counts` -> :class:`SpanCounts`).
The conventions are those of :mod:`assay.tagging.measures`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._options import ZeroDivision
from .._result import short_repr
from ..errors import EmptyInputError, InputWarning
from ..metrics.label_sets import caller_level, mismatch
from ..metrics.labels import average_values, divide, zero_division_value
from .conll import Tags, TagSequences
from .options import TaggingMode, TaggingScheme
from .spans import EncodedTags, Spans, check_mode, check_scheme, decode, encode

__all__ = ["SpanCounts", "match_spans", "prepare", "span_counts"]

IntArray = NDArray[np.int64]


def prepare(y_true: Tags, y_pred: Tags, scheme: str, mode: str) -> tuple[EncodedTags, Spans, Spans]:
    """Both sides encoded on one vocabulary and their spans."""
    gold = TagSequences.from_lists(y_true, "y_true")
    pred = TagSequences.from_lists(y_pred, "y_pred")
    encoded = encode([gold, pred], scheme)
    if encoded.n_tokens == 0:
        raise EmptyInputError("no tags to evaluate (every sentence is empty)")
    _, gold_spans, pred_spans = _present(
        encoded.types, decode(encoded, 0, mode), decode(encoded, 1, mode)
    )
    if mode == "strict":
        _warn_ill_formed(encoded, (gold, pred), (gold_spans, pred_spans))
    _warn_types(gold_spans, pred_spans, (_described(gold), _described(pred)))
    return encoded, gold_spans, pred_spans


def _warn_types(gold: Spans, pred: Spans, names: tuple[str, str]) -> None:
    """Warn when the span types of the two sides never meet or differ only in spelling
    (``PER`` against ``PERSON`` or ``per``): every span is a miss otherwise, without a word."""
    types = gold.types
    said = mismatch(
        [types[t] for t in np.unique(gold.type)],
        [types[t] for t in np.unique(pred.type)],
        names,
        what="span type",
        unit="span",
    )
    if said is not None:
        warnings.warn(said, InputWarning, stacklevel=caller_level())


def _ill_formed(encoded: EncodedTags, k: int, strict: Spans) -> tuple[int, int]:
    """(chunks that are not well formed in the scheme, all chunks) of sequence ``k``: the
    conlleval chunks (every non-O tag is in one) with no identical strict span."""
    chunks = decode(encoded, k, "conlleval")
    if not len(chunks):
        return 0, 0
    same = Spans(strict.start, strict.end, strict.type, strict.sentence, strict.offsets, ())
    # conlleval's type codes index the full vocabulary of types, strict's the present ones
    present = {t: i for i, t in enumerate(strict.types)}
    remap = np.array([present.get(t, -1) for t in encoded.types], dtype=np.int32)
    chunks = Spans(
        chunks.start, chunks.end, remap[chunks.type], chunks.sentence, chunks.offsets, ()
    )
    hit, _ = match_spans(chunks, same)
    return int(np.count_nonzero(~hit)), len(chunks)


def _warn_ill_formed(
    encoded: EncodedTags, sides: tuple[TagSequences, TagSequences], spans: tuple[Spans, Spans]
) -> None:
    """Say how many chunks strict mode drops because they do not fit the scheme: gold tags
    of another scheme (IOB2 read as BIOES) give F1 = 0 otherwise without a word (seqeval's
    strict mode too, behind a generic ill-defined-F warning)."""
    counts = [_ill_formed(encoded, k, s) for k, s in enumerate(spans)]
    if not any(bad for bad, _ in counts):
        return
    used = sorted({t.partition("-")[0] for t in encoded.vocabulary if t != "O"})
    said = "; ".join(
        f"{bad} of {total} chunk(s) of {_described(seqs)}"
        for seqs, (bad, total) in zip(sides, counts, strict=True)
        if bad
    )
    gold_bad = counts[0][0] > 0
    advice = (
        "the gold tags do not fit the scheme: check --scheme/scheme= (or use mode conlleval)"
        if gold_bad
        else "strict mode counts them as wrong predictions"
    )
    warnings.warn(
        f"scheme {encoded.scheme}, strict mode: {said} are not well formed in "
        f"{encoded.scheme} and count as no span (tag prefixes used: "
        f"{', '.join(used)}); {advice}",
        InputWarning,
        stacklevel=caller_level(),
    )


def _described(seqs: TagSequences) -> str:
    return f"{seqs.source} ({seqs.name})" if seqs.source is not None else seqs.name


def match_spans(gold: Spans, pred: Spans) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Which gold spans and which predicted spans have a partner with the same start, end
    and type. Spans of one side never overlap, so a span is found by its start alone."""
    n = int(gold.offsets[-1])
    end_at = np.full(n, -1, dtype=np.int64)
    type_at = np.full(n, -1, dtype=np.int32)
    end_at[pred.start] = pred.end
    type_at[pred.start] = pred.type
    gold_hit = (end_at[gold.start] == gold.end) & (type_at[gold.start] == gold.type)
    pred_hit = np.zeros(len(pred), dtype=bool)
    pred_index = np.full(n, -1, dtype=np.int64)
    pred_index[pred.start] = np.arange(len(pred))
    pred_hit[pred_index[gold.start[gold_hit]]] = True
    return gold_hit, pred_hit


def _f1(
    tp: IntArray, pred: IntArray, gold: IntArray, zero_division: ZeroDivision
) -> NDArray[np.float64]:
    """F1 per entry: 2PR / (P + R) from precision and recall where both are defined (the
    very floating-point expression of seqeval, so values agree to the last bit; 0 when
    P + R = 0), else 2·tp / (pred + gold) (the same number wherever seqeval's
    ``zero_division`` applies), ``zero_division`` when nothing is predicted nor gold."""
    p = divide(tp, pred, 0)
    r = divide(tp, gold, 0)
    both = (pred > 0) & (gold > 0)
    total = p + r
    harmonic = np.divide(2.0 * p * r, total, out=np.zeros_like(p), where=total > 0)
    return np.where(both, harmonic, divide(2 * tp, pred + gold, zero_division))


@dataclass(frozen=True, eq=False, repr=False)
class SpanCounts:
    """Span and token counts of a tagger against the gold tags, per entity type.

    Built by :func:`span_counts`; :meth:`precision`, :meth:`recall` and :meth:`f1` take
    ``average`` (None: per type; ``"micro"``, ``"macro"``, ``"weighted"``).

    Parameters
    ----------
    types : tuple of str
        The entity types, sorted.
    tp, pred, gold : numpy.ndarray
        Per type: matched spans, predicted spans and gold spans (the support).
    n_tokens, correct_tokens : int
        The tokens, and those tagged as in the gold.
    token_counts : dict of str to int
        seqeval's token-level counts (TP, FP, FN, TN with O as the negative).
    gold_spans, pred_spans : Spans
        The spans themselves.
    gold_hit, pred_hit : numpy.ndarray
        Which gold and predicted spans matched.

    Examples
    --------
    >>> from assay.tagging import span_counts
    >>> c = span_counts([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "B-ORG"]])
    >>> c.types, c.tp.tolist(), c.pred.tolist(), c.gold.tolist()
    (('LOC', 'ORG', 'PER'), [0, 0, 1], [0, 1, 1], [1, 0, 1])
    """

    types: tuple[str, ...]
    tp: IntArray
    pred: IntArray
    gold: IntArray
    n_tokens: int
    correct_tokens: int
    token_counts: dict[str, int]
    gold_spans: Spans
    pred_spans: Spans
    gold_hit: NDArray[np.bool_]
    pred_hit: NDArray[np.bool_]

    def __repr__(self) -> str:
        # one screen: arrays as their shape, long collections cut (assay._result.short_repr)
        return short_repr(self)

    def precision(self, average: str | None, zero_division: ZeroDivision = 0) -> Any:
        return self._ratio(self.tp, self.pred, average, zero_division)

    def recall(self, average: str | None, zero_division: ZeroDivision = 0) -> Any:
        return self._ratio(self.tp, self.gold, average, zero_division)

    def f1(self, average: str | None, zero_division: ZeroDivision = 0) -> Any:
        if average == "micro":
            tp, pred, gold = (np.array([x.sum()]) for x in (self.tp, self.pred, self.gold))
            return float(_f1(tp, pred, gold, zero_division)[0])
        values = _f1(self.tp, self.pred, self.gold, zero_division)
        return self._average(values, average, zero_division)

    def _ratio(
        self, num: IntArray, den: IntArray, average: str | None, zero_division: ZeroDivision
    ) -> Any:
        """Per type (``average=None``), micro (sums first), or macro/weighted means."""
        if average == "micro":
            return float(divide(num.sum(), den.sum(), zero_division))
        return self._average(divide(num, den, zero_division), average, zero_division)

    def _average(
        self, values: NDArray[np.float64], average: str | None, zero_division: ZeroDivision
    ) -> Any:
        if average is None:
            return values
        if not len(values):
            return zero_division_value(zero_division)
        return float(average_values(values, self.gold, average))  # type: ignore[arg-type]  # why: callers pass a checked Average

    @property
    def token_accuracy(self) -> float:
        return self.correct_tokens / self.n_tokens


def _token_counts(encoded: EncodedTags) -> dict[str, int]:
    """seqeval's ``performance_measure``: token-level TP (equal tags, not O), FP (a wrong
    tag predicted other than O), FN (a gold tag other than O predicted O), TN (both O)."""
    equal = encoded.codes[0] == encoded.codes[1]
    gold_o = encoded.token_prefix(0) == 0
    pred_o = encoded.token_prefix(1) == 0
    return {
        "TP": int(np.count_nonzero(equal & ~gold_o)),
        "FP": int(np.count_nonzero(~equal & ~pred_o)),
        "FN": int(np.count_nonzero(~gold_o & pred_o)),
        "TN": int(np.count_nonzero(gold_o & pred_o)),
    }


def span_counts(
    y_true: Tags, y_pred: Tags, *, scheme: TaggingScheme = "iob2", mode: TaggingMode = "conlleval"
) -> SpanCounts:
    """The counts behind every span measure (see the module docstring).

    Parameters
    ----------
    y_true, y_pred : list of sentences (lists of tags) or TagSequences
        The gold and the predicted tags.
    scheme, mode
        How spans are read (:func:`assay.tagging.extract_spans`).

    Returns
    -------
    SpanCounts
        Per type matched, predicted and gold spans, with the spans and token counts.

    Examples
    --------
    >>> from assay.tagging import span_counts
    >>> c = span_counts([["B-PER", "O"], ["B-LOC"]], [["B-PER", "O"], ["O"]])
    >>> c.types, c.tp.tolist(), c.pred.tolist(), c.gold.tolist()
    (('LOC', 'PER'), [0, 1], [0, 1], [1, 1])
    """
    scheme, mode = check_scheme(scheme), check_mode(mode)
    encoded, gold, pred = prepare(y_true, y_pred, scheme, mode)
    gold_hit, pred_hit = match_spans(gold, pred)
    k = len(gold.types)
    return SpanCounts(
        types=gold.types,
        tp=np.bincount(gold.type[gold_hit], minlength=k).astype(np.int64),
        pred=np.bincount(pred.type, minlength=k).astype(np.int64),
        gold=np.bincount(gold.type, minlength=k).astype(np.int64),
        n_tokens=encoded.n_tokens,
        correct_tokens=int(np.count_nonzero(encoded.codes[0] == encoded.codes[1])),
        token_counts=_token_counts(encoded),
        gold_spans=gold,
        pred_spans=pred,
        gold_hit=gold_hit,
        pred_hit=pred_hit,
    )


def _present(
    types: tuple[str, ...], gold: Spans, pred: Spans
) -> tuple[tuple[str, ...], Spans, Spans]:
    """Only the types of some span (a type of the vocabulary may occur only in tags that open
    no span, such as an ill-formed I- tag in strict mode; conlleval and seqeval list the
    types of spans)."""
    k = len(types)
    present = (np.bincount(gold.type, minlength=k) + np.bincount(pred.type, minlength=k)) > 0
    if present.all():
        return types, gold, pred
    keep = np.flatnonzero(present)
    remap = np.full(k, -1, dtype=np.int32)
    remap[keep] = np.arange(len(keep), dtype=np.int32)
    kept = tuple(types[t] for t in keep)

    def spans(s: Spans) -> Spans:
        return Spans(s.start, s.end, remap[s.type], s.sentence, s.offsets, kept)

    return kept, spans(gold), spans(pred)
