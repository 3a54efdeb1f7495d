"""Checks every family's public API must pass: options keyword-only, results frozen with
provenance and plain records, and two evaluations equal bit for bit."""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pytest

from assay._result import Result
from assay.errors import OptionError


def assert_options_keyword_only(specs: Iterable[Any]) -> None:
    """Every declared option of every metric spec is keyword-only in its kernel."""
    for spec in specs:
        signature = inspect.signature(spec.kernel)
        for p in spec.params:
            assert signature.parameters[p.name].kind is inspect.Parameter.KEYWORD_ONLY


def assert_result_protocol(result: Any) -> None:
    """A frozen dataclass Result with assay_version in its provenance and JSON-ready records."""
    assert isinstance(result, Result) and dataclasses.is_dataclass(result)
    field = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, field, None)
    assert isinstance(result.provenance, Mapping) and "assay_version" in result.provenance
    rows = result.records()
    assert rows and all(isinstance(r, dict) for r in rows)
    json.dumps(rows)  # plain Python values only


def assert_same_results(a: Any, b: Any) -> None:
    """Two ``assay.Results`` hold the same runs, metrics, queries and values, bit for bit."""
    assert a.runs == b.runs and [str(m) for m in a.metrics] == [str(m) for m in b.metrics]
    for run, m in itertools.product(a.runs, a.metrics):
        x, y = a[run, m], b[run, m]
        assert x.queries.tolist() == y.queries.tolist(), (run, str(m))
        np.testing.assert_array_equal(x.values, y.values, err_msg=f"{run} {m}")
        assert x.aggregate == y.aggregate or (math.isnan(x.aggregate) and math.isnan(y.aggregate))
        assert (x.undefined, x.skipped) == (y.undefined, y.skipped)
    assert a.warnings == b.warnings


def assert_option_error(func: Callable[..., Any], *args: Any, **bad: Any) -> None:
    """``func(*args, **bad)``, one bad option, raises an OptionError naming that option."""
    with pytest.raises(OptionError) as err:
        func(*args, **bad)
    assert err.value.option == next(iter(bad))
