"""The fast path of the LETOR reader: a block of whole lines without comments parsed by Arrow.

Every ``:`` becomes a space (``bytes.translate``), the block's lines become a zero-copy Arrow
array, Arrow splits them on white space and casts the tokens to numbers; NumPy only finds the
line ends and the colons and checks the layout. A well-formed line ``L qid:Q i:v ... i:v``
then has ``1 + 2 * colons`` tokens, each colon touches no white space, and the label is
followed by white space. Anything else — a comment, a malformed field, a number Arrow cannot
read, an index with a sign — returns None and the block goes to the careful parser
(:func:`~assay.io._letor_blocks.parse_block`), which gives the same result for good lines and
names the line of a bad one.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from ._letor_blocks import Block, check_increasing

__all__ = ["parse_block_fast"]

_COLON_TO_SPACE = bytes.maketrans(b":", b" ")
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True
_MAX_INDEX = 10**9


def _text(value: str) -> pa.Scalar:
    """An Arrow string scalar built from buffers: ``pa.scalar(str)`` consults pyarrow's pandas
    shim, which imports pandas (half a second) the first time."""
    raw = value.encode()
    offsets = np.array([0, len(raw)], dtype=np.int32)
    return pa.StringArray.from_buffers(1, pa.py_buffer(offsets), pa.py_buffer(raw))[0]


_QID = _text("qid")


def _cast(values: pa.Array, to: pa.DataType) -> np.ndarray | None:
    try:
        return to_np(pc.cast(values, to))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def _layout_ok(
    buf: np.ndarray, nl: np.ndarray, starts: np.ndarray, n_tok: np.ndarray
) -> np.ndarray | None:
    """Colons per line, if every line has the layout of ``L [qid:Q] i:v ...``; else None."""
    colons = np.flatnonzero(buf == 58)
    if len(colons) and (
        colons[0] == 0 or _SPACE[buf[colons - 1]].any() or _SPACE[buf[colons + 1]].any()
    ):
        return None  # "i :v", "i: v", ":v" or "i:" (a line ends with "\n")
    per_line = np.searchsorted(colons, nl) - np.searchsorted(colons, starts)
    if not np.array_equal(n_tok, np.where(n_tok > 0, 1 + 2 * per_line, 0)):
        return None  # a field without a colon, or with two
    return per_line


def parse_block_fast(data: bytes, before: int, source: str) -> Block | None:
    """Parse a block of whole lines (ending in ``\\n``), or None if it needs the careful path."""
    if data.find(b"#") >= 0:
        return None  # comments (and document ids): the careful parser handles them
    buf = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], nl[:-1] + 1))
    offsets = np.concatenate(([0], nl + 1)).astype(np.int32)
    text = data.translate(_COLON_TO_SPACE)
    lines = pa.StringArray.from_buffers(len(nl), pa.py_buffer(offsets), pa.py_buffer(text))
    # Arrow's split gives an empty token for leading or trailing white space and for an
    # empty line: trim the lines and split only those with something left.
    trimmed = pc.ascii_trim_whitespace(lines)
    filled = to_np(pc.binary_length(trimmed)) > 0
    data_lines = np.flatnonzero(filled)
    if not filled.all():
        trimmed = trimmed.filter(from_np(filled))
    parts = pc.ascii_split_whitespace(trimmed)
    del text, lines, trimmed  # copies of the block's text: freed before the tokens are cast
    n_tok = np.zeros(len(nl), dtype=np.int64)
    n_tok[data_lines] = to_np(pc.list_value_length(parts))
    per_line = _layout_ok(buf, nl, starts, n_tok)
    if per_line is None:
        return None
    tokens = parts.flatten()
    first = np.cumsum(n_tok[data_lines]) - n_tok[data_lines]
    begin = starts[data_lines]
    if _SPACE[buf[begin]].any():
        return None  # leading white space: rare, and the label check below assumes none
    label_text = tokens.take(from_np(first))
    label_len = to_np(pc.binary_length(label_text)).astype(np.int64)
    if not _SPACE[buf[begin + label_len]].all():
        return None  # the label field holds a colon
    labels = _cast(label_text, pa.float64())
    if labels is None or not np.isfinite(labels).all():
        return None
    colons = per_line[data_lines]
    second = np.minimum(first + 1, max(len(tokens) - 1, 0))
    has_qid = (colons > 0) & to_np(pc.equal(tokens.take(from_np(second)), _QID))
    if has_qid.any() and not has_qid.all():
        return None
    qid = bool(has_qid.all()) and len(has_qid) > 0
    qids = tokens.take(from_np(first + 2)) if qid else None
    counts = colons - (1 if qid else 0)
    total = int(counts.sum())
    rel = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    at = np.repeat(first + (3 if qid else 1), counts) + 2 * rel
    index_text = tokens.take(from_np(at))
    if total and not to_np(pc.utf8_is_decimal(index_text)).all():
        return None  # a sign or other non-digit: the careful parser says which
    indices = _cast(index_text, pa.int64())
    del index_text
    values = _cast(tokens.take(from_np(at + 1)), pa.float64())
    del tokens, parts
    if indices is None or values is None or (total and int(indices.max()) >= _MAX_INDEX):
        return None
    line_numbers = data_lines.astype(np.int64) + before + 1
    check_increasing(indices, np.repeat(line_numbers, counts), source)
    docs = pa.nulls(len(data_lines), pa.string())
    return Block(labels, line_numbers, qids, docs, counts, indices, values)
