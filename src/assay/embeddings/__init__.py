"""Embedding retrieval and confidence: how well an embedding space groups items by class
(Precision@1, R-Precision, MAP@R, Recall@k, MRR, NDCG@k over each query's nearest
references, on faiss or NumPy), and whether a model's confidences mean anything
(error-vs-reject and metric-vs-threshold curves, rank correlation of predicted and reference
uncertainties, highest posterior density intervals).

The measures are declared in the metric registry (``assay metrics --family embedding``);
their conventions (pytorch-metric-learning's) are in :mod:`assay.embeddings.measures`, the
search and its deterministic order in :mod:`assay.embeddings.knn`, the reader of embedding
files in :mod:`assay.embeddings.reader`. :func:`evaluate` gives in one call what ``assay
embed`` prints and writes (an :class:`EmbeddingEvaluation`: ``report()``, ``html()``).
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
    "KnnBackend": "options",
    "evaluate": "evaluation",
    "EmbeddingEvaluation": "evaluation",
    "read_embeddings": "reader",
}
#: The declared measures, the result and its builder.
_MEASURES = {
    "precision": "measures",
    "r_precision": "measures",
    "map_at_r": "measures",
    "map_at_k": "measures",
    "recall": "measures",
    "recall_ir": "measures",
    "mrr": "measures",
    "ndcg": "measures",
    "DEFAULT_METRICS": "measures",
    "EmbeddingAverage": "measures",
    "neighbour_metrics": "result",
    "RetrievalMetrics": "result",
}


_NAMES = LazyNames(__name__, globals(), {**_LAZY, **_MEASURES})


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = [*_LAZY, *_MEASURES]
