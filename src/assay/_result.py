"""The result protocol every result type follows.

A result is a frozen dataclass with a ``provenance`` mapping (what produced it: assay's
version, the options, seeds, inputs) and ``records()``, flat rows of plain Python values
that every output format, data frame and report is built from.
"""

from __future__ import annotations

import platform
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

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


def provenance(**settings: Any) -> dict[str, Any]:
    """A provenance mapping: assay's and Python's versions, then ``settings`` in order."""
    return {"assay_version": __version__, "python": platform.python_version(), **settings}
