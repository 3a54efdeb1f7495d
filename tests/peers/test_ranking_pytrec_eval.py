"""Differential test: assay against pytrec_eval (trec_eval 9.0.8 in C) on random collections.

Hypothesis draws small collections with graded relevance 0..4, pooled-but-unjudged grades
(-1, -2), tied scores, qrels queries absent from the run, run queries absent from the qrels,
short rankings, queries without relevant documents, docnos whose byte order differs
from their "natural" order (``d10`` < ``d9``, upper case, non-ASCII), a relevance threshold
(pytrec_eval's ``relevance_level`` <-> assay's ``rel``) and pytrec_eval's
``judged_docs_only_flag`` (<-> assay's ``judged_only``). Every per-query value of every shared
measure must agree to 1e-9.

pytrec_eval evaluates the queries present in both the qrels and the run, so assay runs with
``missing="skip"`` and the query sets must be equal. Empty rankings (a run query mapped to
``{}``) are not generated: pytrec_eval evaluates them as rankings of length 0, which is
undefined behaviour in trec_eval 9 (0/0 in 11pt_avg, and with many measures at once a
segmentation fault). trec_eval 10's ``-c`` output for a topic without results is checked in
oracles/test_ranking_trec_eval_oracle.py instead.

Scores have at most five significant digits (pytrec_eval may store them as float32; these
values keep their order and ties there). Every qrels query has at least one grade >= 0: a
query whose judgments are all negative is undefined behaviour in trec_eval 9 (it reads
relevance levels it never wrote) and crashes pytrec_eval.

iprec_at_recall and 11pt_avg: trec_eval 10 turns a recall level into lround(level * R)
relevant documents, trec_eval 9 into (long)(level * R + 0.9). They are compared only for the
levels (and, for 11pt_avg, the queries) where both rules give the same number, and not on an
empty ranking (judged_only can empty one), where trec_eval divides 0 by 0 and prints NaN.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from assay.metrics import Metric, make, parse
from strategies.ranking import trec9_collections

pytrec_eval = pytest.importorskip("pytrec_eval")

CUTS = "1,2,3,5,10"
MEASURES = {
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "infAP",
    "ndcg",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "set_P",
    "set_recall",
    "set_F",
    f"P.{CUTS}",
    f"recall.{CUTS}",
    f"ndcg_cut.{CUTS}",
    f"map_cut.{CUTS}",
    f"success.{CUTS}",
    "iprec_at_recall",
    "11pt_avg",
}
# Every trec_eval output name the comparison must cover (guards against silent shrinkage).
EXPECTED_NAMES = {
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "infAP",
    "ndcg",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "set_P",
    "set_recall",
    "set_F",
    "11pt_avg",
    *(
        f"{m}_{k}"
        for m in ("P", "recall", "ndcg_cut", "map_cut", "success")
        for k in CUTS.split(",")
    ),
    *(f"iprec_at_recall_{i / 10:.2f}" for i in range(11)),
}
GM_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN: gm_map's per-query value is log(max(AP, floor))
TOL = 1e-9


def assay_metric(name: str, rel: int) -> Metric:
    [m] = parse(name)
    if any(p.name == "rel" for p in m.spec.params):
        m = make(m.spec, m.k, **{**m.kwargs(), "rel": rel})
    return m


def lround(x: float) -> int:
    """C's lround (half away from zero), exactly, for x >= 0."""
    return int(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def cut_rules_agree(level: float, num_rel: int) -> bool:
    """Whether trec_eval 9's and 10's recall-level cutoffs coincide (away from 9's knife edge)."""
    x = level * num_rel
    old = int(x + 0.9)
    frac = x - math.floor(x)
    return old == lround(x) and abs(frac - 0.1) > 1e-6


def reference(
    qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], rel: int, judged_only: bool
) -> dict[str, dict[str, float]]:
    ev = pytrec_eval.RelevanceEvaluator(
        qrels, MEASURES, relevance_level=rel, judged_docs_only_flag=judged_only
    )
    out: dict[str, dict[str, float]] = ev.evaluate(run)
    return out


def compare(
    qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], rel: int, judged_only: bool
) -> set[tuple[str, str]]:
    """Assert agreement; returns the (measure, query) pairs compared."""
    ref = reference(qrels, run, rel, judged_only)
    assert set(ref) == set(qrels) & set(run)  # pytrec_eval's own semantics
    q_all = assay.Qrels.from_dict(qrels)
    r_all = assay.Run.from_dict(run)
    for per_q in ref.values():
        assert set(per_q) == EXPECTED_NAMES
    metrics = {n: assay_metric(n, rel) for n in sorted(EXPECTED_NAMES)}
    res = assay.evaluate(
        q_all, r_all, list(metrics.values()), missing="skip", judged_only=judged_only
    )
    num_rel = {q: sum(1 for g in qrels[q].values() if g >= rel) for q in ref}
    mismatches = []
    done = set()
    for name, m in metrics.items():
        per_query = res[r_all.name, m].as_dict()
        assert set(per_query) == set(ref), name
        for q, values in ref.items():
            got = per_query[q]
            want = values[name]
            if name.startswith("iprec_at_recall_"):
                level = float(name.rsplit("_", 1)[1])
                if not (values["num_ret"] and cut_rules_agree(level, num_rel[q])):
                    continue
            elif name == "11pt_avg":
                levels = [i / 10 for i in range(11)]
                if not (values["num_ret"] and all(cut_rules_agree(x, num_rel[q]) for x in levels)):
                    continue
            elif name == "gm_map":
                got = math.log(max(got, GM_FLOOR))
            done.add((name, q))
            if not abs(got - want) <= TOL:
                mismatches.append(f"{name} ({m}) query {q!r}: pytrec_eval {want!r}, assay {got!r}")
    assert not mismatches, "\n".join(mismatches)
    # Aggregates (pytrec_eval's own aggregation), over the same queries.
    if ref:
        for name in ("map", "gm_map", "P_5", "ndcg_cut_10", "num_rel_ret", "bpref"):
            want = pytrec_eval.compute_aggregated_measure(name, [v[name] for v in ref.values()])
            got = res.aggregate(r_all.name, metrics[name])
            assert abs(got - want) <= TOL * max(1.0, abs(want)), name
    return done


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trec9_collections(), st.sampled_from([1, 1, 2, 3]), st.booleans())
def test_agrees_with_pytrec_eval(data: Any, rel: int, judged_only: bool) -> None:
    qrels, run = data
    compare(qrels, run, rel, judged_only)


def test_fixed_example_is_compared() -> None:
    """A hand-made collection exercising every feature; the comparison is not vacuous."""
    qrels = {
        "q1": {"d0": 2, "d1": 0, "d10": 1, "d9": -1, "a": 4, "Z": 0, "é": 3},
        "q2": {"d0": 0, "d1": 0},  # no relevant document
        "q3": {"d0": 1},  # not in the run
        "Q1": {"b": 1, "d2": 2, "d0": 0, "d1": 1, "d9": 1, "a": 1, "Z": -2},  # R = 5
    }
    run = {
        "q1": {"d0": 0.5, "d1": 0.5, "d10": 0.5, "d9": 1.0, "x": 0.25, "é": 0.0, "a": -1.0},
        "q2": {"d0": 2.0, "d1": 1.0, "d2": 1.0},
        "Q1": {"b": 0.1, "d2": 0.1, "zz": 0.3, "d9": 0.2, "Z": 0.2, "a": -0.5},
        "q4": {"d0": 1.0},  # not in the qrels
    }
    for rel in (1, 2):
        for judged_only in (False, True):
            done = compare(qrels, run, rel, judged_only)
            assert {name for name, _q in done} == EXPECTED_NAMES
            assert {q for _name, q in done} == {"q1", "q2", "Q1"}


def test_cut_rules() -> None:
    """The iprec filter: trec_eval 9 and 10 agree at R = 10, differ at 0.9 * 9 = 8.1."""
    assert all(cut_rules_agree(i / 10, 10) for i in range(11))
    assert not cut_rules_agree(0.9, 9)  # 9.0.8: 9 relevant documents; 10.0: 8
    assert cut_rules_agree(0.5, 5)  # 2.5: both 3
    assert not cut_rules_agree(0.1, 3)  # 0.3: 9.0.8 gives 1, 10.0 gives 0
