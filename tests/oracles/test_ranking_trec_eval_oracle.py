"""Oracle tests: assay against the output that trec_eval 10.0 itself prints for its own test suite.

The inputs and expected outputs live in ``../shared/data/trec_eval`` (see
``../shared/data/README.md`` for which command produced which file); they are read in place,
never copied. For every measure of an expected-output file that assay computes, every
per-query value and the ``all`` summary line must equal trec_eval's to the printed precision
(``%6.4f``: within 5e-5; counts exactly). trec_eval names are mapped to assay metrics with
:func:`assay.metrics.parse` (``P_5`` -> ``P@5``, ``iprec_at_recall_0.10``, ``ndcg_cut_10``, ...).

Conventions: without ``-c`` assay runs with ``missing="skip"``, with ``-c`` with
``missing="zero"`` (the summary then averages over every qrels query); ``-l2`` becomes
``rel=2`` on every measure that has a relevance threshold, but not on ndcg (trec_eval's ``-l``
does not affect ndcg). Counts are summed in the summary; gm_map is printed as a summary only.

trec_eval names mean trec_eval's measures with trec_eval's defaults, so parse() maps every
printed name: ``rbp`` is ``rbp(p=0.9, gain='scaled')`` (graded), ``rbp_resid`` is
``rbp_resid(p=0.9)`` (trec_eval prints 0 when no retrieved document is unjudged, where assay
reports the tail p^n; every topic of these runs retrieves unjudged documents, so the two
agree here), ``ndcg_1=3,2=9,4=4.5`` is ``ndcg(gain={1: 3, 2: 9, 4: 4.5})``,
``utility_2,-1,0,0`` is ``utility(rel_ret=2.0, ...)``, ``Rprec_mult_0.20`` is
``Rprec_mult(mult=0.2)``, ``relstring_20`` is ``relstring(depth=20)`` (compared as text).

The only trec_eval output not compared is ``11pt_avg_.25,.5,.75`` (11pt_avg over custom
levels, which assay's 11pt_avg does not take). ``runid`` and ``num_q`` are checked
against the run's tag and the number of evaluated queries. ``out.test.aqcM`` (``-M100``, a
per-topic document limit) is not tested here: ``assay.evaluate`` has no such option. Every
trec_eval measure, quirks included, is reproduced byte for byte by
``assay.compat.trec_eval`` (tests/oracles/test_trec_eval_outputs.py).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pytest

import assay
from assay.metrics import Metric, make, parse
from conftest import shared_file

# trec_eval output names that assay does not compute (see the module docstring).
NOT_IN_ASSAY = re.compile(r"^(11pt_avg_.+)$")
# Measures printed as integers: compared exactly.
COUNTS = {"num_ret", "num_rel", "num_rel_ret"}
# %6.4f rounds to 4 decimals: the printed value is within half a unit of the 4th decimal.
TOL = 5e-5 + 1e-9


@dataclass(frozen=True)
class Case:
    out: str
    qrels: str
    run: str
    missing: str
    rel: int = 1
    summary_only: bool = False
    required: frozenset[str] = field(default_factory=frozenset)


DEFAULT_MEASURES = frozenset(
    {
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall_0.00",
        "iprec_at_recall_0.50",
        "iprec_at_recall_1.00",
        "P_5",
        "P_1000",
    }
)
ALL_TREC = DEFAULT_MEASURES | {
    "recall_5",
    "recall_1000",
    "infAP",
    "11pt_avg",
    "ndcg",
    "ndcg_cut_10",
    "map_cut_100",
    "success_1",
    "success_10",
    "set_P",
    "set_recall",
    "set_F",
    "rbp_resid",
    "G",
    "utility",
    "Rprec_mult_0.20",
    "Rprec_mult_2.00",
    "ndcg_rel",
    "Rndcg",
    "gm_bpref",
    "rbp",
}

CASES = {
    # -m all_trec -q qrels.test results.test
    "aq": Case(
        "out.test.aq", "qrels.test", "results.test", "skip", required=ALL_TREC | {"relstring"}
    ),
    # -m all_trec qrels.test results.test (summary only)
    "a": Case(
        "out.test.a",
        "qrels.test",
        "results.test",
        "skip",
        summary_only=True,
        required=ALL_TREC,
    ),
    # -m all_trec -q -c qrels.test results.trunc (topic 302 has no results)
    "aqc": Case(
        "out.test.aqc", "qrels.test", "results.trunc", "zero", required=ALL_TREC | {"relstring"}
    ),
    # -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test
    "aql": Case(
        "out.test.aql",
        "qrels.rel_level",
        "results.test",
        "skip",
        rel=2,
        required=ALL_TREC | {"relstring_20"},
    ),
    # default measures
    "default": Case(
        "out.test",
        "qrels.test",
        "results.test",
        "skip",
        summary_only=True,
        required=DEFAULT_MEASURES,
    ),
    "default-with-comments": Case(
        "out.test",
        "qrels.test.with-comments",
        "results.test",
        "skip",
        summary_only=True,
        required=DEFAULT_MEASURES,
    ),
    "comment": Case(
        "out.comment.test",
        "qrels.comment.test",
        "results.comment.test",
        "skip",
        summary_only=True,
        required=DEFAULT_MEASURES,
    ),
    # -q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 ... (parameters)
    "meas_params": Case(
        "out.test.meas_params",
        "qrels.test",
        "results.test",
        "skip",
        required=frozenset(
            {
                "iprec_at_recall_0.25",
                "iprec_at_recall_0.75",
                "P_3",
                "P_7",
                "recall_2000",
                "ndcg_1=3,2=9,4=4.5",
                "ndcg_cut_23",
                "success_2",
                "success_20",
                "utility_2,-1,0,0",
                "Rprec_mult_0.35",
            }
        ),
    ),
}


def read_expected(path: Any) -> dict[str, dict[str, str]]:
    """trec_eval's ``measure <tab> query <tab> value`` lines -> {measure: {query: value}}."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            measure, query, value = line.split()
            assert query not in out[measure], f"{measure} {query} printed twice"
            out[measure][query] = value
    return out


def agrees(got: float, printed: str, count: bool = False) -> bool:
    """Whether assay's value is trec_eval's printed one: a count exactly, text (relstring) as
    trec_eval quotes it, else to %6.4f."""
    if isinstance(got, str):
        return printed == f"'{got}'"
    if count:
        return got == int(printed)
    return math.isfinite(got) and abs(got - float(printed)) <= TOL


def with_rel(m: Metric, rel: int) -> Metric:
    """The metric with relevance threshold ``rel`` if it has one (binary measures)."""
    if rel == 1 or not any(p.name == "rel" for p in m.spec.params):
        return m
    return make(m.spec, m.k, **{**m.kwargs(), "rel": rel})


def _canonical(name: str, case: Case) -> str:
    """assay's canonical name of the metric computing trec_eval's ``name`` (its label is
    ``name`` itself: labels are the names as asked)."""
    metric = assay_metric(name, case)
    return "" if metric is None else metric.canonical


def assay_metric(name: str, case: Case) -> Metric | None:
    """The assay metric computing trec_eval's ``name`` under the case's options, or None."""
    if NOT_IN_ASSAY.match(name):
        return None
    metrics = parse(name)  # an unparseable in-scope name fails the test here
    assert len(metrics) == 1, f"{name} parsed to {metrics}"
    return with_rel(metrics[0], case.rel)


@cache
def load(qrels: str, run: str) -> tuple[assay.Qrels, assay.Run]:
    return (
        assay.Qrels.from_trec(shared_file("trec_eval", qrels)),
        assay.Run.from_trec(shared_file("trec_eval", run)),
    )


def test_mapping_of_trec_names() -> None:
    """The name mapping the oracle relies on: the right metric, cutoff and threshold."""
    aql = CASES["aql"]
    assert _canonical("P_5", aql) == "P(rel=2)@5"
    assert _canonical("map", aql) == "AP(rel=2)"
    assert _canonical("map_cut_10", aql) == "AP(rel=2)@10"
    assert _canonical("gm_map", aql) == "gm_map(rel=2)"
    assert _canonical("num_rel", aql) == "num_rel(rel=2)"
    assert _canonical("ndcg_cut_10", aql) == "ndcg@10"  # -l does not touch ndcg
    assert _canonical("num_ret", aql) == "num_ret"
    assert _canonical("iprec_at_recall_0.10", aql) == "iprec(recall=0.1, rel=2)"
    assert _canonical("set_F", CASES["aq"]) == "F"
    assert _canonical("success_10", CASES["aq"]) == "success@10"
    assert _canonical("rbp", aql) == "rbp(p=0.9, gain='scaled', rel=2)"  # rel unused
    assert _canonical("Rprec_mult_0.20", aql) == "Rprec_mult(mult=0.2, rel=2)"
    assert _canonical("relstring_20", aql) == "relstring(depth=20)"
    assert str(assay_metric("utility_2,-1,0,0", aql)).startswith("utility(rel_ret=2.0")


@pytest.mark.parametrize("case_id", list(CASES))
def test_trec_eval_10_output(case_id: str) -> None:
    case = CASES[case_id]
    expected = read_expected(shared_file("trec_eval", case.out))
    qrels, run = load(case.qrels, case.run)

    compared: dict[str, Metric] = {}
    for name in expected:
        if name in ("runid", "num_q"):
            continue
        m = assay_metric(name, case)
        if m is not None:
            compared[name] = m
    missing_required = case.required - set(compared)
    assert not missing_required, f"expected measures not compared: {sorted(missing_required)}"

    res = assay.evaluate(qrels, run, list(compared.values()), missing=case.missing)

    # runid and num_q, where printed (not with an explicit -m list)
    if "runid" in expected:
        assert run.tag == expected["runid"]["all"]
    if "num_q" in expected:
        assert len(res[run.name, "num_ret"].queries) == int(expected["num_q"]["all"])

    absent = set(qrels.queries) - set(run.queries)
    mismatches: list[str] = []
    n_checked = 0
    for name, m in compared.items():
        mv = res[run.name, m]
        per_query = mv.as_dict()
        want = expected[name]
        if not case.summary_only and name not in ("gm_map", "gm_bpref"):
            printed = {q for q in want if q != "all"}
            assert printed == set(per_query), (
                f"{name}: queries {sorted(per_query)} vs {sorted(printed)}"
            )
        for query, text in want.items():
            got = mv.aggregate if query == "all" else per_query[query]
            n_checked += 1
            if name == "rbp_resid" and absent and case.missing == "zero":
                # trec_eval -c writes 0 for a topic without results, the best residual; assay
                # scores it as an empty ranking, residual 1 (assay trec-eval keeps the 0).
                if query in absent:
                    assert got == 1.0, (query, got)
                    continue
                if query == "all":
                    assert got == pytest.approx(np.mean(list(per_query.values())), abs=1e-12)
                    continue
            if not agrees(got, text, count=name in COUNTS):
                mismatches.append(f"{name} ({m}) query {query}: trec_eval {text}, assay {got!r}")
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(mismatches)
    assert n_checked >= len(case.required)


def test_agrees_is_sharp() -> None:
    """What "equal to the printed precision" accepts and rejects."""
    assert agrees(0.12345, "0.1235") and agrees(0.123549, "0.1235") and agrees(0.1, "0.1000")
    assert not agrees(0.12344, "0.1235")  # would print 0.1234
    assert not agrees(0.123551, "0.1235")  # would print 0.1236
    assert not agrees(float("nan"), "0.0000")
    assert agrees(131.0, "131", count=True)
    assert not agrees(130.9999, "131", count=True)


def test_c_flag_averages_over_all_qrels_queries() -> None:
    """With -c the missing topic (302 in results.trunc) scores 0 and counts in the mean."""
    expected = read_expected(shared_file("trec_eval", "out.test.aqc"))
    qrels, run = load("qrels.test", "results.trunc")
    assert "302" not in run.queries and "302" in qrels.queries
    zero = assay.evaluate(qrels, run, ["map", "num_rel"], missing="zero")
    skip = assay.evaluate(qrels, run, ["map"], missing="skip")
    assert zero.per_query(run.name, "map")["302"] == 0.0
    assert zero.per_query(run.name, "num_rel")["302"] == int(expected["num_rel"]["302"])
    assert abs(zero.aggregate(run.name, "map") - float(expected["map"]["all"])) <= TOL
    assert abs(skip.aggregate(run.name, "map") - float(expected["map"]["all"])) > TOL
