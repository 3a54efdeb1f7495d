"""Differential test: assay's ``ties="average"`` against scikit-learn's ndcg_score / dcg_score.

scikit-learn averages the gain over tied scores (McSherry & Najork 2008), which is what
``ties="average"`` computes: the expected value over all orders of the tied documents. Each
row of ``y_true`` / ``y_score`` is one query whose every document is judged (grade = y_true)
and retrieved (score = y_score); ``ndcg_score`` on a single row is that query's value.
Gains are linear and the discount 1/log2(rank + 1) in both. A row without any positive grade
scores 0 in scikit-learn, and in assay under the default ``no_relevant="zero"``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from strategies.ranking import graded_matrices

sklearn_metrics = pytest.importorskip("sklearn.metrics")
ndcg_score = sklearn_metrics.ndcg_score
dcg_score = sklearn_metrics.dcg_score

TOL = 1e-9


def to_assay(y_true: np.ndarray, y_score: np.ndarray) -> tuple[assay.Qrels, assay.Run, list[str]]:
    n_rows, n_cols = y_true.shape
    queries = [f"q{i}" for i in range(n_rows)]
    q = np.repeat(queries, n_cols)
    # Document ids in the reverse order of the columns, so that ties='docno' would differ from
    # both the input order and the average.
    d = [f"d{n_cols - j:03d}" for _ in range(n_rows) for j in range(n_cols)]
    qrels = assay.Qrels.from_columns(q, d, y_true.ravel())
    run = assay.Run.from_columns(q, d, y_score.ravel())
    return qrels, run, queries


def check(y_true: np.ndarray, y_score: np.ndarray, k: int | None) -> None:
    qrels, run, queries = to_assay(y_true, y_score)
    names = ["ndcg", "dcg"] if k is None else [f"ndcg@{k}", f"dcg@{k}"]
    res = assay.evaluate(qrels, run, names, ties="average")
    ndcg = res.per_query(run.name, names[0])
    dcg = res.per_query(run.name, names[1])
    for i, q in enumerate(queries):
        row_true, row_score = y_true[i : i + 1], y_score[i : i + 1]
        want_ndcg = ndcg_score(row_true, row_score, k=k)
        want_dcg = dcg_score(row_true, row_score, k=k)
        assert abs(ndcg[q] - want_ndcg) <= TOL, (q, k, row_true, row_score, ndcg[q], want_ndcg)
        assert abs(dcg[q] - want_dcg) <= TOL, (q, k, row_true, row_score, dcg[q], want_dcg)
    # scikit-learn's mean over rows is assay's aggregate
    assert abs(res.aggregate(run.name, names[0]) - ndcg_score(y_true, y_score, k=k)) <= TOL
    assert abs(res.aggregate(run.name, names[1]) - dcg_score(y_true, y_score, k=k)) <= TOL


@settings(max_examples=100, deadline=None)
@given(graded_matrices(), st.sampled_from([None, 1, 2, 3, 5, 10, 20]))
def test_agrees_with_sklearn(data: tuple[np.ndarray, np.ndarray], k: int | None) -> None:
    y_true, y_score = data
    check(y_true, y_score, k)


def test_ties_are_averaged_not_broken() -> None:
    """A fixed case where averaging differs from every tie-breaking order: not vacuous."""
    y_true = np.array([[3, 0, 1, 2, 0]])
    y_score = np.array([[1.0, 1.0, 1.0, 0.5, 1.0]])
    check(y_true, y_score, None)
    check(y_true, y_score, 2)
    qrels, run, _ = to_assay(y_true, y_score)
    avg = assay.evaluate(qrels, run, ["ndcg@2"], ties="average").aggregate(run.name, "ndcg@2")
    for ties in ("docno", "input"):
        broken = assay.evaluate(qrels, run, ["ndcg@2"], ties=ties).aggregate(run.name, "ndcg@2")
        assert abs(broken - avg) > 1e-3
    assert abs(avg - ndcg_score(y_true, y_score, k=2)) <= TOL
    assert abs(avg - ndcg_score(y_true, y_score, k=2, ignore_ties=True)) > 1e-3
