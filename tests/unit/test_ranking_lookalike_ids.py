"""Ids that look alike but differ (NFC vs NFD, zero-width characters, confusable letters)
are told apart in warnings and errors by their code points (issue 25)."""

from __future__ import annotations

import unicodedata
import warnings

import pytest

from assay import Qrels, Run, evaluate
from assay.errors import MissingQueryError, shown

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")


def _warnings(qrels: dict, run: dict) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate(Qrels.from_dict(qrels), {"r": Run.from_dict(run)}, ["RR"])
    return [str(w.message) for w in caught]


def test_nfd_run_query_shows_both_spellings_code_points() -> None:
    got = _warnings({NFC: {"d": 1}, "q2": {"d": 1}}, {NFD: {"d": 1.0}, "q2": {"d": 1.0}})
    (unknown,) = [w for w in got if "not in the qrels" in w]
    assert f"{NFD!r} (U+0063 U+0061 U+0066 U+0065 U+0301)" in unknown
    assert f"qrels {NFC!r} (U+0063 U+0061 U+0066 U+00E9)" in unknown
    assert "1 of them equal a qrels query without results once Unicode-normalised" in unknown


def test_zero_width_and_confusable_ids_are_paired() -> None:
    got = _warnings(
        {"q1": {"d": 1}, "paypal": {"d": 1}}, {"q1\u200b": {"d": 1.0}, "p\u0430ypal": {"d": 1.0}}
    )
    (unknown,) = [w for w in got if "not in the qrels" in w]
    assert "U+200B" in unknown  # the zero-width space, paired with 'q1'
    assert "qrels 'q1' (U+0071 U+0031)" in unknown


def test_missing_error_shows_code_points() -> None:
    with pytest.raises(MissingQueryError, match=r"U\+0065 U\+0301"):
        evaluate(
            Qrels.from_dict({NFD: {"d": 1}, "q2": {"d": 1}}),
            {"r": Run.from_dict({"q2": {"d": 1.0}})},
            ["RR"],
            missing="error",
        )


@pytest.mark.parametrize(
    ("text", "points"),
    [
        (NFD, "(U+0063 U+0061 U+0066 U+0065 U+0301)"),
        ("x\u200b", "(U+0078 U+200B)"),
        ("p\u0430ypal", "(U+0070 U+0430 U+0079 U+0070 U+0061 U+006C)"),  # Cyrillic а
        ("\uff51", "(U+FF51)"),  # fullwidth q
        ("a\u00a0b", "(U+0061 U+00A0 U+0062)"),  # no-break space
    ],
)
def test_shown_adds_code_points_to_lookalike_text(text: str, points: str) -> None:
    assert shown(text).endswith(" " + points)


@pytest.mark.parametrize("text", ["q1", NFC, "北京", "trailing "])
def test_shown_leaves_plain_text_alone(text: str) -> None:
    assert shown(text) == repr(text)


def test_meta_notes_show_code_points() -> None:
    from assay import meta

    a = Run.from_columns([NFC, NFC, "t"], ["x", "y", "x"], [2.0, 1.0, 1.0], name="a")
    b = Run.from_columns([NFD, NFD, "t"], ["x", "y", "x"], [2.0, 1.0, 1.0], name="b")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        meta.rbo_runs(a, b)
    (note,) = [str(w.message) for w in caught if "only one of the runs" in str(w.message)]
    assert "U+0065 U+0301" in note  # the NFD spelling is told from the NFC one
    qa = Qrels.from_columns([NFC, "t"], ["x", "x"], [1, 1])
    qb = Qrels.from_columns([NFD, "t"], ["x", "x"], [1, 1])
    (note,) = [n for n in meta.assessor_agreement(qa, qb).warnings if "only one qrels" in n]
    assert "U+0065 U+0301" in note
