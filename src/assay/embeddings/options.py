"""The option types of :mod:`assay.embeddings` (typing only: importing this module is cheap,
so the CLI imports it at module level). Their validators are in :mod:`assay._options`."""

from __future__ import annotations

from typing import Literal

__all__ = ["Distance", "EmbeddingView", "KnnBackend"]

#: How near two embeddings are: squared L2, cosine similarity or inner product.
Distance = Literal["euclidean", "cosine", "inner"]
#: The k-NN search: faiss when installed (``auto``), faiss, or NumPy.
KnnBackend = Literal["auto", "faiss", "numpy"]
#: What the report of ``assay embed`` shows: a summary per metric, one row per class or
#: per query, or the error-vs-reject curves' points.
EmbeddingView = Literal["summary", "class", "query", "curve"]
