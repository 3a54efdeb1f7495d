"""assay.classification definitions and policies (SBA, MCC's degenerate cases, rates,
zero_division, the F1/MCC simulation), input errors and warnings."""

from __future__ import annotations

import math
import warnings
from math import comb

import numpy as np
import pytest

from assay import classification as C
from assay.errors import EmptyInputError, InputError, MetricError
from support.numeric import close


def test_sba_rules() -> None:
    # Gösgens et al. 2021: SBA = (BA + BA with true and predicted swapped) / 2; perfect -> 1;
    # no correct item -> 0 (minimal agreement, also with absent classes); for two complete
    # classes it is the mean of the two balanced accuracies.
    assert C.sba([0, 1, 2, 2], [0, 1, 2, 2]) == 1.0
    assert C.sba(["a"] * 5, ["b"] * 5) == 0.0
    assert C.sba([0, 1, 0, 1], [1, 0, 1, 0]) == 0.0
    y_true = [0, 0, 0, 1, 1, 2]
    y_pred = [0, 1, 0, 1, 2, 2]
    ba = C.balanced_accuracy(y_true, y_pred)
    ba_swapped = C.balanced_accuracy(y_pred, y_true)
    assert C.sba(y_true, y_pred) == pytest.approx((ba + ba_swapped) / 2)
    # labels absent from both sides do not count: the same as without them
    assert C.sba(y_true, y_pred) == C.sba(np.array(y_true), np.array(y_pred))
    with pytest.raises(MetricError):
        C.sba(y_true, y_pred, absent="zero")  # type: ignore[arg-type]


def test_mcc_degenerate_policies() -> None:
    # Zero denominator: scikit-learn 0; Chicco & Jurman 2020: +1 for one non-zero diagonal
    # cell, -1 for one non-zero off-diagonal cell, else 0 (the limit); or NaN.
    perfect_one_class = ([1, 1, 1], [1, 1, 1])
    all_wrong = ([1, 1, 1], [0, 0, 0])
    predicted_one_class = ([1, 0, 1], [1, 1, 1])
    for y_true, y_pred, limit in (
        (*perfect_one_class, 1.0),
        (*all_wrong, -1.0),
        (*predicted_one_class, 0.0),
    ):
        assert C.mcc(y_true, y_pred) == 0.0
        assert C.mcc(y_true, y_pred, degenerate="limit") == limit
        assert math.isnan(C.mcc(y_true, y_pred, degenerate="nan"))
    # R_K for two classes equals the binary formula
    y_true, y_pred = [1, 1, 0, 0, 1, 0, 1], [1, 0, 0, 1, 1, 0, 0]
    tp, fp, fn, tn = 2, 1, 2, 2
    binary = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert C.mcc(y_true, y_pred) == pytest.approx(binary)
    with pytest.raises(MetricError):
        C.mcc(y_true, y_pred, degenerate="one")  # type: ignore[arg-type]


def test_rates_and_binary_measures() -> None:
    # Definitions from the seed example (tn, fp, fn, tp = 1, 1, 1, 2).
    y_true, y_pred = [1, 0, 1, 0, 1], [1, 0, 1, 1, 0]
    assert C.tpr(y_true, y_pred) == pytest.approx(2 / 3)
    assert C.fnr(y_true, y_pred) == pytest.approx(1 / 3)
    assert C.tnr(y_true, y_pred) == pytest.approx(1 / 2)
    assert C.specificity(y_true, y_pred) == pytest.approx(1 / 2)
    assert C.fpr(y_true, y_pred) == pytest.approx(1 / 2)
    assert C.npv(y_true, y_pred) == pytest.approx(1 / 2)
    assert C.fowlkes_mallows(y_true, y_pred) == pytest.approx(math.sqrt(2 / 3 * 2 / 3))
    assert C.jaccard(y_true, y_pred) == pytest.approx(2 / 4)
    assert C.f_score(y_true, y_pred, beta=0) == C.precision(y_true, y_pred)
    assert C.f_score(y_true, y_pred, beta=math.inf) == C.recall(y_true, y_pred)
    # specificity of class c = recall of "not c": per class, one against the rest
    close(C.specificity(y_true, y_pred, average=None), [2 / 3, 1 / 2])
    rep = C.classification_report(y_true, y_pred, pos_label=1)
    assert rep.binary["tp"] == 2 and rep.binary["fpr"] == pytest.approx(0.5)
    assert rep.binary["fowlkes_mallows"] == pytest.approx(2 / 3)
    # micro-averaged Fowlkes–Mallows over all classes is accuracy (P = R = accuracy)
    assert C.fowlkes_mallows(y_true, y_pred, average="micro") == pytest.approx(0.6)


def test_undefined_values_follow_zero_division() -> None:
    y_true, y_pred = [0, 0, 1], [0, 0, 0]  # class 1 never predicted
    assert C.precision(y_true, y_pred) == 0.0
    assert C.precision(y_true, y_pred, zero_division=1) == 1.0
    assert math.isnan(C.precision(y_true, y_pred, zero_division="nan"))
    # "nan" values are left out of the macro mean
    assert C.precision(y_true, y_pred, average="macro", zero_division="nan") == pytest.approx(2 / 3)
    assert math.isnan(C.roc_auc([1, 1], [0.2, 0.3]))
    assert C.roc_auc([1, 1], [0.2, 0.3], undefined=0.5) == 0.5
    with pytest.raises(InputError):
        C.roc_auc([1, 1], [0.2, 0.3], undefined="error")
    assert math.isnan(C.average_precision([0, 0], [0.2, 0.3]))
    fpr, tpr, _ = C.roc_curve([1, 1], [0.2, 0.3])
    assert np.isnan(fpr).all() and not np.isnan(tpr).any()
    assert math.isnan(C.cohen_kappa([1, 1], [1, 1]))
    # one cohen_kappa (the agreement family's): a result whose float() is kappa
    assert float(C.cohen_kappa([1, 1], [1, 1], zero_division=0)) == 0.0
    for bad in (2, "warn", None, True):
        with pytest.raises(MetricError):
            C.precision(y_true, y_pred, zero_division=bad)  # type: ignore[arg-type]


def test_simulate_f1_mcc() -> None:
    # Every (TP, FP, TN, FN) >= 0 summing to n: C(n+3, 3) rows (stars and bars), each once.
    sim = C.simulate_f1_mcc(n=20)
    assert len(sim) == comb(23, 3)
    cells = np.stack([sim.tp, sim.fp, sim.tn, sim.fn], axis=1)
    assert (cells >= 0).all() and (cells.sum(axis=1) == 20).all()
    assert np.unique(cells, axis=0).shape[0] == len(sim)
    close(sim.prevalence, (sim.tp + sim.fn) / 20)
    # F1 and MCC agree with the label-level functions on a few rows
    for i in np.random.default_rng(0).choice(len(sim), 25, replace=False):
        tp, fp, tn, fn = (int(x[i]) for x in (sim.tp, sim.fp, sim.tn, sim.fn))
        y_true = [1] * tp + [0] * fp + [0] * tn + [1] * fn
        y_pred = [1] * tp + [1] * fp + [0] * tn + [0] * fn
        close(sim.f1[i], C.f1(y_true, y_pred, zero_division="nan"))
        close(sim.mcc[i], C.mcc(y_true, y_pred, degenerate="nan"))
    # "F1 looks good, MCC says otherwise": high F1 with MCC <= 0 exists
    assert ((sim.f1 > 0.9) & (sim.mcc <= 0)).any()
    s1 = C.simulate_f1_mcc(n=100, seed=3, sample=500)
    s2 = C.simulate_f1_mcc(n=100, seed=3, sample=500)
    assert len(s1) == 500 and all(
        np.array_equal(a, b, equal_nan=True)
        for a, b in zip(s1.to_dict().values(), s2.to_dict().values(), strict=True)
    )
    assert len(C.simulate_f1_mcc(n=100)) == comb(103, 3)
    lim = C.simulate_f1_mcc(n=3, degenerate="limit")
    assert lim.mcc[(lim.tp == 3)].item() == 1.0 and lim.mcc[(lim.fn == 3)].item() == -1.0
    with pytest.raises(MetricError):
        C.simulate_f1_mcc(n=3, sample=10**6)


def test_input_errors() -> None:
    with pytest.raises(InputError, match="items"):
        C.accuracy([1, 2], [1])
    with pytest.raises(EmptyInputError):
        C.accuracy([], [])
    with pytest.raises(InputError, match="NaN"):
        C.accuracy([1.0, np.nan], [1.0, 1.0])
    with pytest.raises(InputError, match="string"):
        C.accuracy([1, 0], ["1", "0"])
    with pytest.raises(InputError):
        C.accuracy(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(InputError, match="at most two"):
        C.f1([0, 1, 2], [0, 1, 2])
    with pytest.raises(MetricError, match="pos_label"):
        C.f1(["a", "b"], ["a", "b"])
    with pytest.raises(MetricError, match="pos_label"):
        C.f1([0, 1], [0, 1], pos_label=2)
    with pytest.raises(MetricError, match="pos_label"):
        C.f1([0, 1], [0, 1], pos_label="1")
    with pytest.raises(MetricError):
        C.f1([0, 1], [0, 1], average="samples")  # type: ignore[arg-type]
    with pytest.raises(MetricError):
        C.confusion_matrix([0, 1], [0, 1], normalize="rows")  # type: ignore[arg-type]
    with pytest.raises(MetricError, match="duplicates"):
        C.confusion_matrix([0, 1], [0, 1], labels=[0, 0])
    with pytest.raises(InputError):
        C.roc_auc([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(InputError):
        C.roc_auc([0, 1], [0.1, np.inf])
    with pytest.raises(MetricError):
        C.roc_auc(["a", "b"], [0.1, 0.2])
    assert C.roc_auc(["a", "b"], [0.1, 0.2], pos_label="b") == 1.0
    # a single label present, not pos_label: scores are 0 (scikit-learn)
    assert C.recall([0, 0], [0, 0]) == 0.0


def test_warnings_not_emitted() -> None:
    # zero_division=0 is scikit-learn's value without its UndefinedMetricWarning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        C.precision([0, 0, 1], [0, 0, 0])
        C.classification_report(["a", "b", "b"], ["a", "a", "a"])
