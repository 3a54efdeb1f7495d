"""The public API is pinned: public modules are promises.

- every public module (no ``_`` in its dotted path) declares ``__all__`` and every name in it
  resolves;
- the names of the user-facing modules equal ``tests/unit/public_api.txt`` — an addition or a
  removal is a decision, made by updating that file (the failure prints the lines; or run
  ``python tests/unit/test_public_api.py > tests/unit/public_api.txt``);
- ``dir()`` of the lazily loaded packages lists their names, and the package ships ``py.typed``;
- every result type exported is a frozen dataclass with ``provenance``, ``records()`` and
  ``to_pandas()``.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import assay
from assay._families import FAMILIES
from assay._result import Result

PINNED_FILE = Path(__file__).with_name("public_api.txt")

#: The core modules users import; their ``__all__`` is pinned.
CORE_MODULES = (
    "assay",
    "assay.compat.pytrec_eval",
    "assay.compat.trec_eval",
    "assay.data",
    "assay.datasets",
    "assay.dist",
    "assay.errors",
    "assay.io",
    "assay.metrics",
    "assay.report",
    "assay.results",
    "assay.stats",
)

#: The modules users import: the core and every family package of the one family list (a
#: package not yet in the tree, such as ``assay.ranking`` before it lands, is left out).
USER_MODULES = tuple(
    sorted(
        {
            *CORE_MODULES,
            *(f.package for f in FAMILIES if importlib.util.find_spec(f.package) is not None),
        }
    )
)


def public_modules() -> list[str]:
    names = ["assay"]
    for info in pkgutil.walk_packages(assay.__path__, "assay."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def current_api() -> list[str]:
    lines = []
    for name in USER_MODULES:
        module = importlib.import_module(name)
        lines += [f"{name}: {item}" for item in sorted(module.__all__)]
    return lines


@pytest.mark.parametrize("name", public_modules())
def test_public_module_declares_all_and_every_name_resolves(name: str) -> None:
    module = importlib.import_module(name)
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    assert len(set(module.__all__)) == len(module.__all__), "duplicates in __all__"
    missing = [item for item in module.__all__ if not hasattr(module, item)]
    assert missing == [], f"{name}.__all__ names what it does not define: {missing}"


def test_the_public_api_is_pinned() -> None:
    pinned = PINNED_FILE.read_text(encoding="utf-8").splitlines()
    now = current_api()
    added = sorted(set(now) - set(pinned))
    removed = sorted(set(pinned) - set(now))
    assert (added, removed) == ([], []), (
        "the public API changed; if on purpose, update tests/unit/public_api.txt.\n"
        f"added: {added}\nremoved: {removed}"
    )


@pytest.mark.parametrize("name", USER_MODULES)
def test_dir_lists_the_lazy_names(name: str) -> None:
    module = importlib.import_module(name)
    assert set(module.__all__) <= set(dir(module))


def test_the_package_is_typed() -> None:
    assert (Path(assay.__file__).parent / "py.typed").exists()


def _result_types() -> list[type]:
    found: dict[str, type] = {}
    for name in USER_MODULES:
        module = importlib.import_module(name)
        for item in module.__all__:
            value = getattr(module, item)
            if isinstance(value, type) and issubclass(value, Result) and value is not Result:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


@pytest.mark.parametrize("kind", _result_types(), ids=lambda t: t.__qualname__)
def test_result_types_follow_the_protocol(kind: type) -> None:
    assert dataclasses.is_dataclass(kind), f"{kind} is not a dataclass"
    params = getattr(kind, "__dataclass_params__", None)
    assert params is not None and params.frozen, f"{kind} is not frozen"
    fields = {f.name for f in dataclasses.fields(kind)}
    assert "provenance" in fields or isinstance(getattr(kind, "provenance", None), property)
    assert callable(kind.records) and callable(kind.to_pandas)
    assert kind.records is not Result.records, f"{kind} does not define records()"


if __name__ == "__main__":
    print("\n".join(current_api()))


def test_the_typing_check_of_public_names_is_current() -> None:
    """``tests/typing/public_names.py`` (checked by ``mypy --strict`` in ``make lint``) imports
    every pinned name; regenerate it with ``python tools/typing_names.py``."""
    import sys

    sys.path.insert(0, str(PINNED_FILE.parents[2] / "tools"))
    from typing_names import TARGET, render

    assert TARGET.read_text(encoding="utf-8") == render()


@pytest.mark.parametrize("name", [m for m in USER_MODULES if m != "assay"])
def test_a_lazy_package_declares_its_names_to_type_checkers(name: str) -> None:
    """A package that loads its names on first use (``__getattr__``) also imports each of
    them as ``X as X`` under ``TYPE_CHECKING``, so that mypy and editors see their types (a
    name missing there is typed ``Any`` through ``__getattr__``)."""
    import ast

    module = importlib.import_module(name)
    if not hasattr(module, "__getattr__") or module.__file__ is None:
        return
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    declared = {
        alias.asname
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
        if isinstance(inner, ast.ImportFrom)
        for alias in inner.names
        if alias.asname == alias.name
    }
    eager = set()  # bound by the module's own top-level statements (not loaded lazily)
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            eager |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.FunctionDef | ast.ClassDef):
            targets = node.targets if isinstance(node, ast.Assign) else [node]
            eager |= {getattr(t, "id", getattr(t, "name", "")) for t in targets}
            eager |= {getattr(getattr(t, "target", None), "id", "") for t in targets}
    missing = sorted(set(module.__all__) - declared - eager)
    assert missing == [], f"{name}: declare under TYPE_CHECKING as 'X as X': {missing}"
