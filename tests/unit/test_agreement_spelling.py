"""Raters whose values differ only in spelling (issue 25, a sibling of the classification
label check): a ratings file types its values as a whole, so one rater's ``1`` is not the
number 1.0 while another's is the text "1"; and categories that differ only in spelling
(``yes``/``Yes``) are warned about, naming them."""

from __future__ import annotations

import warnings
from pathlib import Path

from assay import agreement
from assay.agreement import read_ratings
from assay.errors import InputWarning
from support.cli import invoke


def _said(call, *args, **kwargs):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call(*args, **kwargs)
    return value, [str(w.message) for w in caught if issubclass(w.category, InputWarning)]


def test_a_file_is_typed_as_a_whole(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("unit,A,B\nu1,1,1\nu2,2,2\nu3,1,x\nu4,2,2\n")
    r = read_ratings(path)
    assert r.matrix == [["1", "1"], ["2", "2"], ["1", "x"], ["2", "2"]]
    alpha, said = _said(agreement.krippendorff_alpha, r.data)
    assert said == []
    # three of four units agree: the same alpha as the consistent spelling gives
    same = agreement.krippendorff_alpha([["a", "a"], ["b", "b"], ["a", "c"], ["b", "b"]])
    assert float(alpha) == float(same) > 0.6
    by_rows = tmp_path / "k.csv"
    by_rows.write_text("coder,u1,u2,u3\nA,1,2,1\nB,1,2,x\n")
    assert read_ratings(by_rows, orientation="raters-by-units").matrix[0] == ["1", "1"]


def test_respelled_categories_are_named() -> None:
    data = [["yes", "Yes", "yes"], ["no", "No", "no"], ["yes", "Yes", "no"]]
    _, said = _said(agreement.krippendorff_alpha, data)
    assert len(said) == 1
    assert "'No' and 'no'" in said[0] and "'Yes' and 'yes'" in said[0]
    _, said = _said(agreement.fleiss_kappa, [[1.0, "1"], [2.0, "x"]])
    assert len(said) == 1 and "'1.0' and '1'" in said[0]
    _, said = _said(agreement.krippendorff_alpha, [[1, 2], [2, 2], [1, 1]])
    assert said == []


def test_cli_agree_warns_once(tmp_path: Path) -> None:
    path = tmp_path / "case.csv"
    path.write_text("unit,A,B,C\nu1,yes,Yes,yes\nu2,no,No,no\nu3,yes,Yes,no\nu4,no,No,no\n")
    code, out, err = invoke("agree", path)
    assert code == 0 and "alpha" in out
    assert err.count("\n") == 1 and "differ only in spelling" in err, err
