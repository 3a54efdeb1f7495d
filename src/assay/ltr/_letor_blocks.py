"""The block parser of :mod:`assay.io.letor`: whole lines of an SVMlight/LETOR file split
into tokens and parsed by whole-array byte operations (NumPy) and Arrow's string casts, and
the collector that keeps a file's rows (dense while every row holds the same consecutive
indices, CSR parts otherwise)."""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from ..errors import ParseError, shown
from ..io.limits import check_dense
from ..io.streams import MAX_LINE_BYTES, BoundedGzip, first_bad_utf8_line, size_text

_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True
_NUMBER = r"^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|(?i:nan|inf|infinity))$"
_MAX_INDEX_DIGITS = 9


# ---------------------------------------------------------------- reading blocks of lines


def _open(path: str) -> Any:
    if not os.path.exists(path):
        raise ParseError("no such file", source=path)
    if os.path.isdir(path):
        raise ParseError("is a directory, expected a file", source=path)
    raw = open(path, "rb")  # noqa: SIM115 - closed by the caller's with, or by BoundedGzip
    magic = raw.read(2)
    raw.seek(0)
    return BoundedGzip(raw, path) if magic == b"\x1f\x8b" else raw


def _read(fh: Any, size: int, path: str) -> bytes:
    try:
        return bytes(fh.read(size))
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise ParseError(f"not a valid gzip file: {exc}", source=path) from None


def blocks(path: str, size: int) -> Iterator[tuple[bytes, int]]:
    """(bytes of whole lines ending in ``\\n``, checked to be UTF-8, lines before them) for the
    whole file; a line longer than MAX_LINE_BYTES (a binary file, ``/dev/zero``) or undecodable
    bytes are a ParseError."""
    rest = b""
    before = 0
    first = True
    with _open(path) as fh:
        while True:
            chunk = _read(fh, size, path)
            if first:
                chunk = chunk.removeprefix(b"\xef\xbb\xbf")
                first = False
            if not chunk:
                break
            data = rest + chunk
            end = data.rfind(b"\n") + 1
            if end == 0:
                rest = data
                if len(rest) > MAX_LINE_BYTES:
                    raise ParseError(
                        f"a line longer than {size_text(MAX_LINE_BYTES)} without a line end: "
                        "this is not a LETOR text file",
                        source=path,
                        line=before + 1,
                    )
                continue
            rest = data[end:]
            block = data[:end]
            yield _utf8(block, before, path), before
            before += block.count(b"\n")
    if rest:
        yield _utf8(rest + b"\n", before, path), before


def _utf8(block: bytes, before: int, path: str) -> bytes:
    """``block`` once checked to be UTF-8: both parsers make Arrow strings straight from its
    bytes, which Arrow trusts to be UTF-8. The line of the first bad byte is named."""
    line = first_bad_utf8_line(block)
    if line is not None:
        raise ParseError(
            "undecodable bytes: the file is not valid UTF-8", source=path, line=before + line
        )
    return block


# ---------------------------------------------------------------- one block


@dataclass
class Block:
    labels: np.ndarray  # float64, one per data line
    lines: np.ndarray  # int64 line numbers (1-based)
    qids: pa.Array | None  # qid text per data line, or None if no line has one
    doc_ids: pa.Array  # docid from the comment, or null
    counts: np.ndarray  # features per data line
    indices: np.ndarray  # int64 raw indices (as written)
    values: np.ndarray  # float64


def _strings(buf: np.ndarray, start: np.ndarray, end: np.ndarray) -> pa.Array:
    """The byte ranges [start, end) (sorted, disjoint) of ``buf`` as an Arrow string array,
    gathered by one boolean mask over the block rather than per range."""
    delta = np.zeros(len(buf) + 1, dtype=np.int8)
    delta[start] += 1
    delta[end] -= 1
    inside = np.cumsum(delta[:-1], dtype=np.int8).view(np.bool_)
    data = buf[inside]
    offsets = np.zeros(len(start) + 1, dtype=np.int32)
    np.cumsum(end - start, out=offsets[1:])
    return pa.StringArray.from_buffers(len(start), pa.py_buffer(offsets), pa.py_buffer(data))


def _numbers(text: pa.Array, what: str, token_lines: np.ndarray, source: str) -> np.ndarray:
    """Arrow's cast of number strings to float64; the first bad one is a ParseError."""
    try:
        return to_np(pc.cast(text, pa.float64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        ok = to_np(pc.fill_null(pc.match_substring_regex(text, _NUMBER), False))
        bad = int(np.argmin(ok)) if not ok.all() else 0
        raise ParseError(
            f"{what} is not a number: {shown(text[bad].as_py())}",
            source=source,
            line=int(token_lines[bad]),
        ) from None


def _tokens(buf: np.ndarray, nl: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token starts and ends outside comments, and the comment start of every line (or the
    line end when it has none)."""
    sep = _SPACE[buf]
    comment = nl.copy()
    hashes = np.flatnonzero(buf == 35)
    if len(hashes):
        line_start = np.concatenate(([0], nl[:-1] + 1))
        j = np.searchsorted(hashes, line_start)
        h = hashes[np.minimum(j, len(hashes) - 1)]
        has = (j < len(hashes)) & (h < nl)
        comment = np.where(has, h, nl)
        delta = np.zeros(len(buf) + 1, dtype=np.int8)
        delta[comment[has]] += 1
        delta[nl[has]] -= 1
        sep |= np.cumsum(delta[:-1], dtype=np.int8).view(np.bool_)
    edges = np.diff(np.concatenate(([1], sep.view(np.int8), [1])).astype(np.int8))
    return np.flatnonzero(edges == -1), np.flatnonzero(edges == 1), comment


def _doc_ids(buf: np.ndarray, comment: np.ndarray, nl: np.ndarray) -> pa.Array:
    """``docid = X`` from each line's comment; null where there is none."""
    has = comment < nl
    if not has.any():
        return pa.nulls(len(has), pa.string())
    text = _strings(buf, comment[has] + 1, nl[has])
    found = pc.struct_field(pc.extract_regex(text, r"docid\s*=\s*(?P<d>[^\s]+)"), [0])
    return _spread(found, has)


def _spread(values: pa.Array, where: np.ndarray) -> pa.Array:
    """``values`` placed at the true positions of ``where``, null elsewhere."""
    idx = np.zeros(len(where), dtype=np.int64)
    idx[where] = np.arange(len(values))
    taken = pc.take(values, from_np(idx))
    return pc.if_else(from_np(where), taken, pa.scalar(None, pa.string()))


def _qids(
    buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, second: np.ndarray, has_two: np.ndarray
) -> np.ndarray:
    """Whether the second token of each data line is ``qid:...``."""
    s = np.where(has_two, starts[np.minimum(second, len(starts) - 1)], 0)
    long = has_two & (ends[np.minimum(second, len(ends) - 1)] - s > 4)
    out: np.ndarray = long.copy()
    for k, ch in enumerate(b"qid:"):
        out &= buf[np.minimum(s + k, len(buf) - 1)] == ch
    return out


def _indices(
    buf: np.ndarray, start: np.ndarray, colon: np.ndarray, token_lines: np.ndarray, source: str
) -> np.ndarray:
    """Decimal feature indices from their digits, whole-array (at most 9 digits)."""
    length = colon - start
    longest = int(length.max()) if len(length) else 0
    if longest > _MAX_INDEX_DIGITS:
        bad = int(np.argmax(length > _MAX_INDEX_DIGITS))
        raise ParseError(
            f"feature index with more than {_MAX_INDEX_DIGITS} digits",
            source=source,
            line=int(token_lines[bad]),
        )
    value = np.zeros(len(start), dtype=np.int64)
    for j in range(longest):
        active = length > j
        digit = buf[np.where(active, start + j, 0)].astype(np.int16) - 48
        wrong = active & ((digit < 0) | (digit > 9))
        if wrong.any():
            bad = int(np.argmax(wrong))
            token = bytes(buf[start[bad] : colon[bad]]).decode("utf-8", "replace")
            raise ParseError(
                f"feature index must be a non-negative integer, got {shown(token)}",
                source=source,
                line=int(token_lines[bad]),
            )
        value = np.where(active, value * 10 + digit, value)
    return value


def parse_block(data: bytes, before: int, source: str) -> Block:
    """Parse a block of whole lines, checking everything and naming the line of any error."""
    buf = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(buf == 10)
    starts, ends, comment = _tokens(buf, nl)
    line_of = np.searchsorted(nl, starts)
    per_line = np.bincount(line_of, minlength=len(nl))
    filled = per_line > 0
    first = (np.cumsum(per_line) - per_line)[filled]
    n_tok = per_line[filled]
    lines = np.flatnonzero(filled).astype(np.int64) + before + 1
    try:
        labels = _numbers(_strings(buf, starts[first], ends[first]), "label", lines, source)
    except ParseError as exc:  # the first token: a file of another kind (qrels, a run) fails here
        raise ParseError(
            f"{exc.detail} (LETOR/SVMlight lines are: label qid:Q 1:v 2:v ...)",
            source=exc.source,
            line=exc.line,
        ) from None
    if not np.isfinite(labels).all():
        bad = int(np.argmin(np.isfinite(labels)))
        raise ParseError(
            f"label must be finite, got {labels[bad]!r}", source=source, line=int(lines[bad])
        )
    is_qid = _qids(buf, starts, ends, first + 1, n_tok > 1)
    qids = None
    if is_qid.any():
        if not is_qid.all():
            bad = int(np.argmin(is_qid))
            raise ParseError(
                "no qid: on this line, while other lines have one",
                source=source,
                line=int(lines[bad]),
            )
        at = first + 1
        qids = _strings(buf, starts[at] + 4, ends[at])
    feature = np.ones(len(starts), dtype=bool)
    feature[first] = False
    if qids is not None:
        feature[first + 1] = False
    f_start, f_end = starts[feature], ends[feature]
    f_lines = (before + 1 + line_of[feature]).astype(np.int64)
    colons = np.flatnonzero(buf == 58)
    ci = np.searchsorted(colons, f_start)
    colon = colons[np.minimum(ci, max(len(colons) - 1, 0))] if len(colons) else f_end
    ok = (ci < len(colons)) & (colon > f_start) & (colon + 1 < f_end)
    if not ok.all():
        bad = int(np.argmin(ok))
        token = bytes(buf[f_start[bad] : f_end[bad]]).decode("utf-8", "replace")
        raise ParseError(
            f"expected index:value, got {shown(token)}", source=source, line=int(f_lines[bad])
        )
    indices = _indices(buf, f_start, colon, f_lines, source)
    values = _numbers(_strings(buf, colon + 1, f_end), "feature value", f_lines, source)
    counts = n_tok - 1 - (1 if qids is not None else 0)
    check_increasing(indices, f_lines, source)
    docs = _doc_ids(buf, comment[filled], nl[filled])
    return Block(labels, lines, qids, docs, counts, indices, values)


def check_increasing(indices: np.ndarray, token_lines: np.ndarray, source: str) -> None:
    if len(indices) < 2:
        return
    same = token_lines[1:] == token_lines[:-1]
    bad = same & (indices[1:] <= indices[:-1])
    if bad.any():
        at = int(np.argmax(bad)) + 1
        raise ParseError(
            f"feature indices must increase along a line: {int(indices[at])} after "
            f"{int(indices[at - 1])}",
            source=source,
            line=int(token_lines[at]),
        )


# ---------------------------------------------------------------- collecting blocks


class Collector:
    """The rows of one file, block by block. While every row holds the same consecutive
    indices (a dense file such as MSLR's) the values go straight into a dense float matrix,
    preallocated for the most rows the file can hold (untouched pages cost no memory);
    otherwise into CSR parts."""

    def __init__(self, source: str, size: int | None, dtype: np.dtype[Any]) -> None:
        self.source = source
        self.size = size
        self.dtype = dtype
        self.blocks: list[Block] = []
        self.dense: np.ndarray | None = None
        self.first = 0  # first index of the dense columns
        self.width = 0
        self.rows = 0
        self.sparse = False
        self.indices: list[np.ndarray] = []
        self.values: list[np.ndarray] = []
        self.overflow = 0
        self.min_index: int | None = None
        self.max_index = -1
        self.bytes_read = 0  # of text, after gzip: what a dense matrix is measured against

    def add(self, block: Block) -> None:
        if len(block.labels) == 0:
            return  # only blank or comment lines
        with np.errstate(over="ignore"):  # counted below, and warned about once per file
            values = block.values.astype(self.dtype)
        self.overflow += int(np.count_nonzero(np.isinf(values) & np.isfinite(block.values)))
        if len(block.indices):
            low, high = int(block.indices.min()), int(block.indices.max())
            self.min_index = low if self.min_index is None else min(self.min_index, low)
            self.max_index = max(self.max_index, high)
        n = len(block.labels)
        if not self.sparse and self._dense_block(block):
            self._put_dense(values.reshape(n, self.width))
        else:
            self._to_sparse()
            self.indices.append(block.indices.astype(np.int64))
            self.values.append(values)
        block.indices = block.values = np.zeros(0)  # the values now live in the collector
        self.blocks.append(block)
        self.rows += n

    def _dense_block(self, block: Block) -> bool:
        counts = block.counts
        if len(counts) == 0 or counts[0] == 0 or not (counts == counts[0]).all():
            return False
        width, first = int(counts[0]), int(block.indices[0])
        if self.dense is not None and (width, first) != (self.width, self.first):
            return False
        expected = np.arange(first, first + width)
        if not (block.indices.reshape(-1, width) == expected).all():
            return False
        self.width, self.first = width, first
        return True

    def _put_dense(self, values: np.ndarray) -> None:
        n = len(values)
        if self.dense is None:
            # A dense line holds `width` fields "i:v" and separators: >= 4 * width bytes.
            cap = n if self.size is None else max(n, self.size // (4 * self.width) + 1)
            self.dense = np.empty((cap, self.width), dtype=self.dtype)
        if self.rows + n > len(self.dense):
            grown = np.empty((max(2 * len(self.dense), self.rows + n), self.width), self.dtype)
            grown[: self.rows] = self.dense[: self.rows]
            self.dense = grown
        self.dense[self.rows : self.rows + n] = values

    def _to_sparse(self) -> None:
        if self.sparse:
            return
        self.sparse = True
        if self.dense is not None and self.rows:
            self.indices.append(np.tile(np.arange(self.first, self.first + self.width), self.rows))
            self.values.append(self.dense[: self.rows].ravel().copy())
        self.dense = None

    def counts(self) -> np.ndarray:
        parts = [b.counts for b in self.blocks]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)

    def features(self, base: int, n_features: int, layout: str) -> Any:
        """The feature matrix with indices shifted by ``base``: dense or CSR by ``layout``."""
        sparse_mod = scipy_sparse()
        if not self.sparse and (self.dense is not None or self.rows == 0):
            dense = self.dense[: self.rows] if self.dense is not None else None
            if dense is not None and self.first - base == 0 and self.width == n_features:
                out = dense
            else:
                self._check_dense(n_features)
                out = np.zeros((self.rows, n_features), dtype=self.dtype)
                if dense is not None:
                    out[:, self.first - base : self.first - base + self.width] = dense
            return sparse_mod.csr_matrix(out) if layout == "sparse" else out
        indptr = np.zeros(self.rows + 1, dtype=np.int64)
        np.cumsum(self.counts(), out=indptr[1:])
        index_type = np.int32 if indptr[-1] < 2**31 and n_features < 2**31 else np.int64
        indices = (np.concatenate(self.indices) - base).astype(index_type)
        values = np.concatenate(self.values)
        matrix = sparse_mod.csr_matrix(
            (values, indices, indptr.astype(index_type)), shape=(self.rows, n_features)
        )
        dense_enough = indptr[-1] >= 0.5 * self.rows * max(n_features, 1)
        if layout == "dense" or (layout == "auto" and dense_enough):
            self._check_dense(n_features)
            return matrix.toarray()
        return matrix

    def _check_dense(self, n_features: int) -> None:
        check_dense(
            (self.rows, n_features),
            self.dtype.itemsize,
            read_bytes=self.bytes_read,
            source=self.source,
        )


def scipy_sparse() -> Any:
    import scipy.sparse

    return scipy.sparse
