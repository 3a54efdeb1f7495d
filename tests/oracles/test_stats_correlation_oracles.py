"""Correlations on oracle and hand-worked examples: Pearson, Spearman, Kendall's tau-b with
ties, and tau_AP (worked by hand and the R package ircor's example)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay.stats import kendall, pearson, spearman, tau_ap
from references.slow_stats import naive_tau_ap


def test_pearson_oracle() -> None:
    res = pearson(np.arange(1, 8), [10, 9, 2.5, 6, 4, 3, 2])
    assert round(res.statistic, 4) == -0.8285
    assert round(res.pvalue, 4) == 0.0213
    assert res.ci is not None
    assert (round(res.ci[0], 4), round(res.ci[1], 4)) == (-0.9739, -0.2006)
    assert res.details["n"] == 7
    assert res.details["ci_method"] == "fisher"
    assert res.details["se"] == 0.5  # 1/sqrt(7 - 3)


def test_spearman_oracle() -> None:
    res = spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])
    assert round(res.statistic, 4) == 0.8208
    assert res.details["ties"] == "mid-ranks"


def test_kendall_tau_b_hand_example_with_ties() -> None:
    # x = (1, 2, 2, 3), y = (1, 3, 2, 2). Pairs (i, j):
    # (1,2) C, (1,3) C, (1,4) C, (2,3) tied in x, (2,4) D (x up, y down), (3,4) tied in y.
    # C - D = 2, n0 = 6, n1 = 1 (x ties), n2 = 1 (y ties): tau-b = 2 / sqrt(5 * 5) = 0.4.
    res = kendall([1, 2, 2, 3], [1, 3, 2, 2], confidence=None)
    assert res.statistic == pytest.approx(0.4, abs=1e-15)
    assert res.ci is None
    d = res.details
    assert (d["n_discordant"], d["n_tied_x"], d["n_tied_y"], d["n_tied_xy"]) == (1, 1, 1, 0)
    assert d["pvalue_method"] == "asymptotic"  # ties: no exact p-value
    # tau-c: m = min(3 distinct x, 3 distinct y) = 3: 2 * 2 / (16 * 2/3) = 0.375.
    assert kendall(
        [1, 2, 2, 3], [1, 3, 2, 2], confidence=None, variant="c"
    ).statistic == pytest.approx(0.375, abs=1e-15)


def test_tau_ap_identical_and_reversed() -> None:
    x = np.array([0.3, 0.9, 0.1, 0.5, 0.7])
    assert tau_ap(x, x).statistic == pytest.approx(1.0, abs=1e-15)
    assert tau_ap(x, -x).statistic == pytest.approx(-1.0, abs=1e-15)
    assert tau_ap(x, 2 * x + 1, symmetric=True).statistic == pytest.approx(1.0, abs=1e-15)
    res = tau_ap(x, x)
    assert math.isnan(res.pvalue) and res.ci is None
    assert float(res) == res.statistic


def test_tau_ap_worked_four_items() -> None:
    # Items A, B, C, D; the reference x ranks them A > B > C > D.
    x = [4, 3, 2, 1]
    # y ranks B, A, C, D (a swap at the top). In y's order:
    #   i=2 (A): above it B, which x puts below A          -> C(2) = 0, 0/1
    #   i=3 (C): above it B, A, both above C in x          -> C(3) = 2, 2/2
    #   i=4 (D): above it B, A, C, all above D in x        -> C(4) = 3, 3/3
    # tau_AP = 2/3 * (0 + 1 + 1) - 1 = 1/3 (Kendall's tau: 2/3).
    assert tau_ap(x, [3, 4, 2, 1]).statistic == pytest.approx(1 / 3, abs=1e-15)
    # y ranks A, B, D, C (the same swap at the bottom): 2/3 * (1/1 + 2/2 + 2/3) - 1 = 7/9.
    assert tau_ap(x, [4, 3, 1, 2]).statistic == pytest.approx(7 / 9, abs=1e-15)
    assert kendall(x, [3, 4, 2, 1], confidence=None).statistic == pytest.approx(2 / 3)


def test_tau_ap_ircor_oracle_and_asymmetry() -> None:
    # Example of tauAP / tauAP_a in the R package ircor (Urbano): 0.3928571, and with y
    # rounded to one decimal (ties in y), tauAP_a = 0.39903.
    x = np.array([0.67, 0.45, 0.29, 0.12, 0.57, 0.24, 0.94, 0.75, 0.08, 0.54])
    y = np.array([0.48, 0.68, 0.32, 0.09, 0.06, 0.61, 0.87, 0.22, 0.44, 0.84])
    forward = tau_ap(x, y).statistic
    assert round(forward, 7) == 0.3928571
    backward = tau_ap(y, x).statistic
    assert backward != pytest.approx(forward)  # not symmetric
    assert backward == pytest.approx(naive_tau_ap(y, x), abs=1e-12)
    sym = tau_ap(x, y, symmetric=True)
    assert sym.statistic == pytest.approx((forward + backward) / 2, abs=1e-15)
    assert sym.details["reference"] == "both (mean)"
    y_rounded = np.array([0.5, 0.7, 0.3, 0.1, 0.1, 0.6, 0.9, 0.2, 0.4, 0.8])
    assert round(tau_ap(x, y_rounded, ties="average").statistic, 5) == 0.39903
