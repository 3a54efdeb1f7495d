"""RBO against the paper's equations by brute force (tests/references/rbo_equations.py), on
random rankings with ties and uneven lengths; and the per-query runs path against the
two-ranking function."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rbo_equations import rbo_reference

from assay.data import Run
from assay.meta import rbo, rbo_runs, rbo_systems
from strategies.meta import rankings


@settings(max_examples=150, deadline=None)
@given(a=rankings(), b=rankings(), p=st.sampled_from([0.5, 0.8, 0.9, 0.95]))
def test_rbo_matches_the_equations_with_ties_and_uneven_lengths(a, b, p):
    lo, hi, ext = rbo_reference(a, b, p)
    got = rbo([set(g) for g in a], [set(g) for g in b], p=p)
    assert got.min == pytest.approx(lo, abs=1e-12)
    assert got.max == pytest.approx(hi, abs=1e-12)
    assert got.res == pytest.approx(hi - lo, abs=1e-12)
    assert got.ext == pytest.approx(ext, abs=1e-12)
    assert got.min - 1e-12 <= got.ext <= got.max + 1e-12


def test_identical_rankings_have_rbo_one_and_disjoint_ones_zero():
    same = rbo(list("abcdef"), list("abcdef"), p=0.9)
    assert same.ext == pytest.approx(1.0) and same.max == pytest.approx(1.0)
    assert same.min < same.ext  # the unseen tail could still disagree
    disjoint = rbo(list("abc"), list("xyz"), p=0.9)
    assert disjoint.ext == 0.0 and disjoint.min == 0.0


def test_even_lists_without_ties_follow_eq_30_closed_form():
    a, b = list("abcdefg"), list("bacdgfe")
    p, k = 0.8, 7
    xs = [len(set(a[:d]) & set(b[:d])) for d in range(1, k + 1)]
    ext = xs[-1] / k * p**k + (1 - p) / p * sum(x / d * p**d for d, x in enumerate(xs, 1))
    lo = (
        (1 - p)
        / p
        * (sum((x - xs[-1]) * p**d / d for d, x in enumerate(xs, 1)) - xs[-1] * math.log(1 - p))
    )
    got = rbo(a, b, p=p)
    assert got.ext == pytest.approx(ext, abs=1e-14)
    assert got.min == pytest.approx(lo, abs=1e-14)


def test_depth_truncates_both_rankings():
    assert rbo(list("abcxyz"), list("abcuvw"), p=0.9, depth=3).ext == pytest.approx(1.0)


def _run(name, rows):
    q, d, s = zip(*rows, strict=True)
    return Run.from_columns(list(q), list(d), list(s), name=name)


def test_runs_query_by_query_equal_the_two_ranking_function():
    rng = np.random.default_rng(4)
    rows_a, rows_b, expect = [], [], {}
    for q in ["q1", "q2", "q3"]:
        docs = [f"d{i}" for i in range(12)]
        sa = rng.permutation(12)[: rng.integers(3, 12)]
        sb = rng.permutation(12)[: rng.integers(3, 12)]
        rows_a += [(q, docs[i], float(100 - r)) for r, i in enumerate(sa)]
        rows_b += [(q, docs[i], float(100 - r)) for r, i in enumerate(sb)]
        expect[q] = rbo([docs[i] for i in sa], [docs[i] for i in sb], p=0.9)
    res = rbo_runs(_run("a", rows_a), _run("b", rows_b), p=0.9)
    for q, lo, r, e in zip(res.queries, res.min, res.res, res.ext, strict=True):
        assert (lo, r, e) == pytest.approx((expect[q].min, expect[q].res, expect[q].ext))
    assert res.records()[-1]["query"] is None and res.records()[-1]["aggregate"] == "mean"


def test_runs_with_tied_scores_as_groups():
    a = _run("a", [("q", "x", 3.0), ("q", "y", 3.0), ("q", "z", 1.0)])
    b = _run("b", [("q", "y", 2.0), ("q", "x", 1.0), ("q", "z", 0.5)])
    grouped = rbo_runs(a, b, p=0.9, ties="group")
    expect = rbo([{"x", "y"}, "z"], ["y", "x", "z"], p=0.9)
    assert grouped.ext[0] == pytest.approx(expect.ext)
    docno = rbo_runs(a, b, p=0.9, ties="docno")  # y before x (docno descending)
    assert docno.ext[0] == pytest.approx(rbo(["y", "x", "z"], ["y", "x", "z"], p=0.9).ext)


def test_a_query_in_one_run_only_is_counted_in_a_warning():
    a = _run("a", [("q1", "x", 1.0), ("q2", "y", 1.0)])
    b = _run("b", [("q1", "x", 1.0)])
    with pytest.warns(UserWarning, match="only one of the runs"):
        res = rbo_runs(a, b)
    assert dict(zip(res.queries, res.ext, strict=True)) == {"q1": 1.0, "q2": 0.0}


def test_system_orderings_tie_equal_means():
    got = rbo_systems({"s1": 0.3, "s2": 0.2, "s3": 0.2}, {"s1": 0.5, "s3": 0.4, "s2": 0.1}, p=0.9)
    assert got.ext == pytest.approx(rbo(["s1", {"s2", "s3"}], ["s1", "s3", "s2"], p=0.9).ext)
