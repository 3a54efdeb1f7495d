"""The two-way ANOVA without replication against statsmodels' ``anova_lm`` on the long-form
table (score ~ C(system) + C(topic), an additive model: the residual is the interaction), and
the Fisher partial conjunction against ``scipy.stats.combine_pvalues``; seeded random
matrices of many shapes."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from assay.stats import anova_two_way, partial_conjunction


@pytest.mark.parametrize("seed", range(40))
def test_the_table_equals_statsmodels_anova_lm(seed: int) -> None:
    pd = pytest.importorskip("pandas")
    smf = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 25)), int(rng.integers(2, 7))
    x = rng.random((n, m)) * rng.choice([1.0, 100.0]) + rng.normal(0, 1, m)
    frame = pd.DataFrame(
        {
            "score": x.ravel(),
            "topic": np.repeat([f"t{j}" for j in range(n)], m),
            "system": np.tile([f"s{i}" for i in range(m)], n),
        }
    )
    fitted = smf.ols("score ~ C(system) + C(topic)", data=frame).fit()
    table = anova_lm(fitted, typ=2)
    res = anova_two_way(x)
    rows = {"systems": "C(system)", "topics": "C(topic)", "residual": "Residual"}
    for ours, theirs in rows.items():
        assert res.ss[ours] == pytest.approx(table.loc[theirs, "sum_sq"], rel=1e-8)
        assert res.df[ours] == int(table.loc[theirs, "df"])
    for ours in ("systems", "topics"):
        assert res.f[ours] == pytest.approx(table.loc[rows[ours], "F"], rel=1e-8)
        assert res.p[ours] == pytest.approx(table.loc[rows[ours], "PR(>F)"], rel=1e-6, abs=1e-15)
    assert res.residual_variance == pytest.approx(fitted.mse_resid, rel=1e-8)
    # The run means' interval: statsmodels' t interval of the fitted mean with V_E.
    low, high = stats.t.interval(
        0.95, fitted.df_resid, loc=0.0, scale=np.sqrt(fitted.mse_resid / n)
    )
    assert res.moe == pytest.approx(high, rel=1e-9)
    assert -res.moe == pytest.approx(low, rel=1e-9)


@pytest.mark.parametrize("seed", range(100))
def test_fisher_equals_scipy_combine_pvalues(seed: int) -> None:
    rng = np.random.default_rng(seed)
    p = rng.random(int(rng.integers(1, 20))) ** rng.choice([1, 3])
    ours = partial_conjunction(p, method="fisher")
    ordered = np.sort(p)
    for u in range(1, p.shape[0] + 1):
        expected = stats.combine_pvalues(ordered[u - 1 :], method="fisher").pvalue
        assert ours[u - 1] == pytest.approx(expected, rel=1e-10, abs=1e-300)
