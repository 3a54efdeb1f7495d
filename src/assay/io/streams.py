"""The bytes of an input, read within bounds.

Every reader of text (TREC files, CSV/TSV and JSON Lines read from a stream, the task files,
segment files) gets its bytes here:

- a path, ``-`` (standard input) or a binary file object;
- gzip is recognised by its first two bytes (not the name) and decompressed as a stream; a
  truncated or corrupt one is a :class:`~assay.errors.ParseError`;
- a UTF-8 byte order mark at the start is dropped.

**Bounds.** A regular, uncompressed file is read whole: its size bounds what is read. Anything
else (standard input, a pipe, a device such as ``/dev/zero``, and whatever comes out of gzip)
has no size known in advance, so it is read in pieces, and a line longer than
:data:`MAX_LINE_BYTES` (64 MiB) ends the read with a ParseError naming the line: in a text
format such a line is never data (a binary file, ``/dev/zero``, a gzip bomb without line
ends), and without the bound the read would go on until memory runs out. An endless stream
that keeps ending lines (``yes``) cannot be told from a large file and is read as it comes.
"""

from __future__ import annotations

import gzip
import os
import stat
import sys
import zlib
from collections.abc import Iterator
from types import TracebackType
from typing import BinaryIO

from ..errors import InputError, ParseError
from .limits import check_expansion

__all__ = [
    "MAX_LINE_BYTES",
    "BoundedGzip",
    "PathLike",
    "first_bad_utf8_line",
    "is_regular_file",
    "read_bytes",
    "size_text",
    "source_name",
    "stdin",
]

PathLike = str | os.PathLike[str]

#: The longest line read from a stream, a device or out of gzip (bytes).
MAX_LINE_BYTES = 64 << 20
_PIECE = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"


def source_name(path: PathLike | BinaryIO) -> str:
    """How messages name an input: its path, ``<stdin>`` or the stream's name."""
    if isinstance(path, str | os.PathLike):
        return "<stdin>" if os.fspath(path) == "-" else os.fspath(path)
    name = getattr(path, "name", None)
    return name if isinstance(name, str) else "<stream>"


def stdin() -> BinaryIO:
    """Standard input as bytes; a :class:`ParseError` when the process has none (``<&-``)."""
    if sys.stdin is None or getattr(sys.stdin, "buffer", None) is None:
        raise ParseError("standard input is closed", source="<stdin>")
    return sys.stdin.buffer


def is_regular_file(path: str) -> bool:
    """Whether ``path`` names a regular file (not a pipe, a device or a directory)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_bytes(path: PathLike | BinaryIO, source: str | None = None) -> bytes:
    """The whole input as bytes: gzip decompressed (by content), a leading BOM removed, and
    lines bounded where the size is not known (see the module documentation)."""
    source = source or source_name(path)
    if not isinstance(path, str | os.PathLike):
        return _from_stream(path, source)
    p = os.fspath(path)
    if p == "-":
        return _from_stream(stdin(), source)
    if not os.path.exists(p):
        raise ParseError("no such file", source=p)
    if os.path.isdir(p):
        raise ParseError("is a directory, expected a file", source=p)
    try:
        with open(p, "rb") as fh:
            if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                head = fh.read(2)
                if head != _GZIP_MAGIC:
                    return _drop_bom(head + fh.read())
                fh.seek(0)
            return _from_stream(fh, source)
    except OSError as exc:
        raise ParseError(f"cannot read the file: {exc.strerror or exc}", source=p) from None


class BoundedGzip:
    """A gzip stream read from the binary file ``raw``, refused (an InputError) once what it
    gives exceeds :func:`~assay.io.limits.expansion_cap` of the bytes taken from ``raw``:
    the readers that go through gzip a block at a time, as :func:`read_bytes` does."""

    def __init__(self, raw: BinaryIO, source: str) -> None:
        self._raw = raw
        self._unzip = gzip.GzipFile(fileobj=raw, mode="rb")
        self._source = source
        self._produced = 0

    def read(self, size: int = -1) -> bytes:
        data = self._unzip.read(size)
        self._count(len(data))
        return data

    def readinto(self, buffer: memoryview | bytearray) -> int:
        n = self._unzip.readinto(buffer)
        self._count(n)
        return n

    def _count(self, n: int) -> None:
        self._produced += n
        check_expansion(self._produced, self._raw.tell(), self._source)

    def close(self) -> None:
        """Close the gzip stream and ``raw`` with it."""
        self._unzip.close()
        self._raw.close()

    def __enter__(self) -> BoundedGzip:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def first_bad_utf8_line(data: bytes) -> int | None:
    """The 1-based line of the first bytes of ``data`` that are not UTF-8 (None: all are).
    Arrow validates the whole buffer in one vectorised pass, without copying it; Python
    decodes only on the error path, to find where."""
    import numpy as np
    import pyarrow as pa

    offsets = pa.py_buffer(np.array([0, len(data)], dtype=np.int64))
    try:
        pa.LargeStringArray.from_buffers(1, offsets, pa.py_buffer(data)).validate(full=True)
        return None
    except pa.ArrowInvalid:
        pass
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data[: exc.start].count(b"\n") + 1
    return None  # pragma: no cover - Arrow and Python agree on UTF-8


def size_text(n: int) -> str:
    """``64 MiB`` (or ``1000 bytes``): a byte count in messages."""
    return f"{n >> 20} MiB" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n} bytes"


def _drop_bom(data: bytes) -> bytes:
    return data[3:] if data[:3] == _BOM else data


def _from_stream(fh: BinaryIO, source: str) -> bytes:
    first = fh.read(_PIECE)
    if isinstance(first, str):
        raise InputError("expected a binary stream (open the file with 'rb')", source=source)
    pieces = _pieces(first, fh)
    if first[:2] == _GZIP_MAGIC:
        pieces = _gunzip(pieces, source)
    return _drop_bom(_gather(pieces, source))


def _pieces(first: bytes, fh: BinaryIO) -> Iterator[bytes]:
    piece = first
    while piece:
        yield piece
        piece = fh.read(_PIECE)


def _gunzip(pieces: Iterator[bytes], source: str) -> Iterator[bytes]:
    """Decompressed pieces of a gzip stream (one or more members, as gzip.decompress),
    refused once they expand beyond :func:`~assay.io.limits.expansion_cap` of the input."""
    unzip = zlib.decompressobj(wbits=31)
    fed = False  # the current member has received input
    taken = produced = 0
    try:
        for piece in pieces:
            data = piece
            taken += len(piece)
            while data:
                fed = True
                out = unzip.decompress(data, _PIECE)
                produced += len(out)
                check_expansion(produced, taken, source)
                if out:
                    yield out
                if unzip.eof:
                    data = unzip.unused_data
                    unzip, fed = zlib.decompressobj(wbits=31), False
                else:
                    data = unzip.unconsumed_tail
        while fed and not unzip.eof:  # output still held back by the piece size
            out = unzip.decompress(b"", _PIECE)
            if not out:
                break
            produced += len(out)
            check_expansion(produced, taken, source)
            yield out
    except zlib.error as exc:
        raise ParseError(f"not a valid gzip file: {exc}", source=source) from None
    if fed and not unzip.eof:
        raise ParseError("not a valid gzip file: it ends before its end marker", source=source)


_TOO_LONG = (
    "a line longer than {} without a line end: this is not a text file (or its line ends are "
    "not line feeds)"
)


def _gather(pieces: Iterator[bytes], source: str) -> bytes:
    """The pieces joined, refusing a line longer than MAX_LINE_BYTES as soon as it is seen."""
    parts: list[bytes] = []
    lines = 0  # line feeds seen
    open_line = 0  # bytes since the last line feed
    for piece in pieces:
        first = piece.find(b"\n")
        if open_line + (len(piece) if first < 0 else first) > MAX_LINE_BYTES:
            raise ParseError(
                _TOO_LONG.format(size_text(MAX_LINE_BYTES)), source=source, line=lines + 1
            )
        if first < 0:
            open_line += len(piece)
        else:
            lines += piece.count(b"\n")
            open_line = len(piece) - piece.rfind(b"\n") - 1
        if open_line > MAX_LINE_BYTES:  # the line this piece leaves open
            raise ParseError(
                _TOO_LONG.format(size_text(MAX_LINE_BYTES)), source=source, line=lines + 1
            )
        parts.append(piece)
    return b"".join(parts)
