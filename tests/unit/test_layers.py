"""The import rule of the house, read from the source with ``ast``.

Each layer imports only from layers below it (or from inside its own package); no module
imports another package's private module or name; optional dependencies are imported only
inside functions (through ``assay._optional.require``), never at module level.

The layers are the horizontal core (foundation, generic ``io``, ``data``, ``stats``, the
registry machinery ``metrics``, the rendering engine ``report``, the ranking core), then ONE
layer holding every family package of the one family list (:data:`assay._families.FAMILIES`),
where a family imports a sibling only along the ``uses`` edges its entry declares, then
``compat``, ``dist`` and ``cli``. The ranking core's modules import each other freely; that
no import cycle forms is checked by ``test_import_cycles.py``.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

from assay._families import FAMILIES
from conftest import ROOT

SRC = ROOT / "src" / "assay"

#: The ranking core: ranking's declarations and renderers (``ranking``), the results, the
#: evaluation, the comparison and the seeded collections; they import among themselves freely.
RANKING_CORE = {"ranking", "results", "evaluation", "prepared", "comparison", "datasets", "seeds"}

#: The family packages (every family of the one family list but the ranking core's own).
FAMILY_PACKAGES = {f.name for f in FAMILIES if not f.core}

#: The siblings each family may import (its ``uses``).
USES = {f.name: set(f.uses) for f in FAMILIES}

#: Top-level modules and packages of ``assay`` by layer, lowest first.
#: Within the foundation the order is finer (a module may use the ones listed before it).
LAYERS: list[set[str]] = [
    {"errors", "_version"},
    {"_options", "_optional", "_arrow", "_arrays", "_parallel", "_lazy", "_files", "_families"},
    {"_result"},
    {"io"},
    {"data"},
    {"conventions"},
    {"stats"},
    {"metrics"},
    {"report"},
    RANKING_CORE,
    FAMILY_PACKAGES,
    {"compat"},
    {"dist"},
    {"cli"},
    {"__main__"},
]
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}

#: Layers whose members import each other: freely (the ranking core), or along ``uses``.
FREE_LAYERS = {LAYER["results"]}
FAMILY_LAYER = LAYER[next(iter(FAMILY_PACKAGES))]

#: Names placed in a layer before they exist on every branch (``assay.ranking`` lands with
#: the ranking core's move).
NOT_YET: set[str] = set()

#: Modules of the core that still render or read for a family, and so import upwards, until
#: the families move into their packages (sibling branches of House II; the lead empties
#: this set at the merge).
MOVING: set[str] = set()


def _allowed(own: str, other: str) -> bool:
    """Whether top-level ``assay.<own>`` may import ``assay.<other>``."""
    if LAYER[other] < LAYER[own]:
        return True
    if LAYER[other] == LAYER[own] == FAMILY_LAYER:
        return other in USES[own]
    return LAYER[other] == LAYER[own] and LAYER[own] in FREE_LAYERS


#: Imported only inside the function that needs them (``_optional.require``).
OPTIONAL = {
    "pandas",
    "polars",
    "lightgbm",
    "sklearn",
    "faiss",
    "sacrebleu",
    "rouge_score",
    "dask",
    "distributed",
    "matplotlib",
    "ir_datasets",
}


#: Third-party internals used on purpose, each with its reason. sacrebleu's paired tests work
#: on per-segment sufficient statistics, which only its private methods expose; reproducing
#: its --paired-bs/--paired-ar numbers bit for bit needs the same ones (pinned by the oracle
#: tests in oracles/test_generation_sacrebleu_oracles.py and peers/test_generation_sacrebleu.py).
#: The CLI's end skips the interpreter's teardown: ``os._exit`` (documented, underscore and
#: all) after the atexit handlers, which only ``atexit._run_exitfuncs`` runs (what the
#: interpreter itself calls; pinned by tests/cli/test_cli_startup.py).
THIRD_PARTY_PRIVATE = {
    ("assay/generation/_scorers.py", "self._impl"),
    ("assay/cli/_exit.py", "atexit"),
    ("assay/cli/_exit.py", "os"),
}


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py"))


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The parsed module, parsed once for all the tests of this file (each test walked every
    module again). Only read: nothing here changes a tree."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the module in ``ast.walk``'s order, walked once for all the checks."""
    return tuple(ast.walk(_tree(path)))


def _dotted(path: Path) -> list[str]:
    parts = ["assay", *path.relative_to(SRC).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def _resolve(path: Path, node: ast.ImportFrom) -> list[str]:
    """The absolute dotted target of a ``from … import`` statement."""
    if node.level == 0:
        return (node.module or "").split(".")
    here = _dotted(path)
    package = here if path.name == "__init__.py" else here[:-1]
    base = package[: len(package) - (node.level - 1)]
    return base + (node.module.split(".") if node.module else [])


def _imports(path: Path) -> Iterator[tuple[int, list[str], list[str], bool]]:
    """(line, target parts, imported names, at module level) for every import in ``path``."""
    top_level = {id(n) for n in _tree(path).body}
    type_checking = set()
    for node in _nodes(path):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_checking.update(id(n) for n in ast.walk(node))
    for node in _nodes(path):
        if id(node) in type_checking:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split("."), [], id(node) in top_level
        elif isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
            target = _resolve(path, node)
            yield node.lineno, target, names, id(node) in top_level
            # ``from . import x`` imports the module ``x`` of the package.
            for name in names:
                if target[:1] == ["assay"] and _is_module([*target, name]):
                    yield node.lineno, [*target, name], [], id(node) in top_level


def _is_module(parts: list[str]) -> bool:
    candidate = SRC.joinpath(*parts[1:])
    return candidate.with_suffix(".py").exists() or (candidate / "__init__.py").exists()


def _violations() -> Iterator[str]:
    for path in _modules():
        here = _dotted(path)
        if len(here) == 1:  # assay/__init__.py: lazy attribute table only
            continue
        own = here[1]
        for line, target, names, at_top in _imports(path):
            where = f"{path.relative_to(SRC.parent)}:{line}"
            if target[0] in OPTIONAL and at_top:
                yield f"{where}: optional dependency {target[0]} imported at module level"
            if target[0] != "assay" or len(target) < 2 or not _is_module(target[:2]):
                continue
            other = target[1]
            if other == own:
                continue
            if other not in LAYER or own not in LAYER:
                yield f"{where}: assay.{own} or assay.{other} is not placed in a layer"
            elif not _allowed(own, other) and where.partition(":")[0] not in MOVING:
                yield f"{where}: assay.{own} (layer {LAYER[own]}) imports assay.{other} (layer {LAYER[other]})"
            private = [p for p in target[2:] if p.startswith("_") and not p.startswith("__")]
            private += [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and not other.startswith("_"):
                yield f"{where}: imports private {'.'.join(target)} {private}"


def _package(path: Path) -> str:
    return path.relative_to(SRC).parts[0].removesuffix(".py")


def _private_names_defined() -> dict[str, set[str]]:
    """Private attribute names each top-level package defines (``self._x = …``, ``__slots__``,
    private methods), so its own modules may use them on each other's objects."""
    defined: dict[str, set[str]] = {}
    for path in _modules():
        names = defined.setdefault(_package(path), set())
        for node in _nodes(path):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)  # dataclass fields
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)
    return defined


def _private_attribute_access() -> Iterator[str]:
    """``x._name`` on another package's object: reaching into its internals."""
    defined = _private_names_defined()
    for path in _modules():
        own = defined[_package(path)]
        for node in _nodes(path):
            if not isinstance(node, ast.Attribute):
                continue
            attr = node.attr
            if not attr.startswith("_") or attr.startswith("__") or attr in own:
                continue
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in {"self", "cls", "other", "new"}:
                continue
            if isinstance(owner, ast.Call) and ast.unparse(owner.func) == "super":
                continue
            where = str(path.relative_to(SRC.parent))
            if (where, ast.unparse(owner)) in THIRD_PARTY_PRIVATE:
                continue
            yield f"{path.relative_to(SRC.parent)}:{node.lineno}: {ast.unparse(node)}"


def test_every_top_level_module_is_placed_in_a_layer():
    tops = {p.relative_to(SRC).parts[0].removesuffix(".py") for p in _modules()}
    unplaced = sorted(tops - set(LAYER) - {"__init__", "py"})
    assert unplaced == [], f"place these in LAYERS: {unplaced}"


def test_layers_import_only_downwards_and_nothing_private():
    violations = list(dict.fromkeys(_violations()))
    assert violations == [], "\n".join(violations)


def test_no_module_reads_private_attributes_of_other_objects():
    found = list(_private_attribute_access())
    assert found == [], "\n".join(found)


def test_every_layer_name_exists() -> None:
    tops = {p.relative_to(SRC).parts[0].removesuffix(".py") for p in _modules()}
    ghosts = sorted(set(LAYER) - tops - NOT_YET)
    assert ghosts == [], f"LAYERS names modules that do not exist: {ghosts}"


def test_the_family_layer_is_the_family_list() -> None:
    assert set(LAYERS[FAMILY_LAYER]) == {f.name for f in FAMILIES if not f.core}
    for f in FAMILIES:
        assert set(f.uses) <= {g.name for g in FAMILIES} - {f.name}, f"{f.name} uses {f.uses}"


#: The files of the core named after a family today, or holding a family's reader, measure
#: declarations or renderers: each moves into its family's package (sibling branches).
FAMILY_FILES_IN_THE_CORE = {
    "tagging": ["io/conll.py", "report/tagging.py"],
    "agreement": ["io/ratings.py", "metrics/_ratings.py"],
    "clustering": ["metrics/_clusterings.py"],
    "embeddings": ["io/embeddings.py", "report/embeddings.py"],
    "generation": ["report/nlp.py"],
    "regression": ["report/nlp.py"],
    "ltr": ["io/letor.py", "io/_letor_blocks.py", "io/_letor_fast.py", "report/ltr.py"],
    "meta": ["report/meta.py"],
}


def _family_files_in_the_core() -> list[str]:
    found = []
    for f in FAMILIES:
        if f.core:
            continue
        stems = {f.name, f.metric_family or f.name}
        for folder in ("metrics", "report", "io"):
            for path in sorted((SRC / folder).glob("*.py")):
                if any(path.stem.lstrip("_").startswith(stem) for stem in stems):
                    found.append(f"{f.name}: {path.relative_to(SRC)}")
        found += [
            f"{f.name}: {name}"
            for name in FAMILY_FILES_IN_THE_CORE.get(f.name, [])
            if (SRC / name).exists()
        ]
    return list(dict.fromkeys(found))


def test_the_core_holds_no_family_code() -> None:
    """``metrics/`` holds no family's declarations, ``report/`` no family's renderers,
    ``io/`` no family's reader: each is in its family's package."""
    found = _family_files_in_the_core()
    assert found == [], "\n".join(found)


def test_every_family_declares_its_metrics_in_its_package() -> None:
    outside = [
        f"{f.name}: {module}"
        for f in FAMILIES
        if not f.core
        for module in f.measure_modules
        if not module.startswith(f.package + ".")
    ]
    assert outside == [], "\n".join(outside)
