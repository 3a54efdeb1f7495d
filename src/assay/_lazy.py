"""Names a package loads on first use (PEP 562): importing the package stays cheap, and
``dir()`` lists the names before they are loaded."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, MutableMapping
from importlib import import_module
from typing import Any

__all__ = ["LazyNames"]


class LazyNames:
    """``submodules`` maps each public name to the submodule of ``package`` that defines it
    (``elsewhere``: to another module, by absolute name); a loaded name is kept in the
    package's ``namespace`` (its ``globals()``). A package sets ``__getattr__ = names.get``
    and ``__dir__ = names.listing``.

    ``moved`` maps a name that used to be public here to its new home, the absolute name of
    the module that defines it now (``{"read_labels": "assay.classification"}``), or
    ``"module:name"`` when it was renamed there (``"assay.regression.render:models_report"``):
    it still resolves, with a :class:`DeprecationWarning` naming the new home on every access
    (it is never cached in ``namespace``, so each access warns), and ``dir()`` no longer lists
    it.
    """

    def __init__(
        self,
        package: str,
        namespace: MutableMapping[str, Any],
        submodules: Mapping[str, str],
        elsewhere: Mapping[str, str] | None = None,
        moved: Mapping[str, str] | None = None,
    ) -> None:
        self.package = package
        self.namespace = namespace
        self.names = {n: f"{package}.{m}" for n, m in submodules.items()} | dict(elsewhere or {})
        self.moved = dict(moved or {})

    def get(self, name: str) -> Any:
        """The package's ``__getattr__``."""
        if name in self.names:
            value = getattr(import_module(self.names[name]), name)
            self.namespace[name] = value
            return value
        if name in self.moved:
            home, _, new = self.moved[name].partition(":")
            new = new or name
            warnings.warn(
                f"{self.package}.{name} moved to {home}.{new}; import it from there "
                f"({self.package}.{name} will be removed)",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(import_module(home), new)
        raise AttributeError(f"module {self.package!r} has no attribute {name!r}")

    def listing(self) -> list[str]:
        """The package's ``__dir__`` (moved names left out)."""
        return sorted({*self.namespace, *self.names} - self.moved.keys())
