"""The vectorised kernels against the plain-Python reference (tests/reference.py).

Hypothesis draws small collections with frequent score ties, unjudged and unpooled documents,
qrels queries without results, run queries without qrels and queries without relevant
documents. Every metric x a few parameter settings x every convention combination (ties x
judged_only x missing x no_relevant) must agree with the reference to 1e-9, per query and in
the aggregate. ties='average' is checked against brute-force enumeration of the tied orders.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import assay
import reference as ref
from assay.metrics import REGISTRY, make
from reference import Conv, Setting

# ---------------------------------------------------------------- parameter settings

GAIN_MAP = {0: 0.0, 1: 1.0, 2: 4.0, 3: 2.5, 4: 9.0}  # not monotone in the grade
GAIN_MAP_ZERO = {0: 0.5, 1: 1.0, 2: 2.0, 3: 3.0, 4: 4.0}  # a judged grade 0 gains something


def S(name: str, k: int | None = None, **params: Any) -> Setting:
    return Setting(name, k, params)


GROUPS: dict[str, list[Setting]] = {
    "P": [S("P"), S("P", 1), S("P", 3), S("P", 5), S("P", 20), S("P", 3, rel=2), S("P", 5, rel=0)],
    "R": [S("R"), S("R", 3), S("R", 20), S("R", 5, rel=2)],
    "F": [S("F"), S("F", 3), S("F", 5, beta=0.5), S("F", beta=2.0, rel=2), S("F", 20)],
    "AP": [S("AP"), S("AP", 1), S("AP", 3), S("AP", 10), S("AP", rel=2), S("AP", 5, rel=0)],
    "gm_map": [S("gm_map"), S("gm_map", rel=2)],
    "Rprec": [S("Rprec"), S("Rprec", rel=2)],
    "RR": [S("RR"), S("RR", 1), S("RR", 3), S("RR", 5, rel=2)],
    "success": [
        S("success"),
        S("success", 1),
        S("success", 3),
        S("success", 5),
        S("success", 3, rel=3),
    ],
    "num_ret": [S("num_ret")],
    "num_rel": [S("num_rel"), S("num_rel", rel=2)],
    "num_rel_ret": [S("num_rel_ret"), S("num_rel_ret", rel=3)],
    "judged": [S("judged"), S("judged", 1), S("judged", 5), S("judged", 20)],
    "relative_P": [
        S("relative_P"),
        S("relative_P", 1),
        S("relative_P", 3),
        S("relative_P", 20),
        S("relative_P", 3, rel=2),
    ],
    "set_map": [S("set_map"), S("set_map", rel=2)],
    "num_nonrel_judged_ret": [S("num_nonrel_judged_ret"), S("num_nonrel_judged_ret", rel=2)],
    "unjudged": [S("unjudged"), S("unjudged", 1), S("unjudged", 5), S("unjudged", 20)],
    "binG": [S("binG"), S("binG", rel=2)],
    "bpref": [S("bpref"), S("bpref", rel=2)],
    "infAP": [S("infAP"), S("infAP", rel=2)],
    "iprec": [
        S("iprec"),
        S("iprec", recall=0.1),
        S("iprec", recall=0.3),
        S("iprec", recall=0.5),
        S("iprec", recall=1.0),
        S("iprec", recall=0.5, rel=2),
    ],
    "11pt_avg": [S("11pt_avg"), S("11pt_avg", rel=2)],
    "dcg": [
        S("dcg"),
        S("dcg", 3),
        S("dcg", 5, gain="exp"),
        S("dcg", 5, gain=GAIN_MAP),
        S("dcg", 10, discount="jk"),
        S("dcg", discount="jk", b=3.0),
    ],
    "ndcg": [
        S("ndcg"),
        S("ndcg", 1),
        S("ndcg", 3),
        S("ndcg", 10),
        S("ndcg", gain="exp"),
        S("ndcg", 3, gain="exp"),
        S("ndcg", discount="jk"),
        S("ndcg", 5, discount="jk", b=3.0),
        S("ndcg", gain="exp", discount="jk", b=10.0),
    ],
    # Some settings are kept in groups of their own so that a failure there does not hide
    # failures of the other settings of the metric: custom gain maps, custom gain maps that
    # give grade 0 a gain, and err / pfound with an explicit gmax.
    "ndcg[map]": [S("ndcg", gain=GAIN_MAP), S("ndcg", 3, gain=GAIN_MAP)],
    "dcg[gain0]": [S("dcg", 5, gain=GAIN_MAP_ZERO), S("dcg", gain=GAIN_MAP_ZERO)],
    "ndcg[gain0]": [S("ndcg", gain=GAIN_MAP_ZERO), S("ndcg", 3, gain=GAIN_MAP_ZERO)],
    "err": [S("err"), S("err", 3)],
    "err[gmax]": [S("err", gmax=4), S("err", 5, gmax=6)],
    "pfound": [S("pfound"), S("pfound", 3, pbreak=0.5)],
    "pfound[gmax]": [S("pfound", pbreak=0.5, gmax=4), S("pfound", 5, pbreak=0.05, gmax=6)],
    "rbp": [S("rbp"), S("rbp", 3, p=0.5), S("rbp", rel=2), S("rbp", 20, p=0.95)],
    "rbp_resid": [S("rbp_resid"), S("rbp_resid", 3, p=0.5), S("rbp_resid", 20)],
    "discordant_pairs": [S("discordant_pairs"), S("discordant_pairs", 3)],
    "pairwise_accuracy": [S("pairwise_accuracy"), S("pairwise_accuracy", 3)],
    "kendall_tau": [S("kendall_tau"), S("kendall_tau", 3)],
    "mse": [S("mse")],
    "rmse": [S("rmse")],
}

TIES = ("docno", "input", "average")
MISSING = ("zero", "skip")
NO_RELEVANT = ("zero", "one", "skip", "nan")


def to_metric(s: Setting) -> assay.Metric:
    return make(REGISTRY[s.name], s.k, **s.params)


def average_ok(s: Setting) -> bool:
    """Whether assay computes ``s`` under ties='average' (else it raises ConventionError)."""
    return s.ref.average_ties and not (s.ref.pairwise and s.k is not None)


# ---------------------------------------------------------------- collections

SCORES = (-1.5, -0.0, 0.0, 0.5, 1.0, 1.0000000000000002, 2.0, 4.0)
# Byte order differs from numeric and from length order ("d10" < "d2"); two non-ASCII ids.
DOCS = ("d1", "d2", "d3", "d10", "d11", "d20", "D5", "a", "b0", "z", "d01", "d001", "é", "ü1")
QRELS_QUERIES = ("q1", "q2", "q10", "Q3")
RUN_ONLY_QUERIES = ("q9", "x")

Qrels = dict[str, dict[str, int]]
RunRows = list[tuple[str, str, float]]


@st.composite
def collections(draw: st.DrawFn, max_docs: int = 12) -> tuple[Qrels, RunRows]:
    queries = draw(st.lists(st.sampled_from(QRELS_QUERIES), min_size=1, max_size=3, unique=True))
    qrels: Qrels = {}
    for q in queries:
        # About one query in four has no relevant document at all.
        no_rel = draw(st.integers(0, 3)) == 0
        grade = st.sampled_from((-1, 0)) if no_rel else st.integers(-1, 4)
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=9, unique=True))
        qrels[q] = {d: draw(grade) for d in docs}
    # A small palette of scores per collection, so that ties are frequent.
    palette = draw(st.lists(st.sampled_from(SCORES), min_size=1, max_size=4, unique=True))
    run_queries = draw(
        st.lists(
            st.sampled_from(queries + list(RUN_ONLY_QUERIES)), min_size=1, max_size=4, unique=True
        )
    )
    rows: RunRows = []
    for q in run_queries:
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=0, max_size=max_docs, unique=True))
        rows.extend((q, d, draw(st.sampled_from(palette))) for d in docs)
    if not rows:
        rows.append((queries[0], DOCS[0], palette[0]))
    rows = draw(st.permutations(rows))  # interleave queries in the input
    return qrels, rows


def build(
    qrels: Mapping[str, Mapping[str, int]],
    rows: Sequence[tuple[str, str, float]],
) -> tuple[assay.Qrels, assay.Run]:
    qcols = [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    aq = assay.Qrels.from_columns(
        [x[0] for x in qcols], [x[1] for x in qcols], [x[2] for x in qcols]
    )
    ar = assay.Run.from_columns(
        [x[0] for x in rows], [x[1] for x in rows], [x[2] for x in rows], name="run"
    )
    return aq, ar


def same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


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
@given(data=collections())
def test_matches_reference(group: str, ties: str, data: tuple[Qrels, RunRows]) -> None:
    compare(*data, GROUPS[group], ties)


@pytest.mark.parametrize("group", sorted(GROUPS))
@AVERAGE
@given(data=collections(max_docs=7))
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
@given(data=collections())
def test_matches_reference_short_queries_skip(group: str, data: tuple[Qrels, RunRows]) -> None:
    """short_queries='skip': metrics at cutoff k leave out queries with fewer than k judged
    documents, under every other convention."""
    compare(*data, GROUPS[group], "input", short_queries="skip")


# ---------------------------------------------------------------- the harness itself


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
    q = ref.QueryFacts(judged=(0, 1, 2, 3, 1), qrels_max=3)
    group = [s for g in GROUPS.values() for s in g if average_ok(s)]
    fast = ref.raw_values(rows, q, group, "average", distinct=True)
    slow = ref.raw_values(rows, q, group, "average", distinct=False)
    for s in group:
        assert same(fast[s], slow[s]), s


def test_reference_hand_values() -> None:
    """The reference on a list worked by hand, so that it is not only compared with assay."""
    # Ranked grades: 2, 0, unpooled, 1, 0 ; the query judges grades {2, 0, 1, 0, 3}: R = 3.
    items = [(5.0, 2), (4.0, 0), (3.0, ref.NONPOOL), (2.0, 1), (1.0, 0)]
    q = ref.QueryFacts(judged=(2, 0, 1, 0, 3), qrels_max=3)
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


# ---------------------------------------------------------------- conventions refused


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


def test_missing_error_convention() -> None:
    qrels, run = build({"q1": {"a": 1}, "q2": {"b": 1}}, [("q1", "a", 1.0)])
    with pytest.raises(assay.MissingQueryError):
        assay.evaluate(qrels, run, "P@5", missing="error")
    assert assay.evaluate(qrels, run, "P@5", missing="skip").per_query("run", "P@5") == {
        "q1": pytest.approx(0.2)
    }
