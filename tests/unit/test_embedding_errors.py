"""Bad input to the embedding retrieval functions: one clear error each."""

from __future__ import annotations

import numpy as np
import pytest

from assay import EmptyInputError, InputError, MetricError, OptionError
from assay.embeddings import nearest_neighbours, neighbour_metrics, precision, retrieval_metrics

X = np.arange(12, dtype=np.float64).reshape(6, 2)
Y = np.array([0, 0, 1, 1, 2, 2])


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: retrieval_metrics(X, Y[:5]), InputError, "6 rows; they must be paired"),
        (
            lambda: retrieval_metrics(X, Y, X[:, :1], Y),
            InputError,
            "2 dimensions but reference_embeddings have 1",
        ),
        (lambda: retrieval_metrics(X, Y, X, Y[:3]), InputError, "reference_labels has 3 labels"),
        (
            lambda: retrieval_metrics(np.where(X == 5, np.nan, X), Y),
            InputError,
            r"query_embeddings\[2, 1\] is nan",
        ),
        (lambda: retrieval_metrics(np.where(X == 7, np.inf, X), Y), InputError, "must be finite"),
        (
            lambda: retrieval_metrics(X, Y, np.empty((0, 2)), np.array([])),
            EmptyInputError,
            "the reference set is empty",
        ),
        (
            lambda: retrieval_metrics(X, Y, k=6),
            InputError,
            "k=6 neighbours asked for but the reference set has only 5 items other than the query itself",
        ),
        (lambda: retrieval_metrics(X, Y, metrics=["recall@9"]), InputError, "only 5 items"),
        (lambda: retrieval_metrics(X, Y, X[:3], Y[:3], k=4), InputError, "only 3 items"),
        (
            lambda: retrieval_metrics(X, Y, X),
            InputError,
            "give both reference_embeddings and reference_labels",
        ),
        (
            lambda: retrieval_metrics(X, Y, X[::-1], Y[::-1], exclude_self=True),
            InputError,
            "first rows",
        ),
        (lambda: retrieval_metrics(X[:, 0], Y), InputError, "two-dimensional"),
        (
            lambda: retrieval_metrics(X, Y, distance="manhattan"),
            OptionError,
            "distance must be one of",
        ),
        (lambda: retrieval_metrics(X, Y, backend="annoy"), OptionError, "backend must be one of"),
        (lambda: retrieval_metrics(X, Y, k=0), OptionError, "k must be a positive integer"),
        (lambda: retrieval_metrics(X, Y, block_size=0), OptionError, "block_size"),
        (
            lambda: retrieval_metrics(X, Y, metrics=["bleu"]),
            MetricError,
            "unknown embedding metric",
        ),
        (
            lambda: retrieval_metrics(X, Y, metrics=["ndcg@r"]),
            MetricError,
            "only map@r and precision@r",
        ),
        (lambda: retrieval_metrics(X, Y, metrics=["map_at_r@3"]), MetricError, "takes no cutoff"),
        (
            lambda: retrieval_metrics(X, Y, metrics=["map(average='macro')"]),
            MetricError,
            "both averages",
        ),
        (
            lambda: retrieval_metrics(np.zeros((3, 2)), [0, 0, 0], distance="cosine"),
            InputError,
            "zero vector",
        ),
        (lambda: retrieval_metrics(X * 1e30, Y), InputError, "too large for a float32 search"),
        (
            lambda: retrieval_metrics(X, ["a", "a", "b", "b", "c", "c"], X, Y, exclude_self=False),
            InputError,
            "same kind",
        ),
        (
            lambda: neighbour_metrics([[0, 1]], [0, 1], {0: 1}),
            InputError,
            "one row of neighbours per query",
        ),
        (
            lambda: neighbour_metrics([[0, 0, 0]], [0], {0: 2}),
            InputError,
            "3 same-class neighbours but R = 2",
        ),
        (
            lambda: neighbour_metrics([[0]], [0], {0: 2}, metrics=["recall@2"]),
            InputError,
            "need more than the 1 neighbours",
        ),
        (lambda: neighbour_metrics([[0]], [0], {0: -1}), InputError, "must be a count"),
        (
            lambda: neighbour_metrics([[1]], [0], {1: 2}, exclude_self=True),
            InputError,
            "class 0 has no reference",
        ),
        (lambda: precision([[0]], [0], {0: 1}, k=2), InputError, "k=2 but only 1 neighbours"),
        (
            lambda: precision([[0]], [0], {0: 1}, average="weighted"),
            OptionError,
            "average must be one of",
        ),
        (lambda: precision([[0]], [0], {0: 1}, exclude_self=1), OptionError, "exclude_self"),
        (lambda: precision([[0]], [], {0: 1}), EmptyInputError, "no queries"),
    ],
)
def test_one_clear_error(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call()


def test_all_lone_queries_search_nothing() -> None:
    from assay import CoverageWarning

    with pytest.warns(CoverageWarning, match="3 of 3 queries"):
        res = retrieval_metrics(X[:3], [0, 1, 2])
    assert res.n_lone == 3 and np.isnan(res.mean("map@r"))
    assert res.records()[0]["n_queries"] == 0


def test_nearest_neighbours_errors() -> None:
    with pytest.raises(InputError, match="first rows to be the queries"):
        nearest_neighbours(X, X[::-1], k=2, exclude_self=True)
    with pytest.raises(InputError, match="only 5 items other than the query itself"):
        nearest_neighbours(X, k=6)
    with pytest.raises(OptionError, match="k must be a positive integer"):
        nearest_neighbours(X, k=0)
    assert nearest_neighbours(X, X, k=2, exclude_self=True).tolist()[0] == [1, 2]
