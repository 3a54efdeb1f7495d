"""RetrievalMetrics follows the result protocol: records at three levels, provenance with the
back-end, k and the options, names resolved however they are spelled."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from assay._result import Result
from assay.embeddings import RetrievalMetrics, retrieval_metrics


@pytest.fixture(scope="module")
def res() -> RetrievalMetrics:
    x = np.array([[0.0], [0.1], [1.0], [1.1], [5.0], [5.2]])
    return retrieval_metrics(
        x, ["a", "a", "b", "b", "a", "b"], metrics=["precision@1", "map@r", "mrr"], backend="numpy"
    )


def test_protocol(res: RetrievalMetrics) -> None:
    assert isinstance(res, Result) and dataclasses.is_dataclass(res)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.k = 3  # type: ignore[misc]
    prov = res.provenance
    assert prov["backend"] == "numpy" and prov["faiss_version"] is None
    assert (prov["k"], prov["n_neighbours"], prov["exclude_self"], prov["distance"]) == (
        2,
        2,
        True,
        "euclidean",
    )
    (
        json.dumps(res.records("summary")),
        json.dumps(res.records("class")),
        json.dumps(res.records("query")),
    )
    assert res.to_pandas().shape == (3, 5)


def test_values_and_names(res: RetrievalMetrics) -> None:
    assert res.metrics == ("precision@1", "map_at_r", "mrr@2")
    # Neighbours (leave-one-out): 0 -> 1 (a), 2 (b); 1 -> 0 (a), 2 (b); 2 -> 3 (b), 1 (a);
    # 3 -> 2 (b), 1 (a); 4 -> 5 (b), 3 (b); 5 -> 4 (a), 3 (b). R = 2 for every query.
    np.testing.assert_allclose(res["precision@1"], [1, 1, 1, 1, 0, 0])
    np.testing.assert_allclose(res["map@r"], [0.5, 0.5, 0.5, 0.5, 0, 0.25])
    np.testing.assert_allclose(res["mrr"], [1, 1, 1, 1, 0, 0.5])
    assert res["map_at_r"] is res["map@r"] and res["mrr@2"] is res["mrr"]
    assert res.mean("precision@1") == pytest.approx(4 / 6)
    assert res.per_class("map@r") == {"a": pytest.approx(1 / 3), "b": pytest.approx(1.25 / 3)}
    assert res.class_mean() == {
        m: pytest.approx(v) for m, v in res.mean().items()
    }  # equal-size classes
    rows = res.records("class")
    assert rows[0] == {
        "metric": "precision@1",
        "class": "a",
        "value": pytest.approx(2 / 3),
        "n_queries": 3,
    }
    assert res.records("query")[4] == {
        "metric": "precision@1",
        "query": 4,
        "label": "a",
        "value": 0.0,
    }
    from assay import MetricError

    with pytest.raises(MetricError, match="was not computed"):
        res["ndcg@3"]
