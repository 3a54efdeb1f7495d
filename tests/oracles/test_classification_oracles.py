"""assay.classification against published worked examples: Chicco & Jurman 2020, Gösgens et
al. 2021, scikit-learn's confusion-matrix layout, Manning et al. 2008 §8.4."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import classification as C
from support.numeric import close


def test_imbalanced_tagger() -> None:
    # 90 NN + 10 VB, everything tagged NN. Accuracy 90/100; F1(NN) = 2·90/(2·90+10) = 0.9474
    # (hand computation); MCC: the predicted column of VB is empty -> 0 (scikit-learn's
    # convention, and the limit of Chicco & Jurman 2020 for a zero column); SBA 0.5 by
    # Gösgens et al. 2021's rule for a class absent from y_pred: (90/90 + 90/100 + 0/10 +
    # 10/100) / 4 = 0.5.
    y_true = ["NN"] * 90 + ["VB"] * 10
    y_pred = ["NN"] * 100
    assert C.accuracy(y_true, y_pred) == pytest.approx(0.9)
    assert C.f1(y_true, y_pred, pos_label="NN") == pytest.approx(0.9474, abs=5e-5)
    assert C.mcc(y_true, y_pred) == 0.0
    assert C.mcc(y_true, y_pred, degenerate="limit") == 0.0
    assert math.isnan(C.mcc(y_true, y_pred, degenerate="nan"))
    assert C.sba(y_true, y_pred) == pytest.approx(0.5)
    assert math.isnan(C.sba(y_true, y_pred, absent="nan"))
    rep = C.classification_report(y_true, y_pred, pos_label="NN")
    assert rep.accuracy == pytest.approx(0.9)
    assert rep["NN"].f == pytest.approx(0.9474, abs=5e-5)
    assert rep.mcc == 0.0 and rep.sba == pytest.approx(0.5)
    assert rep["VB"].precision == 0.0 and rep.undefined["precision"] == 1


def test_chicco_jurman_use_case() -> None:
    # Chicco & Jurman 2020 (BMC Genomics 21:6), use case with TP=90, FN=1, FP=9, TN=0:
    # F1 = 0.9474 and MCC = -0.0316 (their text, rounded to 4 places).
    y_true = np.r_[np.ones(91, int), np.zeros(9, int)]
    y_pred = np.r_[np.ones(90, int), 0, np.ones(9, int)]
    tn, fp, fn, tp = C.confusion_matrix(y_true, y_pred).ravel()
    assert (tp, fn, fp, tn) == (90, 1, 9, 0)
    assert C.f1(y_true, y_pred) == pytest.approx(0.9474, abs=5e-5)
    assert C.mcc(y_true, y_pred) == pytest.approx(-0.0316, abs=5e-5)


def test_seed_confusion_matrix() -> None:
    # The seed example; scikit-learn's confusion_matrix docstring uses the same layout
    # (tn, fp, fn, tp = cm.ravel()). Normalised over the true rows: 1/2, 1/2, 1/3, 2/3.
    y_true, y_pred = [1, 0, 1, 0, 1], [1, 0, 1, 1, 0]
    cm = C.confusion_matrix(y_true, y_pred)
    assert tuple(cm.ravel()) == (1, 1, 1, 2)
    assert cm.binary(1) == (1, 1, 1, 2)
    assert list(cm.labels) == [0, 1]
    norm = C.confusion_matrix(y_true, y_pred, normalize="true")
    close(norm.ravel(), [0.5, 0.5, 1 / 3, 2 / 3])
    np.testing.assert_array_equal(np.asarray(cm), [[1, 1], [1, 2]])
    assert cm.to_dict() == {0: {0: 1, 1: 1}, 1: {0: 1, 1: 2}}


def test_interpolated_precision_manning() -> None:
    # Manning, Raghavan & Schütze 2008 §8.4: interpolated precision at recall r is the highest
    # precision at any recall >= r. Ranking R N R N N R with 3 relevant (hand computation):
    # points (1/3, 1), (2/3, 2/3), (1, 1/2) -> iprec 1 for r <= 1/3, 2/3 up to 2/3, 1/2 after.
    y = [1, 0, 1, 0, 0, 1]
    s = [6, 5, 4, 3, 2, 1]
    ip = C.interpolated_precision(y, s)
    expected = [1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 1 / 2, 1 / 2, 1 / 2, 1 / 2]
    close(ip.precision, expected)
    assert float(ip) == pytest.approx(sum(expected) / 11)
    close(ip.levels, np.arange(11) / 10)
    # recall 3/10 meets level 0.3 exactly (levels are i/10, not linspace's 0.30000000000000004)
    y10 = [1, 1, 1] + [0] * 5 + [1] * 7
    ip10 = C.interpolated_precision(y10, np.arange(15, 0, -1), levels=[0.3, 0.31])
    close(ip10.precision, [1.0, 10 / 15])
    # a level beyond every recall point would be 0 (trec_eval); no positives: NaN
    assert np.isnan(C.interpolated_precision([0, 0], [1, 2]).precision).all()
