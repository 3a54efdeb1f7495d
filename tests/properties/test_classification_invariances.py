"""assay.classification invariances (label renaming, item order, swapping the positive class,
monotone score transforms) and bounds on seeded random cases."""

from __future__ import annotations

import numpy as np
import pytest

from assay import classification as C
from strategies.labels import cases
from support.numeric import TOL, close


def test_invariances_and_bounds() -> None:
    rng = np.random.default_rng(21)
    for y_true, y_pred, _ in cases(22, 40):
        names = np.array(["z", "a", "m", "b", "q", "c"])
        t, p = names[y_true], names[y_pred]  # renaming (and reordering) the labels
        perm = rng.permutation(len(y_true))
        for f in (C.accuracy, C.mcc, C.sba, C.balanced_accuracy):
            v = f(y_true, y_pred)
            assert f(t, p) == pytest.approx(v, abs=TOL)
            assert f(y_true[perm], y_pred[perm]) == pytest.approx(v, abs=TOL)
        k = C.cohen_kappa(y_true, y_pred)
        close(C.cohen_kappa(t, p), k)
        close(C.cohen_kappa(y_true[perm], y_pred[perm]), k)
        for avg in ("micro", "macro", "weighted"):
            close(C.f1(t, p, average=avg), C.f1(y_true, y_pred, average=avg))
        per = C.f1(y_true, y_pred, average=None, labels=np.arange(6))
        per_renamed = C.f1(t, p, average=None, labels=names)
        close(per, per_renamed)
        assert 0 <= C.accuracy(y_true, y_pred) <= 1
        assert -1 <= C.mcc(y_true, y_pred) <= 1
        assert 0 <= C.sba(y_true, y_pred) <= 1
        assert 0 <= C.balanced_accuracy(y_true, y_pred) <= 1
        for f in (C.precision, C.recall, C.f1, C.jaccard, C.fowlkes_mallows, C.specificity, C.npv):
            vals = f(y_true, y_pred, average=None)
            assert ((vals >= 0) & (vals <= 1)).all()
    # swapping which class is positive leaves MCC unchanged; AUC becomes 1 - AUC
    y = np.array([0, 1, 1, 0, 1, 0, 0])
    s = np.array([0.1, 0.8, 0.3, 0.3, 0.9, 0.5, 0.2])
    assert C.roc_auc(y, s) == pytest.approx(1 - C.roc_auc(1 - y, s))
    assert C.roc_auc(y, s) == pytest.approx(C.roc_auc(y, 3 * s + 1))  # monotone transform
