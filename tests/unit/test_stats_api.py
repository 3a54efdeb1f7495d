"""assay.stats as an API: every option of every function is keyword-only, named as the
glossary (docs/parameters.md) says and validated by assay._options (a bad value is an
OptionError naming the option); every result follows the result protocol (frozen,
``provenance``, ``records()``, ``to_pandas()``)."""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from assay import OptionError
from assay import stats as S
from assay._result import Result, ResultLike

A = [0.1, 0.4, 0.35, 0.8, 0.5, 0.2, 0.9]
B = [0.2, 0.3, 0.25, 0.6, 0.45, 0.1, 0.7]
D = np.subtract([A, B], [B, A])
T = np.column_stack([A, B, np.add(A, 0.05)])

#: name -> a call of that function on good data, taking the options as keywords.
CALLS: dict[str, Callable[..., Any]] = {
    "randomization_test": lambda **kw: S.randomization_test(A, B, **kw),
    "ttest": lambda **kw: S.ttest(A, B, **kw),
    "wilcoxon": lambda **kw: S.wilcoxon(A, B, **kw),
    "sign_test": lambda **kw: S.sign_test(A, B, **kw),
    "paired_bootstrap_test": lambda **kw: S.paired_bootstrap_test(A, B, **kw),
    "paired_pvalues": lambda **kw: S.paired_pvalues(D, **kw),
    "stratified_shuffling_test": lambda **kw: S.stratified_shuffling_test(
        np.array(A), np.array(B), np.mean, **kw
    ),
    "corpus_pair_test": lambda **kw: S.corpus_pair_test(np.array(A), np.array(B), np.mean, **kw),
    "bootstrap_ci": lambda **kw: S.bootstrap_ci(A, **kw),
    "bootstrap_mean_ci": lambda **kw: S.bootstrap_mean_ci(D, **kw),
    "tukey_hsd": lambda **kw: S.tukey_hsd(T, **kw),
    "correct": lambda **kw: S.correct([0.01, 0.2, 0.04], **kw),
    "mcnemar": lambda **kw: S.mcnemar([1, 0, 1, 1], [0, 0, 1, 0], **kw),
    "pearson": lambda **kw: S.pearson(A, B, **kw),
    "spearman": lambda **kw: S.spearman(A, B, **kw),
    "kendall": lambda **kw: S.kendall(A, B, **kw),
    "tau_ap": lambda **kw: S.tau_ap(A, B, **kw),
    "system_rank_correlation": lambda **kw: S.system_rank_correlation(A, B, **kw),
    "risk_differences": lambda **kw: S.risk_differences(A, B, **{"risk_alpha": 1.0, **kw}),
    "urisk": lambda **kw: S.urisk(A, B, **{"risk_alpha": 1.0, **kw}),
    "trisk": lambda **kw: S.trisk(A, B, **{"risk_alpha": 1.0, **kw}),
    "zrisk": lambda **kw: S.zrisk(T, **{"risk_alpha": 1.0, **kw}),
    "georisk": lambda **kw: S.georisk(T, **{"risk_alpha": 1.0, **kw}),
    "multinomial_resamples": lambda **kw: S.multinomial_resamples([3, 0, 2], **kw),
    "aso": lambda **kw: S.aso(A, B, **{"num_bootstrap_iterations": 50, **kw}),
    "seed_distribution": lambda **kw: S.seed_distribution(A, **kw),
    "welch_ttest": lambda **kw: S.welch_ttest(A, B, **kw),
    "anova_two_way": lambda **kw: S.anova_two_way(T, **kw),
    "partial_conjunction": lambda **kw: S.partial_conjunction([0.01, 0.2, 0.04], **kw),
    "replicability": lambda **kw: S.replicability([0.01, 0.2, 0.04], **kw),
}

SEED = [-1, 1.5, True, "0", None]
N_RESAMPLES = [0, -3, 2.5, True, "100", None]
ALTERNATIVE = ["both", "two_sided", 2, None]
CONFIDENCE = [0, 1, 1.5, -0.1, math.nan, "0.9", True]
RISK_ALPHA = [-0.5, math.nan, math.inf, "1", True, None]

#: (function, option, bad values): every option of every stats function.
BAD: list[tuple[str, str, list[Any]]] = [
    ("randomization_test", "seed", SEED),
    ("randomization_test", "n_resamples", N_RESAMPLES),
    ("randomization_test", "alternative", ALTERNATIVE),
    ("ttest", "confidence", [*CONFIDENCE, None]),
    ("ttest", "alternative", ALTERNATIVE),
    ("wilcoxon", "zero_method", ["drop", None]),
    ("wilcoxon", "continuity", [1, 0, "yes", None]),
    ("wilcoxon", "pvalue_method", ["perm", "permutation", None]),
    ("wilcoxon", "alternative", ALTERNATIVE),
    ("sign_test", "alternative", ALTERNATIVE),
    ("paired_bootstrap_test", "seed", SEED),
    ("paired_bootstrap_test", "n_resamples", N_RESAMPLES),
    ("paired_bootstrap_test", "alternative", ALTERNATIVE),
    ("paired_bootstrap_test", "confidence", CONFIDENCE),
    ("paired_pvalues", "test", ["tukey", "z", None]),
    ("paired_pvalues", "seed", SEED),
    ("paired_pvalues", "n_resamples", N_RESAMPLES),
    ("paired_pvalues", "alternative", ALTERNATIVE),
    ("stratified_shuffling_test", "seed", SEED),
    ("stratified_shuffling_test", "n_resamples", N_RESAMPLES),
    ("corpus_pair_test", "test", ["t", "mcnemar", None]),
    ("corpus_pair_test", "seed", SEED),
    ("corpus_pair_test", "n_resamples", N_RESAMPLES),
    ("corpus_pair_test", "ci_resamples", [0, -1, 1.5, True]),
    ("corpus_pair_test", "confidence", CONFIDENCE),
    ("bootstrap_ci", "seed", SEED),
    ("bootstrap_ci", "n_resamples", N_RESAMPLES),
    ("bootstrap_ci", "ci_method", ["bc", "t", "fisher", None]),
    ("bootstrap_ci", "confidence", CONFIDENCE),
    ("bootstrap_mean_ci", "seed", SEED),
    ("bootstrap_mean_ci", "n_resamples", N_RESAMPLES),
    ("bootstrap_mean_ci", "ci_method", ["bc", "t", None]),
    ("bootstrap_mean_ci", "confidence", CONFIDENCE),
    ("tukey_hsd", "seed", SEED),
    ("tukey_hsd", "n_resamples", N_RESAMPLES),
    ("correct", "correction", ["fdr_by", "sidak", None, True]),
    ("pearson", "confidence", CONFIDENCE),
    ("pearson", "alternative", ALTERNATIVE),
    ("spearman", "confidence", CONFIDENCE),
    ("spearman", "ci_method", ["bca", "fieller", None]),
    ("spearman", "seed", SEED),
    ("spearman", "n_resamples", N_RESAMPLES),
    ("spearman", "alternative", ALTERNATIVE),
    ("kendall", "confidence", CONFIDENCE),
    ("kendall", "variant", ["a", None]),
    ("kendall", "ci_method", ["fisher", None]),
    ("kendall", "seed", SEED),
    ("kendall", "n_resamples", N_RESAMPLES),
    ("kendall", "alternative", ALTERNATIVE),
    ("kendall", "pvalue_method", ["permutation", None]),
    ("tau_ap", "symmetric", [1, "yes", None]),
    ("tau_ap", "ties", ["first", None]),
    ("system_rank_correlation", "method", ["pearson", None]),
    *[(f, "risk_alpha", RISK_ALPHA) for f in ("risk_differences", "urisk", "trisk")],
    *[(f, "risk_alpha", RISK_ALPHA) for f in ("zrisk", "georisk")],
    ("trisk", "confidence", CONFIDENCE),
    ("multinomial_resamples", "n_resamples", N_RESAMPLES),
    ("multinomial_resamples", "seed", SEED),
    ("multinomial_resamples", "rows", [0, -1, 1.5, True, None]),
    ("aso", "confidence_level", CONFIDENCE),
    ("aso", "num_comparisons", [0, -1, 1.5, True, "2", None]),
    ("aso", "num_samples", [0, -1, 1.5, True, None]),
    ("aso", "num_bootstrap_iterations", N_RESAMPLES),
    ("aso", "dt", [0, 0.5, -0.1, math.nan, "0.01", True, None]),
    ("aso", "seed", [*SEED, 2**32 - 10]),  # seed + iterations past the Mersenne Twister's
    ("welch_ttest", "confidence", CONFIDENCE),
    ("welch_ttest", "alternative", ALTERNATIVE),
    ("anova_two_way", "confidence", CONFIDENCE),
    ("partial_conjunction", "method", ["stouffer", 1, None]),
    ("replicability", "method", ["stouffer", 1, None]),
    ("replicability", "alpha", CONFIDENCE),
    ("mcnemar", "method", ["fisher", "midp", None]),
]


@pytest.mark.parametrize(
    ("function", "option", "value"),
    [(f, o, v) for f, o, values in BAD for v in values],
    ids=lambda v: repr(v) if not isinstance(v, str) else v,
)
def test_every_bad_option_is_an_option_error_naming_it(function: str, option: str, value: Any):
    with pytest.raises(OptionError) as info:
        CALLS[function](**{option: value})
    assert info.value.option == option
    assert isinstance(info.value, ValueError)
    assert option in str(info.value) and function in str(info.value)


#: Keyword-only arguments that label the data rather than choose a method.
_DATA_KEYWORDS = {"names", "system"}


def test_every_option_of_every_function_is_covered() -> None:
    """A new option must be added to BAD (and so be validated)."""
    covered = {(f, o) for f, o, _ in BAD}
    for name in S.__all__:
        func = getattr(S, name)
        if isinstance(func, type):
            continue
        options = {
            p.name
            for p in inspect.signature(func).parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name not in _DATA_KEYWORDS
        }
        assert {(name, o) for o in options} <= covered, (name, options)


def test_options_are_keyword_only() -> None:
    for name in S.__all__:
        func = getattr(S, name)
        if isinstance(func, type):
            continue
        positional = [
            p.name
            for p in inspect.signature(func).parameters.values()
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        ]
        data = {"a", "b", "x", "y", "diffs", "pvalues", "scores", "statistic", "counts"}
        data |= {"outputs_a", "outputs_b", "scores_a", "scores_b"}
        assert set(positional) <= data, (name, positional)
    with pytest.raises(TypeError):
        S.ttest(A, B, 0.9)
    with pytest.raises(TypeError):
        S.paired_pvalues(D, "t")
    with pytest.raises(TypeError):
        S.correct([0.1], "holm")


@pytest.mark.parametrize(
    ("call", "old"),
    [
        (lambda: S.bootstrap_ci(A, method="bca"), "method"),
        (lambda: S.bootstrap_mean_ci(D, method="bca"), "method"),
        (lambda: S.wilcoxon(A, B, correction=True), "correction"),
        (lambda: S.wilcoxon(A, B, method="exact"), "method"),
        (lambda: S.correct([0.1], method="holm"), "method"),
    ],
)
def test_renamed_options_are_gone(call: Callable[[], Any], old: str) -> None:
    with pytest.raises(TypeError, match=old):
        call()


def test_renamed_options_under_their_glossary_names() -> None:
    assert S.bootstrap_ci(A, ci_method="basic", n_resamples=200).details["ci_method"] == "basic"
    res = S.wilcoxon(A, B, continuity=True, pvalue_method="asymptotic")
    assert (res.details["continuity"], res.details["pvalue_method"]) == (True, "asymptotic")
    with_cc = res.pvalue
    without = S.wilcoxon(A, B, continuity=False, pvalue_method="asymptotic").pvalue
    assert with_cc > without  # the correction moves |z| towards 0
    p = [0.01, 0.04, 0.03]
    assert S.correct(p, correction="fdr_bh").tolist() == S.correct(p, correction="bh").tolist()
    assert S.correct(p, correction="BH").tolist() == S.correct(p, correction="bh").tolist()
    lo, hi = S.bootstrap_mean_ci(D, ci_method="percentile", n_resamples=200)
    assert (lo <= hi).all()


def test_system_rank_correlation_unknown_option_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="takes no option 'ties'") as info:
        S.system_rank_correlation(A, B, method="kendall", ties="average")
    assert info.value.option == "ties"
    assert S.system_rank_correlation(A, B, method="tau_ap", ties="average").details["ties"] == (
        "average"
    )


# ----------------------------------------------------------------------------- results


#: The functions that return plain arrays (one value per row, column or p-value).
_ARRAYS = ("paired_pvalues", "bootstrap_mean_ci", "correct", "risk_differences", "zrisk", "georisk")
_ARRAYS += ("multinomial_resamples",)  # blocks of counts, drawn as they are read
_ARRAYS += ("partial_conjunction",)  # p^(u/N), u = 1..N


def _results() -> dict[str, Any]:
    out = {
        name: CALLS[name](**({"n_resamples": 300} if name in _RESAMPLED else {}))
        for name in CALLS
        if name not in _ARRAYS
    }
    out["system_rank_correlation(mapping)"] = S.system_rank_correlation(
        {"a": 1.0, "b": 2.0, "c": 3.5, "d": 0.5, "e": 2.5},
        {"a": 0.1, "b": 0.3, "c": 0.2, "d": 0.0, "e": 0.4},
    )
    return out


_RESAMPLED = {"randomization_test", "paired_bootstrap_test", "stratified_shuffling_test"}
_RESAMPLED |= {"corpus_pair_test"}
_RESAMPLED |= {"bootstrap_ci", "tukey_hsd"}


def test_results_follow_the_protocol() -> None:
    for name, res in _results().items():
        assert isinstance(res, Result) and isinstance(res, ResultLike), name
        assert dataclasses.is_dataclass(res) and type(res).__dataclass_params__.frozen, name
        first = dataclasses.fields(res)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(res, first, 0.0)
        prov = res.provenance
        assert prov["assay_version"] and prov["python"], name
        assert "assay_version" not in res.details and "python" not in res.details
        assert {k: v for k, v in prov.items() if k in res.details} == res.details
        rows = res.records()
        assert rows and all(isinstance(r, dict) for r in rows), name
        for row in rows:
            for value in row.values():
                assert value is None or type(value) in (str, int, float, bool), (name, row)
        assert not hasattr(type(res), "__test__"), name


def test_stat_result_records_and_frame() -> None:
    res = S.ttest(A, B)
    assert res.records() == [
        {
            "method": "paired t-test",
            "statistic": res.statistic,
            "pvalue": res.pvalue,
            "ci_low": res.ci[0],
            "ci_high": res.ci[1],
        }
    ]
    assert S.sign_test(A, B).records()[0]["ci_low"] is None
    assert float(res) == res.pvalue
    assert float(S.bootstrap_ci(A, n_resamples=100)) == S.bootstrap_ci(A, n_resamples=100).statistic
    pytest.importorskip("pandas")
    frame = res.to_pandas()
    assert list(frame.columns) == ["method", "statistic", "pvalue", "ci_low", "ci_high"]
    assert frame.shape == (1, 5)


def test_tukey_result_records_and_provenance() -> None:
    res = S.tukey_hsd(T, n_resamples=200, seed=4, names=["x", "y", "z"])
    rows = res.records()
    assert [(r["first"], r["second"]) for r in rows] == [("x", "y"), ("x", "z"), ("y", "z")]
    for row, (i, j, diff, p) in zip(rows, res.pairs, strict=True):
        assert row["diff"] == diff == res.means[i] - res.means[j]
        assert row["pvalue"] == p == res.pvalue(res.names[i], res.names[j])
    assert res.provenance["seed"] == 4 and res.provenance["n_resamples"] == 200
    assert res.details == {"n_resamples": 200, "seed": 4, "n_items": len(A)}
