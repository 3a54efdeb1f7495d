"""Spans (chunks) from tag sequences, vectorised over all sentences at once.

Tags are factorised once (one vocabulary for the gold and every prediction); each distinct
tag is parsed into a prefix (O, B, I, E, S) and a type code, and every rule below is a lookup
in a small table indexed by (previous prefix, prefix, same type) for all tokens at once.
Sentences are independent: each is read as if an ``O`` came before and after it.

**Tags.** ``O``, or ``PREFIX-TYPE`` with a non-empty TYPE (everything after the first hyphen,
as conlleval reads it; it may hold hyphens, but not start or end with one) and a PREFIX the
scheme allows: ``iob1``/``iob2`` B, I; ``ioe1``/``ioe2`` I, E; ``bioes`` B, I, E, S; ``bilou``
B, I, L, U (read as B, I, E, S); ``io`` I. Anything else is an :class:`~assay.errors.InputError`
naming the tag's file and line (or its position in the lists).

**Modes.**

- ``conlleval`` — the chunk boundaries of CoNLL-2000's ``conlleval`` (2004-01-26): a chunk
  starts at a B (or S) tag, at an I or E tag after O, E or S, and wherever the type changes;
  it ends before a B, S or O after B or I, after E or S, and wherever the type changes. So an
  I- tag that starts a chunk opens one (IOB1 data and ill-formed IOB2 predictions are read
  as conlleval reads them), and every non-O tag belongs to exactly one chunk. For the tags of
  IOB1, IOB2, IOE1, IOE2 and IO these are conlleval.pl's rules exactly. conlleval.pl does not
  know S, and for E followed by B of the same type it sees neither an end nor a start (two
  well-formed BIOES chunks ``B E B E`` become one); here, as in seqeval's default mode, E
  and S end a chunk. These are seqeval's default-mode rules, so both agree on every input.
- ``strict`` — only well-formed chunks of the scheme count (seqeval's ``mode="strict"``):
  a chunk is a start token followed by the longest run of tokens the scheme allows inside it,
  and it counts only if the token after the run may follow a chunk's end; otherwise those
  tokens produce no chunk. The start/inside/end patterns are seqeval 1.2.2's for IOB1, IOE1,
  IOB2, IOE2, IOBES and BILOU; ``io`` chunks are runs of one type (every IO sequence is
  well formed).

Spans never overlap within one sequence, in either mode; ``start`` and ``end`` are token
indices into the concatenated sentences, both inclusive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from .._arrow import to_np
from .._options import choice
from .._result import short_repr
from ..errors import InputError, MetricError, shown
from .conll import Tags, TagSequences, check_aligned
from .options import TAGGING_SCHEME_ALIASES, TaggingMode, TaggingScheme

__all__ = [
    "PREFIX_LETTERS",
    "EncodedTags",
    "Spans",
    "decode",
    "encode",
    "extract_spans",
]

IntArray = NDArray[np.int64]
O, B, I, E, S = range(5)  # noqa: E741 - the scheme letters
PREFIX_LETTERS = "OBIES"
#: Prefixes each scheme allows besides O (BILOU's L and U are read as E and S).
SCHEME_PREFIXES: dict[str, str] = {
    "iob1": "BI",
    "iob2": "BI",
    "ioe1": "IE",
    "ioe2": "IE",
    "bioes": "BIES",
    "bilou": "BILU",
    "io": "I",
}
_READ_AS = {"L": "E", "U": "S"}


def check_scheme(scheme: Any) -> TaggingScheme:
    checked: TaggingScheme = choice(
        scheme,
        TaggingScheme,
        "scheme",
        aliases=TAGGING_SCHEME_ALIASES,
        ignore_case=True,
        error=MetricError,
    )
    return checked


def check_mode(mode: Any) -> TaggingMode:
    return cast(TaggingMode, choice(mode, TaggingMode, "mode", error=MetricError))


# ---------------------------------------------------------------- rule tables

_ANY, _SAME, _DIFF = "any", "same", "diff"
_ALL = "OBIES"


def _table(patterns: Sequence[tuple[str, str, str]]) -> NDArray[np.bool_]:
    """A (5 * 5 * 2) lookup table, index (prev * 5 + cur) * 2 + same, from seqeval-style
    patterns (previous prefixes, current prefixes, type condition)."""
    out = np.zeros((5, 5, 2), dtype=bool)
    for prevs, curs, cond in patterns:
        for p in prevs:
            for c in curs:
                i, j = PREFIX_LETTERS.index(p), PREFIX_LETTERS.index(c)
                if cond in (_ANY, _SAME):
                    out[i, j, 1] = True
                if cond in (_ANY, _DIFF):
                    out[i, j, 0] = True
    return out.ravel()


def _conlleval_tables() -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    start = np.zeros((5, 5, 2), dtype=bool)
    end = np.zeros((5, 5, 2), dtype=bool)
    for p in range(5):
        for c in range(5):
            for same in (0, 1):
                start[p, c, same] = (
                    c in (B, S) or (c in (I, E) and p in (E, S, O)) or (c != O and not same)
                )
                end[p, c, same] = (
                    p in (E, S) or (p in (B, I) and c in (B, S, O)) or (p != O and not same)
                )
    return start.ravel(), end.ravel()


CONLLEVAL_START, CONLLEVAL_END = _conlleval_tables()

#: Strict mode: (start, inside, end) patterns per scheme.
_STRICT_PATTERNS: dict[str, tuple[list[tuple[str, str, str]], ...]] = {
    "iob1": (
        [
            ("O", "I", _ANY),
            ("I", "I", _DIFF),
            ("B", "I", _ANY),
            ("I", "B", _SAME),
            ("B", "B", _SAME),
        ],
        [("B", "I", _SAME), ("I", "I", _SAME)],
        [
            ("I", "I", _DIFF),
            ("I", "O", _ANY),
            ("I", "B", _ANY),
            ("B", "O", _ANY),
            ("B", "I", _DIFF),
            ("B", "B", _SAME),
        ],
    ),
    "ioe1": (
        [("O", "I", _ANY), ("I", "I", _DIFF), ("E", "I", _ANY), ("E", "E", _SAME)],
        [("I", "I", _SAME), ("I", "E", _SAME)],
        [
            ("I", "I", _DIFF),
            ("I", "O", _ANY),
            ("I", "E", _DIFF),
            ("E", "I", _SAME),
            ("E", "E", _SAME),
        ],
    ),
    "iob2": (
        [(_ALL, "B", _ANY)],
        [("B", "I", _SAME), ("I", "I", _SAME)],
        [
            ("I", "O", _ANY),
            ("I", "I", _DIFF),
            ("I", "B", _ANY),
            ("B", "O", _ANY),
            ("B", "I", _DIFF),
            ("B", "B", _ANY),
        ],
    ),
    "ioe2": (
        [
            ("O", "I", _ANY),
            ("O", "E", _ANY),
            ("E", "I", _ANY),
            ("E", "E", _ANY),
            ("I", "I", _DIFF),
            ("I", "E", _DIFF),
        ],
        [("I", "E", _SAME), ("I", "I", _SAME)],
        [("E", _ALL, _ANY)],
    ),
    "bioes": (
        [(_ALL, "B", _ANY), (_ALL, "S", _ANY)],
        [("B", "I", _SAME), ("B", "E", _SAME), ("I", "I", _SAME), ("I", "E", _SAME)],
        [("S", _ALL, _ANY), ("E", _ALL, _ANY)],
    ),
    "io": (
        [("O", "I", _ANY), ("I", "I", _DIFF)],
        [("I", "I", _SAME)],
        [("I", "O", _ANY), ("I", "I", _DIFF)],
    ),
}
_STRICT_PATTERNS["bilou"] = _STRICT_PATTERNS["bioes"]  # with L, U read as E, S
STRICT_TABLES = {
    scheme: tuple(_table(p) for p in patterns) for scheme, patterns in _STRICT_PATTERNS.items()
}


# ---------------------------------------------------------------- encoding


@dataclass(frozen=True, eq=False)
class EncodedTags:
    """Aligned tag sequences over one vocabulary: ``codes[k]`` (one per token) index
    ``vocabulary``; ``prefix`` and ``type`` give each vocabulary entry's prefix code (0-4,
    :data:`PREFIX_LETTERS`) and type code (-1 for O) into ``types`` (sorted)."""

    codes: tuple[NDArray[np.int32], ...]
    offsets: IntArray
    vocabulary: tuple[str, ...]
    prefix: NDArray[np.int8]
    type: NDArray[np.int32]
    types: tuple[str, ...]
    scheme: str

    @property
    def n_tokens(self) -> int:
        return int(self.offsets[-1])

    def token_prefix(self, k: int) -> NDArray[np.int8]:
        return self.prefix[self.codes[k]]

    def token_type(self, k: int) -> NDArray[np.int32]:
        return self.type[self.codes[k]]


def _parse(tag: str, allowed: str) -> tuple[int, str] | None:
    """(prefix code, type) of a tag, or None if it is not a tag of the scheme."""
    if tag == "O":
        return O, ""
    prefix, hyphen, kind = tag.partition("-")
    if not hyphen or prefix not in allowed or not kind or kind[0] == "-" or kind[-1] == "-":
        return None
    return PREFIX_LETTERS.index(_READ_AS.get(prefix, prefix)), kind


def _shape(scheme: str) -> str:
    letters = SCHEME_PREFIXES[scheme]
    return "O or " + ", ".join(f"{p}-TYPE" for p in letters)


def _fitting(vocabulary: Sequence[str]) -> str:
    """The schemes every tag fits, as advice for an error (the scheme is not guessed: IOB1
    and IOB2, or BIOES and BILOU, read the same tags differently)."""
    fit = [
        s for s, allowed in SCHEME_PREFIXES.items() if all(_parse(t, allowed) for t in vocabulary)
    ]
    if not fit:
        return "; the tags fit no scheme (tags without a prefix are not read as spans)"
    return f"; every tag fits scheme {' or '.join(fit)}"


def encode(sequences: Sequence[TagSequences], scheme: str) -> EncodedTags:
    """Factorise aligned tag sequences (the first one sets the sentences) into one vocabulary,
    checking every tag against ``scheme``."""
    first = sequences[0]
    for other in sequences[1:]:
        check_aligned(first, other)
    joined = pa.concat_arrays(
        [s.tags.cast(pa.large_string()) for s in sequences]
    ).dictionary_encode()
    vocabulary = tuple(joined.dictionary.to_pylist())
    indices = to_np(joined.indices).astype(np.int32, copy=False)
    allowed = SCHEME_PREFIXES[scheme]
    parsed = [_parse(tag, allowed) for tag in vocabulary]
    bad = np.array([p is None for p in parsed], dtype=bool)
    types = tuple(sorted({p[1] for p in parsed if p is not None and p[0] != O}))
    type_code = {t: i for i, t in enumerate(types)}
    prefix = np.array([O if p is None else p[0] for p in parsed], dtype=np.int8)
    kind = np.array(
        [-1 if p is None or p[0] == O else type_code[p[1]] for p in parsed], dtype=np.int32
    )
    n = first.n_tokens
    codes = tuple(indices[k * n : (k + 1) * n] for k in range(len(sequences)))
    if bad.any():
        for seqs, c in zip(sequences, codes, strict=True):
            wrong = np.flatnonzero(bad[c])
            if len(wrong):
                i = int(wrong[0])
                raise seqs.error(
                    i,
                    f"tag {shown(vocabulary[c[i]])} is not a tag of scheme {scheme} "
                    f"(expected {_shape(scheme)}){_fitting(vocabulary)}",
                )
    return EncodedTags(codes, first.offsets, vocabulary, prefix, kind, types, scheme)


# ---------------------------------------------------------------- spans


@dataclass(frozen=True, eq=False, repr=False)
class Spans:
    """Chunks of one tag sequence, sorted by start.

    Built by :func:`extract_spans` or :meth:`from_sentences`.

    Parameters
    ----------
    start, end : numpy.ndarray
        Inclusive token indices into the concatenated sentences.
    type : numpy.ndarray
        Each span's type, as a code into ``types``.
    sentence : numpy.ndarray
        Each span's sentence.
    offsets : numpy.ndarray
        The sentences' start positions (to turn positions into positions in a sentence).
    types : tuple of str
        The entity types, sorted.

    Examples
    --------
    >>> from assay.tagging import extract_spans
    >>> s = extract_spans([["B-PER", "I-PER", "O", "B-LOC"]])
    >>> len(s), s.start.tolist(), s.end.tolist(), [s.types[t] for t in s.type]
    (2, [0, 3], [1, 3], ['PER', 'LOC'])
    """

    start: IntArray
    end: IntArray
    type: NDArray[np.int32]
    sentence: IntArray
    offsets: IntArray
    types: tuple[str, ...]

    def __repr__(self) -> str:
        # one screen: arrays as their shape, long collections cut (assay._result.short_repr)
        return short_repr(self)

    def __len__(self) -> int:
        return len(self.start)

    @classmethod
    def from_sentences(
        cls,
        sentences: Sequence[Sequence[tuple[str, int, int]]],
        *,
        lengths: Sequence[int] | None = None,
        types: Sequence[str] | None = None,
    ) -> Spans:
        """Spans given directly: per sentence, (type, start, end) with positions in the
        sentence, end inclusive (nervaluate's dicts, seqeval's entities), none overlapping
        another of its sentence. ``lengths``: the sentences' token counts (default: just
        long enough); ``types``: the type vocabulary (default: the sorted types given)."""
        found = sorted({t for s in sentences for t, _, _ in s})
        vocabulary = tuple(types) if types is not None else tuple(found)
        code = {t: i for i, t in enumerate(vocabulary)}
        sizes = [max((b + 1 for _, _, b in s), default=0) for s in sentences]
        if lengths is not None:
            sizes = [max(a, int(b)) for a, b in zip(sizes, lengths, strict=True)]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        rows = []
        for k, spans in enumerate(sentences):
            ordered = sorted((int(a), int(b), t) for t, a, b in spans)
            following: list[tuple[int, int, str] | None] = [*ordered[1:], None]
            for (a, b, t), nxt in zip(ordered, following[: len(ordered)], strict=True):
                if t not in code:
                    raise InputError(f"sentence {k}: span type {t!r} is not one of the types")
                if not 0 <= a <= b or (nxt is not None and nxt[0] <= b):
                    raise InputError(
                        f"sentence {k}: span ({t!r}, {a}, {b}) is empty, negative or overlaps "
                        "another; spans of a sentence must be disjoint"
                    )
                rows.append((a + int(offsets[k]), b + int(offsets[k]), code[t], k))
        table = np.array(rows, dtype=np.int64).reshape(-1, 4)
        return cls(
            table[:, 0], table[:, 1], table[:, 2].astype(np.int32), table[:, 3], offsets, vocabulary
        )

    def per_sentence(self) -> list[list[tuple[str, int, int]]]:
        """(type, start, end) of every span, by sentence, positions within the sentence
        (end inclusive, seqeval's ``get_entities`` layout)."""
        out: list[list[tuple[str, int, int]]] = [[] for _ in range(len(self.offsets) - 1)]
        base = self.offsets[self.sentence]
        for s, t, a, b in zip(
            self.sentence.tolist(),
            self.type.tolist(),
            (self.start - base).tolist(),
            (self.end - base).tolist(),
            strict=True,
        ):
            out[s].append((self.types[t], a, b))
        return out

    def records(self) -> list[dict[str, Any]]:
        """One row per span: sentence, start, end (within the sentence), type."""
        return [
            {"sentence": s, "start": a, "end": b, "type": t}
            for s, spans in enumerate(self.per_sentence())
            for t, a, b in spans
        ]


def _neighbours(
    prefix: NDArray[np.int8], kind: NDArray[np.int32], first: NDArray[np.bool_]
) -> NDArray[np.intp]:
    """Each position's rule-table index (prev * 5 + cur) * 2 + same, the previous token
    being O at every sentence start."""
    prev = np.empty_like(prefix)
    prev[1:] = prefix[:-1]
    prev_kind = np.empty_like(kind)
    prev_kind[1:] = kind[:-1]
    prev[first] = O
    prev_kind[first] = -1
    same = (kind == prev_kind) & (kind >= 0)
    return cast(NDArray[np.intp], (prev.astype(np.intp) * 5 + prefix) * 2 + same)


def _conlleval(
    prefix: NDArray[np.int8], kind: NDArray[np.int32], offsets: IntArray
) -> tuple[IntArray, IntArray]:
    n = len(prefix)
    first = np.zeros(n, dtype=bool)
    lengths = np.diff(offsets)
    first[offsets[:-1][lengths > 0]] = True
    index = _neighbours(prefix, kind, first)
    starts = np.flatnonzero(CONLLEVAL_START[index])
    closes = np.zeros(n, dtype=bool)  # a chunk ends at this token
    closes[:-1] = CONLLEVAL_END[index[1:]] & ~first[1:]
    last = offsets[1:][lengths > 0] - 1
    closes[last] = CONLLEVAL_END[(prefix[last].astype(np.intp) * 5 + O) * 2]
    ends = np.flatnonzero(closes)
    if len(starts) != len(ends):  # pragma: no cover - the rules pair every start with an end
        raise RuntimeError("conlleval decoding: chunk starts and ends do not pair up")
    return starts.astype(np.int64), ends.astype(np.int64)


def _strict(
    prefix: NDArray[np.int8], kind: NDArray[np.int32], offsets: IntArray, scheme: str
) -> tuple[IntArray, IntArray]:
    """seqeval's strict scan, vectorised: in each sentence followed by an O, a start token
    opens a chunk over the run of inside tokens after it; the chunk counts if the token after
    the run may follow an end; the scan resumes at that token. A start inside a run is seen
    only if no earlier start (nor the token before the run) took the run."""
    lengths = np.diff(offsets)
    n_sent = len(lengths)
    sid = np.repeat(np.arange(n_sent, dtype=np.int64), lengths)
    m = len(prefix) + n_sent  # extended: a virtual O after every sentence
    token_at = np.arange(len(prefix), dtype=np.int64) + sid
    ext_prefix = np.full(m, O, dtype=np.int8)
    ext_kind = np.full(m, -1, dtype=np.int32)
    ext_prefix[token_at] = prefix
    ext_kind[token_at] = kind
    first = np.zeros(m, dtype=bool)
    first[offsets[:-1] + np.arange(n_sent)] = True
    index = _neighbours(ext_prefix, ext_kind, first)
    start_table, inside_table, end_table = STRICT_TABLES[scheme]
    start, inside = start_table[index], inside_table[index]
    positions = np.arange(m, dtype=np.int64)
    # For an inside token, the last token before its run (never inside: a sentence's first
    # token follows an O, which no inside pattern allows).
    before = np.maximum.accumulate(np.where(inside, -1, positions))
    inside_starts = np.cumsum(start & inside)
    earlier: IntArray = inside_starts - (start & inside) - inside_starts[before]
    seen = start & (~inside | (~start[before] & (earlier == 0)))
    opens = np.flatnonzero(seen)
    after = np.minimum.accumulate(np.where(inside, m, positions)[::-1])[::-1]
    stop = after[opens + 1]  # the first token after the run (at most the virtual O)
    keep = end_table[index[stop]]
    opens, stop = opens[keep], stop[keep]
    ext_sid = np.repeat(np.arange(n_sent, dtype=np.int64), lengths + 1)
    return opens - ext_sid[opens], stop - 1 - ext_sid[stop - 1]


def decode(encoded: EncodedTags, k: int, mode: str) -> Spans:
    """The spans of sequence ``k`` of ``encoded`` under ``mode`` (and its scheme)."""
    prefix, kind = encoded.token_prefix(k), encoded.token_type(k)
    offsets = encoded.offsets
    if mode == "conlleval":
        starts, ends = _conlleval(prefix, kind, offsets)
    else:
        starts, ends = _strict(prefix, kind, offsets, encoded.scheme)
    sentence = np.searchsorted(offsets, starts, side="right").astype(np.int64) - 1
    return Spans(starts, ends, kind[starts], sentence, offsets, encoded.types)


def extract_spans(
    sequences: Tags, *, scheme: TaggingScheme = "iob2", mode: TaggingMode = "conlleval"
) -> Spans:
    """The spans (chunks) of tag sequences. See the module docstring for the rules.

    Parameters
    ----------
    sequences : list of sentences (lists of tags) or TagSequences
        The tags.
    scheme : {"iob1", "iob2", "ioe1", "ioe2", "bioes", "bilou", "io"}
        Which tag prefixes are allowed.
    mode : {"conlleval", "strict"}
        ``conlleval``: an I- tag may open a chunk; ``strict``: only well-formed chunks.

    Returns
    -------
    Spans
        ``start`` and ``end`` (token indices into the concatenated sentences, inclusive),
        ``type`` (codes into ``types``) and ``sentence`` of every span.

    Examples
    --------
    >>> from assay.tagging import extract_spans
    >>> spans = extract_spans([["B-PER", "I-PER", "O"], ["I-LOC", "O"]])
    >>> spans.start.tolist(), spans.end.tolist(), [spans.types[t] for t in spans.type]
    ([0, 3], [1, 3], ['PER', 'LOC'])
    >>> len(extract_spans([["B-PER", "I-PER", "O"], ["I-LOC", "O"]], mode="strict"))
    1
    """
    scheme = check_scheme(scheme)
    mode = check_mode(mode)
    seqs = TagSequences.from_lists(sequences, "sequences")
    return decode(encode([seqs], scheme), 0, mode)
