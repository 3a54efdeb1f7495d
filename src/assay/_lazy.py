"""Names a package loads on first use (PEP 562): importing the package stays cheap, and
``dir()`` lists the names before they are loaded."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from importlib import import_module
from typing import Any

__all__ = ["LazyNames"]


class LazyNames:
    """``submodules`` maps each public name to the submodule of ``package`` that defines it
    (``elsewhere``: to another module, by absolute name); a loaded name is kept in the
    package's ``namespace`` (its ``globals()``). A package sets ``__getattr__ = names.get``
    and ``__dir__ = names.listing``."""

    def __init__(
        self,
        package: str,
        namespace: MutableMapping[str, Any],
        submodules: Mapping[str, str],
        elsewhere: Mapping[str, str] | None = None,
    ) -> None:
        self.package = package
        self.namespace = namespace
        self.names = {n: f"{package}.{m}" for n, m in submodules.items()} | dict(elsewhere or {})

    def get(self, name: str) -> Any:
        """The package's ``__getattr__``."""
        if name not in self.names:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        value = getattr(import_module(self.names[name]), name)
        self.namespace[name] = value
        return value

    def listing(self) -> list[str]:
        """The package's ``__dir__``."""
        return sorted({*self.namespace, *self.names})
