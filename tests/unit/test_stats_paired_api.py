"""assay.stats paired tests: bad arguments raise typed errors naming the problem."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import AssayError, InputError, OptionError
from assay import stats as S


@pytest.mark.parametrize(
    ("call", "error", "needle"),
    [
        (lambda: S.randomization_test([1, 2], [1, 2, 3]), InputError, "same length"),
        (lambda: S.randomization_test([1, math.nan]), InputError, "non-finite"),
        (lambda: S.randomization_test([]), InputError, "at least 1"),
        (lambda: S.randomization_test([1, 2], n_resamples=0), OptionError, "n_resamples"),
        (lambda: S.randomization_test([1, 2], n_resamples=2.5), OptionError, "integer"),
        (lambda: S.randomization_test([1, 2], seed=-1), OptionError, "seed"),
        (lambda: S.randomization_test([1, 2], alternative="both"), OptionError, "alternative"),
        (lambda: S.randomization_test([[1, 2]]), InputError, "one-dimensional"),
        (
            lambda: S.randomization_test(
                [1, 2, 3, 4, 5, 6], n_resamples=10, statistic=lambda v, axis=-1: np.mean(v)
            ),
            InputError,
            "expected",
        ),
        (lambda: S.ttest([1], [2]), InputError, "at least 2"),
        (lambda: S.ttest([1, 2], [2, 3], confidence=1.5), OptionError, "confidence"),
        (lambda: S.wilcoxon([1, 2], [2, 3], zero_method="drop"), OptionError, "zero_method"),
        (lambda: S.wilcoxon([1, 2], [2, 3], pvalue_method="perm"), OptionError, "pvalue_method"),
        (lambda: S.sign_test(["a"], [1]), InputError, "real numbers"),
        (lambda: S.paired_pvalues([1, 2, 3]), InputError, "two-dimensional"),
        (lambda: S.paired_pvalues([[1, 2]], test="z"), OptionError, "test"),
        (lambda: S.paired_pvalues([[1]], test="t"), InputError, "at least 2"),
        (lambda: S.paired_pvalues([[1, math.inf]]), InputError, "[0, 1] is inf"),
        (lambda: S.bootstrap_ci([1, 2, 3], ci_method="bc"), OptionError, "ci_method"),
        (lambda: S.bootstrap_ci(([1, 2, 3], [1, 2])), InputError, "same length"),
        (lambda: S.bootstrap_ci([1]), InputError, "at least 2"),
        (lambda: S.bootstrap_ci([1, 2], statistic="mean"), InputError, "callable"),
        (lambda: S.bootstrap_mean_ci([1, 2, 3]), InputError, "two-dimensional"),
        (lambda: S.paired_bootstrap_test([1, 2], [1, 2], n_resamples=-5), OptionError, "from 1 to"),
        (lambda: S.tukey_hsd([[1, 2, 3]], names=["a", "b"]), InputError, "names"),
        (lambda: S.tukey_hsd([[1], [2]]), InputError, "at least 2 systems"),
        (lambda: S.tukey_hsd({"a": [1, 2], "b": [1]}), InputError, "one score per item"),
        (lambda: S.tukey_hsd([[1, 2]], names=["a", "a"]), InputError, "distinct"),
        (lambda: S.tukey_hsd([[1, 2]], n_resamples=5).pvalue("0", "x"), InputError, "unknown"),
        (lambda: S.bootstrap_ci((1.0, 2.0, 3.0)), InputError, "paired samples"),
        (lambda: S.stratified_shuffling_test([1, 2], [1], len), InputError, "one record"),
        (lambda: S.stratified_shuffling_test([1, 2], [1, 2], None), InputError, "callable"),
        (lambda: S.correct([0.1, 1.2]), InputError, "[0, 1]"),
        (lambda: S.correct([0.1], correction="fdr_by"), OptionError, "correction"),
        (lambda: S.cohens_d_paired([1, 2], [1, 2, 3]), InputError, "same length"),
        (lambda: S.cohens_d_paired([1], [2]), InputError, "at least 2"),
    ],
)
def test_bad_arguments_raise_typed_errors(call, error, needle) -> None:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, AssayError)
    assert needle in str(info.value), str(info.value)
