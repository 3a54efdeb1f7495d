"""Every result reads well where people look at it (issue 26): no result type keeps the
``repr`` a dataclass generates (which dumps every array and table it holds), every one has a
notebook view, and the results of the families' commands print in under 2,000 characters on
real data."""

from __future__ import annotations

import importlib
import pkgutil

import numpy as np

import assay
from assay._result import REPR_LIMIT, Result


def _result_types() -> list[type]:
    for info in pkgutil.walk_packages(assay.__path__, "assay."):
        if ".cli" not in info.name and not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found, todo = [], list(Result.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(set(found), key=lambda c: f"{c.__module__}.{c.__qualname__}")


def _generated_repr(cls: type) -> bool:
    method = cls.__dict__.get("__repr__")
    # dataclasses wrap the generated function (reprlib.recursive_repr): look beneath.
    inner = getattr(method, "__wrapped__", method)
    return method is not None and "__create_fn__" in getattr(inner, "__qualname__", "")


def test_no_result_keeps_the_generated_repr() -> None:
    types = _result_types()
    assert len(types) > 30
    offenders = [f"{c.__module__}.{c.__qualname__}" for c in types if _generated_repr(c)]
    assert offenders == [], "declare these @dataclass(..., repr=False): " + ", ".join(offenders)


def test_every_result_has_a_notebook_view() -> None:
    missing = [
        c.__qualname__ for c in _result_types() if not callable(getattr(c, "_repr_html_", None))
    ]
    assert missing == []


def test_a_big_result_prints_one_screen() -> None:
    stats = importlib.import_module("assay.stats")
    rng = np.random.default_rng(3)
    scores = rng.random((400, 12))
    result = stats.tukey_hsd(scores, n_resamples=20, seed=1)
    text = repr(result)
    assert len(text) < REPR_LIMIT
    assert text.startswith("TukeyHSDResult(") and "more" in text
    assert "<table>" in result._repr_html_()
