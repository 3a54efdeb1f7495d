"""Labels for classification: aligned gold/predicted sequences, binary labels with scores."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from assay.metrics import MetricSpec


def random_case(rng: np.random.Generator, k: int, n: int, absent: bool) -> tuple[Any, Any, Any]:
    """Labels drawn from k classes; with ``absent`` some classes never occur on one side and
    ``labels`` lists an extra class that occurs nowhere."""
    classes = np.arange(k)
    y_true = rng.choice(classes, n)
    y_pred = np.where(rng.random(n) < 0.5, y_true, rng.choice(classes, n))
    labels = None
    if absent:
        y_true = np.where(y_true == k - 1, 0, y_true)  # class k-1 never true
        if k > 2:
            y_pred = np.where(y_pred == 1, 0, y_pred)  # class 1 never predicted
        labels = np.r_[classes[::-1], k + 3]  # another order, plus a class absent from both
    return y_true, y_pred, labels


def cases(seed: int, count: int) -> list[tuple[Any, Any, Any]]:
    """``count`` seeded (y_true, y_pred, labels) cases of 2 to 5 classes and 1 to 39 items."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        k = int(rng.integers(2, 6))
        n = int(rng.integers(1, 40))
        out.append(random_case(rng, k, n, absent=i % 3 == 0))
    return out


def _params(spec: MetricSpec) -> set[str]:
    return {p.name for p in spec.params}


def _default(spec: MetricSpec, name: str) -> Any:
    return spec.param(name).default if name in _params(spec) else None


@st.composite
def label_pairs(draw: Any, spec: MetricSpec, options: dict[str, Any]) -> tuple[Any, ...]:
    """Two aligned label sequences: {0, 1} for average='binary', else up to 5 classes as ints
    or strings; ``labels`` (when declared) None or every class (reordered) plus an absent one."""
    binary = options.get("average", _default(spec, "average")) == "binary"
    k = 2 if binary else draw(st.integers(1, 5))
    n = draw(st.integers(1, 25))
    a = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    agree = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    b = [x if same else draw(st.integers(0, k - 1)) for x, same in zip(a, agree, strict=True)]
    names: list[Any] = list(range(k))
    if not binary and draw(st.booleans()):
        names = ["z", "b", "q", "a", "m"][:k]
    if "labels" in _params(spec) and not binary and draw(st.booleans()):
        extra = 99 if isinstance(names[0], int) else "zz"
        options["labels"] = [*draw(st.permutations(names)), extra]
    return [names[x] for x in a], [names[x] for x in b]


@st.composite
def scored(draw: Any, spec: MetricSpec, options: dict[str, Any]) -> tuple[Any, ...]:
    """Binary labels (sometimes a single class) and scores with many ties."""
    n = draw(st.integers(1, 25))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    s = draw(st.lists(st.integers(0, 4).map(lambda v: v / 2), min_size=n, max_size=n))
    return y, s
