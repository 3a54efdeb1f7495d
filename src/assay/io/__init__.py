"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, and
the task files of the other families (:mod:`assay.io.tasks`: labels, scores, clusterings,
ratings, votes)."""

from .tasks import (
    Clustering,
    Ratings,
    read_clustering,
    read_labels,
    read_ratings,
    read_scores,
    read_votes,
)

__all__ = [
    "Clustering",
    "Ratings",
    "read_clustering",
    "read_labels",
    "read_ratings",
    "read_scores",
    "read_votes",
]
