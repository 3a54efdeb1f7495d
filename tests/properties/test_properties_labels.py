"""Registry-driven properties of the classification and agreement families.

For every measure declared in the registry for these families:

* random valid inputs (hypothesis; every declared option drawn from its valid values) give
  values inside the declared bounds (or NaN, an undefined value);
* every declared option given a bad value raises OptionError naming that option;
* a new measure must be placed here: its input kind needs a data strategy and every option a
  valid and a bad value (or be declared data), else ``test_every_declaration_is_placed`` fails.

Also: one Cohen's kappa behind one declaration, the result types follow the Result protocol,
and the structured (undeclared) functions validate their options the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.agreement as A
import assay.classification as C
from assay._result import Result
from assay.metrics import FAMILIES, REGISTRY, MetricSpec, load_families
from strategies.agreement import ratings
from strategies.labels import label_pairs, scored
from support.contracts import (
    assert_option_error,
    assert_options_keyword_only,
    assert_result_protocol,
)

load_families()
FAMILY_NAMES = ("classification", "agreement")
SPECS: list[MetricSpec] = [s for f in FAMILY_NAMES for s in REGISTRY.specs(f)]
IDS = [f"{s.family}.{s.name}" for s in SPECS]

# ---------------------------------------------------------------- option placement

#: Valid values of each option (drawn together with the data).
VALID: dict[str, st.SearchStrategy[Any]] = {
    "average": st.sampled_from(["binary", "micro", "macro", "weighted", None]),
    "zero_division": st.sampled_from([0, 1, "nan", 0.0]),
    "beta": st.sampled_from([0, 0.5, 1.0, 2.0, math.inf]),
    "adjusted": st.booleans(),
    "degenerate": st.sampled_from(["zero", "limit", "nan"]),
    "absent": st.sampled_from(["gosgens", "nan"]),
    "undefined": st.sampled_from(["nan", 0, 0.5, 1.0]),
    "weights": st.sampled_from([None, "linear", "quadratic"]),
    "level": st.sampled_from(["nominal", "ordinal", "interval", "ratio", "Interval"]),
    "counts": st.booleans(),
    "n_categories": st.none() | st.integers(2, 8),
}
#: A bad value of each option.
BAD: dict[str, Any] = {
    "average": "samples",
    "zero_division": 2,
    "beta": -1.0,
    "adjusted": 1,
    "degenerate": "one",
    "absent": "zero",
    "undefined": "maybe",
    "weights": "cubic",
    "level": "cardinal",
    "counts": "yes",
    "n_categories": 1,
}
#: Parameters that are data (a list of classes, a label, a table): checked as data, raising
#: InputError, so they have no "bad option" value. ``labels`` is drawn by the data strategy.
DATA = {"labels", "pos_label", "table", "values"}


def test_every_declaration_is_placed() -> None:
    assert set(FAMILY_NAMES) <= set(FAMILIES)
    assert len(SPECS) >= 20
    for spec in SPECS:
        assert spec.input in INPUTS, f"{spec.name}: no data strategy for input {spec.input!r}"
        assert spec.lower is not None and spec.upper is not None, spec.name
        for p in spec.params:
            placed = p.name in DATA or (p.name in VALID and p.name in BAD)
            assert placed, f"{spec.name}: option {p.name!r} has no valid/bad values here"
        doc = " ".join(spec.doc.split())
        assert len(spec.summary) > 10, spec.name
        assert any(ch in doc for ch in "=/^"), f"{spec.name}: docstring lacks a formula"


# ---------------------------------------------------------------- data strategies


INPUTS: dict[str, Callable[[MetricSpec, dict[str, Any]], st.SearchStrategy[tuple[Any, ...]]]] = {
    "labels": label_pairs,
    "scores": scored,
    "ratings": ratings,
}


def _values(result: Any) -> np.ndarray:
    if isinstance(result, np.ndarray):
        return result.astype(np.float64)
    return np.array([float(result)])


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_values_within_declared_bounds(spec: MetricSpec, data: st.DataObject) -> None:
    options = {p.name: data.draw(VALID[p.name], p.name) for p in spec.params if p.name in VALID}
    args = data.draw(INPUTS[spec.input](spec, options), "data")
    values = _values(spec.kernel(*args, **options))
    defined = values[~np.isnan(values)]
    assert spec.lower is not None and spec.upper is not None
    assert (defined >= spec.lower - 1e-12).all() and (defined <= spec.upper + 1e-12).all(), (
        values,
        options,
    )


# ---------------------------------------------------------------- bad options

VALID_DATA: dict[str, tuple[Any, ...]] = {
    "labels": ([0, 1, 1, 0, 1], [0, 1, 0, 0, 1]),
    "scores": ([0, 1, 1, 0, 1], [0.1, 0.8, 0.4, 0.4, 0.9]),
    "ratings": (np.array([[0, 1, 1], [2, 2, np.nan], [1, 1, 1], [0, 2, 0]], dtype=float),),
}
BAD_CASES = [
    pytest.param(spec, p.name, id=f"{spec.name}-{p.name}")
    for spec in SPECS
    for p in spec.params
    if p.name not in DATA
]


@pytest.mark.parametrize(("spec", "option"), BAD_CASES)
def test_bad_option_raises_option_error(spec: MetricSpec, option: str) -> None:
    args = VALID_DATA[spec.input]
    spec.kernel(*args)  # the data is valid: only the option can be to blame
    assert_option_error(spec.kernel, *args, **{option: BAD[option]})


RATINGS = VALID_DATA["ratings"][0]
Y, P = VALID_DATA["labels"]
S = VALID_DATA["scores"][1]
STRUCTURED_BAD: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = [
    (C.confusion_matrix, (Y, P), {"normalize": "rows"}),
    (C.confusion_matrix, (Y, P), {"zero_division": 2}),
    (C.classification_report, (Y, P), {"averages": ("samples",)}),
    (C.classification_report, (Y, P), {"beta": 0}),
    (C.classification_report, (Y, P), {"zero_division": "x"}),
    (C.classification_report, (Y, P), {"degenerate": "one"}),
    (C.classification_report, (Y, P), {"levels": 1}),
    (C.interpolated_precision, (Y, S), {"levels": 1}),
    (C.interpolated_precision, (Y, S), {"levels": [0.5, 2.0]}),
    (C.roc_curve, (Y, S), {"drop_intermediate": "yes"}),
    (C.simulate_f1_mcc, (), {"n": 0}),
    (C.simulate_f1_mcc, (), {"seed": -1}),
    (C.simulate_f1_mcc, (), {"sample": 0}),
    (C.simulate_f1_mcc, (), {"zero_division": 2}),
    (C.simulate_f1_mcc, (), {"degenerate": "x"}),
    (A.alpha_bootstrap, (RATINGS,), {"n_resamples": 0}),
    (A.alpha_bootstrap, (RATINGS,), {"seed": -1}),
    (A.alpha_bootstrap, (RATINGS,), {"confidence": 1.5}),
    (A.alpha_bootstrap, (RATINGS,), {"thresholds": "x"}),
    (A.alpha_bootstrap, (RATINGS,), {"level": "cardinal"}),
    (A.alpha_bootstrap, (RATINGS,), {"counts": "yes"}),
]


@pytest.mark.parametrize(
    ("func", "args", "bad"),
    STRUCTURED_BAD,
    ids=[f"{f.__name__}-{next(iter(b))}" for f, _, b in STRUCTURED_BAD],
)
def test_structured_functions_validate_options(
    func: Callable[..., Any], args: tuple[Any, ...], bad: dict[str, Any]
) -> None:
    func(*args, **({"n": 3} if func is C.simulate_f1_mcc and "n" not in bad else {}))
    assert_option_error(func, *args, **bad)


def test_options_are_keyword_only() -> None:
    assert_options_keyword_only(SPECS)


# ---------------------------------------------------------------- one kappa, one protocol


def test_one_cohen_kappa() -> None:
    assert C.cohen_kappa is A.cohen_kappa
    declared = [s for s in REGISTRY.specs() if s.name == "cohen_kappa"]
    assert len(declared) == 1 and declared[0].family == "agreement"
    assert REGISTRY.lookup("cohen_kappa", "classification") is None
    # both callers' access: float() for classification, .value/.observed for agreement
    r = C.cohen_kappa(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    assert float(r) == r.value == pytest.approx((0.75 - 0.5) / 0.5)
    assert r.observed == pytest.approx(0.75) and r.expected == pytest.approx(0.5)


def test_dropped_pairs_are_counted() -> None:
    # a missing label from either rater, or a label outside `labels`, drops the pair (counted)
    r = A.cohen_kappa([1, 2, None, 2, 3], [1, 2, 2, math.nan, 3], labels=[1, 2])
    assert r.n == 2 and r.n_dropped == 3 and r.table.tolist() == [[1, 0], [0, 1]]
    f = A.fleiss_kappa([[1, 1], [2, math.nan], [2, 2]])
    assert f.n == 2 and f.n_dropped == 1


def _results() -> list[Result]:
    return [
        C.confusion_matrix(Y, P),
        C.roc_curve(Y, S),
        C.pr_curve(Y, S),
        C.interpolated_precision(Y, S),
        C.classification_report(Y, P, S, pos_label=1),
        C.simulate_f1_mcc(n=3),
        C.cohen_kappa(Y, P),
        A.scott_pi(Y, P),
        A.fleiss_kappa(RATINGS),
        A.randolph_kappa(RATINGS),
        A.percent_agreement(RATINGS),
        A.krippendorff_alpha(RATINGS, level="interval"),
        A.alpha_bootstrap(RATINGS, n_resamples=20, seed=1),
    ]


@pytest.mark.parametrize("result", _results(), ids=lambda r: type(r).__name__)
def test_results_follow_the_protocol(result: Result) -> None:
    assert_result_protocol(result)


def test_curves_unpack_like_tuples() -> None:
    fpr, tpr, thresholds = C.roc_curve(Y, S)
    assert thresholds[0] == math.inf and fpr[0] == 0 and tpr[-1] == 1
    precision, recall, _ = C.pr_curve(Y, S)
    assert precision[-1] == 1 and recall[-1] == 0
    assert len(C.roc_curve(Y, S)) == 3 and C.roc_curve(Y, S)[1][-1] == 1
