"""assay.compat.trec_eval from Python: -J and -M semantics, bad names and options, the result
protocol, the C-compatible helpers and the argument parser."""

from __future__ import annotations

import pytest

import assay
from assay.compat import trec_eval as te
from assay.compat.trec_eval import TrecEvalError, evaluate_trec
from support.cli import assert_one_line_error
from support.trec_eval import argv, data, parse_output, trec_eval


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
