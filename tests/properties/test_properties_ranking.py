"""Properties every ranking metric must have, independent of any reference implementation.

* bounds: every value lies in the range its declaration states (spec.lower / spec.upper);
* the perfect ranking (scores = grades) scores exactly what it should, metric by metric, and
  no order of the same documents beats it on the gain-based measures;
* ties='average' is refused exactly where the declarations say.

Expected values are computed by hand (closed forms), never with assay itself.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from assay.metrics import REGISTRY, make
from references.slow_ranking_conventions import Setting
from strategies.ranking import Qrels, RunRows, perfect_collections, reference_collections
from support.ranking import (
    GROUPS,
    MISSING,
    NO_RELEVANT,
    PROPS,
    TIES,
    S,
    average_ok,
    build,
    per_query,
    same,
    to_metric,
)


@pytest.mark.parametrize("group", sorted(GROUPS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=reference_collections(),
    ties=st.sampled_from(TIES),
    missing=st.sampled_from(MISSING),
    no_relevant=st.sampled_from(NO_RELEVANT),
    judged_only=st.booleans(),
)
def test_values_within_declared_bounds(
    group: str,
    data: tuple[Qrels, RunRows],
    ties: str,
    missing: str,
    no_relevant: str,
    judged_only: bool,
) -> None:
    metrics = [s for s in GROUPS[group] if ties != "average" or average_ok(s)]
    if not metrics:
        return
    aq, ar = build(*data)
    res = assay.evaluate(
        aq,
        ar,
        [to_metric(s) for s in metrics],
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
    )
    for s in metrics:
        spec = REGISTRY[s.name]
        mv = res["run", to_metric(s)]
        if spec.value == "text":  # relstring: strings, no range, no aggregate
            assert all(isinstance(v, str) for v in mv.values) and math.isnan(mv.aggregate), s
            continue
        for q, v in mv.as_dict().items():
            if math.isnan(v):
                assert no_relevant == "nan", (s, q)  # NaN only where asked for
                continue
            if spec.lower is not None:
                assert v >= spec.lower - 1e-12, (s, q, v)
            if spec.upper is not None:
                assert v <= spec.upper + 1e-12, (s, q, v)
            if spec.integer:
                assert v == int(v), (s, q, v)
        if spec.aggregate != "sum" and not math.isnan(mv.aggregate):
            if spec.lower is not None:
                assert mv.aggregate >= spec.lower - 1e-12, s
            if spec.upper is not None:
                assert mv.aggregate <= spec.upper + 1e-12, s


def test_unjudged_documents_gain_nothing_with_a_gain_map() -> None:
    """Documents without a judgment gain 0 (Ranked.gains: "negative grades gain 0"), also
    when a custom gain map gives the *judged* grade 0 a gain. Otherwise a run of unjudged
    documents outscores the ideal ranking: here the only judged document has grade 0 (gain
    0.5, IDCG = 0.5) and the run retrieves two documents outside the qrels, so DCG must be 0;
    giving them gain 0.5 would make NDCG = (0.5 + 0.5 / log2 3) / 0.5 = 1.63 > 1."""
    qrels, run = build({"q1": {"d1": 0}}, [("q1", "x1", 2.0), ("q1", "x2", 1.0)])
    gain = {0: 0.5, 1: 1.0}
    for name in ("dcg", "ndcg"):
        metric = make(REGISTRY[name], None, gain=gain)
        value = assay.evaluate(qrels, run, metric).per_query("run", metric)["q1"]
        assert value == 0.0, (name, value)


def test_every_accepted_jk_base_gives_defined_values() -> None:
    """A parameter the declaration accepts must not turn a defined metric into NaN.

    dcg is defined for every list (declared range [0, inf)); ndcg is defined whenever the
    ideal DCG is positive, as here. Järvelin & Kekäläinen's discount needs log base b > 1:
    b = 1 must either be rejected by the parameter check or give finite values.
    """
    qrels, run = build({"q1": {"a": 2, "b": 1}}, [("q1", "a", 2.0), ("q1", "b", 1.0)])
    for name in ("dcg", "ndcg"):
        try:
            metric = make(REGISTRY[name], None, discount="jk", b=1.0)
        except assay.MetricError:
            continue
        values = assay.evaluate(qrels, run, metric, no_relevant="nan").per_query("run", metric)
        assert all(math.isfinite(v) for v in values.values()), (name, values)


KS = (1, 3, 20)


@PROPS
@given(data=perfect_collections(), ties=st.sampled_from(TIES))
def test_perfect_ranking(data: tuple[Qrels, RunRows, dict[str, list[int]]], ties: str) -> None:
    """Scores = grades. Tied documents then share their grade, so every tie convention gives
    the same grade sequence: non-increasing, holding every judged document.

    * AP = Rprec = recall = bpref = RR = success = 1: all R relevant documents come first, so
      P@i = 1 at each of them, the top R are all relevant, nothing non-relevant precedes a
      relevant document, and rank 1 is relevant. With a cutoff: AP@k = R@k = min(k, R) / R
      (only min(k, R) relevant documents fit in the top k), P@k = min(k, R) / k, RR@k =
      success@k = 1.
    * iprec at every level and 11pt_avg = 1: the precision is 1 at every relevant document.
    * infAP ~ 1: with every document above a relevant one judged relevant, each term is
      1/(j+1) + (j/(j+1)) (j + eps) / (j + 2 eps) = 1 - O(eps) (it is AP up to eps = 1e-5).
    * ndcg@k = 1 for any k, gain 'linear' or 'exp', discount 'log2' or 'jk': the list *is* the
      ideal ranking (the gains are monotone in the grade). Undefined (NaN) when every grade
      is 0.
    * pairwise_accuracy = kendall_tau = 1 and discordant_pairs = 0: no pair is ranked
      against its grades, and score ties are exactly grade ties so tau-b's denominator is
      n0 - n1. Undefined when the (top-k) list holds a single grade.
    * mse = rmse = 0 (score = grade for every document); judged = 1, judged@k = min(k, n)/k.
    * Compat = 1 (0 without a document of grade > 0): the ideal ranking breaks grade ties by
      the run's order, so every prefix of the run overlaps the ideal as much as possible.
    * err, pfound, rbp, dcg are not normalised: they are not 1 (see the dominance test).
    """
    qrels, rows, grades = data
    aq, ar = build(qrels, rows)
    ndcgs = [
        S("ndcg"),
        S("ndcg", 1),
        S("ndcg", 3),
        S("ndcg", gain="exp"),
        S("ndcg", discount="jk", b=3.0),
    ]
    base = [
        S("AP"),
        S("Rprec"),
        S("R"),
        S("bpref"),
        S("RR"),
        S("success"),
        S("11pt_avg"),
        S("infAP"),
        S("iprec", recall=0.0),
        S("iprec", recall=0.3),
        S("iprec", recall=1.0),
        S("AP", rel=3),
        S("pairwise_accuracy"),
        S("kendall_tau"),
        S("discordant_pairs"),
        S("pairwise_accuracy", 3),
        S("kendall_tau", 3),
        S("mse"),
        S("rmse"),
        S("judged"),
        S("num_rel_ret"),
        S("num_rel"),
        S("Compat"),
        S("Compat", p=0.5),
        *ndcgs,
    ]
    base += [S(m, k) for k in KS for m in ("AP", "R", "P", "RR", "success", "judged")]
    metrics = [s for s in base if ties != "average" or average_ok(s)]
    v = per_query(aq, ar, metrics, ties=ties, no_relevant="nan")

    for q, gs in grades.items():
        n = len(gs)
        big_r = sum(g >= 1 for g in gs)
        ordered = sorted(gs, reverse=True)

        def check(s: Setting, expected: float, q: str = q) -> None:
            if s not in v:  # only the settings assay refuses under ties='average'
                assert ties == "average" and not average_ok(s), s
                return
            assert same(v[s][q], expected), (s, q, v[s][q], expected)

        for s in (
            S("AP"),
            S("Rprec"),
            S("R"),
            S("bpref"),
            S("11pt_avg"),
            S("iprec", recall=0.0),
            S("iprec", recall=0.3),
            S("iprec", recall=1.0),
        ):
            check(s, 1.0 if big_r else math.nan)
        check(S("RR"), 1.0 if big_r else 0.0)
        check(S("success"), 1.0 if big_r else 0.0)
        check(S("AP", rel=3), 1.0 if any(g >= 3 for g in gs) else math.nan)
        for k in KS:
            check(S("AP", k), min(k, big_r) / big_r if big_r else math.nan)
            check(S("R", k), min(k, big_r) / big_r if big_r else math.nan)
            check(S("P", k), min(k, big_r) / k)
            check(S("RR", k), 1.0 if big_r else 0.0)
            check(S("success", k), 1.0 if big_r else 0.0)
            check(S("judged", k), min(k, n) / k)
        if big_r and S("infAP") in v:
            assert v[S("infAP")][q] == pytest.approx(1.0, abs=1e-4)
            assert v[S("infAP")][q] <= 1.0
        for s in ndcgs:
            check(s, 1.0 if big_r else math.nan)
        for s, top in (
            (S("pairwise_accuracy"), ordered),
            (S("kendall_tau"), ordered),
            (S("pairwise_accuracy", 3), ordered[:3]),
            (S("kendall_tau", 3), ordered[:3]),
        ):
            check(s, 1.0 if len(set(top)) > 1 else math.nan)
        check(S("discordant_pairs"), 0.0)
        check(S("mse"), 0.0)
        check(S("rmse"), 0.0)
        check(S("judged"), 1.0)
        check(S("Compat"), 1.0 if big_r else 0.0)
        check(S("Compat", p=0.5), 1.0 if big_r else 0.0)
        assert v[S("num_rel_ret")][q] == v[S("num_rel")][q] == big_r


@PROPS
@given(data=perfect_collections(), seed=st.randoms(use_true_random=False))
def test_perfect_ranking_dominates(
    data: tuple[Qrels, RunRows, dict[str, list[int]]], seed: Any
) -> None:
    """No order of the same documents beats the grade order on the gain-based measures: for
    DCG by the rearrangement inequality (discounts are non-increasing); for ERR, pFound, RBP
    and AP by an exchange argument (swapping an adjacent pair ranked against its grades never
    lowers them: for pFound the gain of the swap is (pRel_b - pRel_a) pBreak >= 0). INSQ's and
    SDCG's C/W/L weights do not depend on the gains and do not increase with the rank
    (rearrangement again); Compat is at most 1, which the grade order reaches."""
    qrels, rows, _grades = data
    shuffled = [(q, d, float(seed.random())) for q, d, _ in rows]  # an arbitrary ranking
    aq, perfect_run = build(qrels, rows)
    _, other_run = build(qrels, shuffled)
    metrics = [
        S("dcg"),
        S("dcg", 3),
        S("dcg", gain="exp"),
        S("dcg", discount="jk", b=3.0),
        S("ndcg", 3),
        S("err", gmax=4),
        S("err", 2, gmax=4),
        S("pfound", gmax=4),
        S("pfound", 3, pbreak=0.5, gmax=4),
        S("gdeval_ndcg", 3),
        S("gdeval_err"),
        S("gdeval_err", 2),
        S("rbp"),
        S("rbp", rel=3),
        S("AP"),
        S("RR"),
        S("P", 3),
        S("Rprec"),
        S("bpref"),
        S("pairwise_accuracy"),
        S("kendall_tau"),
        S("INSQ"),
        S("INSQ", T=3.0, depth=20),
        S("SDCG", 3),
        S("Compat"),
    ]
    best = per_query(aq, perfect_run, metrics)
    other = per_query(aq, other_run, metrics)
    for s in metrics:
        for q in best[s]:
            assert best[s][q] >= other[s][q] - 1e-12, (s, q, best[s][q], other[s][q])


def test_average_ties_refused_where_declared() -> None:
    """average_ties=False metrics, and pairwise metrics with a cutoff, raise ConventionError
    under ties='average'; the others evaluate."""
    qrels, run = build(
        {"q1": {"a": 1, "b": 0, "c": 2}}, [("q1", "a", 1.0), ("q1", "b", 1.0), ("q1", "c", 0.5)]
    )
    for name, spec in REGISTRY.items():
        cases = [S(name)] + ([S(name, 3)] if spec.cutoff != "none" else [])
        for s in cases:
            if average_ok(s):
                assay.evaluate(qrels, run, to_metric(s), ties="average")
            else:
                with pytest.raises(assay.ConventionError):
                    assay.evaluate(qrels, run, to_metric(s), ties="average")
        if not spec.average_ties:
            # Also when asked together with metrics that do support it.
            with pytest.raises(assay.ConventionError):
                assay.evaluate(qrels, run, ["P@5", name], ties="average")
