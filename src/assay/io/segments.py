"""Plain-text segment files: one segment (sentence, summary, answer) per line, the format of
machine translation and generation test sets (sacrebleu's ``-i`` and reference files).

Rules (sacrebleu's, so that the same files give the same scores):

- the file is UTF-8 (gzip-compressed files are read as well; a leading byte order mark is
  ignored); invalid UTF-8 is a :class:`~assay.errors.ParseError` naming the line;
- lines end at ``\\n`` (a ``\\r\\n`` ending loses its ``\\r`` with the trailing white space;
  a lone ``\\r`` is part of its line, as sacrebleu reads with ``newline="\\n"``); a final line
  end does not start another segment;
- trailing white space of every line is removed (``str.rstrip()``, as sacrebleu);
- an empty line is an empty segment (an empty hypothesis is a valid output); a file without a
  single line is an :class:`~assay.errors.EmptyInputError`.

:func:`read_numbers` reads files of one number per line (true values and predictions of a
regression) with the same line rules; a blank line, a value that is not a number and a
non-finite value (``nan``, ``inf``) is a :class:`~assay.errors.ParseError` naming the line.

Several files describing the same items (reference streams and system outputs: generation's
:func:`assay.generation.read_reference_streams`) must hold the same number of segments: :func:`check_same_count` names the first file that differs and the
line where the difference shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, BinaryIO

from ..errors import EmptyInputError, InputError, ParseError
from .text import PathLike, parse_number, read_text, source_name

__all__ = [
    "check_same_count",
    "read_numbers",
    "read_segments",
    "split_segments",
]


def split_segments(text: str) -> list[str]:
    """The segments of ``text``: lines split at ``\\n``, trailing white space removed."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final line end
    return [line.rstrip() for line in lines]


def read_segments(path: PathLike | BinaryIO) -> list[str]:
    """The segments of a plain-text file, one per line (see the module docstring)."""
    segments = split_segments(read_text(path))
    if not segments:
        raise EmptyInputError(
            "empty file: one segment per line is expected", source=source_name(path)
        )
    return segments


def check_same_count(named: Mapping[str, Sequence[Any]], *, unit: str = "segments") -> int:
    """The common number of segments of the named segment lists (file name -> segments), or
    an :class:`~assay.errors.InputError` naming the first one that differs from the first
    and the line where it differs: the first extra line of a longer file, or the last line
    of a shorter one. ``unit`` is what the lines are called in the message ("values" for
    :func:`read_numbers`' files)."""
    items = list(named.items())
    if not items:
        raise EmptyInputError("no segments given")
    first, expected = items[0][0], len(items[0][1])
    for name, segments in items[1:]:
        count = len(segments)
        if count > expected:
            raise InputError(
                f"{count} {unit}, but {first} has {expected}: this line has no counterpart "
                f"(the files must have one line per item, in the same order)",
                source=name,
                line=expected + 1,
            )
        if count < expected:
            raise InputError(
                f"ends after {count} {unit}, but {first} has {expected} (the files must have "
                "one line per item, in the same order)",
                source=name,
                line=max(count, 1),
            )
    return expected


def read_numbers(path: PathLike | BinaryIO) -> list[float]:
    """One finite number per line (see the module docstring)."""
    source = source_name(path)
    values = []
    lines = split_segments(read_text(path))
    if not lines:
        raise EmptyInputError("empty file: one number per line is expected", source=source)
    for i, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            raise ParseError("blank line: one number per line is expected", source=source, line=i)
        values.append(parse_number(text, source, i))
    return values
