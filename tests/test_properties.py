"""Properties every metric must have, independent of any reference implementation.

* bounds: every value lies in the range its declaration states (spec.lower / spec.upper);
* the perfect ranking (scores = grades) scores exactly what it should, metric by metric;
* invariance to the order of queries in the input, to bijective renamings of query and
  document ids, and (ties='docno' / 'average') to the order of the input rows;
* random rankings: exact expectations under ties='average' with every score tied, and a
  statistical sanity check on a synthetic collection;
* the worked examples of the seeds, and the two "notebook mistakes" (ranking by ascending
  score; normalising DCG@k by the full-list ideal DCG) computed by hand and shown to differ
  from what assay returns.

Expected values are computed by hand (closed forms), never with assay itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from assay.metrics import REGISTRY, make
from reference import Setting
from test_reference import (
    GROUPS,
    MISSING,
    NO_RELEVANT,
    TIES,
    Qrels,
    RunRows,
    average_ok,
    build,
    collections,
    same,
    to_metric,
)


def S(name: str, k: int | None = None, **params: Any) -> Setting:
    return Setting(name, k, params)


def per_query(
    qrels: assay.Qrels, run: assay.Run, metrics: Sequence[Setting], **conv: Any
) -> dict[Setting, dict[str, float]]:
    res = assay.evaluate(qrels, run, [to_metric(s) for s in metrics], **conv)
    return {s: res["run", to_metric(s)].as_dict() for s in metrics}


# Every metric with its default parameters, plus a cutoff where one is allowed. err and pfound
# get an explicit gmax: their default (the qrels' maximum grade) is exercised by
# test_reference, and these tests are about other properties.
def _property_settings() -> list[Setting]:
    out = []
    for name, spec in REGISTRY.items():
        params = {"gmax": 4} if name in ("err", "pfound") else {}
        out.append(S(name, **params))
        if spec.cutoff != "none":
            out.append(S(name, 3, **params))
    return out


PROPERTY_SETTINGS = _property_settings()
PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- bounds


@pytest.mark.parametrize("group", sorted(GROUPS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=collections(),
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


# ---------------------------------------------------------------- the perfect ranking


@st.composite
def perfect_collections(draw: st.DrawFn) -> tuple[Qrels, RunRows, dict[str, list[int]]]:
    """Each query retrieves exactly its judged documents, scored by their grade; the qrels
    also hold a few pooled-but-unjudged entries (negative grade) that are not retrieved."""
    n_queries = draw(st.integers(1, 3))
    qrels: Qrels = {}
    grades: dict[str, list[int]] = {}
    rows: RunRows = []
    for qi in range(n_queries):
        q = f"q{qi}"
        gs = draw(st.lists(st.integers(0, 4), min_size=1, max_size=10))
        n_unjudged = draw(st.integers(0, 2))
        qrels[q] = {f"d{i}": g for i, g in enumerate(gs)}
        qrels[q].update({f"u{i}": -1 for i in range(n_unjudged)})
        grades[q] = gs
        rows.extend((q, f"d{i}", float(g)) for i, g in enumerate(gs))
    return qrels, draw(st.permutations(rows)), grades


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
        assert v[S("num_rel_ret")][q] == v[S("num_rel")][q] == big_r


@PROPS
@given(data=perfect_collections(), seed=st.randoms(use_true_random=False))
def test_perfect_ranking_dominates(
    data: tuple[Qrels, RunRows, dict[str, list[int]]], seed: Any
) -> None:
    """No order of the same documents beats the grade order on the gain-based measures: for
    DCG by the rearrangement inequality (discounts are non-increasing); for ERR, pFound, RBP
    and AP by an exchange argument (swapping an adjacent pair ranked against its grades never
    lowers them: for pFound the gain of the swap is (pRel_b - pRel_a) pBreak >= 0)."""
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
        S("rbp"),
        S("rbp", rel=3),
        S("AP"),
        S("RR"),
        S("P", 3),
        S("Rprec"),
        S("bpref"),
        S("pairwise_accuracy"),
        S("kendall_tau"),
    ]
    best = per_query(aq, perfect_run, metrics)
    other = per_query(aq, other_run, metrics)
    for s in metrics:
        for q in best[s]:
            assert best[s][q] >= other[s][q] - 1e-12, (s, q, best[s][q], other[s][q])


# ---------------------------------------------------------------- invariances


def _values(qrels: Qrels, rows: RunRows, ties: str) -> dict[Setting, dict[str, float]]:
    aq, ar = build(qrels, rows)
    metrics = [s for s in PROPERTY_SETTINGS if ties != "average" or average_ok(s)]
    return per_query(aq, ar, metrics, ties=ties, no_relevant="nan")


def _assert_same(
    a: Mapping[Setting, Mapping[str, float]],
    b: Mapping[Setting, Mapping[str, float]],
    qmap: Mapping[str, str] | None = None,
) -> None:
    for s, values in a.items():
        renamed = {(qmap or {}).get(q, q): x for q, x in values.items()}
        assert set(renamed) == set(b[s]), s
        for q, x in renamed.items():
            assert same(x, b[s][q]), (s, q, x, b[s][q])


@PROPS
@given(data=collections(), ties=st.sampled_from(TIES), order=st.randoms(use_true_random=False))
def test_invariant_to_query_order(data: tuple[Qrels, RunRows], ties: str, order: Any) -> None:
    """Moving whole queries around in the run (and the qrels) changes nothing, whatever the
    tie convention: the relative order of each query's rows is kept."""
    qrels, rows = data
    queries = sorted({q for q, _, _ in rows})
    order.shuffle(queries)
    moved = [r for q in queries for r in rows if r[0] == q]
    qrels_moved = dict(reversed(list(qrels.items())))
    _assert_same(_values(qrels, rows, ties), _values(qrels_moved, moved, ties))


@PROPS
@given(
    data=collections(),
    ties=st.sampled_from(("docno", "average")),
    order=st.randoms(use_true_random=False),
)
def test_invariant_to_row_order(data: tuple[Qrels, RunRows], ties: str, order: Any) -> None:
    """With ties='docno' (and 'average') the ranking depends on scores and ids only, not on
    the order of the input rows."""
    qrels, rows = data
    shuffled = list(rows)
    order.shuffle(shuffled)
    _assert_same(_values(qrels, rows, ties), _values(qrels, shuffled, ties))


def _rename(
    qrels: Qrels,
    rows: RunRows,
    qmap: Mapping[str, str],
    dmap: Mapping[str, str],
) -> tuple[Qrels, RunRows]:
    new_qrels = {qmap.get(q, q): {dmap[d]: g for d, g in docs.items()} for q, docs in qrels.items()}
    new_rows = [(qmap.get(q, q), dmap[d], s) for q, d, s in rows]
    return new_qrels, new_rows


@PROPS
@given(data=collections(), ties=st.sampled_from(TIES), rng=st.randoms(use_true_random=False))
def test_invariant_to_renaming_ids(data: tuple[Qrels, RunRows], ties: str, rng: Any) -> None:
    """A bijective renaming of query and document ids changes nothing (per query, up to the
    renaming). Under ties='docno' the document renaming must keep byte order (tied documents
    are ordered by docno); under 'input' and 'average' any bijection will do."""
    qrels, rows = data
    queries = sorted(set(qrels) | {q for q, _, _ in rows})
    targets = [f"Q{i}-{rng.randrange(10**6)}" for i in range(len(queries))]
    rng.shuffle(targets)
    qmap = dict(zip(queries, targets, strict=True))
    docs = sorted(
        {d for q in qrels.values() for d in q} | {d for _, d, _ in rows}, key=lambda d: d.encode()
    )
    if ties == "docno":
        # Order-preserving: zero-padded positions in byte order (prefix "x" on top, so that
        # the new ids share nothing with the old ones).
        dmap = {d: f"x{i:03d}" for i, d in enumerate(docs)}
    else:
        new = [f"doc{rng.randrange(10**6)}-{i}" for i in range(len(docs))]
        rng.shuffle(new)
        dmap = dict(zip(docs, new, strict=True))
    qrels2, rows2 = _rename(qrels, rows, qmap, dmap)
    _assert_same(_values(qrels, rows, ties), _values(qrels2, rows2, ties), qmap)


def test_docno_renaming_that_breaks_byte_order_matters() -> None:
    """The guard on the previous test: under ties='docno' a renaming that reverses the byte
    order of two tied documents does change the ranking (so the test above can fail)."""
    qrels = {"q": {"a": 1, "b": 0}}
    rows = [("q", "a", 1.0), ("q", "b", 1.0)]
    before = _values(qrels, rows, "docno")[S("RR")]["q"]
    after = _values(*_rename(qrels, rows, {}, {"a": "b", "b": "a"}), "docno")[S("RR")]["q"]
    # docno descending: "b" before "a". First the relevant doc "a" is at rank 2, then rank 1.
    assert (before, after) == (0.5, 1.0)


# ---------------------------------------------------------------- random rankings


@settings(max_examples=25, deadline=None)
@given(
    grades=st.lists(st.integers(-1, 3), min_size=1, max_size=40),
    extra_relevant=st.integers(0, 3),
    k=st.integers(1, 45),
)
def test_random_ranking_exact_expectations(grades: list[int], extra_relevant: int, k: int) -> None:
    """Every score tied + ties='average' is the expectation over uniformly random rankings.
    Closed forms from the literature (lists far too long for brute force):

    * E[P@k] = (s / N) min(k, N) / k, s relevant among the N retrieved;
    * E[AP] = (s / (R N)) sum_{i=1..N} (1 + (i - 1)(s - 1)/(N - 1)) / i (Bestgen 2015);
    * P(first relevant at rank t) = C(N - t, s - 1) / C(N, s), giving E[RR@k];
    * success@k = 1 - C(N - s, m) / C(N, m), m = min(k, N);
    * E[DCG@k] = mean gain x sum_{i<=m} 1 / log2(i + 1); E[RBP] likewise;
    * discordant pairs: half the pairs with distinct grades; pairwise accuracy 1/2;
    * Kendall's tau-b is undefined (every pair tied in score).
    The ids "-1" in the grade list are documents outside the qrels (unjudged, gain 0).
    """
    n = len(grades)
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades) if g >= 0}}
    qrels["q"].update({f"r{i}": 1 for i in range(extra_relevant)})  # relevant, not retrieved
    if not qrels["q"]:
        qrels["q"]["r-none"] = 0
    rows = [("q", f"d{i}", 0.25) for i in range(n)]
    aq, ar = build(qrels, rows)
    metrics = [
        S("P", k),
        S("AP"),
        S("RR", k),
        S("success", k),
        S("dcg", k),
        S("rbp", k, p=0.7),
        S("discordant_pairs"),
        S("pairwise_accuracy"),
        S("kendall_tau"),
    ]
    v = {
        s: x["q"] for s, x in per_query(aq, ar, metrics, ties="average", no_relevant="nan").items()
    }

    s_rel = sum(g >= 1 for g in grades)
    big_r = s_rel + extra_relevant
    m = min(k, n)
    clipped = [max(g, 0) for g in grades]
    assert v[S("P", k)] == pytest.approx(s_rel / n * m / k, abs=1e-12)
    if big_r:
        if n == 1:
            e_ap = s_rel / big_r
        else:
            e_ap = (
                s_rel
                / (big_r * n)
                * sum((1 + (i - 1) * (s_rel - 1) / (n - 1)) / i for i in range(1, n + 1))
            )
        assert v[S("AP")] == pytest.approx(e_ap, abs=1e-12)
    else:
        assert math.isnan(v[S("AP")])
    if s_rel:
        e_rr = sum(math.comb(n - t, s_rel - 1) / math.comb(n, s_rel) / t for t in range(1, m + 1))
    else:
        e_rr = 0.0
    assert v[S("RR", k)] == pytest.approx(e_rr, abs=1e-12)
    assert v[S("success", k)] == pytest.approx(
        1 - math.comb(n - s_rel, m) / math.comb(n, m), abs=1e-12
    )
    mean_gain = sum(clipped) / n
    assert v[S("dcg", k)] == pytest.approx(
        mean_gain * sum(1 / math.log2(i + 1) for i in range(1, m + 1)), abs=1e-12
    )
    assert v[S("rbp", k, p=0.7)] == pytest.approx(
        0.3 * s_rel / n * sum(0.7 ** (i - 1) for i in range(1, m + 1)), abs=1e-12
    )
    distinct = sum(1 for i in range(n) for j in range(i + 1, n) if clipped[i] != clipped[j])
    assert v[S("discordant_pairs")] == pytest.approx(distinct / 2, abs=1e-12)
    if distinct:
        assert v[S("pairwise_accuracy")] == pytest.approx(0.5, abs=1e-12)
    else:
        assert math.isnan(v[S("pairwise_accuracy")])
    assert math.isnan(v[S("kendall_tau")])


def test_random_ranking_sanity_on_synthetic_data() -> None:
    """Scores drowned in noise rank at random: mean P@10 is the share of relevant candidates
    (grade >= 1: 0.4 by the generator's grade probabilities), mean AP is the random-ranking
    expectation, and better systems (less noise) score higher on every measure."""
    qrels, runs = assay.datasets.synthetic(
        n_queries=300, docs_per_query=40, noise=(0.3, 1.5, 1e6), seed=11
    )
    res = assay.evaluate(qrels, runs, ["P@10", "AP", "ndcg@10", "RR", "kendall_tau"])
    good, mid, rand = "run1", "run2", "run3"
    # Random P@10 ~ 0.4 with a standard error of about sqrt(0.24 / 3000) ~ 0.009.
    assert abs(res.aggregate(rand, "P@10") - 0.4) < 0.04
    # Random AP: average over queries of the exact expectation (all candidates retrieved).
    n = 40
    expected = []
    for docs in qrels.to_dict().values():
        s = sum(g >= 1 for g in docs.values())
        if s:
            expected.append(
                s / (s * n) * sum((1 + (i - 1) * (s - 1) / (n - 1)) / i for i in range(1, n + 1))
            )
        else:
            expected.append(0.0)  # AP undefined -> no_relevant='zero'
    assert abs(res.aggregate(rand, "AP") - sum(expected) / len(expected)) < 0.02
    assert abs(res.aggregate(rand, "kendall_tau")) < 0.03
    for metric in ("P@10", "AP", "ndcg@10", "RR", "kendall_tau"):
        assert (
            res.aggregate(good, metric) > res.aggregate(mid, metric) > res.aggregate(rand, metric)
        )


# ---------------------------------------------------------------- the seeds' worked examples


def _ranked_lists(lists: Mapping[str, list[int]]) -> tuple[assay.Qrels, assay.Run]:
    """Every document judged; the relevance list is the ranked list (scores n, n-1, ..., 1)."""
    qrels = {q: {f"{q}d{i}": g for i, g in enumerate(gs)} for q, gs in lists.items()}
    rows = [(q, f"{q}d{i}", float(len(gs) - i)) for q, gs in lists.items() for i in range(len(gs))]
    return build(qrels, rows)


SEED_LISTS = {"q1": [1, 0, 1, 0, 1], "q2": [0, 0, 1, 1, 0]}


def test_seed_worked_examples() -> None:
    """q1 = [1,0,1,0,1], q2 = [0,0,1,1,0].

    AP@5(q1) = (1/1 + 2/3 + 3/5) / 3 = 0.7556; AP@5(q2) = (1/3 + 2/4) / 2 = 0.4167;
    MAP@5 = 0.5861 (the seed rounds the APs first and gets 0.587). P@5(q1) = 3/5, P@5(q2) =
    2/5, so the mean P@5 is 0.5, the seed's figure.
    """
    qrels, run = _ranked_lists(SEED_LISTS)
    res = assay.evaluate(qrels, run, ["P@5", "P@4", "P@2", "AP@5"])
    p5 = res.per_query("run", "P@5")
    assert p5["q1"] == pytest.approx(3 / 5, abs=1e-12)
    assert p5["q2"] == pytest.approx(2 / 5, abs=1e-12)
    assert res.aggregate("run", "P@5") == pytest.approx(0.5, abs=1e-12)
    assert res.per_query("run", "P@4")["q1"] == pytest.approx(0.5, abs=1e-12)
    assert res.per_query("run", "P@2")["q1"] == pytest.approx(0.5, abs=1e-12)
    ap = res.per_query("run", "AP@5")
    assert ap["q1"] == pytest.approx((1 + 2 / 3 + 3 / 5) / 3, abs=1e-12)
    assert ap["q2"] == pytest.approx((1 / 3 + 2 / 4) / 2, abs=1e-12)
    assert round(ap["q1"], 4) == 0.7556
    assert round(ap["q2"], 4) == 0.4167
    assert round(res.aggregate("run", "AP@5"), 4) == 0.5861


# ---------------------------------------------------------------- notebook mistakes


def test_mistake_ranking_by_ascending_score() -> None:
    """assay ranks by descending score. q2's documents carry scores 5..1 in the order of the
    relevance list [0, 0, 1, 1, 0]; ranking by ascending score would read [0, 1, 1, 0, 0]."""
    qrels, run = _ranked_lists({"q2": SEED_LISTS["q2"]})
    correct_ap = (1 / 3 + 2 / 4) / 2  # relevant at ranks 3 and 4
    ascending_ap = (1 / 2 + 2 / 3) / 2  # relevant at ranks 2 and 3
    correct_rr, ascending_rr = 1 / 3, 1 / 2
    assert not math.isclose(correct_ap, ascending_ap)
    res = assay.evaluate(qrels, run, ["AP", "RR"])
    assert res.per_query("run", "AP")["q2"] == pytest.approx(correct_ap, abs=1e-12)
    assert res.per_query("run", "AP")["q2"] != pytest.approx(ascending_ap, abs=1e-6)
    assert res.per_query("run", "RR")["q2"] == pytest.approx(correct_rr, abs=1e-12)
    assert res.per_query("run", "RR")["q2"] != pytest.approx(ascending_rr, abs=1e-6)
    # And there is no way to ask for the ascending order.
    with pytest.raises(TypeError, match="order"):
        assay.evaluate(qrels, run, "AP", order="ascending")


def test_mistake_ndcg_normalised_by_full_ideal_dcg() -> None:
    """NDCG@k = DCG@k / IDCG@k, the ideal ranking truncated at k too. Grades 3, 2, 1, 0, the
    run ranks them 2, 3, 1, 0; at k = 2:
    DCG@2 = 2 + 3 / log2(3); IDCG@2 = 3 + 2 / log2(3); full IDCG = IDCG@2 + 1 / log2(4)."""
    qrels = {"q": {"a": 3, "b": 2, "c": 1, "d": 0}}
    rows = [("q", "b", 4.0), ("q", "a", 3.0), ("q", "c", 2.0), ("q", "d", 1.0)]
    aq, ar = build(qrels, rows)
    dcg2 = 2 + 3 / math.log2(3)
    idcg2 = 3 + 2 / math.log2(3)
    idcg_full = idcg2 + 1 / math.log2(4) + 0 / math.log2(5)
    correct, mistaken = dcg2 / idcg2, dcg2 / idcg_full
    assert correct == pytest.approx(0.913402, abs=1e-6)
    assert mistaken == pytest.approx(0.817494, abs=1e-6)
    got = assay.evaluate(aq, ar, "ndcg@2").per_query("run", "ndcg@2")["q"]
    assert got == pytest.approx(correct, abs=1e-12)
    assert got != pytest.approx(mistaken, abs=1e-6)
    # And ndcg has no parameter to normalise differently.
    with pytest.raises(assay.MetricError):
        make(REGISTRY["ndcg"], 2, ideal="full")
