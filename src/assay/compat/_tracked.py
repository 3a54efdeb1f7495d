"""Nested dicts that remember the columnar object they were made from.

``parse_run``/``parse_qrel`` of the pytrec_eval drop-in return these, so that handing the
result straight to ``RelevanceEvaluator`` skips converting a million Python objects back into
columns. Like pytrec_eval's, the outer dict is a ``collections.defaultdict(dict)`` (reading a
missing query inserts ``{}``). Any mutation — of the outer dict, including that insertion, or
of any inner dict — forgets the columnar object, and copies or pickles come back as plain
``defaultdict(dict)`` of plain dicts, so a stale object can never be used.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any


def _forgetting(name: str) -> Callable[..., Any]:
    method = getattr(dict, name)

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        self._forget()
        return method(self, *args, **kwargs)

    wrapper.__name__ = name
    return wrapper


_MUTATORS = (
    "__setitem__",
    "__delitem__",
    "__ior__",
    "update",
    "pop",
    "popitem",
    "clear",
    "setdefault",
)


class _Inner(dict[Any, Any]):
    __slots__ = ("_outer",)
    _outer: Tracked | None

    def _forget(self) -> None:
        outer = self._outer
        if outer is not None:
            outer._forget()

    def __reduce__(self) -> Any:
        return (dict, (dict(self),))

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        import copy

        return {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()}


class Tracked(collections.defaultdict[Any, Any]):
    """``{query: {doc: value}}`` (a ``defaultdict(dict)``) plus the object it was read as
    (``columnar``), while unchanged."""

    __slots__ = ("columnar",)
    columnar: Any

    def __init__(self, groups: Any, columnar: Any) -> None:
        super().__init__(dict)
        for q, pairs in groups:
            inner = _Inner(pairs)
            inner._outer = self
            dict.__setitem__(self, q, inner)
        self.columnar = columnar

    def _forget(self) -> None:
        self.columnar = None

    def __setitem__(self, key: Any, value: Any) -> None:
        self._forget()
        dict.__setitem__(self, key, value)

    def __missing__(self, key: Any) -> Any:
        self._forget()
        return super().__missing__(key)

    def __repr__(self) -> str:
        return f"defaultdict({self.default_factory!r}, {dict.__repr__(self)})"

    def _plain(self) -> collections.defaultdict[Any, Any]:
        return collections.defaultdict(self.default_factory, self)

    def __reduce__(self) -> Any:
        return (
            collections.defaultdict,
            (self.default_factory, {k: dict(v) for k, v in self.items()}),
        )

    # pytrec_eval's parse_run gives a plain defaultdict, and so does a copy of ours.
    def __copy__(self) -> collections.defaultdict[Any, Any]:  # type: ignore[override]  # why: plain on purpose
        return self._plain()

    def copy(self) -> collections.defaultdict[Any, Any]:  # type: ignore[override]  # why: plain on purpose
        return self._plain()

    def __deepcopy__(self, memo: dict[int, Any]) -> collections.defaultdict[Any, Any]:
        import copy

        return collections.defaultdict(
            self.default_factory,
            {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()},
        )


for _name in _MUTATORS:
    setattr(_Inner, _name, _forgetting(_name))
    if _name != "__setitem__":
        setattr(Tracked, _name, _forgetting(_name))


def columnar_of(value: Any) -> Any:
    """The columnar object behind an unchanged :class:`Tracked` dict, else None."""
    return value.columnar if type(value) is Tracked else None
