"""Oracle: pytorch-metric-learning's own accuracy-calculator test fixture
(``tests/utils/test_calculate_accuracies.py``, re-checked with pytorch-metric-learning 2.9.0;
../shared/data/embeddings/pml_test_fixtures.json). Every figure the file holds is checked:
the 6-query table of given neighbour labels (reference set including the query or not: P@1
global and per class, R-Precision, MAP@R, MAP and MRR per query) and the three 1-D embedding
cases (global and class-mean averages), the latter through the whole k-NN search on both
back-ends."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from assay import CoverageWarning
from assay.embeddings import (
    map_at_k,
    map_at_r,
    mrr,
    neighbour_metrics,
    precision,
    r_precision,
    retrieval_metrics,
)
from conftest import shared_file

RTOL = 1e-6  # the fixture's np.isclose(rtol=1e-6, atol=0)
#: pytorch-metric-learning's names -> assay's, for the per-query figures.
PER_QUERY = {
    "r_precision": "r_precision",
    "mean_average_precision_at_r": "map_at_r",
    "mean_average_precision": "map",
    "mean_reciprocal_rank": "mrr",
}


@pytest.fixture(scope="module")
def fixture() -> dict:
    return json.loads(shared_file("embeddings", "pml_test_fixtures.json").read_text("utf-8"))


def _table(fixture: dict, includes_query: bool) -> tuple[np.ndarray, list, dict, dict]:
    case = fixture["case_knn_labels_given"]
    knn = np.array(case["knn_labels"])
    if includes_query:  # the fixture's call drops the first column (the query itself)
        knn = knn[:, 1:]
    lc = case["label_counts"]
    counts = dict(zip(lc["labels"], lc["counts_in_reference"], strict=True))
    key = f"ref_includes_query={includes_query}"
    return knn, case["query_labels"], counts, case["expected"][key]


def test_issue_headline_figures(fixture: dict) -> None:
    knn, labels, counts, _ = _table(fixture, False)
    res = neighbour_metrics(knn, labels, counts, metrics=["precision@1", "r_precision", "map@r"])
    assert round(res.mean("precision@1"), 4) == 0.3333
    assert round(res.mean("r_precision"), 4) == 0.3722
    assert round(res.mean("map@r"), 4) == 0.2446


@pytest.mark.parametrize("includes_query", [False, True])
def test_per_query_figures(fixture: dict, includes_query: bool) -> None:
    knn, labels, counts, expected = _table(fixture, includes_query)
    res = neighbour_metrics(
        knn, labels, counts, metrics=list(PER_QUERY.values()), exclude_self=includes_query
    )
    assert res.k == knn.shape[1]  # MAP and MRR look at every neighbour given, as the fixture
    for pml_name, name in PER_QUERY.items():
        got = res[name]
        want = expected[pml_name]["per_query"]
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=0, err_msg=name)
        # The means agree with the declared measures called one by one.
        single = {"r_precision": r_precision, "map_at_r": map_at_r, "map": map_at_k, "mrr": mrr}
        assert single[name](knn, labels, counts, exclude_self=includes_query) == pytest.approx(
            np.mean(want), rel=RTOL
        )


@pytest.mark.parametrize("includes_query", [False, True])
def test_precision_at_1_global_and_per_class(fixture: dict, includes_query: bool) -> None:
    knn, labels, counts, expected = _table(fixture, includes_query)
    want = expected["precision_at_1"]
    res = neighbour_metrics(
        knn, labels, counts, metrics=["precision@1"], exclude_self=includes_query
    )
    assert res.mean("precision@1") == pytest.approx(want["micro"], rel=RTOL)
    per_class = res.per_class("precision@1")
    assert list(per_class) == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(list(per_class.values()), want["per_class(labels 0..4)"], rtol=RTOL)
    macro = np.mean(want["per_class(labels 0..4)"])
    assert res.class_mean("precision@1") == pytest.approx(macro, rel=RTOL)
    kw = {"k": 1, "exclude_self": includes_query}
    assert precision(knn, labels, counts, **kw) == pytest.approx(want["micro"], rel=RTOL)
    assert precision(knn, labels, counts, average="macro", **kw) == pytest.approx(macro, rel=RTOL)


def test_every_query_lone_gives_nan(fixture: dict) -> None:
    knn, labels, _, _ = _table(fixture, False)
    with pytest.warns(CoverageWarning, match="6 of 6 queries"):
        res = neighbour_metrics(knn, labels, {9: 3}, metrics=["precision@1", "map@r"])
    assert res.n_lone == 6
    assert np.isnan(res.mean("precision@1")) and np.isnan(res.class_mean("map@r"))


# ---------------------------------------------------------------- 1-D embeddings


def _one_d_cases() -> list[tuple]:
    ar = np.arange(10)[:, None].astype(np.float64)
    half = np.arange(20) / 2.0
    ref2 = np.concatenate([half[::2], half[1::2]])[:, None]
    labels2 = np.concatenate([np.arange(10), np.ones(10, dtype=int)])
    q3, r3 = ar.copy(), ar.copy()
    q3[-1], r3[0] = 100, -100
    return [
        (ar, np.arange(10), ar, np.arange(10), False),
        (ar, np.arange(10), ref2, labels2, True),
        (q3, np.array([0] * 9 + [1]), r3, np.array([1] + [0] * 9), False),
    ]


NAMES = {
    "precision_at_1": "precision@1",
    "r_precision": "r_precision",
    "mean_average_precision_at_r": "map_at_r",
}


@pytest.mark.parametrize("backend", ["faiss", "numpy"])
@pytest.mark.parametrize("case", [0, 1, 2])
def test_one_d_embeddings(fixture: dict, case: int, backend: str) -> None:
    q, ql, r, rl, includes_query = _one_d_cases()[case]
    spec = fixture["case_1d_embeddings"][case]
    assert spec["ref_includes_query"] == includes_query
    # pytorch-metric-learning's k=None: MAP looks at the whole reference set.
    whole = r.shape[0] - int(includes_query)
    metrics = [*NAMES.values(), f"map@{whole}"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)  # case 1: every class but 1 is lone
        res = retrieval_metrics(
            q, ql, r, rl, metrics=metrics, exclude_self=includes_query, backend=backend
        )
    names = {**NAMES, "mean_average_precision": f"map@{whole}"}
    micro = spec.get("expected", spec.get("expected_global_average"))
    for pml_name, want in micro.items():
        assert res.mean(names[pml_name]) == pytest.approx(want, rel=RTOL), pml_name
    for pml_name, want in spec.get("expected_avg_of_avgs", {}).items():
        assert res.class_mean(names[pml_name]) == pytest.approx(want, rel=RTOL), pml_name
