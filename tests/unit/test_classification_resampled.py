"""The comparison's measures of stacked confusion matrices (assay.classification.resampled)
against the family's own measures, recomputed label by label on random resamples."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from assay.classification.resampled import LabelSpace, matrices, matrix_measure
from assay.errors import MetricError
from assay.metrics import parse

NAMES = [
    "accuracy",
    "balanced_accuracy",
    "balanced_accuracy(adjusted=True)",
    "mcc",
    "mcc(degenerate='limit')",
    "mcc(degenerate='nan')",
    "sba",
    "sba(absent='nan')",
]
_MEASURES = ("precision", "recall", "specificity", "npv", "fpr", "fnr", "jaccard", "f1")
for measure in (*_MEASURES, "fowlkes_mallows", "f_score(beta=2.0, ", "f_score(beta=0.0, "):
    head = measure if measure.endswith(" ") else f"{measure}("
    for average in ("macro", "micro", "weighted"):
        NAMES.append(f"{head}average='{average}')")
    NAMES.append(f"{head}average='macro', zero_division='nan')")
    NAMES.append(f"{head}average='weighted', zero_division=1)")
    NAMES.append(f"{head}average='binary', pos_label=1)")
    NAMES.append(f"{head}average='macro', labels=[0, 3])")


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_matrix_measures_equal_the_family_measures(name: str) -> None:
    metric = parse(name, family="classification")[0]
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    for trial in range(25):
        k = 2 if "binary" in name else int(rng.integers(2, 6))
        n = int(rng.integers(1, 12)) if trial % 3 == 0 else int(rng.integers(5, 60))
        labels = np.arange(max(k, 4) if "labels" in name else k)
        t = rng.integers(0, k, size=n)
        p = np.where(rng.uniform(size=n) < 0.6, t, rng.integers(0, k, size=n))
        space = LabelSpace(labels)
        fast = matrix_measure(metric, space)
        idx = rng.integers(0, n, size=(20, n))
        values = fast(matrices(t[idx], p[idx], space.k))
        for row, value in zip(idx, values, strict=True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = float(metric(t[row], p[row]))
            assert _same(float(value), expected), (name, t[row].tolist(), p[row].tolist())


def test_matrices_counts_every_resample() -> None:
    t = np.array([[0, 1, 2, 2], [2, 2, 2, 2]])
    p = np.array([[0, 2, 2, 1], [0, 0, 2, 2]])
    cm = matrices(t, p, 3)
    assert cm.shape == (2, 3, 3)
    assert cm[0].tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 1]]
    assert cm[1].tolist() == [[0, 0, 0], [0, 0, 0], [2, 0, 2]]


def test_refused_measures() -> None:
    space = LabelSpace(np.array([0, 1]))
    with pytest.raises(MetricError, match="one value per class"):
        matrix_measure(parse("f1(average=None)", family="classification")[0], space)
    with pytest.raises(MetricError, match="cannot be compared"):
        matrix_measure(parse("roc_auc", family="classification")[0], space)
