"""``assay trec-eval -Z`` and ``evaluate_trec(zscores=...)`` against trec_eval 10.0.

``out.test.aqZ`` is what ``trec_eval -q -m all_trec -Z zscores_file qrels.test results.test``
prints (../shared/data/trec_eval); the hand-made cases pin convert_zscores.c's formula.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import assay
from assay.compat._te_zscores import MISSING_ZSCORE, read_zscores, zscore
from assay.compat.trec_eval import TrecEvalError, evaluate_trec, format_trec
from assay.errors import InputError
from support.trec_eval import argv, data, expected, trec_eval

ZARGS = "-q -m all_trec -Z {z} qrels.test results.test"


def test_zscore_output_is_byte_identical() -> None:
    code, out, err = trec_eval(*argv(ZARGS.format(z=data("zscores_file"))))
    assert code == 0, err
    assert out == expected("out.test.aqZ")


def test_long_option_and_api_agree() -> None:
    z = str(data("zscores_file"))
    code, out, err = trec_eval(*argv(f"-q -m all_trec --Zscore={z} qrels.test results.test"))
    assert code == 0, err
    assert out == expected("out.test.aqZ")
    res = evaluate_trec(
        assay.Qrels.from_trec(data("qrels.test")),
        assay.Run.from_trec(data("results.test")),
        ["all_trec"],
        zscores=z,
    )
    assert format_trec(res, per_query=True) == expected("out.test.aqZ")
    assert "Zmap" in res.measures and "relstring" in res.measures
    assert isinstance(res.summary["Znum_ret"], float)
    assert res.summary["runid"] == "STANDARD"
    # num_rel's stddev is 0 and the value equals the mean: 0
    assert res.per_query["301"]["Znum_rel"] == 0.0


def test_formula_on_a_hand_made_case() -> None:
    assert zscore(0.75, 0.5, 0.125) == 2.0
    assert zscore(0.25, 0.5, 0.125) == -2.0
    assert zscore(3.0, 3.0, 0.0) == 0.0  # stddev 0, value == mean
    assert zscore(2.0, 3.0, 0.0) == MISSING_ZSCORE == -1000000.0  # stddev 0, value != mean
    assert math.isnan(zscore(1.0, 0.0, math.nan))

    qrels = assay.Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}})
    run = assay.Run.from_dict({"q1": {"d1": 0.9, "d2": 0.1}, "q2": {"d4": 0.5, "d3": 0.4}})
    # trec_eval's measure order; map: q1 = 1.0, q2 = 0.5; num_ret: q1 = 2, q2 = 2
    ref = {"q1": {"map": (0.5, 0.25), "num_ret": (2, 0)}, "q2": {"map": (0.25, 0.5)}}
    res = evaluate_trec(qrels, run, ["map", "num_ret", "num_q"], zscores=ref)
    assert res.per_query["q1"] == {"Zmap": 2.0, "Znum_ret": 0.0}
    assert res.per_query["q2"] == {"Zmap": 0.5, "Znum_ret": MISSING_ZSCORE}
    assert res.summary == {"Zmap": 1.25, "Znum_ret": -1000000.0, "Znum_q": 2.0}
    assert format_trec(res, per_query=True) == (
        "Znum_ret               \tq1\t0.0000\n"
        "Zmap                   \tq1\t2.0000\n"
        "Znum_ret               \tq2\t-1000000.0000\n"
        "Zmap                   \tq2\t0.5000\n"
        "Znum_q                 \tall\t2.0000\n"
        "Znum_ret               \tall\t-1000000.0000\n"
        "Zmap                   \tall\t1.2500\n"
    )


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("301 map 0.5 0.1\n301 P_5 0.5\n", 2),
        ("301 map 0.5 0.1\n\n", 2),
        ("301 map 0.5 0.1 extra\n", 1),
        ("301 map 0.5 0.1\n301 P_5 half 0.1\n", 2),
        ("301 map 0.5 0.1\n301 map 0.4 0.1\n", 2),
    ],
)
def test_malformed_zscores_file_is_one_input_error(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "z.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_zscores(path)
    assert info.value.source == str(path) and info.value.line == line
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}:{line}: ")
    code, out, err = trec_eval(*argv(ZARGS.format(z=path)))
    assert code == 2 and out == ""
    assert f"{path}:{line}:" in err and len(err.strip().splitlines()) == 1


def test_bad_zscores_argument_is_an_option_error() -> None:
    qrels = assay.Qrels.from_dict({"q1": {"d1": 1}})
    run = assay.Run.from_dict({"q1": {"d1": 1.0}})
    with pytest.raises(TrecEvalError, match="zscores"):
        evaluate_trec(qrels, run, ["map"], zscores=3)  # type: ignore[arg-type]
    with pytest.raises(TrecEvalError, match="pair"):
        evaluate_trec(qrels, run, ["map"], zscores={"q1": {"map": 0.5}})
