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

from .._lazy import LazyNames

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


_NAMES = LazyNames(
    __name__, globals(), _LAZY, {n: f"assay.metrics.{m}" for n, m in _MEASURES.items()}
)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = [*_LAZY, *_MEASURES]
