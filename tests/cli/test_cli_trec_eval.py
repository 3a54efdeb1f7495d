"""``assay trec-eval`` in process: flags, help, option forms, stdin and one-line errors (the
outputs themselves are oracle tests: oracles/test_trec_eval_outputs.py)."""

from __future__ import annotations

import pytest

import assay
from assay.compat.trec_eval import SUPPORTED, evaluate_trec
from support.cli import assert_one_line_error
from support.trec_eval import argv, data, expected, trec_eval


def test_missing_topic_without_c_is_an_error() -> None:
    """trec_eval 10 stops when a qrels topic has no results (unless -c): topic 302 here."""
    code, out, err = trec_eval(*argv("-q qrels.test results.trunc"))
    assert_one_line_error(code, out, err, "'302'", "-c")
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.trunc"))
    with pytest.raises(assay.MissingQueryError, match="'302'"):
        evaluate_trec(qrels, run)
    assert isinstance(assay.MissingQueryError("x"), assay.AssayError)


def test_n_suppresses_the_summary() -> None:
    code, out, _ = trec_eval(*argv("-n -q -m all_trec qrels.test results.test"))
    assert code == 0
    want = "".join(
        line
        for line in expected("out.test.aq").splitlines(keepends=True)
        if line.split("\t")[1] != "all"
    )
    assert out == want and out
    code, out, _ = trec_eval(*argv("-n -m all_trec qrels.test results.test"))
    assert code == 0 and out == ""


def test_help_lists_the_measures() -> None:
    code, out, _ = trec_eval("-h")
    assert code == 0
    listed = {line.split()[0] for line in out.split("Measures")[1].splitlines()[1:] if line.strip()}
    assert listed == set(SUPPORTED)
    assert "-q" in out and "-c" in out and "-M" in out and "official" in out
    code, out, _ = trec_eval("--help", "-m", "P", "-m", "ndcg_cut.5")
    assert code == 0
    listed = [line.split()[0] for line in out.split("Measures")[1].splitlines()[1:] if line.strip()]
    assert listed == ["P", "ndcg_cut"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-m", "mapp"], "unknown trec_eval measure 'mapp'"),
        (["-m", "P_5"], "unknown trec_eval measure 'P_5'"),
        (["-m", "P."], "empty parameter"),
        (["-m", "P.0,5"], "positive"),
        (["-m", "P.5,5"], "duplicate"),
        (["-m", "iprec_at_recall..5,0.5"], "duplicate"),
        (["-m", "ndcg.1=2,3"], "malformed"),
        (["-m", "utility.1,2"], "4 coefficients"),
        (["-m", "prefs_simp"], "preference"),
        (["-m", "ndcg.1=3", "-m", "dcg"], "crashes"),
        (["-l", "x"], "integer"),
        (["-l-1"], ">= 0"),
        (["-Z", "z"], "cannot read z-scores file"),
        (["-D", "1"], "not supported"),
        (["-x"], "unknown option -x"),
        (["--mesure=map"], "unknown option"),
    ],
)
def test_bad_flags_and_measures(args: list[str], needle: str) -> None:
    code, out, err = trec_eval(*args, *argv("qrels.test results.test"))
    assert_one_line_error(code, out, err, needle)


def test_wrong_number_of_files() -> None:
    code, out, err = trec_eval(*argv("qrels.test"))
    assert_one_line_error(code, out, err, "QRELS and RUN")


def test_glued_clustered_and_long_options() -> None:
    want = expected("out.test.aqc")
    for args in (
        "-qcmall_trec qrels.test results.trunc",
        "qrels.test results.trunc -q -c --measure=all_trec",
        "--query_eval_wanted --complete --meas all_trec qrels.test results.trunc",
        "-q -c -m all_trec -- qrels.test results.trunc",
        "-q -c -m all_trec -R qrels -T trec_results qrels.test results.trunc",
    ):
        code, out, err = trec_eval(*argv(args))
        assert code == 0, (args, err)
        assert out == want, args


def test_run_from_stdin() -> None:
    code, out, _ = trec_eval(str(data("qrels.test")), "-", input=data("results.test").read_bytes())
    assert code == 0
    assert out == expected("out.test")
