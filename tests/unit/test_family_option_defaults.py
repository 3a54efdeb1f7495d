"""One default per option, the measure's own (issue 25: ``mape()`` refused a zero target by
default while ``regression_report`` and ``assay regression`` printed NaN). Registry-driven:
every public function of a family facade, and every CLI command of the family, that takes
an option a measure of the family declares has that measure's default (the CLI may leave it
unset, None, so the library's applies); and the three agree on the cases the defaults
decide."""

from __future__ import annotations

import inspect
import math
import typing
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputError
from assay.metrics import REGISTRY, load_families
from support.cli import assert_one_line_error, commands, invoke

load_families()

#: family -> its public facade and its CLI commands.
FACADES = {
    "classification": ("assay.classification", ("classify",)),
    "agreement": ("assay.agreement", ("agree",)),
    "clustering": ("assay.clustering", ("cluster",)),
    "regression": ("assay.regression", ("regression",)),
    "tagging": ("assay.tagging", ("tagging",)),
    "embedding": ("assay.embeddings", ("embed",)),
}


#: (function, option) whose default differs on purpose, with the reason.
EXEMPT = {
    ("assay.classification.simulate_f1_mcc", "zero_division"): "a simulation over every "
    "matrix, not a measure of data: undefined points are left out of its plot (NaN)",
    ("assay.classification.simulate_f1_mcc", "degenerate"): "as zero_division",
    ("assay.classification.evaluate", "average"): "which rows are shown, as the CLI's "
    "--average: None shows every average (the measures' averages are all computed)",
    ("assay.embeddings.retrieval_metrics", "exclude_self"): "None: the measures' False when "
    "references are given, True when the queries are the references (the only sound value)",
    ("assay.embeddings.nearest_neighbours", "exclude_self"): "as retrieval_metrics",
    ("assay.embeddings.evaluate", "exclude_self"): "as retrieval_metrics",
    ("assay.embeddings.compare", "exclude_self"): "as retrieval_metrics",
    ("embed", "exclude_self"): "as retrieval_metrics",
}


def _declared(family: str) -> dict[str, Any]:
    """option -> the one default the family's measures declare for it."""
    defaults: dict[str, set[Any]] = {}
    for spec in REGISTRY.family(family).values():
        for p in spec.params:
            defaults.setdefault(p.name, set()).add(repr(p.default))
    assert all(len(v) == 1 for v in defaults.values()), (family, defaults)
    return {name: next(iter(v)) for name, v in defaults.items()}


def _cases() -> list[tuple[str, str, str, Any]]:
    out = []
    for family, (module, _) in FACADES.items():
        declared = _declared(family)
        mod = import_module(module)
        measures = {m for f in FACADES for m in REGISTRY.family(f)}
        for name in getattr(mod, "__all__", ()):
            func = getattr(mod, name)
            if not inspect.isfunction(func) or name in measures:
                continue
            for p in inspect.signature(func).parameters.values():
                exempt = (f"{module}.{name}", p.name) in EXEMPT
                if p.kind is p.KEYWORD_ONLY and p.name in declared and not exempt:
                    out.append((family, f"{module}.{name}", p.name, p.default))
    return out


CASES = _cases()


def test_the_regression_report_is_among_the_cases() -> None:
    assert ("regression", "assay.regression.regression_report", "zero_target", "error") in CASES


@pytest.mark.parametrize(("family", "function", "option", "default"), CASES)
def test_facade_functions_default_as_the_measures(
    family: str, function: str, option: str, default: Any
) -> None:
    assert repr(default) == _declared(family)[option], (function, option)


def _cli_cases() -> list[tuple[str, str, str, Any]]:
    out = []
    by_name = dict(commands())
    for family, (_, names) in FACADES.items():
        declared = _declared(family)
        for command in names:
            for p in inspect.signature(by_name[command]).parameters.values():
                if p.name in declared and (command, p.name) not in EXEMPT:
                    out.append((family, command, p.name, p.default))
    return out


@pytest.mark.parametrize(("family", "command", "option", "default"), _cli_cases())
def test_cli_options_default_as_the_measures(
    family: str, command: str, option: str, default: Any
) -> None:
    if default is None:  # unset: the library's default applies, and the help says which
        func = dict(commands())[command]
        hint = typing.get_type_hints(func, include_extras=True)[option]
        info = next(m for m in getattr(hint, "__metadata__", ()) if hasattr(m, "help"))
        if "default" in (info.help or ""):
            assert _declared(family)[option].strip("'") in info.help, (command, info.help)
        return
    value = int(default) if isinstance(default, str) and default.isdigit() else default
    assert repr(value) == _declared(family)[option], (command, option)


def test_mape_zero_target_one_default(tmp_path: Path) -> None:
    from assay import regression

    t, p = [1.0, 0.0, 2.0, 3.0], [1.1, 0.2, 2.0, 2.5]
    with pytest.raises(InputError, match="zero_target"):
        regression.mape(t, p)
    with pytest.raises(InputError, match="zero_target"):
        regression.regression_report(t, p, n_resamples=50)
    gold, pred = tmp_path / "gold.txt", tmp_path / "pred.txt"
    gold.write_text("".join(f"{x}\n" for x in t))
    pred.write_text("".join(f"{x}\n" for x in p))
    assert_one_line_error(*invoke("regression", gold, pred), "--zero-target")
    code, out, _ = invoke("regression", gold, pred, "--zero-target", "nan", "-f", "tsv")
    assert code == 0 and "mape\tnan" in out
    reported = regression.regression_report(t, p, zero_target="eps", n_resamples=50)
    assert reported["mape"] == regression.mape(t, p, zero_target="eps")


def test_constant_target_one_default() -> None:
    from assay import regression

    t, p = [2.0, 2.0, 2.0], [2.0, 2.5, 1.0]
    reported = regression.regression_report(t, p, n_resamples=50)
    assert reported["r2"] == regression.r2(t, p) == 0.0
    assert reported["explained_variance"] == regression.explained_variance(t, p)
    assert math.isnan(regression.regression_report(t, p, constant_target="nan")["r2"])
