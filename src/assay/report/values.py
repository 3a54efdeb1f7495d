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
from typing import Any

__all__ = ["count", "json_value", "plain", "short"]


def count(value: Any) -> Any:
    """``value`` as an ``int`` when it is a whole, finite number (a count), else unchanged."""
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


def plain(value: Any) -> str:
    """Full precision for machine formats."""
    x = _number(value)
    if isinstance(x, float):
        return "nan" if math.isnan(x) else repr(x)
    return str(x)


def short(value: Any, spec: str = ".4f") -> str:
    """Display text: numbers formatted with ``spec`` (integers as integers)."""
    x = _number(value)
    if isinstance(x, float):
        return "nan" if math.isnan(x) else format(x, spec)
    return str(x)


def json_value(value: Any) -> Any:
    """A JSON-safe value: NaN is ``None``; NumPy numbers become Python numbers."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    f = float(value)
    return None if math.isnan(f) else f
