"""``assay trec-eval`` and :mod:`assay.compat.trec_eval` against trec_eval 10.0 itself.

Every command of ``../shared/data/README.md``'s table is run in process and its output must
equal the expected file byte for byte. The small hand-made cases below pin trec_eval
behaviours the shared files do not exercise (their expected text is what trec_eval 10.0 prints
for the same input).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import assay
from assay.compat import trec_eval as te
from assay.compat.trec_eval import (
    ALL_TREC,
    SUPPORTED,
    TrecEvalError,
    TrecResult,
    evaluate_trec,
    format_trec,
)
from conftest import shared_file
from support.cli import assert_one_line_error
from support.trec_eval import argv, data, expected, parse_output, trec_eval

# expected output -> trec_eval arguments (the table of ../shared/data/README.md); files are
# the names in ../shared/data/trec_eval.
MEAS_PARAMS = (
    "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 "
    "-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 "
    "-mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test"
)
COMMANDS = [
    ("out.test", "qrels.test results.test"),
    ("out.test", "qrels.test.with-comments results.test"),
    ("out.comment.test", "qrels.comment.test results.comment.test"),
    ("out.test.a", "-m all_trec qrels.test results.test"),
    ("out.test.aq", "-m all_trec -q qrels.test results.test"),
    ("out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"),
    ("out.test.aqcM", "-m all_trec -q -c -M100 qrels.test results.trunc"),
    ("out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"),
    ("out.test.meas_params", MEAS_PARAMS),
]


# ---------------------------------------------------------------- the README table


@pytest.mark.parametrize(
    ("out_file", "args"), COMMANDS, ids=[f"{o}:{a.split()[-2]}" for o, a in COMMANDS]
)
def test_output_is_byte_identical(out_file: str, args: str) -> None:
    code, out, err = trec_eval(*argv(args))
    assert code == 0, err
    assert out == expected(out_file)


def test_commands_cover_the_readme_table() -> None:
    """The table above is the one in ../shared/data/README.md (rows may not drift apart)."""
    text = shared_file("README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(out\.[^`]+)` \| `([^`]+)`(.*)\|$", text, flags=re.M)
    assert rows
    table = {(o, a) for o, a, _ in rows}
    assert table <= set(COMMANDS)
    assert {o for o, _ in COMMANDS} == {o for o, _, _ in rows}
    assert any("with-comments" in extra for _, _, extra in rows)


# ---------------------------------------------------------------- flags


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


def test_J_agrees_with_assays_judged_only_evaluation() -> None:
    """-J drops unjudged documents before evaluating: assay's own judged_only=True convention."""
    qrels = assay.Qrels.from_trec(data("qrels.rel_level"))
    run = assay.Run.from_trec(data("results.test"))
    pairs = {
        "map": "map",
        "P_5": "P@5",
        "P_10": "P@10",
        "recall_10": "R@10",
        "Rprec": "Rprec",
        "bpref": "bpref",
        "recip_rank": "RR",
        "ndcg_cut_10": "ndcg@10",
        "num_ret": "num_ret",
        "num_rel_ret": "num_rel_ret",
        "success_5": "success@5",
        "infAP": "infAP",
    }
    res = evaluate_trec(
        qrels, run, ["official", "recall.10", "ndcg_cut.10", "success.5", "infAP"], judged_only=True
    )
    mine = assay.evaluate(qrels, run, list(pairs.values()), judged_only=True, missing="skip")
    compared = 0
    for trec_name, assay_name in pairs.items():
        for q, v in mine.per_query(run.name, assay_name).items():
            assert res.per_query[q][trec_name] == pytest.approx(v, abs=1e-12), (trec_name, q)
            compared += 1
    assert compared == len(pairs) * 3
    # Unjudged documents really were dropped (results.test retrieves many), and the CLI agrees.
    plain = evaluate_trec(qrels, run, ["num_ret"])
    assert res.summary["num_ret"] < plain.summary["num_ret"]
    code, out, _ = trec_eval(*argv("-J -q -m official -m ndcg_cut.10 qrels.rel_level results.test"))
    assert code == 0
    lines = parse_output(out)
    for q in res.queries:
        assert lines[("ndcg_cut_10", q)] == f"{res.per_query[q]['ndcg_cut_10']:6.4f}"
        assert lines[("num_ret", q)] == str(res.per_query[q]["num_ret"])


def test_M_truncates_before_J() -> None:
    """-M cuts each ranking after sorting and before -J filters it (form_res_rels.c)."""
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    cut = evaluate_trec(qrels, run, ["num_ret", "P.10"], depth=10, judged_only=True)
    top = evaluate_trec(qrels, run, ["num_ret", "P.10"], depth=10)
    assert all(top.per_query[q]["num_ret"] == 10 for q in top.queries)
    assert all(cut.per_query[q]["num_ret"] <= 10 for q in cut.queries)
    assert all(cut.per_query[q]["P_10"] == top.per_query[q]["P_10"] for q in top.queries)
    code, out, err = trec_eval(*argv("-M-1 qrels.test results.test"))
    assert_one_line_error(code, out, err, "-M")


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
        (["-Z", "z"], "not supported"),
        (["-x"], "unknown option -x"),
        (["--mesure=map"], "unknown option"),
    ],
)
def test_bad_flags_and_measures(args: list[str], needle: str) -> None:
    code, out, err = trec_eval(*args, *argv("qrels.test results.test"))
    assert_one_line_error(code, out, err, needle)


def test_bad_measure_names_from_python() -> None:
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    with pytest.raises(TrecEvalError, match="did you mean 'map'"):
        evaluate_trec(qrels, run, ["mapp"])
    with pytest.raises(assay.MetricError):
        evaluate_trec(qrels, run, [])
    with pytest.raises(TrecEvalError, match="iprec_rounding"):
        evaluate_trec(qrels, run, iprec_rounding="round")


@pytest.mark.parametrize(
    ("option", "bad"),
    [
        ("relevance_level", -1),
        ("relevance_level", "1"),
        ("relevance_level", True),
        ("depth", -1),
        ("depth", 1.5),
        ("depth", True),
        ("complete", "yes"),
        ("judged_only", 1),
        ("iprec_rounding", "round"),
        ("num_docs_in_coll", 1.5),
        ("measures", ["P.0"]),
        ("measures", ["prefs_simp"]),
        ("measures", [3]),
    ],
)
def test_bad_options_raise_option_error(option: str, bad: object) -> None:
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    with pytest.raises(assay.OptionError) as err:
        if option == "measures":
            evaluate_trec(qrels, run, bad)  # type: ignore[arg-type]
        else:
            evaluate_trec(qrels, run, **{option: bad})  # type: ignore[arg-type]
    assert isinstance(err.value, TrecEvalError) and err.value.option == option


def test_result_follows_the_protocol() -> None:
    import dataclasses

    from assay._result import Result

    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    res = evaluate_trec(qrels, run, ["map", "P.5", "relstring"], depth=20, judged_only=True)
    assert isinstance(res, Result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.runid = "x"  # type: ignore[misc]
    assert res.options["depth"] == 20 and res.provenance["options"] == res.options
    assert res.provenance["assay_version"] == assay.__version__
    rows = res.records()
    per_topic = [r for r in rows if r["query"] != "all"]
    assert len(per_topic) == len(res.queries) * 3
    assert rows[-2:] == [
        {"query": "all", "measure": "map", "value": res.summary["map"]},
        {"query": "all", "measure": "P_5", "value": res.summary["P_5"]},
    ]
    first = res.queries[0]
    assert rows[0] == {"query": first, "measure": "map", "value": res.per_query[first]["map"]}


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


# ---------------------------------------------------------------- the Python API


def test_evaluate_trec_directly() -> None:
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    res = evaluate_trec(qrels, run, ["all_trec"])
    assert isinstance(res, TrecResult)
    assert res.queries == ["301", "302", "303"]
    assert format_trec(res, per_query=True) == expected("out.test.aq")
    assert format_trec(res) == expected("out.test.a")
    assert format_trec(res, per_query=True, summary=False).count("\tall\t") == 0
    want = parse_output(expected("out.test.aq"))
    assert res.summary["runid"] == "STANDARD" == res.runid
    assert res.summary["num_q"] == 3 and isinstance(res.summary["num_ret"], int)
    assert f"{res.summary['map']:6.4f}" == want[("map", "all")]
    assert f"{res.summary['gm_map']:6.4f}" == want[("gm_map", "all")]
    assert f"{res.per_query['301']['P_5']:6.4f}" == want[("P_5", "301")]
    assert f"{res.per_query['303']['ndcg_cut_10']:6.4f}" == want[("ndcg_cut_10", "303")]
    assert res.per_query["301"]["num_rel"] == int(want[("num_rel", "301")])
    assert res.per_query["302"]["relstring"] == want[("relstring", "302")].strip("'")
    # Summary-only measures are not printed per topic; their kept values are in raw_per_query.
    assert "gm_map" not in res.per_query["301"] and "runid" not in res.per_query["301"]
    assert res.raw_per_query["301"]["num_q"] == 1.0
    assert res.raw_per_query["301"]["gm_map"] == pytest.approx(
        __import__("math").log(max(res.per_query["301"]["map"], 1e-5))
    )
    assert res.measures[:5] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret"]
    assert set(ALL_TREC) <= SUPPORTED and {"dcg", "ideal_dcg", "yaap"} <= SUPPORTED
    # The flags as keyword arguments.
    trunc = assay.Run.from_trec(data("results.trunc"))
    assert format_trec(
        evaluate_trec(qrels, trunc, ["all_trec"], complete=True, depth=100), per_query=True
    ) == expected("out.test.aqcM")
    graded = assay.Qrels.from_trec(data("qrels.rel_level"))
    official = format_trec(evaluate_trec(graded, run, "official", relevance_level=2))
    aql_all = [
        line for line in expected("out.test.aql").splitlines(keepends=True) if "\tall\t" in line
    ]
    # all_trec prints the official measures first, in the same order.
    assert official.splitlines(keepends=True) == aql_all[: official.count("\n")]


def test_default_measures_are_official() -> None:
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    assert format_trec(evaluate_trec(qrels, run)) == expected("out.test")
    assert format_trec(evaluate_trec(qrels, run, ["official"])) == expected("out.test")


# ---------------------------------------------------------------- reproduced quirks


def test_quirk_c_resets_only_exact_names() -> None:
    """With -c, a topic without results is evaluated on one stand-in unjudged document, and
    only values named exactly num_ret, utility, rbp_resid, relstring (and unj*) are reset."""
    code, out, _ = trec_eval(
        *argv(
            "-q -c -m relstring.20 -m relstring -m utility.2,-1,0,0 "
            "-m rbp_resid.p=0.5 -m unj.3 qrels.test results.trunc"
        )
    )
    assert code == 0
    lines = parse_output(out)
    assert lines[("relstring_20", "302")] == "'-'"  # the first parameters given win
    assert ("relstring", "302") not in lines
    assert lines[("utility_2,-1,0,0", "302")] == "-1.0000"
    assert lines[("rbp_resid_p=0.5", "302")] == "1.0000"
    assert lines[("unj_3", "302")] == "0.0000"
    assert lines[("utility_2,-1,0,0", "all")] == "-118.0000"
    assert lines[("rbp_resid_p=0.5", "all")] == "0.3334"
    code, out, _ = trec_eval(*argv("-q -c -m relstring -m utility qrels.test results.trunc"))
    lines = parse_output(out)
    assert lines[("relstring", "302")] == "''" and lines[("utility", "302")] == "0.0000"


def test_quirk_num_rel_summary_with_c_ignores_l() -> None:
    code, out, _ = trec_eval(*argv("-q -c -l2 -m num_rel qrels.rel_level results.trunc"))
    assert code == 0
    lines = parse_output(out)
    per_topic = sum(int(v) for (n, q), v in lines.items() if q != "all")
    assert lines[("num_rel", "302")] == "77"
    assert lines[("num_rel", "all")] == "559" != str(per_topic)  # qrels lines with grade > 0


def test_quirk_gains_less_than_one_apart_sort_as_equal() -> None:
    """gain_init.c compares gains by (int)(a - b): a gain of 0.5 for level 1 sorts as equal
    to level 0's 0, stays before it, and the ideal ranking (from the last entry) is empty."""
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    half = evaluate_trec(qrels, run, ["ndcg.1=0.5"])
    assert half.summary["ndcg_1=0.5"] == 0.0
    more = evaluate_trec(qrels, run, ["ndcg.1=1.5"])
    assert f"{more.summary['ndcg_1=1.5']:6.4f}" == "0.4021"


def test_quirk_rbp_resid_is_zero_without_unjudged_documents() -> None:
    code, out, _ = trec_eval(*argv("-q -J -m rbp_resid -m num_ret qrels.test results.test"))
    assert code == 0
    lines = parse_output(out)
    assert lines[("num_ret", "302")] == "264"
    assert all(v == "0.0000" for (n, _q), v in lines.items() if n == "rbp_resid")


def test_quirk_empty_ranking_prints_nan(tmp_path: Path) -> None:
    """0/0 on a ranking that -J emptied: trec_eval prints glibc's '-nan' (and averages it)."""
    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n2 0 d 0\n2 0 e -1\n")
    (tmp_path / "r").write_text("1 Q0 x 1 1 t\n1 Q0 y 1 2 t\n2 Q0 c 1 1 t\n2 Q0 e 1 3 t\n")
    code, out, _ = trec_eval(
        "-q",
        "-J",
        "-m",
        "num_ret",
        "-m",
        "iprec_at_recall.0,1",
        "-m",
        "11pt_avg",
        "-m",
        "rbp_resid",
        "-m",
        "Rndcg",
        str(tmp_path / "q"),
        str(tmp_path / "r"),
    )
    assert code == 0
    assert out == (
        "num_ret               \t1\t0\n"
        "iprec_at_recall_0.00  \t1\t  -nan\n"
        "iprec_at_recall_1.00  \t1\t0.0000\n"
        "11pt_avg              \t1\t  -nan\n"
        "Rndcg                 \t1\t0.0000\n"
        "rbp_resid             \t1\t0.0000\n"
        "num_ret               \t2\t1\n"
        "iprec_at_recall_0.00  \t2\t1.0000\n"
        "iprec_at_recall_1.00  \t2\t1.0000\n"
        "11pt_avg              \t2\t1.0000\n"
        "Rndcg                 \t2\t1.0000\n"
        "rbp_resid             \t2\t0.0000\n"
        "num_ret               \tall\t1\n"
        "iprec_at_recall_0.00  \tall\t  -nan\n"
        "iprec_at_recall_1.00  \tall\t0.5000\n"
        "11pt_avg              \tall\t  -nan\n"
        "Rndcg                 \tall\t0.5000\n"
        "rbp_resid             \tall\t0.0000\n"
    )


def test_engine_helpers_follow_c() -> None:
    from assay.compat import _te_arithmetic as eng

    assert eng.atof(".25") == 0.25 and eng.atof("5x") == 5.0 and eng.atof("x") == 0.0
    assert eng.atof("0x10") == 16.0 and eng.atof(" -1e2,") == -100.0
    assert eng.atol("23.4") == 23 and eng.atol("-7") == -7 and eng.atol("a") == 0
    assert eng.valid_int("-3") and not eng.valid_int("p") and not eng.valid_int("+")
    assert eng.c_int_diff(1.0, 0.5) == 0 and eng.c_int_diff(3.0, 1.5) == 1
    assert eng.c_int_diff(1e10, 0.0) == -(2**31)
    assert eng.format_value(float("nan")) == "   nan"
    assert eng.format_value(-float("nan")) == "  -nan"
    assert eng.format_value(-0.0) == "-0.0000" and eng.format_value(2.0) == "2.0000"
    # glibc's merge sort keeps the input order of elements comparing equal.
    items = [(1, 0.5), (0, 0.0), (2, 2.0), (3, 1.9)]
    out = eng.glibc_msort(items, lambda a, b: eng.c_int_diff(a[1], b[1]))
    assert out == [(1, 0.5), (0, 0.0), (2, 2.0), (3, 1.9)]
    import numpy as np

    x = np.array([1.0, 2.0, 3.0, 0.5, 0.25])
    assert eng.seg_cumsum(x, np.array([0, 3, 3, 5])).tolist() == [1.0, 3.0, 6.0, 0.5, 0.75]


def test_parse_argv_accepts_getopt_forms() -> None:
    a = te.parse_argv(
        [
            "-qcn",
            "-l2",
            "-M",
            "7",
            "-mP.5",
            "--measure",
            "map",
            "--Judged",
            "--Number_docs_in_coll=9",
            "q",
            "r",
        ]
    )
    assert (a.per_query, a.complete, a.summary, a.judged_only) == (True, True, False, True)
    assert (a.relevance_level, a.depth, a.num_docs) == (2, 7, 9)
    assert a.measures == ["P.5", "map"] and a.files == ["q", "r"]


def test_quirk_stand_in_document_is_looked_up_in_the_qrels(tmp_path: Path) -> None:
    """-c evaluates a topic without results on one document named "ceci_nest_pas_un_docno",
    which is judged like any other if the qrels name it (then num_ret is reset to 0 but
    num_rel_ret, map and P keep what it earned)."""
    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 ceci_nest_pas_un_docno 1\n2 0 d 1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 t\n1 Q0 b 1 2 t\n")
    code, out, _ = trec_eval(
        "-q",
        "-c",
        "-m",
        "map",
        "-m",
        "num_ret",
        "-m",
        "num_rel_ret",
        "-m",
        "relstring",
        "-m",
        "P.1",
        str(tmp_path / "q"),
        str(tmp_path / "r"),
    )
    assert code == 0
    assert out == (
        "num_ret               \t1\t2\n"
        "num_rel_ret           \t1\t1\n"
        "map                   \t1\t0.5000\n"
        "P_1                   \t1\t0.0000\n"
        "relstring             \t1\t'01'\n"
        "num_ret               \t2\t0\n"
        "num_rel_ret           \t2\t1\n"
        "map                   \t2\t0.5000\n"
        "P_1                   \t2\t1.0000\n"
        "relstring             \t2\t''\n"
        "num_ret               \tall\t2\n"
        "num_rel_ret           \tall\t2\n"
        "map                   \tall\t0.5000\n"
        "P_1                   \tall\t0.5000\n"
    )


def test_quirk_topic_judged_only_negative_inherits_levels(tmp_path: Path) -> None:
    """A topic whose judgments are all negative keeps the previous topic's relevance levels in
    form_res_rels.c: its ideal DCG is the previous topic's."""
    (tmp_path / "q").write_text("1 0 a 2\n1 0 b 1\n2 0 c -1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 t\n2 Q0 c 1 1 t\n2 Q0 z 1 2 t\n")
    qrels = assay.Qrels.from_trec(tmp_path / "q")
    run = assay.Run.from_trec(tmp_path / "r")
    res = evaluate_trec(qrels, run, ["ideal_dcg", "ndcg", "num_rel"])
    assert res.per_query["2"]["ideal_dcg"] == res.per_query["1"]["ideal_dcg"] > 0
    assert res.per_query["2"]["ndcg"] == 0.0 and res.per_query["2"]["num_rel"] == 0
