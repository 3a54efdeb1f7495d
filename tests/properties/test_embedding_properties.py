"""Registry-driven properties of the embedding family.

For every measure declared in the registry for the embedding family:

* random consistent neighbour tables (hypothesis; every declared option drawn from its valid
  values, a cutoff when the measure takes one) give values inside the declared bounds, or
  NaN when every query is lone;
* every declared option given a bad value raises OptionError naming that option;
* the invariants of its categories hold (a perfect neighbour list scores 1, a list without
  a same-class neighbour 0, monotone in the cutoff where it should be);
* a new measure must be placed here (a data strategy for its input, valid and bad values of
  every option, its invariant categories), else ``test_every_declaration_is_placed`` fails.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.embeddings as E
from assay import CoverageWarning
from assay.errors import OptionError
from assay.metrics import FAMILIES, REGISTRY, MetricSpec, load_families, make
from strategies.embedding import neighbour_tables

load_families()
SPECS: list[MetricSpec] = REGISTRY.specs("embedding")
IDS = [s.name for s in SPECS]

VALID: dict[str, st.SearchStrategy[Any]] = {
    "exclude_self": st.booleans(),  # drawn with the table (it decides R)
    "average": st.sampled_from(["micro", "macro"]),
}
BAD: dict[str, Any] = {"exclude_self": "yes", "average": "weighted"}
INPUTS = {"neighbour labels": neighbour_tables}
#: Invariant categories of each measure.
CATEGORIES: dict[str, set[str]] = {
    "precision": {"perfect", "no_hit"},
    "r_precision": {"perfect", "no_hit"},
    "map_at_r": {"perfect", "no_hit"},
    "map": {"perfect", "no_hit", "monotone"},
    "recall": {"perfect", "no_hit", "monotone"},
    "recall_ir": {"perfect", "no_hit", "monotone"},
    "mrr": {"perfect", "no_hit", "monotone"},
    "ndcg": {"perfect", "no_hit"},
}
#: Functions of assay.embeddings whose declared name differs.
FUNCTION = {"map": "map_at_k"}


def test_every_declaration_is_placed() -> None:
    assert "embedding" in FAMILIES
    assert len(SPECS) == 8
    for spec in SPECS:
        assert spec.input in INPUTS, spec.name
        assert spec.lower == 0 and spec.upper == 1 and spec.higher_is_better, spec.name
        for p in spec.params:
            assert p.name in VALID and p.name in BAD, f"{spec.name}: option {p.name!r} unplaced"
        assert spec.name in CATEGORIES, f"{spec.name}: no invariant categories"
        doc = " ".join(spec.doc.split())
        assert len(spec.summary) > 10 and any(ch in doc for ch in "=/^"), spec.name


def test_public_functions_are_the_declarations() -> None:
    for spec in SPECS:
        assert getattr(E, FUNCTION.get(spec.name, spec.name)) is spec.kernel


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_values_within_bounds(spec: MetricSpec, data: st.DataObject) -> None:
    knn, labels, counts, excl = data.draw(neighbour_tables())
    average = data.draw(VALID["average"])
    k = data.draw(st.integers(1, knn.shape[1])) if spec.cutoff != "none" else None
    metric = make(spec, k, exclude_self=excl, average=average)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        value = metric(knn, labels, counts)
    lone = all(counts.get(int(c), 0) - int(excl) <= 0 for c in labels)
    assert math.isnan(value) if lone else 0.0 <= value <= 1.0 + 1e-12


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_bad_options_name_the_option(spec: MetricSpec) -> None:
    for p in spec.params:
        with pytest.raises(OptionError) as info:
            spec.kernel([[0]], [0], {0: 1}, **{p.name: BAD[p.name]})
        assert info.value.option == p.name
    if spec.cutoff != "none":
        with pytest.raises(OptionError):
            spec.kernel([[0]], [0], {0: 1}, k=0)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=30, deadline=None)
@given(r=st.integers(1, 6), extra=st.integers(0, 5))
def test_invariants(spec: MetricSpec, r: int, extra: int) -> None:
    categories = CATEGORIES[spec.name]
    counts = {0: r, 1: extra + 1}
    perfect = np.array([[0] * r + [1] * extra])
    cutoff = r if spec.cutoff != "none" else None
    if "perfect" in categories:
        assert make(spec, cutoff)(perfect, [0], counts) == pytest.approx(1.0)
    if "no_hit" in categories:
        miss = np.array([[1] * (extra + 1)])
        k = 1 if spec.cutoff != "none" else None
        assert make(spec, k)(miss, [0], counts) == 0.0
    if "monotone" in categories:
        # Alternate a miss and a hit, misses first: r hits and extra + 1 misses in all.
        misses, hits = [1] * (extra + 1), [0] * r
        order = [x for pair in zip(misses, hits, strict=False) for x in pair]
        rest = misses[len(order) // 2 :] + hits[len(order) // 2 :]
        mixed = np.array([order + rest])
        values = [make(spec, k)(mixed, [0], counts) for k in range(1, mixed.shape[1] + 1)]
        assert all(a <= b + 1e-15 for a, b in itertools.pairwise(values)), values
