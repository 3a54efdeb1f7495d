"""Tags that do not fit the scheme are said, with counts (issue 25: ``assay tagging --scheme
bioes --mode strict`` on IOB2 data gave F1 = 0.0 without a word). seqeval's strict mode
gives the same 0.0 (its only word is a generic ill-defined-F warning); the values are
unchanged here, the warning counts the chunks strict mode dropped."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from assay.errors import InputError, InputWarning
from assay.tagging import span_f1, tagging_report
from support.cli import assert_one_line_error, invoke

IOB2 = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["O", "B-ORG"]]


def _said(call, *args, **kwargs):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call(*args, **kwargs)
    return value, [str(w.message) for w in caught if issubclass(w.category, InputWarning)]


def test_iob2_read_as_bioes_strict_is_said() -> None:
    from seqeval.metrics import f1_score
    from seqeval.scheme import IOBES

    value, said = _said(span_f1, IOB2, IOB2, scheme="bioes", mode="strict")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert value == f1_score(IOB2, IOB2, mode="strict", scheme=IOBES) == 0.0
    assert len(said) == 1
    assert "3 of 3 chunk(s) of y_true" in said[0] and "3 of 3 chunk(s) of y_pred" in said[0]
    assert "gold tags do not fit the scheme" in said[0] and "prefixes used: B, I" in said[0]


def test_ill_formed_predictions_are_counted() -> None:
    pred = [["I-PER", "I-PER", "O", "B-LOC", "O"], ["O", "B-ORG"]]
    report, said = _said(tagging_report, IOB2, pred, scheme="iob2", mode="strict")
    assert report.counts.pred.sum() == 2
    assert len(said) == 1 and "1 of 3 chunk(s) of y_pred" in said[0]
    assert "y_true" not in said[0] and "wrong predictions" in said[0]


def test_no_warning_when_everything_fits() -> None:
    for scheme, mode in [("iob2", "strict"), ("iob2", "conlleval"), ("bioes", "conlleval")]:
        _, said = _said(span_f1, IOB2, IOB2, scheme=scheme, mode=mode)
        assert said == [], (scheme, mode)
    bioes = [["B-PER", "E-PER", "O", "S-LOC"]]
    _, said = _said(span_f1, bioes, bioes, scheme="bioes", mode="strict")
    assert said == []


@pytest.mark.parametrize(
    ("tags", "scheme", "advice"),
    [
        (["S-PER", "O", "B-LOC", "E-LOC"], "iob2", "every tag fits scheme bioes"),
        (["U-PER", "O", "B-LOC", "L-LOC"], "bioes", "every tag fits scheme bilou"),
        (["PER", "O"], "iob2", "the tags fit no scheme"),
    ],
)
def test_tags_of_another_scheme_name_the_schemes_they_fit(
    tags: list[str], scheme: str, advice: str
) -> None:
    with pytest.raises(InputError, match=advice):
        span_f1([tags], [tags], scheme=scheme)


def test_cli_says_it(tmp_path: Path) -> None:
    path = tmp_path / "t.conll"
    path.write_text(
        "John NNP B-PER B-PER\nSmith NNP I-PER I-PER\nlives VBZ O O\nParis NNP B-LOC B-LOC\n"
    )
    code, out, err = invoke("tagging", path, "--scheme", "bioes", "--mode", "strict")
    assert code == 0 and "f1" in out
    assert err.count("\n") == 1 and err.startswith("assay: warning: "), err
    assert "2 of 2 chunk(s)" in err and "--scheme" in err
    path.write_text("John NNP S-PER S-PER\nlives VBZ O O\n")
    assert_one_line_error(*invoke("tagging", path), "fits scheme bioes")


def test_span_types_that_never_meet_are_said() -> None:
    pred = [["B-PERSON", "I-PERSON", "O", "B-LOCATION", "O"], ["O", "B-ORGANIZATION"]]
    value, said = _said(span_f1, IOB2, pred)
    assert value == 0.0 and len(said) == 1
    assert "share no span type" in said[0] and "'LOC', 'ORG', 'PER'" in said[0]
    lower = [["B-per", "I-per", "O", "B-LOC", "O"], ["O", "B-ORG"]]
    _, said = _said(span_f1, IOB2, lower)
    assert len(said) == 1 and "'PER' and 'per'" in said[0]
    _, said = _said(span_f1, IOB2, [["B-PER", "I-PER", "O", "O", "O"], ["O", "O"]])
    assert said == []  # types missing from the prediction are plain misses
