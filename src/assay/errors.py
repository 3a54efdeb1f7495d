"""Typed exceptions. Every error assay raises on bad input derives from :class:`AssayError`.

The CLI maps :class:`AssayError` to a one-line message and exit code 2.
"""

from __future__ import annotations


class AssayError(Exception):
    """Root of every error assay raises deliberately."""


class InputError(AssayError, ValueError):
    """Bad input data. ``source`` and ``line`` locate it when known (``line`` is 1-based)."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None) -> None:
        self.source = source
        self.line = line
        self.detail = message
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + message)


class ParseError(InputError):
    """A malformed line: wrong column count, a value of the wrong type, undecodable bytes."""


class DuplicateError(InputError):
    """The same (query, document) pair appears twice."""


class EmptyInputError(InputError):
    """A file or collection holds no data rows."""


class MetricError(AssayError, ValueError):
    """An unknown metric name, or a bad metric parameter."""


class ConventionError(AssayError, ValueError):
    """An unknown convention value, or a metric that does not support the chosen convention."""


class MissingQueryError(AssayError, LookupError):
    """A qrels query has no results and ``missing="error"`` was asked for."""


class MissingExtraError(AssayError, ImportError):
    """An optional dependency is not installed; the message says which extra provides it."""
