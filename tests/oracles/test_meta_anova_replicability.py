"""Published figures of the two-way ANOVA without replication and of the replicability
analysis across datasets, reproduced to their printed precision.

- Sakai's Table 5.1 (20 topics × systems A, B, C; ``TABLE_5_1`` of
  ``test_meta_published_examples.py``): the ANOVA table, the system means with their 95%
  margin of error and the Tukey-HSD effect sizes ES_E that kampersanda/elinor prints in its
  README (elinor-cli's "Multi-system comparison", 4 decimals), and the figures of Sakai's
  book as elinor's tests quote them (情報アクセス評価方法論, 2015: S_A 0.1083, S_B 1.0293,
  S_E 0.8317, V 0.0542 / 0.0542 / 0.0219, F 2.475 / 2.475, p 0.098 / 0.009, MOE 0.0670).
- elinor-cli's README three-system example: the precision@3 columns of its sample files
  ``test-data/sample/pred_{1,2,3}.csv`` (8 queries) and the means, MOE, ANOVA table and
  effect sizes it prints for them.
- Dror et al. 2017 (TACL): the example of the authors' code (rtmdrr/replicability-analysis-NLP,
  ``Replicability_Analysis.py``: p-values 0.168, 0.297, 0.357, 0.019, 0.218, 0.001): its
  k̂-Bonferroni and k̂-Fisher estimators, its partial conjunction p-values and its Holm
  rejections, as that script computes them (run under Python 3 at α = 0.05, 0.1, 0.2, 0.5).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from assay import meta
from assay.stats import AnovaResult, anova_two_way, partial_conjunction, replicability
from oracles.test_meta_published_examples import TABLE_5_1

# elinor README, "Two-way ANOVA without replication" for Table 5.1.
ELINOR_TABLE_5_1 = {
    "systems": (0.1083, 2, 0.0542, 2.4749, 0.0976),
    "topics": (1.0293, 19, 0.0542, 2.4754, 0.0086),
    "residual": (0.8317, 38, 0.0219, None, None),
}
ELINOR_MEANS_5_1 = (0.3450, 0.2700, 0.2450)
ELINOR_MOE_5_1 = 0.0670
ELINOR_ES_5_1 = ((0.0, 0.5070, 0.6760), (-0.5070, 0.0, 0.1690), (-0.6760, -0.1690, 0.0))

# elinor-cli's sample data: precision@3 of pred_1, pred_2, pred_3 over q_1..q_8 (thirds).
P3 = (
    np.array(
        [[2, 0, 1], [2, 1, 1], [2, 2, 1], [2, 0, 2], [1, 1, 1], [2, 1, 2], [1, 1, 0], [2, 1, 2]]
    )
    / 3.0
)
ELINOR_CLI_TABLE = {
    "systems": (0.3426, 2, 0.1713, 4.3898, 0.0331),
    "topics": (0.3287, 7, 0.0470, 1.2034, 0.3623),
    "residual": (0.5463, 14, 0.0390, None, None),
}
ELINOR_CLI_MEANS = (0.5833, 0.2917, 0.4167)
ELINOR_CLI_MOE = 0.1498
ELINOR_CLI_ES = ((0.0, 1.4765, 0.8437), (-1.4765, 0.0, -0.6328), (-0.8437, 0.6328, 0.0))


def _check_table(res: AnovaResult, table: dict[str, tuple[Any, ...]]) -> None:
    for source, (ss, df, ms, f, p) in table.items():
        assert round(res.ss[source], 4) == ss, source
        assert res.df[source] == df, source
        assert round(res.ms[source], 4) == ms, source
        if f is not None:
            assert round(res.f[source], 4) == f, source
            assert round(res.p[source], 4) == p, source


@pytest.mark.parametrize(
    ("scores", "table", "means", "moe", "es"),
    [
        (TABLE_5_1, ELINOR_TABLE_5_1, ELINOR_MEANS_5_1, ELINOR_MOE_5_1, ELINOR_ES_5_1),
        (P3, ELINOR_CLI_TABLE, ELINOR_CLI_MEANS, ELINOR_CLI_MOE, ELINOR_CLI_ES),
    ],
    ids=["sakai-table-5.1", "elinor-cli-sample"],
)
def test_every_figure_elinor_prints(
    scores: np.ndarray,
    table: dict[str, tuple[Any, ...]],
    means: tuple[float, ...],
    moe: float,
    es: tuple[tuple[float, ...], ...],
) -> None:
    res = anova_two_way(scores)
    _check_table(res, table)
    assert tuple(np.round(res.system_means, 4)) == means
    assert round(res.moe, 4) == moe
    assert np.array_equal(np.round(res.effect_residual, 4), np.array(es))


def test_the_book_figures_of_table_5_1() -> None:
    """Sakai's own figures (as elinor's tests quote them): F and p to 3 decimals."""
    res = anova_two_way(TABLE_5_1)
    assert (round(res.f["systems"], 3), round(res.f["topics"], 3)) == (2.475, 2.475)
    assert (round(res.p["systems"], 3), round(res.p["topics"], 3)) == (0.098, 0.009)
    assert round(res.residual_variance, 4) == 0.0219
    assert round(res.moe, 4) == 0.0670


def test_the_meta_anova_shows_elinors_figures_in_every_format() -> None:
    res = meta.anova({"ndcg@5": {"A": TABLE_5_1[:, 0], "B": TABLE_5_1[:, 1], "C": TABLE_5_1[:, 2]}})
    text = res.report().render("table")
    for figure in ("0.1083", "2.4749", "0.0976", "1.0293", "2.4754", "0.0086", "0.8317",
                   "0.0219", "0.0670", "0.5070", "0.6760", "0.1690"):  # fmt: skip
        assert figure in text, figure
    rows = [r for r in res.records() if r["kind"] == "anova" and r["source"] == "systems"]
    assert round(rows[0]["f"], 4) == 2.4749


def test_the_residual_variance_of_topic_set_size_is_the_anovas() -> None:
    assert meta.residual_variance(TABLE_5_1) == anova_two_way(TABLE_5_1).residual_variance
    assert meta.residual_variance(P3) == anova_two_way(P3).residual_variance


# ---------------------------------------------------------------- Dror et al. 2017

AUTHORS_EXAMPLE = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]
# calc_partial_cunjunction(sorted descending, u, method) for u = 1..6, as the script prints.
AUTHORS_BONFERRONI = [0.006, 0.095, 0.672, 0.654, 0.594, 0.357]
AUTHORS_FISHER = [
    0.0010236562707984787,
    0.03989813646206075,
    0.19597603158808108,
    0.2742187988593834,
    0.343962596798969,
    0.357,
]
# (alpha, k̂ Bonferroni, k̂ Fisher, Holm rejections as 0-based indices) from the script.
AUTHORS_COUNTS = [(0.05, 1, 2, {5}), (0.1, 2, 2, {5, 3}), (0.2, 2, 3, {5, 3}), (0.5, 2, 6, {5, 3})]


def test_the_partial_conjunction_p_values_of_the_authors_code() -> None:
    bonf = partial_conjunction(AUTHORS_EXAMPLE, method="bonferroni")
    fisher = partial_conjunction(AUTHORS_EXAMPLE, method="fisher")
    assert bonf == pytest.approx(AUTHORS_BONFERRONI, rel=1e-12)
    assert fisher == pytest.approx(AUTHORS_FISHER, rel=1e-12)


@pytest.mark.parametrize(("alpha", "k_bonf", "k_fisher", "holm"), AUTHORS_COUNTS)
def test_the_counts_and_rejections_of_the_authors_code(
    alpha: float, k_bonf: int, k_fisher: int, holm: set[int]
) -> None:
    bonf = replicability(AUTHORS_EXAMPLE, alpha=alpha, method="bonferroni")
    fisher = replicability(AUTHORS_EXAMPLE, alpha=alpha, method="fisher")
    assert (bonf.count, fisher.count) == (k_bonf, k_fisher)
    assert {int(d) for d in bonf.identified} == holm
    assert fisher.identified == bonf.identified  # Holm names the datasets under either method


def test_the_meta_table_of_the_authors_example() -> None:
    names = [f"dataset{i}" for i in range(1, 7)]
    res = meta.replicability(dict(zip(names, AUTHORS_EXAMPLE, strict=True)), method="fisher")
    assert (res.count, res.identified) == (2, ("dataset6",))
    legend = res.report().table.legend
    assert "at least 2 of 6 datasets" in legend and "dataset6" in legend
