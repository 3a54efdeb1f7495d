"""Value formatters shared by every output format: one rule per kind of output.

- :func:`plain` — machine text (TSV, CSV): full precision (the shortest repr that round-trips),
  integers as integers, NaN as ``nan``, ``None`` as an empty field.
- :func:`short` — display text (tables, Markdown, LaTeX): 4 decimals by default.
- :func:`json_value` — JSON: NaN becomes ``null``; NumPy scalars become Python numbers.

Anything that is not a number is shown with ``str``. A float that stands for a count (an
integer metric) is made an ``int`` by :func:`count` before it reaches these, so it prints as
one in every format.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, TypeVar

__all__ = ["count", "json_value", "plain", "short"]

_T = TypeVar("_T")


def count(value: _T) -> _T | int:
    """A whole number as an ``int``, so it prints as a count in every format.

    Parameters
    ----------
    value : object
        Any value; a real number that is whole and finite (``3.0``, ``numpy.int64(3)``) is a
        count.

    Returns
    -------
    int or object
        ``value`` as an ``int`` when it is a whole, finite number, else ``value`` unchanged.

    Examples
    --------
    >>> from assay.report import count
    >>> count(3.0), count(2.5), count("3")
    (3, 2.5, '3')
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    f = float(value)
    return int(f) if math.isfinite(f) and f.is_integer() else value


def _number(value: Any) -> str | int | float:
    """Text for what is not a number (``None`` is empty), else an ``int`` or a ``float``."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value)


def plain(value: object) -> str:
    """A value as machine formats (TSV, CSV) write it, at full precision.

    Floats are the shortest text that reads back to the same number, integers are integers,
    NaN is ``nan``, ``None`` an empty field, anything else its ``str``.

    Parameters
    ----------
    value : object
        The value (a Python or NumPy number, text, ``None``, ...).

    Returns
    -------
    str
        Its text.

    Examples
    --------
    >>> from assay.report import plain
    >>> plain(0.1 + 0.2), plain(3), plain(float("nan")), plain(None)
    ('0.30000000000000004', '3', 'nan', '')
    """
    x = _number(value)
    if isinstance(x, float):
        return "nan" if math.isnan(x) else repr(x)
    return str(x)


def short(value: object, spec: str = ".4f") -> str:
    """A value as tables for people show it (terminal, text, Markdown, LaTeX).

    Parameters
    ----------
    value : object
        The value; an integer is shown as an integer, NaN as ``nan``, ``None`` as an empty
        string, anything that is not a number as its ``str``.
    spec : str
        The format specification of a float (4 decimals by default).

    Returns
    -------
    str
        Its text.

    Examples
    --------
    >>> from assay.report import short
    >>> short(0.123456), short(0.5, ".2f"), short(7), short("bm25")
    ('0.1235', '0.50', '7', 'bm25')
    """
    x = _number(value)
    if isinstance(x, float):
        return "nan" if math.isnan(x) else format(x, spec)
    return str(x)


def json_value(value: _T) -> _T | int | float | None:
    """A number as JSON data: NaN is ``None``; NumPy numbers become Python numbers.

    Parameters
    ----------
    value : object
        Any value; what is not a real number (text, ``None``, a bool) is returned unchanged.

    Returns
    -------
    int, float, None or object
        A Python ``int`` for an integer, a ``float`` for another real number (``None`` for
        NaN), else ``value``.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.report import json_value
    >>> json_value(np.float32(0.5)), json_value(np.int64(2)), json_value(float("nan"))
    (0.5, 2, None)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    f = float(value)
    return None if math.isnan(f) else f
