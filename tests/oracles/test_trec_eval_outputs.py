"""``assay trec-eval`` and :mod:`assay.compat.trec_eval` against trec_eval 10.0's own output.

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
from assay.compat.trec_eval import ALL_TREC, SUPPORTED, TrecResult, evaluate_trec, format_trec
from conftest import shared_file
from support.trec_eval import argv, data, expected, parse_output, trec_eval

# expected output -> trec_eval arguments: all fifteen commands of trec_eval 10.0's `make
# quicktest`, as ../shared/data/README.md lists them (its table, then its list of the
# preference, judgment-group and z-score commands); files are names in
# ../shared/data/trec_eval.
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
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.test prefs.results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs prefs.comment.test prefs.results.test"),
    ("out.test.qrels_prefs", "-m all_prefs -q -R qrels_prefs qrels.test results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.123 results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg qrels.comments.123 results.test"),
    ("out.test.aqZ", "-q -m all_trec -Z zscores_file qrels.test results.test"),
]


def _readme_commands() -> set[tuple[str, str]]:
    """Every (expected output, arguments) pair ../shared/data/README.md names for trec_eval:
    the table's rows (a row may add "also with X": X in place of qrels.test) and the list
    items ``- `out` ← `args` (and the same with `X` in place of `Y`)``."""
    text = shared_file("README.md").read_text(encoding="utf-8")
    section = text[text.index("## trec_eval/") : text.index("## lightgbm_lambdarank/")]
    out: set[tuple[str, str]] = set()
    for o, a, extra in re.findall(r"^\| `(out\.[^`]+)` \| `([^`]+)`(.*)\|$", section, flags=re.M):
        out.add((o, a))
        for other in re.findall(r"also with `([^`]+)`", extra):
            out.add((o, a.replace("qrels.test", other, 1)))
    items = re.findall(r"^- `(out\.[^`]+)` ← `([^`]+)`\s*(\([^)]*\))?", section, flags=re.M)
    for o, a, extra in items:
        a = " ".join(a.split())
        out.add((o, a))
        same = re.search(r"`([^`]+)`(?:\s+in place of `([^`]+)`)?", extra)
        if same:
            # "the same with `X` [in place of `Y`]": X replaces Y, or the file of X's kind
            stem = same.group(1).split(".")[0] + "."
            old = same.group(2) or next(f for f in a.split() if f.startswith(stem))
            out.add((o, a.replace(old, same.group(1), 1)))
    return out


@pytest.mark.parametrize(
    ("out_file", "args"), COMMANDS, ids=[f"{o}:{a.split()[-2]}" for o, a in COMMANDS]
)
def test_output_is_byte_identical(out_file: str, args: str) -> None:
    code, out, err = trec_eval(*argv(args))
    assert code == 0, err
    assert out == expected(out_file)


def test_commands_are_the_readme_ones() -> None:
    """The fifteen commands above are the ones ../shared/data/README.md names (the table may
    not drift apart from the README, nor miss a command of `make quicktest`)."""
    readme = _readme_commands()
    assert len(COMMANDS) == len(set(COMMANDS)) == 15
    assert readme == set(COMMANDS)
    assert {o for o, _ in COMMANDS} == {o for o, _ in readme}
    assert ("out.test", "qrels.test.with-comments results.test") in readme


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
