"""stats.paired_bootstrap_test with a corpus-level statistic, against a plain loop over the
same resample indices (numpy's default_rng(seed).integers(0, n, (B, n))), and against the
mean version."""

from __future__ import annotations

import numpy as np
import pytest

from assay import stats as S
from assay.errors import InputError


def _f1(records: np.ndarray, axis: int = 0) -> np.ndarray:
    s = records.sum(axis=axis)
    return 2 * s[..., 0] / (s[..., 1] + s[..., 2])


def _f1_one(records: np.ndarray) -> float:
    s = records.sum(axis=0)
    return float(2 * s[0] / (s[1] + s[2]))


def _brute_force(
    a: np.ndarray, b: np.ndarray, n_resamples: int, seed: int
) -> tuple[float, float, list[float]]:
    idx = np.random.default_rng(seed).integers(0, len(a), (n_resamples, len(a)))
    theta = _f1_one(a) - _f1_one(b)
    dist = [_f1_one(a[row]) - _f1_one(b[row]) for row in idx]
    count = sum(abs(d - theta) >= abs(theta) for d in dist)
    return theta, (count + 1) / (n_resamples + 1), dist


@pytest.mark.parametrize("statistic", [_f1, _f1_one], ids=["axis", "loop"])
def test_statistic_bootstrap_by_brute_force(statistic: object) -> None:
    rng = np.random.default_rng(5)
    gold = rng.integers(1, 6, 40)
    a = np.stack([rng.integers(0, gold + 1), rng.integers(1, 7, 40), gold], axis=1).astype(float)
    b = np.stack([rng.integers(0, gold + 1), rng.integers(1, 7, 40), gold], axis=1).astype(float)
    res = S.paired_bootstrap_test(a, b, statistic, n_resamples=500, seed=11)
    theta, p, dist = _brute_force(a, b, 500, 11)
    assert res.statistic == pytest.approx(theta, abs=1e-15)
    assert res.pvalue == p
    low, high = np.percentile(dist, [2.5, 97.5])
    assert res.ci == pytest.approx((low, high), abs=1e-12)
    assert res.details["statistic_a"] == pytest.approx(_f1_one(a))
    again = S.paired_bootstrap_test(a, b, statistic, n_resamples=500, seed=11)
    assert (again.pvalue, again.ci) == (res.pvalue, res.ci)


def test_mean_statistic_is_the_mean_test() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=30), rng.normal(size=30) + 0.3
    plain = S.paired_bootstrap_test(a, b, n_resamples=2000, seed=4)
    general = S.paired_bootstrap_test(a, b, np.mean, n_resamples=2000, seed=4)
    assert general.pvalue == plain.pvalue
    assert general.statistic == pytest.approx(plain.statistic, abs=1e-14)
    assert general.ci == pytest.approx(plain.ci, abs=1e-12)


def test_statistic_bootstrap_checks_its_records() -> None:
    x = np.ones((5, 3))
    with pytest.raises(InputError, match="same shape"):
        S.paired_bootstrap_test(x, np.ones((4, 3)), _f1)
    with pytest.raises(InputError, match="callable"):
        S.paired_bootstrap_test(x, x, "f1")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="at least 2 items"):
        S.paired_bootstrap_test(x[:1], x[:1], _f1)
    with pytest.raises(InputError, match="dimensions"):
        S.paired_bootstrap_test(np.ones((2, 2, 2)), np.ones((2, 2, 2)), _f1)
