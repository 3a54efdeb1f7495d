"""Inter-rater reliability against the literature: Krippendorff (2011), Fleiss (1971), Cohen's
kappa and Scott's pi on a 2x2 table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import agreement as ag
from assay.errors import InputError, MetricError
from support.examples import KRIPP_2011

nan = math.nan


# Fleiss (1971), as Wikipedia's "Fleiss' kappa" worked example: 10 subjects, 5 categories,
# 14 raters per subject; kappa = 0.210.
FLEISS_1971 = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


@pytest.mark.parametrize(
    ("level", "expected"),
    [("nominal", 0.7434), ("ordinal", 0.8154), ("interval", 0.8491), ("ratio", 0.7974)],
)
def test_krippendorff_2011_oracle(level: str, expected: float) -> None:
    r = ag.krippendorff_alpha(KRIPP_2011, level=level)
    assert round(float(r), 4) == expected
    assert r.n_pairable == 40  # Krippendorff: n = 40 pairable values
    assert r.n_units == 11 and r.n_unpairable_units == 1  # unit 12 has a single value
    assert r.defined


def test_krippendorff_2011_nominal_details() -> None:
    r = ag.krippendorff_alpha(KRIPP_2011, level="nominal")
    # Krippendorff (2011): marginals n_1..n_5 = 9, 13, 10, 5, 3; D_o = 0.2 (1 - 32/40).
    assert np.allclose(r.marginals, [9, 13, 10, 5, 3])
    assert r.observed == pytest.approx(8 / 40)
    assert np.allclose(r.coincidence, r.coincidence.T)
    assert r.domain.tolist() == [1, 2, 3, 4, 5]
    assert r.band == "tentative"


def test_cohen_table_oracle_and_scott() -> None:
    # 2x2 table (20, 5, 10, 15): p_o = 0.7, p_e = 0.5, kappa = 0.4 (Wikipedia, "Cohen's kappa").
    r = ag.cohen_kappa(table=[[20, 5], [10, 15]])
    assert round(float(r), 4) == 0.4
    assert r.observed == pytest.approx(0.7) and r.expected == pytest.approx(0.5) and r.n == 50
    # Scott's pi: pooled proportions (0.55, 0.45): p_e = 0.505.
    pi = ag.scott_pi(table=[[20, 5], [10, 15]])
    assert float(pi) == pytest.approx((0.7 - 0.505) / (1 - 0.505))
    a = [1, 1, 2, None, 2]
    b = [1, 2, 2, 1, nan]
    assert ag.cohen_kappa(a, b).n == 3
    with pytest.raises(InputError):
        ag.cohen_kappa([1, 2], [1])
    with pytest.raises(MetricError):
        ag.cohen_kappa([1, 2], [1, 2], weights="cubic")


def test_fleiss_oracle() -> None:
    r = ag.fleiss_kappa(FLEISS_1971, counts=True)
    assert round(float(r), 4) == 0.2099
    assert r.observed == pytest.approx(0.378, abs=5e-4)  # P-bar (Wikipedia)
    assert r.expected == pytest.approx(0.213, abs=5e-4)  # P-bar_e
