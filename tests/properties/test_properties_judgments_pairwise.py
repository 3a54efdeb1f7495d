"""Registry-driven properties of the judgments family's pairwise methods (every declaration of
``REGISTRY.specs("judgments")`` whose input is pairwise comparisons): declared bounds and
directions hold on random comparisons, every bad option is an OptionError naming it, and the
scores do not depend on how the items are numbered, on which side of a comparison an item
sits, or (but for Elo, which is order-dependent by definition) on the order of the rows."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import OptionError
from assay.judgments import Comparisons, pairwise
from assay.metrics import REGISTRY, load_families

load_families()

INPUT = "pairwise comparisons"
SPECS = [s for s in REGISTRY.specs("judgments") if s.input == INPUT]
#: Methods whose values are order-dependent (the row order is part of their input).
ORDERED = {"elo"}
#: Iterative methods: equal only to their convergence tolerance under renumbering.
ITERATIVE = {"bradley_terry", "newman", "eigen", "pagerank"}
#: Maximum-likelihood methods: NaN for an item whose strength no finite estimate bounds
#: (between items that only won and items that only lost).
LIKELIHOOD = {"bradley_terry", "newman"}
#: One bad value of every declared option.
BAD = {
    "ties": "third",
    "win_weight": -1.0,
    "tie_weight": -0.5,
    "tolerance": 0.0,
    "max_iter": 0,
    "v_init": 0.0,
    "initial": math.nan,
    "base": 0.0,
    "scale": -400.0,
    "k": 0.0,
    "damping": 1.5,
}


def _random(
    seed: int, *, n_max: int = 7, rows_max: int = 40, weighted: bool = False
) -> Comparisons:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, n_max + 1))
    rows = int(rng.integers(1, rows_max + 1))
    left = rng.integers(0, n, rows)
    right = (left + rng.integers(1, n, rows)) % n  # never the same item
    winner = rng.choice(np.array([0, 1, 2], dtype=np.int8), rows, p=[0.45, 0.4, 0.15])
    names = [f"item{i}" for i in range(n)]
    weights = rng.uniform(0.5, 2.0, rows) if weighted else None
    data = {
        "left": [names[i] for i in left],
        "right": [names[i] for i in right],
        "winner": [("left", "right", "tie")[w] for w in winner],
    }
    if weights is not None:
        data["weight"] = weights.tolist()
        return Comparisons.read(data, weight="weight")
    return Comparisons.read(data)


def _permuted(c: Comparisons, perm: np.ndarray) -> Comparisons:
    """The same comparisons with item ``i`` numbered ``perm[i]`` (names move with it)."""
    items = [""] * c.n_items
    for old, new in enumerate(perm):
        items[new] = c.items[old]
    return Comparisons(tuple(items), perm[c.left], perm[c.right], c.winner, c.weights, c.source)


def test_every_declaration_is_placed() -> None:
    names = {s.name for s in REGISTRY.specs("judgments") if s.input == INPUT}
    assert names == set(pairwise.METHODS)
    for spec in SPECS:
        assert spec.higher_is_better == (spec.name not in pairwise.LOWER_IS_BETTER), spec.name
        assert set(p.name for p in spec.params) <= set(BAD), spec.name


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_declared_bounds_hold(seed: int, weighted: bool) -> None:
    c = _random(seed, weighted=weighted)
    for spec in SPECS:
        scores = spec.kernel(c).scores
        assert scores.shape == (c.n_items,), spec.name
        if spec.name not in LIKELIHOOD:  # every item has comparisons here
            assert not np.isnan(scores).any(), spec.name
        scores = scores[~np.isnan(scores)]
        assert spec.lower is None or (scores >= spec.lower - 1e-12).all(), (spec.name, scores)
        if spec.upper is None:
            assert not np.isneginf(scores).any() or spec.lower is None, spec.name
        else:
            assert (scores <= spec.upper + 1e-12).all(), (spec.name, scores)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_an_item_that_beat_everyone_comes_first(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 7))
    rows: list[tuple[str, str, str]] = []
    for i in range(1, n):  # the others among themselves, at random
        for j in range(i + 1, n):
            rows.append((f"o{i}", f"o{j}", str(rng.choice(["left", "right", "tie"]))))
    for _ in range(3):  # item "top" beats every other item three times, on either side
        for i in range(1, n):
            rows.append(
                ("top", f"o{i}", "left") if rng.random() < 0.5 else (f"o{i}", "top", "right")
            )
    order = rng.permutation(len(rows)) if seed % 2 else np.arange(len(rows))
    data = {
        key: [rows[k][col] for k in order] for col, key in enumerate(("left", "right", "winner"))
    }
    c = Comparisons.read(data)
    top = c.items.index("top")
    for spec in SPECS:
        scores = spec.kernel(c).scores
        best = np.nanmax(scores) if spec.higher_is_better else np.nanmin(scores)
        assert scores[top] == best, (spec.name, c.items, scores)


def test_every_bad_option_is_an_option_error_naming_it() -> None:
    c = _random(1)
    for spec in SPECS:
        for param in spec.params:
            with pytest.raises(OptionError) as err:
                spec.kernel(c, **{param.name: BAD[param.name]})
            assert err.value.option == param.name, (spec.name, param.name)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_renumbering_the_items_permutes_the_scores(seed: int, weighted: bool) -> None:
    c = _random(seed, weighted=weighted)
    perm = np.random.default_rng(seed).permutation(c.n_items)
    d = _permuted(c, perm)
    for spec in SPECS:
        a, b = spec.kernel(c), spec.kernel(d)
        if not (a.provenance["converged"] and b.provenance["converged"]):
            continue  # the last iterate of a fit that did not converge depends on the order
        rtol = 1e-3 if spec.name in ITERATIVE else 1e-12
        np.testing.assert_allclose(
            b.scores[perm], a.scores, rtol=rtol, atol=1e-6, err_msg=spec.name
        )
        assert [b[item] for item in c.items] == pytest.approx(
            list(a.scores), rel=rtol, abs=1e-6, nan_ok=True
        )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_swapping_sides_with_the_winner_flipped_changes_nothing(seed: int) -> None:
    c = _random(seed)
    flipped = np.where(c.winner == 2, 2, 1 - c.winner).astype(np.int8)
    d = Comparisons(c.items, c.right, c.left, flipped, c.weights, c.source)
    for spec in SPECS:  # Elo too: each update is symmetric in the two sides
        np.testing.assert_array_equal(
            spec.kernel(d).scores, spec.kernel(c).scores, err_msg=spec.name
        )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_row_order_matters_to_elo_only(seed: int) -> None:
    c = _random(seed, rows_max=30)
    order = np.random.default_rng(seed).permutation(len(c))
    d = Comparisons(c.items, c.left[order], c.right[order], c.winner[order], None, c.source)
    for spec in SPECS:
        if spec.name in ORDERED:
            continue
        np.testing.assert_allclose(
            spec.kernel(d).scores, spec.kernel(c).scores, rtol=1e-12, err_msg=spec.name
        )


def test_elo_depends_on_the_order() -> None:
    data = {"left": ["a", "a"], "right": ["b", "b"], "winner": ["left", "right"]}
    forward = pairwise.elo(data).scores
    backward = pairwise.elo({k: v[::-1] for k, v in data.items()}).scores
    assert forward[0] < 1000.0 < backward[0]  # the later game weighs more
