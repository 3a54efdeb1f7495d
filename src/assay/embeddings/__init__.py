"""Embedding retrieval and confidence: how well an embedding space groups items by class
(Precision@1, R-Precision, MAP@R, Recall@k, MRR, NDCG@k over each query's nearest
references, on faiss or NumPy), and whether a model's confidences mean anything
(error-vs-reject and metric-vs-threshold curves, rank correlation of predicted and reference
uncertainties, highest posterior density intervals).

The measures are declared in the metric registry (``assay metrics --family embedding``);
their conventions (pytorch-metric-learning's) are in :mod:`assay.metrics.embedding`, the
search and its deterministic order in :mod:`assay.embeddings.knn`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "retrieval_metrics": "retrieval",
    "nearest_neighbours": "retrieval",
    "error_reject_curve": "confidence",
    "threshold_curve": "confidence",
    "uncertainty_correlation": "confidence",
    "hpd_interval": "confidence",
    "ErrorRejectCurve": "confidence",
    "ThresholdCurve": "confidence",
    "UncertaintyCorrelation": "confidence",
    "HPDInterval": "confidence",
    "Distance": "knn",
    "Backend": "knn",
}
#: Names from the metrics layer: the declared measures, the result and its builder.
_MEASURES = {
    "precision": "embedding",
    "r_precision": "embedding",
    "map_at_r": "embedding",
    "map_at_k": "embedding",
    "recall": "embedding",
    "recall_ir": "embedding",
    "mrr": "embedding",
    "ndcg": "embedding",
    "DEFAULT_METRICS": "embedding",
    "EmbeddingAverage": "embedding",
    "neighbour_metrics": "embedding_result",
    "RetrievalMetrics": "embedding_result",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    elif name in _MEASURES:
        value = getattr(import_module(f"assay.metrics.{_MEASURES[name]}"), name)
    else:
        raise AttributeError(f"module 'assay.embeddings' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_MEASURES})


__all__ = [*_LAZY, *_MEASURES]
