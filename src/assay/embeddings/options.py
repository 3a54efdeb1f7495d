"""The option types of :mod:`assay.embeddings` (typing only: importing this module is cheap,
so the CLI imports it at module level). Their validators are in :mod:`assay._options`."""

from __future__ import annotations

from typing import Literal

__all__ = ["Distance", "KnnBackend"]

#: How near two embeddings are: squared L2, cosine similarity or inner product.
Distance = Literal["euclidean", "cosine", "inner"]
#: The k-NN search: faiss when installed (``auto``), faiss, or NumPy.
KnnBackend = Literal["auto", "faiss", "numpy"]
