"""assay.classification against scikit-learn on seeded random inputs: every average, every
zero_division, with and without ``labels``, string labels, curves with many ties."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from assay import classification as C
from strategies.labels import cases
from support.numeric import TOL, close

skm = pytest.importorskip("sklearn.metrics")


AVERAGES: tuple[Any, ...] = ("micro", "macro", "weighted", None)


ZERO_DIVISIONS: tuple[Any, ...] = (0, 1, "nan")


def sk_zd(zd: Any) -> Any:
    return np.nan if zd == "nan" else zd


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("measure", ["precision", "recall", "f_score", "jaccard"])
def test_prf_jaccard_against_sklearn(measure: str) -> None:
    # scikit-learn's precision_score, recall_score, fbeta_score and jaccard_score: every
    # average (binary on two-label cases), every zero_division, with and without `labels`.
    ours = {"precision": C.precision, "recall": C.recall, "jaccard": C.jaccard}
    sk = {
        "precision": skm.precision_score,
        "recall": skm.recall_score,
        "jaccard": skm.jaccard_score,
    }
    rng = np.random.default_rng(1)
    for y_true, y_pred, labels in cases(11, 60):
        beta = float(rng.choice([0.5, 1.0, 2.0]))
        for zd in ZERO_DIVISIONS:
            if measure == "jaccard" and zd == "nan":
                continue  # scikit-learn's jaccard_score takes only 0 or 1
            for average in AVERAGES:
                for lab in (None, labels):
                    kw = {"labels": lab, "average": average, "zero_division": zd}
                    skw = {"labels": lab, "average": average, "zero_division": sk_zd(zd)}
                    if measure == "f_score":
                        got = C.f_score(y_true, y_pred, beta=beta, **kw)
                        want = skm.fbeta_score(y_true, y_pred, beta=beta, **skw)
                    else:
                        got = ours[measure](y_true, y_pred, **kw)
                        want = sk[measure](y_true, y_pred, **skw)
                    close(got, want)
            present = np.unique(np.r_[y_true, y_pred])
            if present.shape[0] <= 2:
                for pos in present:
                    kw2: dict[str, Any] = {"average": "binary", "pos_label": pos}
                    if measure == "f_score":
                        got = C.f_score(y_true, y_pred, beta=beta, zero_division=zd, **kw2)
                        want = skm.fbeta_score(
                            y_true, y_pred, beta=beta, zero_division=sk_zd(zd), **kw2
                        )
                    else:
                        got = ours[measure](y_true, y_pred, zero_division=zd, **kw2)
                        want = sk[measure](y_true, y_pred, zero_division=sk_zd(zd), **kw2)
                    close(got, want)


@pytest.mark.filterwarnings("ignore")
def test_f1_and_strings_against_sklearn() -> None:
    # String labels, f1 and the micro/macro/weighted averages (scikit-learn's f1_score).
    names = np.array(["ADJ", "NOUN", "VERB", "DET"])
    for y_true, y_pred, _ in cases(12, 30):
        t, p = names[y_true % 4], names[y_pred % 4]
        for average in AVERAGES:
            close(C.f1(t, p, average=average), skm.f1_score(t, p, average=average, zero_division=0))
        if np.unique(np.r_[t, p]).shape[0] == 2:
            pos = t[0]
            close(C.f1(t, p, pos_label=pos), skm.f1_score(t, p, pos_label=pos, zero_division=0))


@pytest.mark.filterwarnings("ignore")
def test_confusion_matrix_and_scalars_against_sklearn() -> None:
    # confusion_matrix (every normalize mode, with and without labels), accuracy_score,
    # balanced_accuracy_score (plain and adjusted), cohen_kappa_score (unweighted, linear,
    # quadratic), matthews_corrcoef (binary and multiclass R_K).
    for y_true, y_pred, labels in cases(13, 120):
        for lab in (None, labels):
            for norm in (None, "true", "pred", "all"):
                got = C.confusion_matrix(y_true, y_pred, labels=lab, normalize=norm)
                want = skm.confusion_matrix(y_true, y_pred, labels=lab, normalize=norm)
                close(got, want)
                if lab is not None:
                    np.testing.assert_array_equal(got.labels, lab)
            for weights in (None, "linear", "quadratic"):
                close(
                    C.cohen_kappa(y_true, y_pred, labels=lab, weights=weights),
                    skm.cohen_kappa_score(y_true, y_pred, labels=lab, weights=weights),
                )
        assert C.accuracy(y_true, y_pred) == pytest.approx(skm.accuracy_score(y_true, y_pred))
        assert C.balanced_accuracy(y_true, y_pred) == pytest.approx(
            skm.balanced_accuracy_score(y_true, y_pred)
        )
        if np.unique(y_true).shape[0] > 1:
            assert C.balanced_accuracy(y_true, y_pred, adjusted=True) == pytest.approx(
                skm.balanced_accuracy_score(y_true, y_pred, adjusted=True)
            )
        assert C.mcc(y_true, y_pred) == pytest.approx(
            skm.matthews_corrcoef(y_true, y_pred), abs=TOL
        )


@pytest.mark.filterwarnings("ignore")
def test_curves_against_sklearn() -> None:
    # roc_curve (drop_intermediate False and True), roc_auc_score, precision_recall_curve,
    # average_precision_score; scores with many ties; {0,1}, {-1,1} and string labels.
    rng = np.random.default_rng(14)
    for i in range(150):
        n = int(rng.integers(2, 40))
        y = rng.integers(0, 2, n)
        if y.min() == y.max():
            y[0] = 1 - y[0]
        levels = int(rng.integers(1, 6))
        s = rng.integers(0, levels, n) / 2 if i % 2 else rng.normal(size=n)
        kind = i % 3
        if kind == 0:
            yl, pos = y, None
        elif kind == 1:
            yl, pos = np.where(y == 1, 1, -1), None
        else:
            yl, pos = np.where(y == 1, "spam", "ham"), "spam"
        skpos = pos
        for drop in (False, True):
            fpr, tpr, thr = C.roc_curve(yl, s, pos_label=pos, drop_intermediate=drop)
            sfpr, stpr, sthr = skm.roc_curve(yl, s, pos_label=skpos, drop_intermediate=drop)
            close(fpr, sfpr)
            close(tpr, stpr)
            close(thr, sthr)
        yb = (yl == (pos if pos is not None else 1)).astype(int)
        assert C.roc_auc(yl, s, pos_label=pos) == pytest.approx(skm.roc_auc_score(yb, s), abs=TOL)
        p, r, t = C.pr_curve(yl, s, pos_label=pos)
        sp, sr, st = skm.precision_recall_curve(yl, s, pos_label=skpos)
        close(p, sp)
        close(r, sr)
        close(t, st)
        assert C.average_precision(yl, s, pos_label=pos) == pytest.approx(
            skm.average_precision_score(yb, s), abs=TOL
        )
