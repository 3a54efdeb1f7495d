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


def test_evaluate_builds_what_the_cli_shows() -> None:
    from assay.embeddings import EmbeddingEvaluation, error_reject_curve, evaluate
    from assay.embeddings.report import embedding_report
    from assay.errors import InputError, OptionError

    x = np.array([[0.0], [0.1], [1.0], [1.1], [5.0], [5.2]])
    labels = ["a", "a", "b", "b", "a", "b"]
    conf = [0.9, 0.2, 0.5, 0.7, 0.1, 0.3]
    r = evaluate(x, labels, metrics=["map@r"], backend="numpy", confidences=conf)
    assert isinstance(r, EmbeddingEvaluation) and r.view == "summary"
    assert r.curves is not None and list(r.curves) == ["map_at_r"]
    expected = error_reject_curve(r.retrieval, conf, metric="map_at_r")
    assert r.curves["map_at_r"].area == expected.area
    shown = embedding_report(r.retrieval, view="summary", curves=r.curves)
    assert r.report().records == shown.records and r.records() == shown.records
    assert r.provenance == r.retrieval.provenance
    assert len(repr(r)) < 2000 and len(repr(r.retrieval)) < 2000
    assert r._repr_html_().startswith("<div>")
    titles = [s["title"] for s in r.document()["sections"]]
    assert titles == ["Results", "Error against rejection"]
    with pytest.raises(InputError, match="5 confidences given for 6 queries"):
        evaluate(x, labels, backend="numpy", confidences=conf[:5])
    with pytest.raises(OptionError, match="view"):
        evaluate(x, labels, backend="numpy", view="table")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="confidences"):
        evaluate(x, labels, backend="numpy", view="curve").report()
