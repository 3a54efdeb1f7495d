"""The result protocol every result type follows.

A result is a frozen dataclass with a ``provenance`` mapping (what produced it: assay's
version, the options, seeds, inputs) and ``records()``, flat rows of plain Python values
that every output format, data frame and report is built from.
"""

from __future__ import annotations

import platform
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from ._version import __version__

if TYPE_CHECKING:
    import pandas as pd


@runtime_checkable
class ResultLike(Protocol):
    """What every assay result offers."""

    @property
    def provenance(self) -> Mapping[str, Any]: ...

    def records(self) -> list[dict[str, Any]]: ...

    def to_pandas(self) -> pd.DataFrame: ...


class Result:
    """Base of the result types: ``to_pandas()`` from ``records()``.

    Subclasses are frozen dataclasses with a ``provenance`` field and a ``records()`` method.
    """

    __slots__ = ()

    def records(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def to_pandas(self) -> pd.DataFrame:
        """``records()`` as a pandas DataFrame (needs the ``frames`` extra)."""
        from ._optional import require

        pandas = require("pandas")
        return pandas.DataFrame.from_records(self.records())


class TupleResult(Result):
    """A small result that unpacks, indexes, hashes and compares like the tuple of its
    ``_fields`` (what it was before the result protocol): ``tp, fp, fn, tn = counts``,
    ``counts == (1, 2, 1, 6)``. ``provenance`` takes no part in comparisons.
    ``records()``: one row with the fields."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __iter__(self) -> Iterator[Any]:
        return (getattr(self, name) for name in self._fields)

    def __getitem__(self, index: int) -> Any:
        return tuple(self)[index]

    def __len__(self) -> int:
        return len(self._fields)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple | TupleResult):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def records(self) -> list[dict[str, Any]]:
        return [{name: getattr(self, name) for name in self._fields}]


def provenance(**settings: Any) -> dict[str, Any]:
    """A provenance mapping: assay's and Python's versions, then ``settings`` in order."""
    return {"assay_version": __version__, "python": platform.python_version(), **settings}
