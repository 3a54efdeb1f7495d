"""Data-model internals: the canonical row order and the duplicate check."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay.data import Run


def _rows(run: Run) -> list[tuple[str, str, float]]:
    t = run.to_arrow()
    return list(
        zip(t["query"].to_pylist(), t["doc"].to_pylist(), t["score"].to_pylist(), strict=True)
    )


@pytest.mark.parametrize("seed", range(5))
def test_presorted_and_shuffled_input_give_the_same_run(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 400
    q = rng.integers(0, 7, n).astype(str)
    d = np.array([f"d{i}" for i in rng.permutation(n)])
    s = rng.integers(0, 5, n).astype(float)  # many ties: docno decides
    shuffled = Run.from_columns(q, d, s)
    canonical = shuffled.to_arrow()
    presorted = Run.from_columns(canonical["query"], canonical["doc"], canonical["score"])
    assert _rows(shuffled) == _rows(presorted)
    # The stored order is trec_eval's: query, score descending, docno descending (bytes).
    rows = _rows(shuffled)
    by_doc = sorted(rows, key=lambda r: r[1].encode(), reverse=True)
    assert rows == sorted(by_doc, key=lambda r: (r[0].encode(), -r[2]))


def test_presorted_input_keeps_input_positions_for_ties_input() -> None:
    run = Run.from_columns(["q"] * 3, ["a", "c", "b"], [1.0, 1.0, 1.0])
    # trec order: c, b, a ; input order: a, c, b
    assert run.to_arrow()["doc"].to_pylist() == ["c", "b", "a"]
    order = run.order("input")
    assert order is not None
    assert [run.to_arrow()["doc"][int(i)].as_py() for i in order] == ["a", "c", "b"]


def test_duplicate_detected_even_when_scores_differ_and_rows_far_apart() -> None:
    q = ["q1"] * 1000
    d = [f"d{i}" for i in range(1000)]
    d[999] = "d3"
    with pytest.raises(assay.DuplicateError, match="'d3'"):
        Run.from_columns(q, d, np.arange(1000.0))


def test_same_doc_in_different_queries_is_not_a_duplicate() -> None:
    run = Run.from_columns(["q1", "q2", "q3"], ["d", "d", "d"], [1.0, 2.0, 3.0])
    assert len(run) == 3


def test_dict_keys_equal_as_strings_are_duplicates() -> None:
    with pytest.raises(assay.DuplicateError):
        Run.from_dict({"q": {1: 1.0, "1": 2.0}})
    with pytest.raises(assay.DuplicateError):
        assay.Qrels.from_dict({"q": {b"d".decode(): 1, "d ".strip(): 0}} | {"q2": {7: 1, "7": 0}})


def test_missing_zero_scores_an_absent_query_as_an_empty_ranking():
    # rbp_resid of an empty ranking is 1 (all of the weight is unassessed), whichever way the
    # ranking came to be empty: no results at all, or only unjudged ones under judged_only.
    qrels = assay.Qrels.from_dict({"q1": {"a": 1}, "q2": {"b": 1}})
    absent = assay.Run.from_dict({"q1": {"a": 1.0}}, name="absent")
    unjudged = assay.Run.from_dict({"q1": {"a": 1.0}, "q2": {"zzz": 1.0}}, name="unjudged")
    metrics = ["rbp_resid(p=0.8)", "P@5", "ndcg@10"]  # bare rbp_resid is trec_eval's (p=0.9)
    a = assay.evaluate(qrels, absent, metrics, missing="zero")
    u = assay.evaluate(qrels, unjudged, metrics, judged_only=True)
    for m in ("rbp_resid(p=0.8)", "P@5", "ndcg@10"):
        assert a["absent", m].as_dict()["q2"] == u["unjudged", m].as_dict()["q2"]
    assert a["absent", "rbp_resid(p=0.8)"].as_dict()["q2"] == 1.0


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"run_names": ("a", "b")}, "run_names"),  # three noise levels by default
        ({"noise": ()}, "run_names"),
        ({"noise": (-1.0,)}, "noise"),
        ({"noise": (float("nan"),)}, "noise"),
        ({"grade_probs": (0.0, 0.0)}, "grade_probs"),
        ({"grade_probs": (0.5, -0.1)}, "grade_probs"),
    ],
)
def test_synthetic_refuses_bad_options(options: dict, option: str) -> None:
    with pytest.raises(assay.OptionError) as info:
        assay.datasets.synthetic(n_queries=2, docs_per_query=2, **options)
    assert info.value.option == option


def test_qrels_make_their_document_dictionary_on_first_use():
    """Rows are grouped by query in input order; the document ids of any rows read the same
    before and after the dictionary of distinct documents is made, and the join's keys are
    sorted whatever the rows' order."""
    qrels = assay.Qrels.from_columns(
        ["q2", "q1", "q2", "q1", "q3"], ["b", "z", "a", "b", "b"], [1, 0, 2, 1, 3]
    )
    assert qrels.queries == ["q1", "q2", "q3"]
    rows = np.arange(len(qrels))
    before = qrels.docs_of(rows).to_pylist()
    assert before == ["z", "b", "b", "a", "b"]
    assert qrels.grades.tolist() == [0, 1, 1, 2, 3]
    assert sorted(qrels.doc_ids.to_pylist()) == ["a", "b", "z"]  # made now
    assert qrels.docs_of(rows).to_pylist() == before
    keys, grades = qrels.judgment_keys()
    assert (np.diff(keys) > 0).all() and sorted(grades.tolist()) == [0, 1, 1, 2, 3]
    assert qrels.to_dict() == {"q1": {"z": 0, "b": 1}, "q2": {"b": 1, "a": 2}, "q3": {"b": 3}}
