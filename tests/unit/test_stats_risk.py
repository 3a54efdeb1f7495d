"""assay.stats.risk: URisk, TRisk, ZRisk and GeoRisk on cases worked by hand, their options
and inputs, and the identities between them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay.errors import InputError, OptionError
from assay.stats import georisk, risk_differences, trisk, ttest, urisk, zrisk

# Five topics. Differences system - baseline: +0.2, -0.1, 0, +0.3, -0.2.
SYSTEM = [0.5, 0.3, 0.4, 0.9, 0.1]
BASELINE = [0.3, 0.4, 0.4, 0.6, 0.3]


def test_urisk_worked_example() -> None:
    """URisk = (1/5)[(0.2 + 0.3) - (1 + α)(0.1 + 0.2)]: 0.04 at α = 0 (the mean
    difference), -0.02 at α = 1, -0.26 at α = 5."""
    for alpha, expected in ((0.0, 0.04), (1.0, -0.02), (5.0, -0.26)):
        res = urisk(SYSTEM, BASELINE, risk_alpha=alpha)
        assert res.statistic == pytest.approx(expected, abs=1e-12), alpha
        assert math.isnan(res.pvalue)
        assert (res.details["wins"], res.details["ties"], res.details["losses"]) == (2, 1, 2)
        assert res.details["mean_difference"] == pytest.approx(0.04, abs=1e-12)


def test_risk_differences_worked_example() -> None:
    d = risk_differences(SYSTEM, BASELINE, risk_alpha=1.0)
    assert d == pytest.approx([0.2, -0.2, 0.0, 0.3, -0.4], abs=1e-12)


def test_trisk_worked_example() -> None:
    """d = (0.2, -0.2, 0, 0.3, -0.4) at α = 1: mean -0.02, sd = √(0.328 / 4) = 0.286356,
    SE = sd/√5 = 0.128062, TRisk = -0.156174, two-sided p from t with 4 df = 0.8835."""
    res = trisk(SYSTEM, BASELINE, risk_alpha=1.0)
    sd = math.sqrt((0.22**2 + 0.18**2 + 0.02**2 + 0.32**2 + 0.38**2) / 4)
    assert res.details["standard_error"] == pytest.approx(sd / math.sqrt(5), rel=1e-12)
    assert res.statistic == pytest.approx(-0.02 / (sd / math.sqrt(5)), rel=1e-12)
    assert res.statistic == pytest.approx(-0.156174, abs=1e-6)
    assert res.pvalue == pytest.approx(0.8835, abs=1e-4)
    assert res.details["df"] == 4
    low, high = res.ci
    assert low < res.details["urisk"] < high


def test_trisk_is_the_t_test_of_the_weighted_differences() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        a, b = rng.random(30), rng.random(30)
        alpha = float(rng.choice([0.0, 1.0, 5.0]))
        res = trisk(a, b, risk_alpha=alpha)
        plain = ttest(risk_differences(a, b, risk_alpha=alpha), np.zeros(30))
        assert res.statistic == pytest.approx(plain.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(plain.pvalue, rel=1e-12)
        if alpha == 0.0:
            assert res.statistic == pytest.approx(ttest(a, b).statistic, rel=1e-12)


def test_more_risk_aversion_never_raises_urisk() -> None:
    rng = np.random.default_rng(4)
    a, b = rng.random(40), rng.random(40)
    values = [urisk(a, b, risk_alpha=x).statistic for x in (0.0, 0.5, 1.0, 5.0, 10.0)]
    assert values == sorted(values, reverse=True)


def test_zrisk_and_georisk_worked_example() -> None:
    """Three topics x two systems. Totals: topics 0.8, 0.6, 0.8; systems 1.1, 1.1; all 2.2.
    Expected e = 0.4, 0.3, 0.4 in both columns; z of system 1 = (0.1/√0.4, -0.1/√0.3, 0) =
    (0.158114, -0.182574, 0); ZRisk at α = 1: 0.158114 - 2 x 0.182574 = -0.207034;
    GeoRisk = √(mean 0.366667 x Φ(-0.207034 / 3)) = √(0.366667 x 0.472490) = 0.416228."""
    table = [[0.5, 0.3], [0.2, 0.4], [0.4, 0.4]]
    z1 = 0.1 / math.sqrt(0.4) - 0.1 / math.sqrt(0.3)
    assert zrisk(table, risk_alpha=0.0) == pytest.approx([z1, -z1], abs=1e-12)
    first = 0.1 / math.sqrt(0.4) - 2 * 0.1 / math.sqrt(0.3)
    assert zrisk(table, risk_alpha=1.0)[0] == pytest.approx(first, abs=1e-12)
    assert georisk(table, risk_alpha=1.0)[0] == pytest.approx(0.416228, abs=1e-6)


def test_zrisk_ignores_topics_no_system_scores_on() -> None:
    table = np.array([[0.5, 0.3], [0.2, 0.4]])
    with_zero_topic = np.vstack([table, [0.0, 0.0]])
    assert zrisk(with_zero_topic, risk_alpha=2.0) == pytest.approx(zrisk(table, risk_alpha=2.0))


@pytest.mark.parametrize("bad", [-0.5, math.nan, "1", True, None])
def test_a_bad_risk_alpha_is_an_option_error(bad: object) -> None:
    for call in (
        lambda: urisk(SYSTEM, BASELINE, risk_alpha=bad),  # type: ignore[arg-type]
        lambda: trisk(SYSTEM, BASELINE, risk_alpha=bad),  # type: ignore[arg-type]
        lambda: risk_differences(SYSTEM, BASELINE, risk_alpha=bad),  # type: ignore[arg-type]
        lambda: zrisk([[0.1, 0.2]], risk_alpha=bad),  # type: ignore[arg-type]
        lambda: georisk([[0.1, 0.2]], risk_alpha=bad),  # type: ignore[arg-type]
    ):
        with pytest.raises(OptionError, match="risk_alpha"):
            call()


def test_bad_inputs_are_input_errors() -> None:
    with pytest.raises(InputError, match="same length"):
        urisk([0.1, 0.2], [0.1], risk_alpha=1.0)
    with pytest.raises(InputError, match="at least 2"):
        trisk([0.1], [0.2], risk_alpha=1.0)
    with pytest.raises(InputError, match=">= 0"):
        zrisk([[0.1, -0.2]], risk_alpha=1.0)
    with pytest.raises(InputError):
        georisk([0.1, 0.2], risk_alpha=1.0)
