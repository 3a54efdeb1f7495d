"""The checks of the embedding measures' inputs: the neighbour and query labels, the number
of relevant references R of each query (from the class counts), the queries left out
(R = 0) and the per-class means. The declared measures (:mod:`assay.embeddings.measures`,
where the conventions are) and :func:`~assay.embeddings.retrieval_metrics` share them.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import CoverageWarning, EmptyInputError, InputError

__all__ = [
    "ClassCounts",
    "check_consistent",
    "check_neighbours",
    "class_means",
    "lone_warning",
    "relevant_counts",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

#: The number of references of each class, by class label. ``Any``: labels are of any
#: hashable type, and a Mapping's key type is invariant (``Hashable`` would refuse a
#: ``dict[str, int]``).
ClassCounts = Mapping[Any, int]


def relevant_counts(
    query_labels: NDArray[Any], class_counts: ClassCounts, exclude_self: bool
) -> IntArray:
    """R per query: the count of its class (0 when absent), minus one with ``exclude_self``."""
    uniques, inverse = np.unique(query_labels, return_inverse=True)
    per_class = np.array([_count(class_counts, label) for label in uniques.tolist()], np.int64)
    if exclude_self and np.any(per_class == 0):
        missing = uniques.tolist()[int(np.flatnonzero(per_class == 0)[0])]
        raise InputError(
            f"class {missing!r} has no reference but exclude_self=True says each query is one "
            "of the references (its count includes the query itself)"
        )
    return per_class[inverse.reshape(-1)] - int(exclude_self)


def _count(class_counts: ClassCounts, label: Any) -> int:
    value = class_counts.get(label, 0)
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise InputError(
            f"class_counts[{label!r}] must be a count (an integer >= 0), got {value!r}"
        )
    return int(value)


def check_neighbours(
    neighbour_labels: ArrayLike, query_labels: ArrayLike
) -> tuple[NDArray[Any], NDArray[Any]]:
    """The neighbour labels as a (queries x neighbours) array and the query labels as a 1-D
    array of the same length."""
    labels = np.asarray(query_labels)
    neighbours = np.asarray(neighbour_labels)
    if labels.ndim != 1:
        raise InputError(f"query_labels must be one-dimensional (got shape {labels.shape})")
    if labels.size == 0:
        raise EmptyInputError("no queries to evaluate")
    if neighbours.ndim != 2 or neighbours.shape[0] != labels.size or neighbours.shape[1] == 0:
        raise InputError(
            f"neighbour_labels must hold one row of neighbours per query ({labels.size} rows, "
            f"at least one column); got shape {neighbours.shape}"
        )
    return neighbours, labels


def check_consistent(rel: BoolArray, r: IntArray) -> None:
    """No query has more same-class neighbours than R (else the counts are wrong)."""
    hits = np.count_nonzero(rel, axis=1)
    bad = np.flatnonzero(hits > r)
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"query {i} has {int(hits[i])} same-class neighbours but R = {int(r[i])} references "
            "of its class; class_counts (or exclude_self) does not match the neighbours"
        )


def lone_warning(n_lone: int, n_queries: int) -> str | None:
    """The message (also issued as a CoverageWarning) about queries left out, if any."""
    if n_lone == 0:
        return None
    message = (
        f"{n_lone} of {n_queries} queries have no other reference of their class (R = 0) and "
        "are left out of the means"
    )
    warnings.warn(message, CoverageWarning, stacklevel=3)
    return message


def class_means(values: FloatArray, codes: IntArray, n_classes: int) -> FloatArray:
    """Mean value per class code (NaN for a class without queries)."""
    counts = np.bincount(codes, minlength=n_classes)
    sums = np.bincount(codes, weights=values, minlength=n_classes)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts
