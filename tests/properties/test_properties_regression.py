"""Registry-driven properties of the regression family: declared bounds and directions hold on
random inputs, and every bad option is an OptionError naming it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import assay.regression as R
from assay.errors import OptionError
from assay.metrics import REGISTRY, load_families
from strategies.regression import pairs

load_families()


@settings(max_examples=40, deadline=None)
@given(pairs())
def test_declared_bounds_and_directions_hold(data: tuple[np.ndarray, np.ndarray]) -> None:
    y, p = data
    for spec in REGISTRY.specs("regression"):
        kw = {"zero_target": "eps"} if spec.name == "mape" else {}
        value = spec.kernel(y, p, **kw)
        assert spec.lower is None or value >= spec.lower, spec.name
        assert spec.upper is None or value <= spec.upper, spec.name
        assert spec.higher_is_better == (spec.name in ("r2", "explained_variance"))


def test_every_bad_option_is_an_option_error_naming_it() -> None:
    bad = {"zero_target": "zero", "constant_target": 0}
    for spec in REGISTRY.specs("regression"):
        for param in spec.params:
            with pytest.raises(OptionError) as err:
                spec.kernel([1.0, 2.0], [1.0, 2.5], **{param.name: bad[param.name]})
            assert err.value.option == param.name
    with pytest.raises(OptionError, match="loss"):
        R.compare_models([1.0, 2.0], {"a": [1, 2], "b": [2, 2]}, loss="huber")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="seed"):
        R.regression_report([1.0, 2.0], [1.0, 2.0], seed=-1)
