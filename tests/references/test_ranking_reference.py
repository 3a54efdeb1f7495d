"""The vectorised kernels against the plain-Python reference (references/slow_ranking*.py).

Hypothesis draws small collections with frequent score ties, unjudged and unpooled documents,
qrels queries without results, run queries without qrels and queries without relevant
documents. Every metric x a few parameter settings x every convention combination (ties x
judged_only x missing x no_relevant) must agree with the reference to 1e-9, per query and in
the aggregate. ties='average' is checked against brute-force enumeration of the tied orders.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import assay
import references.slow_ranking as measures
import references.slow_ranking_conventions as ref
from assay.metrics import REGISTRY
from references.slow_ranking_conventions import Conv, Setting
from strategies.ranking import Qrels, RunRows, reference_collections
from support.ranking import GROUPS, MISSING, NO_RELEVANT, S, average_ok, build, same, to_metric


def compare(
    qrels: Qrels,
    rows: RunRows,
    group: Sequence[Setting],
    ties: str,
    short_queries: str = "score",
) -> None:
    """Every setting x judged_only x missing x no_relevant under one tie convention."""
    aq, ar = build(qrels, rows)
    if ties == "average":
        bad = [s for s in group if not average_ok(s)]
        for s in bad:
            with pytest.raises(assay.ConventionError):
                assay.evaluate(aq, ar, to_metric(s), ties="average")
        group = [s for s in group if average_ok(s)]
        if not group:
            return
    problems: list[str] = []
    for judged_only in (False, True):
        raw = ref.raw_collection(qrels, rows, group, ties, judged_only)
        for missing, no_rel in itertools.product(MISSING, NO_RELEVANT):
            conv = Conv(ties, missing, no_rel, judged_only, short_queries)
            res = assay.evaluate(aq, ar, [to_metric(s) for s in group], **conv.kwargs())
            for s in group:
                expected = ref.apply_conventions(raw, s, conv)
                mv = res["run", to_metric(s)]
                got = mv.as_dict()
                where = f"{s} under {conv}"
                if set(got) != set(expected):
                    problems.append(
                        f"{where}: queries {sorted(got)} != expected {sorted(expected)}"
                    )
                    continue
                bad_q = {
                    q: (got[q], expected[q]) for q in expected if not same(got[q], expected[q])
                }
                if bad_q:
                    problems.append(f"{where}: per query (got, expected) {bad_q}")
                    continue
                agg = ref.aggregate([expected[q] for q in sorted(expected)], s.ref.aggregate)
                if not same(mv.aggregate, agg):
                    problems.append(f"{where}: aggregate {mv.aggregate!r} != expected {agg!r}")
    assert not problems, "\n".join(problems[:20])


# ~60 settings x 16 convention combinations per example; the budget is ~60 s for the files.
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


AVERAGE = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


MAX_ARRANGEMENTS = 400


@pytest.mark.parametrize("ties", ["docno", "input"])
@pytest.mark.parametrize("group", sorted(GROUPS))
@FAST
@given(data=reference_collections())
def test_matches_reference(group: str, ties: str, data: tuple[Qrels, RunRows]) -> None:
    compare(*data, GROUPS[group], ties)


@pytest.mark.parametrize("group", sorted(GROUPS))
@AVERAGE
@given(data=reference_collections(max_docs=7))
def test_matches_reference_average(group: str, data: tuple[Qrels, RunRows]) -> None:
    qrels, rows = data
    # Brute force: keep the number of tied orders to enumerate small.
    assume(
        all(ref.n_arrangements(ref.query_rows(qrels, rows, q)) <= MAX_ARRANGEMENTS for q in qrels)
    )
    compare(qrels, rows, GROUPS[group], "average")


# Fewer examples: short_queries="skip" only adds a filter in front of the other conventions.
SHORT = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("group", sorted(GROUPS))
@SHORT
@given(data=reference_collections())
def test_matches_reference_short_queries_skip(group: str, data: tuple[Qrels, RunRows]) -> None:
    """short_queries='skip': metrics at cutoff k leave out queries with fewer than k judged
    documents, under every other convention."""
    compare(*data, GROUPS[group], "input", short_queries="skip")


def test_every_metric_has_a_reference_and_settings() -> None:
    assert set(ref.REFERENCE) == set(REGISTRY)
    covered = {s.name for group in GROUPS.values() for s in group}
    assert covered == set(REGISTRY)
    # The reference's assumptions about each declaration.
    for name, spec in REGISTRY.items():
        r = ref.REFERENCE[name]
        assert spec.average_ties == r.average_ties, name
        assert spec.aggregate == r.aggregate, name
        assert spec.from_qrels == r.from_qrels, name
        assert (spec.cutoff != "none") == r.cutoff, name
        assert {p.name for p in spec.params} == set(r.defaults), name
        for p in spec.params:
            assert p.default == r.defaults[p.name], (name, p.name)


@settings(max_examples=40, deadline=None)
@given(
    grades=st.lists(st.integers(-2, 3), max_size=6),
    scores=st.lists(st.sampled_from((0.0, 1.0)), min_size=6, max_size=6),
)
def test_distinct_arrangements_average_like_all_permutations(
    grades: list[int], scores: list[float]
) -> None:
    """The multiset shortcut of reference.arrangements equals enumerating all m! orders."""
    rows = [(f"d{i}", scores[i], None if g == -1 else g) for i, g in enumerate(grades)]
    q = measures.QueryFacts(judged=(0, 1, 2, 3, 1), qrels_max=3)
    group = [s for g in GROUPS.values() for s in g if average_ok(s)]
    fast = ref.raw_values(rows, q, group, "average", distinct=True)
    slow = ref.raw_values(rows, q, group, "average", distinct=False)
    for s in group:
        assert same(fast[s], slow[s]), s


def test_reference_hand_values() -> None:
    """The reference on a list worked by hand, so that it is not only compared with assay."""
    # Ranked grades: 2, 0, unpooled, 1, 0 ; the query judges grades {2, 0, 1, 0, 3}: R = 3.
    items = [(5.0, 2), (4.0, 0), (3.0, measures.NONPOOL), (2.0, 1), (1.0, 0)]
    q = measures.QueryFacts(judged=(2, 0, 1, 0, 3), qrels_max=3)
    v = {
        s: s.value(items, q)
        for s in [
            S("P", 2),
            S("AP"),
            S("RR"),
            S("Rprec"),
            S("R", 4),
            S("bpref"),
            S("ndcg", 2),
            S("err"),
            S("rbp", p=0.5),
            S("discordant_pairs"),
            S("iprec", recall=0.5),
        ]
    }
    assert v[S("P", 2)] == 0.5
    assert v[S("AP")] == pytest.approx((1 / 1 + 2 / 4) / 3)
    assert v[S("RR")] == 1.0
    assert v[S("Rprec")] == pytest.approx(1 / 3)  # top 3: 2, 0, unpooled
    assert v[S("R", 4)] == pytest.approx(2 / 3)
    # bpref: N = 2; first relevant has no non-relevant above (1), second has 1: 1 - 1/2.
    assert v[S("bpref")] == pytest.approx((1 + 0.5) / 3)
    # ndcg@2: DCG = 2 + 0; IDCG@2 = 3 + 2 / log2(3).
    assert v[S("ndcg", 2)] == pytest.approx(2 / (3 + 2 / math.log2(3)))
    # err with gmax 3: R_2 = 3/8, R_0 = 0, R_1 = 1/8 at rank 4.
    assert v[S("err")] == pytest.approx(3 / 8 + (5 / 8) * (1 / 8) / 4)
    assert v[S("rbp", p=0.5)] == pytest.approx(0.5 * (1 + 0.5**3))
    # pairs with the lower grade above: (0 above 1), (unpooled=0 above 1).
    assert v[S("discordant_pairs")] == 2
    # recall 0.5 -> lround(1.5) = 2 relevant: reached at rank 4 with precision 2/4.
    assert v[S("iprec", recall=0.5)] == pytest.approx(0.5)
