"""Two label sequences that share no label, or hold labels that differ only in spelling
(``1`` and ``1.0``), are warned about, naming the labels: every measure over them is a
confident 0 otherwise (issue 25). The labels are not matched: a label is a name."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from assay import agreement, classification
from assay.errors import InputWarning
from support.cli import invoke


def _caught(call, *args, **kwargs):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call(*args, **kwargs)
    return value, [str(w.message) for w in caught if issubclass(w.category, InputWarning)]


@pytest.mark.parametrize(
    "call",
    [
        classification.accuracy,
        classification.balanced_accuracy,
        classification.mcc,
        classification.sba,
        classification.confusion_matrix,
        lambda t, p: classification.f1(t, p, average="macro"),
        lambda t, p: classification.precision(t, p, average=None),
        lambda t, p: classification.recall(t, p, average="weighted"),
    ],
)
def test_numeric_spellings_are_named(call) -> None:  # type: ignore[no-untyped-def]
    _, said = _caught(call, ["1", "0", "1", "0"], ["1.0", "0.0", "1.0", "1.0"])
    assert len(said) == 1, said
    assert "differ only in spelling" in said[0]
    assert "'1' and '1.0'" in said[0] and "'0' and '0.0'" in said[0]


def test_report_warns_once_and_keeps_it() -> None:
    report, said = _caught(classification.classification_report, ["1", "0"], ["1.0", "0.0"])
    assert report.accuracy == 0.0  # not matched: the warning says why
    assert len(said) == 1
    assert report.warnings == (said[0],)
    assert classification.classification_report(["a", "b"], ["a", "a"]).warnings == ()


def test_disjoint_sets_are_named() -> None:
    _, said = _caught(classification.accuracy, ["cat", "dog"], ["0", "1"])
    assert len(said) == 1
    assert "share no label" in said[0] and "'cat', 'dog'" in said[0] and "'0', '1'" in said[0]


def test_case_and_partial_respelling() -> None:
    _, said = _caught(classification.accuracy, ["cat", "dog", "cat"], ["cat", "Dog", "cat"])
    assert len(said) == 1 and "'dog' and 'Dog'" in said[0]
    # one spelling of a label present in both, another only in y_pred
    _, said = _caught(classification.accuracy, ["1", "0", "1"], ["1", "0", "1.0"])
    assert len(said) == 1 and "'1' and '1.0'" in said[0]


def test_no_warning_when_labels_meet() -> None:
    for t, p in [
        (["a", "b", "a"], ["a", "a", "a"]),
        ([1, 0, 1], [1.0, 0.0, 0.0]),  # numbers: one and the same label
        (["a", "b"], ["a", "c"]),  # a label never true is a plain error, not a spelling
    ]:
        _, said = _caught(classification.accuracy, t, p)
        assert said == [], (t, p, said)


def test_two_raters_too() -> None:
    _, said = _caught(agreement.cohen_kappa, ["yes", "no", "yes"], ["Yes", "No", "Yes"])
    assert len(said) == 1 and "rater a and rater b" in said[0]


def test_cli_classify_warns(tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.txt", tmp_path / "pred.txt"
    gold.write_text("1\n0\n1\n0\n")
    pred.write_text("1.0\n0.0\n1.0\n1.0\n")
    code, out, err = invoke("classify", gold, pred)
    assert code == 0 and "accuracy" in out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("assay: warning: "), err
    assert "'1' and '1.0'" in lines[0] and "'0' and '0.0'" in lines[0]
