"""The parameters of metric declarations: :class:`Param` and the validators.

Each validator is the one of its kind from :mod:`assay._options`, raising
:class:`~assay.errors.MetricError` (an :class:`~assay.errors.OptionError` for a bad value).
Re-exported by :mod:`assay.metrics.registry`, where the declarations are made.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._options import choice, integer, number
from ..errors import MetricError

__all__ = [
    "FROM_SIGNATURE",
    "REL",
    "Param",
    "anything",
    "closed_unit",
    "nonneg_int",
    "one_of",
    "open_unit",
    "optional",
    "positive_float",
    "positive_int",
    "real_number",
]


#: A parameter default taken from the declared function's signature.
FROM_SIGNATURE: Any = object()


@dataclass(frozen=True)
class Param:
    """A parameter of a metric declaration: name, default, validator and documentation.

    Parameters
    ----------
    name : str
        The keyword the metric takes (``gain`` in ``ndcg(gain='exp')``).
    default : object
        Its value when the name does not give one (:data:`FROM_SIGNATURE` in a
        :func:`~assay.metrics.registry.measure` declaration: the function's own default).
    check : callable
        The validator: takes a value, returns it normalised, raises
        :class:`~assay.errors.MetricError` for a bad one (:func:`positive_int`,
        :func:`one_of`, ...).
    doc : str
        One line for ``assay metrics`` and ``docs/metrics.md``.

    Examples
    --------
    >>> from assay.metrics import Param
    >>> from assay.metrics.params import positive_int
    >>> depth = Param("depth", 10, positive_int("depth"), "documents looked at")
    >>> depth.check(5.0)
    5
    >>> from assay.errors import MetricError
    >>> try:
    ...     depth.check(0)
    ... except MetricError as exc:
    ...     print(exc)
    depth must be a positive integer, got 0
    """

    name: str
    default: Any  # Any: a parameter's value is of the parameter's own type
    check: Callable[[Any], Any]  # Any: each validator takes and returns its own types
    doc: str


def positive_int(what: str) -> Callable[[Any], int]:
    return functools.partial(integer, name=what, minimum=1, integral_float=True, error=MetricError)


def nonneg_int(what: str) -> Callable[[Any], int]:
    return functools.partial(integer, name=what, minimum=0, integral_float=True, error=MetricError)


def open_unit(what: str) -> Callable[[Any], float]:
    return functools.partial(
        number, name=what, low=0, high=1, low_open=True, high_open=True, error=MetricError
    )


def closed_unit(what: str) -> Callable[[Any], float]:
    return functools.partial(number, name=what, low=0, high=1, error=MetricError)


def real_number(what: str) -> Callable[[Any], float]:
    """Any finite real number."""
    return functools.partial(number, name=what, error=MetricError)


def positive_float(what: str) -> Callable[[Any], float]:
    return functools.partial(number, name=what, low=0, low_open=True, error=MetricError)


def one_of(what: str, kind: Any, **options: Any) -> Callable[[Any], Any]:
    """A choice among the values of the ``Literal`` type ``kind``."""
    return functools.partial(choice, kind=kind, name=what, error=MetricError, **options)


def optional(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def wrapped(value: Any) -> Any:
        return None if value is None else check(value)

    return wrapped


def anything(value: Any) -> Any:
    """No check (for parameters that are data, such as a list of labels)."""
    return value


REL = Param("rel", 1, nonneg_int("rel"), "minimum grade counted relevant (inclusive)")
