"""How :meth:`QueryDocTable.coerce <assay.data.Run.coerce>` tells what it was given: the
table itself, a file path, a data frame or Arrow table, or a ``{query: {doc: value}}`` dict;
anything else is refused with a message that names the constructor to call."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import pyarrow as pa

from ..errors import InputError

if TYPE_CHECKING:
    from ._table import QueryDocTable

__all__ = ["coerce_table", "frame_kind", "is_table", "nesting"]

T = TypeVar("T", bound="QueryDocTable")


def frame_kind(value: Any) -> str | None:
    """The library of a data frame or table ("pandas", "polars" or "arrow"), told by its type
    without importing the library; None for anything else."""
    if isinstance(value, pa.Table):
        return "arrow"
    module = type(value).__module__.split(".")[0]
    if module == "pandas" and hasattr(value, "columns"):
        return "pandas"
    if module == "polars" and hasattr(value, "collect_schema"):
        return "polars"
    return None


def nesting(value: Any) -> int:
    """How deep the first entries of nested mappings go: 1 for ``{doc: 1.0}``, 2 for
    ``{query: {doc: 1.0}}`` (one table), 3 for ``{name: {query: {doc: 1.0}}}`` (a dict of
    runs)."""
    depth = 0
    while isinstance(value, Mapping):
        depth += 1
        if not value:
            break
        value = next(iter(value.values()))
    return depth


def coerce_table(cls: type[T], value: Any, where: str, role: str | None) -> T:
    """``value`` as a ``cls`` (see :meth:`~assay.data.Run.coerce`)."""
    if isinstance(value, cls):
        return value
    if isinstance(value, str | os.PathLike):
        return cls.read(value)
    kind = frame_kind(value)
    if kind == "pandas":
        return cls.from_pandas(value)
    if kind == "polars":
        return cls.from_polars(value)
    if kind == "arrow":
        return cls.from_arrow(value)
    if isinstance(value, Mapping) and nesting(value) == 2:
        return cls.from_dict(value)
    raise InputError(f"{where}: {_refusal(cls, value, role or cls.KIND)}")


def is_table(cls: type[QueryDocTable], value: Any) -> bool:
    """Whether ``value`` is one table in a form :func:`coerce_table` takes."""
    if isinstance(value, cls | str | os.PathLike) or frame_kind(value):
        return True
    return isinstance(value, Mapping) and nesting(value) == 2


def _refusal(cls: type[QueryDocTable], value: Any, role: str) -> str:
    """Why ``value`` is not a table of this kind, and what to call instead."""
    name, kind = cls.__name__, cls.ROLES[2]
    if isinstance(value, Mapping) and nesting(value) == 3:
        return (
            f"{role} is a dict of {{name: {{query: {{doc: {kind}}}}}}}; give one "
            f"{{query: {{doc: {kind}}}}} dict, or build each with {name}.from_dict(d[name])"
        )
    return (
        f"{role} must be an assay.{name}, a file path, a pandas or polars DataFrame, a "
        f"pyarrow Table or a {{query: {{doc: {kind}}}}} dict, got {type(value).__name__}; "
        f"see {name}.read, {name}.from_pandas, {name}.from_dict"
    )
