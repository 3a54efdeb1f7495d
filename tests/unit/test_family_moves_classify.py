"""Names that moved into the classification and clustering packages still resolve at their
old homes, with a DeprecationWarning naming the new one."""

from __future__ import annotations

import importlib

import pytest

MOVED = [
    ("assay.io", "read_labels", "assay.classification"),
    ("assay.io", "read_scores", "assay.classification"),
    ("assay.io", "read_clustering", "assay.clustering"),
    ("assay.io", "Clustering", "assay.clustering"),
    ("assay.report", "classification_document", "assay.classification"),
    ("assay.report", "confusion_table", "assay.classification"),
    ("assay.report", "labelled_report", "assay.classification"),
]


@pytest.mark.parametrize(("old", "name", "new"), MOVED)
def test_moved_names_warn_and_resolve(old: str, name: str, new: str) -> None:
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=f"{new}.{name}"):
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(new), name)
    assert name not in module.__all__


def test_cluster_pair_counts_renamed() -> None:
    import assay.clustering as C

    with pytest.warns(DeprecationWarning, match="ClusterPairCounts"):
        old = C.PairCounts
    assert old is C.ClusterPairCounts
    assert "PairCounts" not in C.__all__
    assert C.pair_counts([0, 0, 1], [0, 1, 1]) == (0, 1, 1, 1)
