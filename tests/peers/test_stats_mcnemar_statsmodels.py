"""McNemar's test and Cochran's Q against statsmodels (``statsmodels.stats.contingency_tables``)
on many random tables, and the mid-p value against a direct binomial sum."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import stats as S
from assay.errors import InputError, OptionError
from assay.stats.contingency import mcnemar_pvalues

tables = pytest.importorskip(
    "statsmodels.stats.contingency_tables", reason="statsmodels not installed (test-only peer)"
)


def _outcomes(rng: np.random.Generator, n: int, k: int = 2) -> np.ndarray:
    """k classifiers' correctness over n items, correlated through an item difficulty."""
    easy = rng.uniform(size=n)
    skill = rng.uniform(0.1, 0.9, size=k)
    return (rng.uniform(size=(k, n)) < (easy[None, :] + skill[:, None]) / 2).astype(int)


@pytest.mark.parametrize("seed", range(12))
def test_mcnemar_matches_statsmodels(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(40):
        n = int(rng.integers(1, 300))
        a, b = _outcomes(rng, n)
        nb = int(np.sum((a == 1) & (b == 0)))
        nc = int(np.sum((a == 0) & (b == 1)))
        table = [[int(np.sum((a == 1) & (b == 1))), nb], [nc, int(np.sum((a == 0) & (b == 0)))]]
        if nb + nc == 0:
            continue  # statsmodels: NaN (0/0); assay defines p = 1 (tested below)
        exact = tables.mcnemar(table, exact=True)
        chi2 = tables.mcnemar(table, exact=False, correction=True)
        ours = S.mcnemar(a, b)
        assert ours.statistic == exact.statistic
        assert ours.pvalue == pytest.approx(exact.pvalue, rel=1e-12, abs=1e-300)
        ours_chi2 = S.mcnemar(a, b, method="chi2")
        assert ours_chi2.statistic == pytest.approx(chi2.statistic, rel=1e-12)
        assert ours_chi2.pvalue == pytest.approx(chi2.pvalue, rel=1e-10, abs=1e-300)
        # the table form gives the same test
        assert S.mcnemar(table).pvalue == ours.pvalue


def _mid_p_reference(b: int, c: int) -> float:
    """Fagerland et al. (2013): the two-sided exact p-value less the point probability, by a
    direct sum of binomial terms in exact rational arithmetic."""
    from fractions import Fraction

    n, low = b + c, min(b, c)
    if n == 0:
        return 1.0
    point = Fraction(math.comb(n, low), 2**n)
    tail = sum((Fraction(math.comb(n, i), 2**n) for i in range(low + 1)), Fraction(0))
    return float(min(Fraction(1), 2 * tail - point))


def test_mid_p_matches_a_direct_binomial_sum() -> None:
    rng = np.random.default_rng(5)
    pairs = [(b, c) for b in range(0, 25) for c in range(0, 25)]
    pairs += [tuple(int(x) for x in rng.integers(0, 400, size=2)) for _ in range(200)]
    b = np.array([p[0] for p in pairs])
    c = np.array([p[1] for p in pairs])
    _, p = mcnemar_pvalues(b, c, "mid-p")
    expected = np.array([_mid_p_reference(*pair) for pair in pairs])
    np.testing.assert_allclose(p, expected, rtol=1e-9, atol=1e-300)
    # mid-p is below the exact p-value whenever b != c (both are 1 when b == c)
    _, exact = mcnemar_pvalues(b, c, "exact")
    assert np.all(p[b != c] < exact[b != c])
    np.testing.assert_allclose(p[b == c], 1.0, rtol=1e-12)


def test_mid_p_published_value() -> None:
    # Fagerland, Lydersen & Laake (2013), Table 1 example (b = 1, c = 7): exact 0.070,
    # mid-p 0.039 as printed in the paper.
    assert round(S.mcnemar([[0, 1], [7, 0]]).pvalue, 3) == 0.070
    assert round(S.mcnemar([[0, 1], [7, 0]], method="mid-p").pvalue, 3) == 0.039


def test_mcnemar_without_discordant_items_is_p_one() -> None:
    for method in ("exact", "mid-p", "chi2"):
        res = S.mcnemar([1, 0, 1], [1, 0, 1], method=method)
        assert (res.statistic, res.pvalue) == (0.0, 1.0)


def test_mcnemar_bad_inputs() -> None:
    with pytest.raises(InputError, match="0/1"):
        S.mcnemar([1, 2], [0, 1])
    with pytest.raises(InputError, match="same length"):
        S.mcnemar([1, 0], [0, 1, 1])
    with pytest.raises(InputError, match="2 x 2"):
        S.mcnemar([[1, 2, 3]])
    with pytest.raises(OptionError, match="method"):
        S.mcnemar([1, 0], [0, 1], method="fisher")


@pytest.mark.parametrize("seed", range(10))
def test_cochran_q_matches_statsmodels(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    for _ in range(30):
        k = int(rng.integers(2, 7))
        n = int(rng.integers(2, 200))
        x = _outcomes(rng, n, k)
        if len(np.unique(x)) < 2 or np.all(x.sum(axis=0) % k == 0):
            continue  # statsmodels: its own success value, or 0/0
        expected = tables.cochrans_q(x.T)
        ours = S.cochran_q(x)
        assert ours.statistic == pytest.approx(expected.statistic, rel=1e-10)
        assert ours.pvalue == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-300)
        assert ours.details["df"] == expected.df == k - 1


def test_cochran_q_two_classifiers_is_uncorrected_mcnemar() -> None:
    rng = np.random.default_rng(3)
    a, b = _outcomes(rng, 150)
    nb, nc = np.sum((a == 1) & (b == 0)), np.sum((a == 0) & (b == 1))
    assert S.cochran_q([a, b]).statistic == pytest.approx((nb - nc) ** 2 / (nb + nc))


def test_cochran_q_edges() -> None:
    same = S.cochran_q([[1, 0, 1], [1, 0, 1], [1, 0, 1]])
    assert (same.statistic, same.pvalue) == (0.0, 1.0)
    with pytest.raises(InputError, match="at least 2"):
        S.cochran_q([[1, 0, 1]])
    with pytest.raises(InputError, match="0/1"):
        S.cochran_q([[1, 0.5], [0, 1]])
