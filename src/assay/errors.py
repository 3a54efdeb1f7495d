"""Typed exceptions. Every error assay raises on purpose derives from :class:`AssayError`.

Two kinds matter most: :class:`InputError` (the data is wrong: a file, a column, a value) and
:class:`OptionError` (an argument is wrong: an unknown choice, a seed of -1, a cutoff of 0).
Both are also ``ValueError``\\s, so code written against NumPy or scikit-learn keeps working.
The CLI maps every :class:`AssayError` to one line on stderr and exit code 2.
"""

from __future__ import annotations

__all__ = [
    "AssayError",
    "AssayWarning",
    "ConventionError",
    "CoverageWarning",
    "DuplicateError",
    "EmptyInputError",
    "InputError",
    "InputWarning",
    "MetricError",
    "MissingExtraError",
    "MissingQueryError",
    "OptionError",
    "ParseError",
    "PowerWarning",
    "shown",
]


def shown(text: str, limit: int = 60, *, points: bool | None = None) -> str:
    r"""User text as it appears in a message: quoted, control characters escaped and cut to
    ``limit`` characters.

    Escaping means that an ESC or a newline from a file never reaches the terminal raw. Text
    that can look like other text also shows its code points, ``'é' (U+0065 U+0301)``:
    combining marks, characters that Unicode normalisation (NFKC) changes, format characters
    and letters of more than one script (Latin ``a`` and Cyrillic ``а``), so that two ids that
    differ invisibly are told apart.

    Parameters
    ----------
    text : str
        The text (an id, a value read from a file).
    limit : int, default 60
        Characters shown; longer text is cut and ends with "…".
    points : bool, optional
        True: always list the code points; False: never; None (default): when the text can
        look like other text.

    Returns
    -------
    str
        The quoted text, followed by its code points where they are listed.

    Examples
    --------
    >>> from assay.errors import shown
    >>> print(shown("doc-1"), shown("x" * 70, limit=10))
    'doc-1' 'xxxxxxxxxx…'
    >>> print(shown("a" + chr(27) + "[31mb"))
    'a\x1b[31mb'
    >>> print(shown("p" + chr(0x430) + "ss"))
    'pаss' (U+0070 U+0430 U+0073 U+0073)
    """
    quoted = repr(text if len(text) <= limit else text[:limit] + "…")
    if not (_lookalike(text[:limit]) if points is None else points):
        return quoted
    chars = text[:_POINTS]
    more = " …" if len(text) > _POINTS else ""
    return f"{quoted} ({' '.join(f'U+{ord(c):04X}' for c in chars)}{more})"


_POINTS = 24  # code points listed at most: ids are short, and a message stays one line
_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE")


def _lookalike(text: str) -> bool:
    """Whether ``text`` holds what can make it look like different text (see :func:`shown`)."""
    if text.isascii():
        return False
    import unicodedata

    if not unicodedata.is_normalized("NFKC", text):
        return True
    scripts = set()
    for c in text:
        category = unicodedata.category(c)
        if (
            category[0] == "M"
            or category in ("Cf", "Co", "Cn")
            or (category[0] == "Z" and c != " ")
        ):
            return True
        if category[0] == "L":
            scripts.add(unicodedata.name(c, "").split(" ", 1)[0])
    return len(scripts & set(_SCRIPTS)) > 1


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


class OptionError(AssayError, ValueError):
    """A bad option: an unknown choice, a value out of range, a wrong type, an unknown name.

    ``option`` names the parameter when one is to blame.
    """

    def __init__(self, message: str, *, option: str | None = None) -> None:
        self.option = option
        super().__init__(message)


class MetricError(OptionError):
    """An unknown metric name, or a bad metric parameter."""


class ConventionError(OptionError):
    """An unknown convention value, or a metric that does not support the chosen convention."""


class MissingQueryError(AssayError, LookupError):
    """A qrels query has no results and ``missing="error"`` was asked for."""


class MissingExtraError(AssayError, ImportError):
    """An optional dependency is not installed; the message says which extra provides it."""


class AssayWarning(UserWarning):
    """Base of the warnings assay issues (through :mod:`warnings`; results also keep them)."""


class InputWarning(AssayWarning):
    """Something in the input was ignored or read in a way the user may not expect."""


class PowerWarning(AssayWarning):
    """A test cannot reach significance: the sample is too small for its smallest p-value."""


class CoverageWarning(AssayWarning):
    """Queries were scored by a convention rather than from their results (``missing``,
    ``no_relevant``, ``judged_only``)."""
