"""Registry-driven properties of the clustering family.

For every measure declared in the registry for the clustering family:

* random valid clusterings (hypothesis; every declared option drawn from its valid values)
  give values inside the declared bounds (NaN only where ``zero_division="nan"`` asks for it);
* every declared option given a bad value raises OptionError naming that option;
* a new measure must be placed here: its input kind needs a data strategy and every option a
  valid and a bad value, else ``test_every_declaration_is_placed`` fails.

Also: the structured (undeclared) functions validate their options the same way, and the
result types follow the Result protocol while still unpacking like the tuples they were.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.clustering as C
from assay._result import Result
from assay.errors import OptionError
from assay.metrics import FAMILIES, REGISTRY, MetricSpec, load_families, make
from strategies.clustering import hard, soft
from support.contracts import (
    assert_option_error,
    assert_options_keyword_only,
    assert_result_protocol,
)

load_families()
SPECS: list[MetricSpec] = REGISTRY.specs("clustering")
IDS = [s.name for s in SPECS]

#: Valid values of each option (drawn together with the data).
VALID: dict[str, st.SearchStrategy[Any]] = {
    "zero_division": st.sampled_from([0, 1, "nan", 0.0, 1.0, math.nan]),
    "beta": st.sampled_from([0, 0.5, 1.0, 2.0, 10]),
    "average_method": st.sampled_from(["arithmetic", "geometric", "min", "max"]),
    "normalize": st.booleans(),
}
#: A bad value of each option.
BAD: dict[str, Any] = {
    "zero_division": 0.5,
    "beta": -1.0,
    "average_method": "harmonic",
    "normalize": 1,
}


def test_every_declaration_is_placed() -> None:
    assert "clustering" in FAMILIES
    assert len(SPECS) == 14
    for spec in SPECS:
        assert spec.input in INPUTS, f"{spec.name}: no data strategy for input {spec.input!r}"
        assert spec.upper is not None, spec.name
        for p in spec.params:
            assert p.name in VALID and p.name in BAD, f"{spec.name}: option {p.name!r} unplaced"
        doc = " ".join(spec.doc.split())
        assert len(spec.summary) > 10, spec.name
        assert any(ch in doc for ch in "=/^"), f"{spec.name}: docstring lacks a formula"


def test_public_functions_are_the_declarations() -> None:
    for spec in SPECS:
        assert getattr(C, spec.name) is spec.kernel


# ---------------------------------------------------------------- data strategies


INPUTS: dict[str, Callable[[], st.SearchStrategy[tuple[Any, ...]]]] = {
    "clusterings": hard,
    "soft clusterings": soft,
}


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_values_within_declared_bounds(spec: MetricSpec, data: st.DataObject) -> None:
    options = {p.name: data.draw(VALID[p.name], p.name) for p in spec.params}
    args = data.draw(INPUTS[spec.input](), "data")
    value = spec.kernel(*args, **options)
    assert isinstance(value, float)
    if math.isnan(value):
        zd = options.get("zero_division")
        assert zd == "nan" or (isinstance(zd, float) and math.isnan(zd)), options
        return
    lower = -math.inf if spec.lower is None else spec.lower
    upper = math.inf if spec.upper is None else spec.upper
    assert lower - 1e-12 <= value <= upper + 1e-12, (value, options)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_identical_clusterings_score_the_maximum(spec: MetricSpec) -> None:
    """Every clustering measure is a similarity: a clustering agrees best with itself."""
    if spec.input == "clusterings":
        args: tuple[Any, ...] = ([0, 0, 1, 1, 2], ["a", "a", "b", "b", "c"])
    else:
        args = ([{0, 1}, {1, 2, 3}, {4, 5}], [{4, 5}, {0, 1}, {1, 2, 3}])
    assert spec.higher_is_better
    assert spec.kernel(*args) == pytest.approx(spec.upper)


# ---------------------------------------------------------------- bad options

VALID_DATA: dict[str, tuple[Any, ...]] = {
    "clusterings": ([0, 0, 1, 1, 2], [0, 1, 1, 1, 2]),
    "soft clusterings": ([{0, 1}, {1, 2, 3}], [{0, 1, 2}, {3: 2.0}]),
}
BAD_CASES = [
    pytest.param(spec, p.name, id=f"{spec.name}-{p.name}") for spec in SPECS for p in spec.params
]


@pytest.mark.parametrize(("spec", "option"), BAD_CASES)
def test_bad_option_raises_option_error(spec: MetricSpec, option: str) -> None:
    args = VALID_DATA[spec.input]
    spec.kernel(*args)  # the data is valid: only the option can be to blame
    assert_option_error(spec.kernel, *args, **{option: BAD[option]})
    with pytest.raises(OptionError):
        make(spec, **{option: BAD[option]})


G, P = VALID_DATA["clusterings"]
SG, SP = VALID_DATA["soft clusterings"]
STRUCTURED_BAD: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = [
    (C.bcubed, (G, P), {"beta": -1}),
    (C.bcubed, (G, P), {"beta": math.inf}),
    (C.bcubed, (G, P), {"beta": "1"}),
    (C.soft_pairwise, (SG, SP), {"beta": math.nan}),
    (C.soft_pairwise, (SG, SP), {"zero_division": 2}),
    (C.soft_pairwise, (SG, SP), {"zero_division": "none"}),
]


@pytest.mark.parametrize(
    ("func", "args", "bad"),
    STRUCTURED_BAD,
    ids=[f"{f.__name__}-{next(iter(b))}-{next(iter(b.values()))}" for f, _, b in STRUCTURED_BAD],
)
def test_structured_functions_validate_options(
    func: Callable[..., Any], args: tuple[Any, ...], bad: dict[str, Any]
) -> None:
    func(*args)
    assert_option_error(func, *args, **bad)


def test_options_are_keyword_only() -> None:
    assert_options_keyword_only(SPECS)


def test_zero_division_spellings_agree() -> None:
    singletons = [0, 1, 2]
    assert C.pairwise_precision(singletons, singletons) == 0.0
    assert C.pairwise_precision(singletons, singletons, zero_division=1) == 1.0
    assert math.isnan(C.pairwise_precision(singletons, singletons, zero_division="nan"))
    assert math.isnan(C.pairwise_f(singletons, singletons, zero_division=math.nan))
    metric = make(REGISTRY.lookup("pairwise_recall", "clustering"), zero_division=1)  # type: ignore[arg-type]
    assert metric(singletons, singletons) == 1.0
    assert str(metric) == "pairwise_recall(zero_division=1)"


# ---------------------------------------------------------------- the result protocol


def _results() -> list[Result]:
    return [
        C.pair_counts(G, P),
        C.bcubed(G, P, beta=2),
        C.soft_pair_counts(SG, SP),
        C.soft_pairwise(SG, SP),
        C.hard_report(G, P),
        C.soft_report(SG, SP),
    ]


@pytest.mark.parametrize("result", _results(), ids=lambda r: type(r).__name__)
def test_results_follow_the_protocol(result: Result) -> None:
    assert_result_protocol(result)


def test_results_unpack_like_tuples_and_mappings() -> None:
    tp, fp, fn, tn = C.pair_counts(G, P)
    assert (tp, fp, fn, tn) == (1, 2, 1, 6) == C.pair_counts(G, P)
    assert C.pair_counts(G, P)[3] == 6 and len(C.pair_counts(G, P)) == 4
    assert hash(C.pair_counts(G, P)) == hash((1, 2, 1, 6))
    p, r, f = C.bcubed(G, G)
    assert (p, r, f) == (1.0, 1.0, 1.0) == tuple(C.bcubed(G, G))
    assert C.bcubed(G, G) != (1.0, 1.0)
    report = C.hard_report(G, P)
    assert report["items"] == 5 and list(report)[:3] == ["items", "gold_clusters", "pred_clusters"]
    assert dict(report) == {r["metric"]: r["value"] for r in report.records()}
    assert report == dict(report) and report.kind == "hard"
    assert np.isclose(report["purity"], C.purity(G, P))
