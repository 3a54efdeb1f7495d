"""The one family list (:mod:`assay._families`) is the truth everything else derives from,
and CONTRIBUTING.md's recipe for adding a family holds: one folder, one CLI module, one
entry in ``FAMILIES``.

- every entry's package, measure modules and CLI modules exist and import;
- no other place in ``src/`` lists families by hand;
- a lookup of a metric of every family works in a fresh interpreter with nothing else
  imported, and ``import assay; assay.<family>.<name>`` works for every family;
- a name that moved out of a core module still resolves, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
import types
import warnings
from pathlib import Path

import pytest

from assay import __file__ as assay_file
from assay._families import FAMILIES, Family, metric_families
from assay._lazy import LazyNames


def test_a_moved_name_resolves_with_a_deprecation_warning_naming_its_home() -> None:
    namespace: dict[str, object] = {}
    names = LazyNames("assay.fake", namespace, {}, elsewhere={"sqrt": "math"}, moved={"pi": "math"})
    assert names.get("sqrt") is __import__("math").sqrt
    for _ in range(2):  # every access warns: the name is never cached
        with pytest.warns(DeprecationWarning, match=r"assay\.fake\.pi moved to math\.pi"):
            assert names.get("pi") == pytest.approx(3.14159, abs=1e-5)
    assert "pi" not in namespace
    assert names.listing() == ["sqrt"]
    with pytest.raises(AttributeError, match="no attribute 'tau'"):
        names.get("tau")


def test_a_moved_name_in_a_module_getattr_warns_at_the_caller() -> None:
    module = types.ModuleType("assay_fake_module")
    names = LazyNames("assay_fake_module", vars(module), {}, moved={"e": "math"})
    module.__getattr__ = names.get  # type: ignore[method-assign]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert module.e == pytest.approx(2.71828, abs=1e-5)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert caught[0].filename == __file__


def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter (nothing of assay imported), return its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _first_metric(metric_family: str) -> str:
    from assay.metrics import REGISTRY

    return REGISTRY.specs(metric_family)[0].name


@pytest.mark.parametrize("metric_family", metric_families())
def test_a_lookup_loads_the_declarations_in_a_fresh_interpreter(metric_family: str) -> None:
    name = _first_metric(metric_family)
    out = _fresh(
        "import assay.metrics as m\n"
        f"metric = m.parse({name!r} + '()', family={metric_family!r})[0]\n"
        f"assert m.REGISTRY.lookup({name!r}, {metric_family!r}) is metric.spec\n"
        "print(metric.family, metric.name)\n"
    )
    assert out.split() == [metric_family, name]


@pytest.mark.parametrize(
    "call",
    [
        "len(m.REGISTRY.family({family!r}))",
        "len(m.REGISTRY.specs({family!r}))",
        "len(m.REGISTRY.names({family!r}))",
    ],
)
def test_every_registry_question_loads_what_it_asks_about(call: str) -> None:
    family = metric_families()[-1]
    out = _fresh(f"import assay.metrics as m\nprint({call.format(family=family)})")
    assert int(out) > 0


def test_listing_the_registry_loads_every_family_in_the_declared_order() -> None:
    out = _fresh(
        "from assay.metrics import REGISTRY\n"
        "print(' '.join(REGISTRY.families()))\n"
        "print(len(REGISTRY.specs()), len(list(REGISTRY)), len(REGISTRY.trec))\n"
    )
    families, counts = out.splitlines()
    assert tuple(families.split()) == metric_families()
    from assay.metrics import REGISTRY

    assert [int(c) for c in counts.split()] == [
        len(REGISTRY.specs()),
        len(list(REGISTRY)),
        len(REGISTRY.trec),
    ]


def test_a_ranking_lookup_imports_no_other_family() -> None:
    out = _fresh(
        "import sys, assay.metrics\n"
        "assay.metrics.parse('ndcg@10'); assay.metrics.parse('P.5,10')\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = set(out.split())
    others = [f for f in FAMILIES if not f.core]
    imported = [m for f in others for m in (f.package, *f.measure_modules) if m in loaded]
    assert imported == []


def test_assay_metrics_lists_every_family_in_a_fresh_interpreter() -> None:
    out = _fresh(
        "import sys\n"
        "from assay.cli import main\n"
        "sys.argv = ['assay', 'metrics', '--format', 'tsv']\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
    )
    header, *rows = out.splitlines()
    column = header.split("\t").index("family")
    assert list(dict.fromkeys(r.split("\t")[column] for r in rows)) == list(metric_families())


def test_the_metrics_package_derives_its_family_list() -> None:
    import assay.metrics

    assert metric_families() == assay.metrics.FAMILIES
    assay.metrics.load_families()  # still a call that loads everything


def _present(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f.name)
def test_every_family_is_a_lazy_top_level_name(fam: Family) -> None:
    if not _present(fam.package):  # assay.ranking lands with the ranking-core branch
        pytest.skip(f"{fam.package} is not in this tree yet")
    out = _fresh(
        "import inspect, sys, assay\n"
        f"assert {fam.package!r} not in sys.modules\n"
        f"module = assay.{fam.name}\n"
        "name = next(n for n in module.__all__ if inspect.isfunction(getattr(module, n)))\n"
        "print(name, callable(getattr(assay, " + repr(fam.name) + ").__dict__[name]))\n"
    )
    assert out.split()[1] == "True", out
    import assay

    assert fam.name in dir(assay)


def test_a_missing_top_level_name_is_an_attribute_error() -> None:
    import assay

    assert not hasattr(assay, "no_such_family")


def test_the_command_list_is_derived_from_the_family_list() -> None:
    from assay.cli import COMMANDS

    core = [m for f in FAMILIES if f.core for m in f.cli_modules]
    families = [m for f in FAMILIES if not f.core for m in f.cli_modules]
    assert list(COMMANDS) == [*core, "metrics", "demo", *families, "report", "plot"]
    assert len(set(COMMANDS)) == len(COMMANDS)


def _family_lists_in_the_source() -> list[str]:
    """Literal tuples, lists and sets of three or more family names in ``src/assay`` outside
    ``_families.py``: a second list of families, kept by hand. (A mapping keyed by family,
    such as the catalogue's introductions, is text about each family, not a list of them.)"""
    names = {f.name for f in FAMILIES} | set(metric_families())
    src = Path(assay_file).parent
    found = []
    for path in sorted(src.rglob("*.py")):
        if path.name == "_families.py" and path.parent == src:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Tuple | ast.List | ast.Set):
                continue
            named = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in names]
            if len(set(named)) >= 3:
                found.append(f"{path.relative_to(src.parent)}:{node.lineno}: {sorted(set(named))}")
    return found


def test_no_other_place_lists_the_families() -> None:
    found = _family_lists_in_the_source()
    assert found == [], "derive these from assay._families.FAMILIES:\n" + "\n".join(found)


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f.name)
def test_every_entry_names_modules_that_exist_and_import(fam: Family) -> None:
    if not _present(fam.package):  # assay.ranking lands with the ranking-core branch
        pytest.skip(f"{fam.package} is not in this tree yet")
    importlib.import_module(fam.package)
    for module in (*fam.measure_modules, *(f"assay.cli.{m}" for m in fam.cli_modules)):
        imported = importlib.import_module(module)
        if module.startswith("assay.cli."):
            assert callable(imported.register), f"{module} has no register(app)"
    for other in fam.uses:
        assert other in {f.name for f in FAMILIES}, f"{fam.name} uses unknown {other}"


def test_a_declaration_module_may_ask_the_registry_while_it_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading is re-entrant: a lookup made while the family's modules import (a declaration
    module importing another that parses a name) returns what is declared so far instead of
    importing the family again."""
    from assay.metrics import registry

    hook = types.ModuleType("assay_test_registry_hook")
    hook.registry = registry.Registry()  # type: ignore[attr-defined]
    hook.seen = []  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, hook.__name__, hook)
    (tmp_path / "assay_test_toy_measures.py").write_text(
        "import assay_test_registry_hook as hook\n"
        "hook.seen.append(hook.registry.lookup('anything', 'toy'))\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_measure_modules", lambda family: ("assay_test_toy_measures",))
    assert hook.registry.lookup("anything", "toy") is None
    assert hook.seen == [None]  # imported once, its own lookup answered
    hook.registry.lookup("other", "toy")
    assert hook.seen == [None]  # loaded: not imported again


def test_concurrent_first_lookups_all_find_the_metric() -> None:
    out = _fresh(
        "from concurrent.futures import ThreadPoolExecutor\n"
        "import assay.metrics as m\n"
        "with ThreadPoolExecutor(8) as pool:\n"
        "    found = list(pool.map(lambda _: str(m.parse('f1', family='classification')[0]),"
        " range(8)))\n"
        "print(' '.join(found))\n"
    )
    assert out.split() == ["f1"] * 8


@pytest.mark.parametrize(
    "module", ["assay.metrics", "assay.metrics.names", "assay.metrics.registry"]
)
def test_the_examples_of_the_registry_machinery_run(module: str) -> None:
    import doctest

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
