"""Tag sequences for token classification: CoNLL column files and lists of tag lists.

A :class:`TagSequences` holds the tags of many sentences concatenated into one Arrow string
array, with CSR ``offsets`` (sentence i is ``tags[offsets[i]:offsets[i + 1]]``) and, when it
was read from a file, the file's line number of every tag, so that an error anywhere later
(an unknown tag, a sentence of another length) names the file and the line.

CoNLL column files (:func:`read_conll`) follow conlleval's layout: one token per line,
fields separated by white space (the token first, the gold tag and the predicted tag last by
default), a blank line between sentences. Lines whose first field is ``-DOCSTART-`` are
document separators: skipped, and they end a sentence. Every other line must have as many
fields as the first one (conlleval stops on such a line too). The file must be UTF-8; gzip
is read by content.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._arrow import from_np, to_np
from .._result import short, short_repr
from ..errors import EmptyInputError, InputError, ParseError, shown
from ..io.text import read_bytes, source_name, text_lines

__all__ = [
    "DOCSTART",
    "ConllData",
    "TagSequences",
    "Tags",
    "check_aligned",
    "check_same_tags",
    "read_conll",
]

PathLike = str | os.PathLike[str]
IntArray = NDArray[np.int64]
#: First field of a document separator line (CoNLL-2003).
DOCSTART = "-DOCSTART-"


@dataclass(frozen=True, eq=False, repr=False)
class TagSequences:
    """Sentences of tags, concatenated, with the positions where each sentence starts.

    Built by :func:`read_conll` or by :meth:`from_lists` (seqeval's lists of lists).

    Parameters
    ----------
    tags : pyarrow.Array
        The tags of every sentence, concatenated (strings).
    offsets : numpy.ndarray
        n_sentences + 1 positions into ``tags``.
    name : str
        What the tags are, in messages (``"y_pred"``, ``"column 4"``).
    source : str, optional
        The file the tags were read from.
    lines : numpy.ndarray, optional
        The 1-based line of each tag in ``source``.

    Examples
    --------
    >>> from assay.tagging import TagSequences
    >>> seqs = TagSequences.from_lists([["B-PER", "I-PER", "O"], ["B-LOC"]], "y_true")
    >>> seqs.n_sentences, seqs.n_tokens, seqs.offsets.tolist()
    (2, 4, [0, 3, 4])
    """

    tags: pa.Array
    offsets: IntArray
    name: str
    source: str | None = None
    lines: IntArray | None = None

    def __repr__(self) -> str:
        # one screen: the counts, never the tags
        where = "" if self.source is None else f", source={short(self.source, 200)}"
        return (
            f"TagSequences(name={self.name!r}{where}, sentences={self.n_sentences}, "
            f"tokens={self.n_tokens})"
        )

    @property
    def n_sentences(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_tokens(self) -> int:
        return len(self.tags)

    @classmethod
    def from_lists(cls, sentences: Any, name: str) -> TagSequences:
        """Sentences given as a sequence of sequences of tag strings (seqeval's layout)."""
        if isinstance(sentences, TagSequences):
            return sentences
        if isinstance(sentences, str | bytes) or not isinstance(sentences, Sequence | np.ndarray):
            raise InputError(f"{name} must be a list of sentences, each a list of tags")
        lengths = []
        for i, sentence in enumerate(sentences):
            if isinstance(sentence, str | bytes) or not isinstance(sentence, Sequence | np.ndarray):
                raise InputError(
                    f"{name}[{i}] is {shown(str(sentence))}, not a list of tags: {name} must be "
                    "a list of sentences, each a list of tags (wrap a single sentence in a list)"
                )
            lengths.append(len(sentence))
        flat = list(itertools.chain.from_iterable(sentences))
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls(_string_array(flat, name, offsets), offsets, name)

    def sentences(self) -> list[list[str]]:
        """The tags as a list of sentences (lists of strings)."""
        flat = self.tags.to_pylist()
        return [flat[a:b] for a, b in itertools.pairwise(self.offsets.tolist())]

    def sentence_of(self, token: int) -> int:
        return int(np.searchsorted(self.offsets, token, side="right")) - 1

    def error(self, token: int, message: str, kind: type[InputError] = InputError) -> InputError:
        """An error about tag ``token`` (its index in ``tags``): at its file and line, or named
        ``name[sentence][position]``."""
        if self.source is not None and self.lines is not None:
            return kind(f"{self.name}: {message}", source=self.source, line=int(self.lines[token]))
        s = self.sentence_of(token)
        return kind(f"{self.name}[{s}][{token - int(self.offsets[s])}] {message}")

    def sentence_error(self, sentence: int, message: str) -> InputError:
        """An error about a whole sentence: ``sentence k`` at the line of its first tag (its
        last tag's for a sentence past the end), or ``name[k]``."""
        if self.source is not None and self.lines is not None:
            at = min(int(self.offsets[min(sentence, self.n_sentences)]), self.n_tokens - 1)
            return InputError(
                f"{self.name}: sentence {sentence + 1} {message}",
                source=self.source,
                line=int(self.lines[at]),
            )
        return InputError(f"{self.name}[{sentence}] {message}")


#: Sentences of tags as the family's functions take them: a list of sentences, each a list of
#: tags (seqeval's layout), or :class:`TagSequences` (read by :func:`read_conll`).
Tags = Sequence[Sequence[str]] | TagSequences


def _string_array(flat: list[Any], name: str, offsets: IntArray) -> pa.Array:
    """Python strings as an Arrow string array, built from one joined buffer (``pa.array`` on
    a list would import pandas, which costs more than the conversion)."""
    try:
        text = "".join(flat)
        data = text.encode("utf-8")
    except (TypeError, UnicodeEncodeError):
        bad = next(i for i, t in enumerate(flat) if not _encodable(t))
        where = TagSequences(pa.nulls(0, pa.large_string()), offsets, name)
        raise where.error(bad, f"is {flat[bad]!r}; tags must be strings") from None
    if text.isascii():
        sizes = np.fromiter(map(len, flat), dtype=np.int64, count=len(flat))
    else:
        sizes = np.fromiter((len(t.encode("utf-8")) for t in flat), dtype=np.int64, count=len(flat))
    ends = np.zeros(len(flat) + 1, dtype=np.int64)
    np.cumsum(sizes, out=ends[1:])
    buffers = [None, pa.py_buffer(ends), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.large_string(), len(flat), buffers)


def _encodable(tag: Any) -> bool:
    if not isinstance(tag, str):
        return False
    try:
        tag.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True, eq=False, repr=False)
class ConllData:
    """A CoNLL column file, as :func:`read_conll` reads it.

    Parameters
    ----------
    source : str
        The file's name.
    gold : TagSequences
        The gold column.
    predictions : tuple of TagSequences
        The prediction columns, in the order asked.
    n_fields : int
        The number of fields per line.
    columns : tuple of int
        The 0-based indices of the columns read (gold first).

    Examples
    --------
    >>> import io
    >>> from assay.tagging import read_conll
    >>> data = read_conll(io.BytesIO(b"John NNP B-PER B-PER\\nParis NNP B-LOC O\\n"))
    >>> data.n_fields, data.columns, data.gold.n_tokens
    (4, (2, 3), 2)
    """

    source: str
    gold: TagSequences
    predictions: tuple[TagSequences, ...]
    n_fields: int
    columns: tuple[int, ...]

    def __repr__(self) -> str:
        # one screen: arrays as their shape, long collections cut (assay._result.short_repr)
        return short_repr(self)


def _resolve(column: Any, n_fields: int, source: str, line: int) -> int:
    if isinstance(column, bool) or not isinstance(column, int | np.integer):
        raise InputError(f"a column must be an integer index, got {column!r}", source=source)
    index = int(column) + (n_fields if column < 0 else 0)
    if not 0 <= index < n_fields:
        raise ParseError(
            f"column {column} does not exist: lines have {n_fields} fields "
            f"(columns 0 to {n_fields - 1}, or -1 to -{n_fields} from the end)",
            source=source,
            line=line,
        )
    return index


def read_conll(
    path: PathLike | BinaryIO,
    *,
    gold: int = -2,
    pred: int | Sequence[int] = -1,
) -> ConllData:
    """Read the gold column and one or more prediction columns of a CoNLL column file.

    Columns are indexed from 0 (the token) or from the end (-1 is the last field), so the
    defaults are conlleval's: the gold tag second to last, the prediction last. Raises
    :class:`~assay.errors.ParseError` naming the file and line for a line with another number
    of fields than the first, a column that does not exist or invalid UTF-8, and
    :class:`~assay.errors.EmptyInputError` for a file without tokens.

    Parameters
    ----------
    path : str, path or binary file
        The CoNLL column file (UTF-8; gzip read by content).
    gold : int
        Column of the gold tags (default -2, conlleval's).
    pred : int or sequence of int
        Column(s) of the predicted tags (default -1); several: one tagger each.

    Returns
    -------
    ConllData
        ``gold`` and ``predictions`` (one :class:`TagSequences` per column), the source,
        the number of fields and the columns read.

    Examples
    --------
    >>> import io
    >>> from assay.tagging import read_conll, span_f1
    >>> text = b"John NNP B-PER B-PER\\nSmith NNP I-PER O\\n\\nParis NNP B-LOC B-LOC\\n"
    >>> data = read_conll(io.BytesIO(text))
    >>> data.gold.n_sentences, data.gold.n_tokens, len(data.predictions)
    (2, 3, 1)
    >>> span_f1(data.gold, data.predictions[0])
    0.5
    """
    source = source_name(path)
    lines = text_lines(read_bytes(path, source), source)
    trimmed = pc.ascii_trim_whitespace(lines)
    parts = pc.ascii_split_whitespace(trimmed)
    blank = to_np(pc.binary_length(trimmed)) == 0
    n_fields = np.where(blank, 0, to_np(pc.list_value_length(parts)).astype(np.int64))
    starts = to_np(parts.offsets).astype(np.int64)[:-1]
    if len(parts.values) == 0:
        raise EmptyInputError(
            "no tokens found (the file is empty or has only blank lines)", source=source
        )
    first = parts.values.take(from_np(np.minimum(starts, len(parts.values) - 1)))
    # (a regex, not pc.equal with a Python string: converting the scalar imports pandas)
    docstart = to_np(pc.match_substring_regex(first, pattern=f"^{DOCSTART}$")) & (n_fields > 0)
    is_token = (n_fields > 0) & ~docstart
    rows = np.flatnonzero(is_token)
    if len(rows) == 0:
        raise EmptyInputError(
            "no tokens found (the file is empty or has only blank lines)", source=source
        )
    width = int(n_fields[rows[0]])
    odd = rows[n_fields[rows] != width]
    if len(odd):
        at = int(odd[0])
        raise ParseError(
            f"found {n_fields[at]} fields, expected {width} as on line {rows[0] + 1} (every token "
            "line needs the same columns)",
            source=source,
            line=at + 1,
        )
    wanted = [pred] if isinstance(pred, int | np.integer) else list(pred)
    columns = [_resolve(c, width, source, int(rows[0]) + 1) for c in [gold, *wanted]]
    # A sentence starts at a token line that follows a blank or -DOCSTART- line (or none).
    follows_break = np.concatenate([[True], ~is_token[:-1]])[rows]
    offsets = np.append(np.flatnonzero(follows_break), len(rows)).astype(np.int64)
    line_no = rows.astype(np.int64) + 1
    token_starts = starts[rows]
    seqs = [
        TagSequences(
            parts.values.take(from_np(token_starts + c)).cast(pa.large_string()),
            offsets,
            f"column {c}",
            source,
            line_no,
        )
        for c in columns
    ]
    return ConllData(source, seqs[0], tuple(seqs[1:]), width, tuple(columns))


# ---------------------------------------------------------------- two sequences side by side


def check_aligned(a: TagSequences, b: TagSequences) -> None:
    """``b`` has the sentences of ``a``: as many, each of the same length; otherwise an
    :class:`~assay.errors.InputError` naming the first difference (in ``b``'s file and line
    when it has one)."""
    if a.n_sentences == b.n_sentences and np.array_equal(a.offsets, b.offsets):
        return
    la, lb = np.diff(a.offsets), np.diff(b.offsets)
    common = min(len(la), len(lb))
    differ = np.flatnonzero(la[:common] != lb[:common])
    if len(differ):
        k = int(differ[0])
        raise b.sentence_error(k, f"has {lb[k]} tags but {_where(a, k)} has {la[k]}")
    if len(lb) > len(la):
        raise b.sentence_error(
            common, f"is one too many: {len(lb)} sentences but {_label(a)} has {len(la)}"
        )
    raise b.sentence_error(
        len(lb), f"is missing: {len(lb)} sentences but {_label(a)} has {len(la)}"
    )


def check_same_tags(a: TagSequences, b: TagSequences) -> None:
    """``b`` holds the same tags as ``a`` (after :func:`check_aligned`), e.g. the gold column
    of two files; the first difference is an :class:`~assay.errors.InputError` at ``b``'s
    line."""
    check_aligned(a, b)
    equal = pc.equal(a.tags, b.tags)
    if pc.all(equal).as_py():
        return
    i = int(np.flatnonzero(~to_np(equal))[0])
    raise b.error(
        i,
        f"tag {shown(b.tags[i].as_py())} differs from {shown(a.tags[i].as_py())} in "
        f"{_where(a, a.sentence_of(i), i)}; the files must share the gold tags",
    )


def _label(seqs: TagSequences) -> str:
    return seqs.source if seqs.source is not None else seqs.name


def _where(seqs: TagSequences, sentence: int, token: int | None = None) -> str:
    """Where a sentence (or a tag) is, for the other side of a message."""
    if seqs.source is not None and seqs.lines is not None:
        at = int(seqs.offsets[sentence]) if token is None else token
        return f"{seqs.source}:{seqs.lines[min(at, seqs.n_tokens - 1)]}"
    if token is None:
        return f"{seqs.name}[{sentence}]"
    return f"{seqs.name}[{sentence}][{token - int(seqs.offsets[sentence])}]"
