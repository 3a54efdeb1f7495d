"""Invariances of every ranking metric, and random rankings.

* invariance to the order of queries in the input, to bijective renamings of query and
  document ids, and (ties='docno' / 'average') to the order of the input rows;
* random rankings: exact expectations under ties='average' with every score tied, and a
  statistical sanity check on a synthetic collection.

Expected values are computed by hand (closed forms), never with assay itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.metrics import REGISTRY
from references.slow_ranking_conventions import Setting
from strategies.ranking import Qrels, RunRows, reference_collections
from support.ranking import PROPS, TIES, S, average_ok, build, per_query, same


# Every metric with its default parameters, plus a cutoff where one is allowed. err and pfound
# get an explicit gmax: their default (the qrels' maximum grade) is exercised by
# references/test_ranking_reference.py, and these tests are about other properties.
def _property_settings() -> list[Setting]:
    out = []
    for name, spec in REGISTRY.items():
        params = {"gmax": 4} if name in ("err", "pfound") else {}
        out.append(S(name, **params))
        if spec.cutoff != "none":
            out.append(S(name, 3, **params))
    return out


PROPERTY_SETTINGS = _property_settings()


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
@given(
    data=reference_collections(),
    ties=st.sampled_from(TIES),
    order=st.randoms(use_true_random=False),
)
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
    data=reference_collections(),
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
@given(
    data=reference_collections(), ties=st.sampled_from(TIES), rng=st.randoms(use_true_random=False)
)
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
