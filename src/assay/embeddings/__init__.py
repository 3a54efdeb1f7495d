"""Embedding retrieval and confidence: how well an embedding space groups items by class
(Precision@1, R-Precision, MAP@R, Recall@k, MRR, NDCG@k over each query's nearest
references, on faiss or NumPy), and whether a model's confidences mean anything
(error-vs-reject and metric-vs-threshold curves, rank correlation of predicted and reference
uncertainties, highest posterior density intervals).

The measures are declared in the metric registry (``assay metrics --family embedding``);
their conventions (pytorch-metric-learning's) are in :mod:`assay.embeddings.measures`, the
search and its deterministic order in :mod:`assay.embeddings.knn`, the reader of embedding
files in :mod:`assay.embeddings.reader`. :func:`evaluate` gives in one call what ``assay
embed`` prints and writes (an :class:`EmbeddingEvaluation`: ``report()``, ``html()``), and
:func:`compare` several embeddings of the same items against a baseline, paired over queries
(a :class:`~assay.report.PairedComparison`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    "compare": "comparison",
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


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .comparison import compare as compare
    from .confidence import ErrorRejectCurve as ErrorRejectCurve
    from .confidence import HPDInterval as HPDInterval
    from .confidence import ThresholdCurve as ThresholdCurve
    from .confidence import UncertaintyCorrelation as UncertaintyCorrelation
    from .confidence import error_reject_curve as error_reject_curve
    from .confidence import hpd_interval as hpd_interval
    from .confidence import threshold_curve as threshold_curve
    from .confidence import uncertainty_correlation as uncertainty_correlation
    from .evaluation import EmbeddingEvaluation as EmbeddingEvaluation
    from .evaluation import evaluate as evaluate
    from .knn import Backend as Backend
    from .knn import Distance as Distance
    from .measures import DEFAULT_METRICS as DEFAULT_METRICS
    from .measures import EmbeddingAverage as EmbeddingAverage
    from .measures import map_at_k as map_at_k
    from .measures import map_at_r as map_at_r
    from .measures import mrr as mrr
    from .measures import ndcg as ndcg
    from .measures import precision as precision
    from .measures import r_precision as r_precision
    from .measures import recall as recall
    from .measures import recall_ir as recall_ir
    from .options import KnnBackend as KnnBackend
    from .reader import read_embeddings as read_embeddings
    from .result import RetrievalMetrics as RetrievalMetrics
    from .result import neighbour_metrics as neighbour_metrics
    from .retrieval import nearest_neighbours as nearest_neighbours
    from .retrieval import retrieval_metrics as retrieval_metrics

_NAMES = LazyNames(__name__, globals(), {**_LAZY, **_MEASURES})


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = [*_LAZY, *_MEASURES]
