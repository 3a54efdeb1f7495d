"""Data text (TREC runs, trec_eval's output) written to stdout: byte for byte to a file or a
pipe, which other tools read, and made inert on a terminal, which would run an ESC, OSC or
bidirectional override in an id or a run tag as a control sequence.

On a terminal every field (text between tabs, spaces kept) goes through
:func:`assay.report.escape.terminal`: a character that is not printable is shown as its
Python escape (``\\x1b``, ``\\u202e``); tabs and newlines, which are the format's own, stay.
"""

from __future__ import annotations

import io
import sys
from typing import Any, BinaryIO, TextIO

__all__ = ["inert", "on_terminal", "stdout_bytes", "stdout_text"]


def on_terminal() -> bool:
    """Whether stdout is a terminal."""
    return sys.stdout.isatty()


def inert(text: str) -> str:
    """``text`` with every field's non-printable characters escaped (tabs and newlines kept)."""
    from ..report.escape import terminal

    if text.isprintable():
        return text
    return "\n".join(
        "\t".join(terminal(field) for field in line.split("\t")) for line in text.split("\n")
    )


class _Inert(io.TextIOBase):
    """A text stream that writes :func:`inert` text to another."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(inert(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()


def stdout_text() -> TextIO:
    """Where a command writes data text: stdout itself, or on a terminal a stream escaping it."""
    return _Inert(sys.stdout) if on_terminal() else sys.stdout  # type: ignore[return-value]  # why: _Inert is a TextIOBase, not a TextIO


class _InertBytes(io.RawIOBase):
    """A binary stream of UTF-8 data text written to stdout as :func:`inert` lines (an
    undecodable byte shown as ``\\xNN``)."""

    def __init__(self) -> None:
        self._pending = b""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        data = bytes(data)
        head, newline, self._pending = (self._pending + data).rpartition(b"\n")
        if newline:
            sys.stdout.write(inert(head.decode("utf-8", "backslashreplace")) + "\n")
        return len(data)

    def flush(self) -> None:
        if self._pending:
            sys.stdout.write(inert(self._pending.decode("utf-8", "backslashreplace")))
            self._pending = b""
        sys.stdout.flush()


def stdout_bytes() -> BinaryIO:
    """Where a command writes data bytes (flush it at the end): stdout's buffer, or on a
    terminal a stream making them inert."""
    return _InertBytes() if on_terminal() else sys.stdout.buffer  # type: ignore[return-value]  # why: a RawIOBase, not a BinaryIO
