"""A seeded MSLR-like learning-to-rank collection, for the demo, tests and benchmarks.

Each document has a few latent qualities; its relevance is a non-linear function of them
(an interaction and a threshold, so that trees beat a linear model) plus noise, cut into
grades 0-4 with MSLR-WEB10K's skew towards 0 (about 52/32/13/2/1 %), with a per-query
shift so that some queries have no relevant document. Of the 136 features, ``informative``
are noisy transforms of the latent qualities (counts, logs, ratios, with per-query offsets as
in BM25-like features), a few are constant or empty (MSLR has such), and the rest are noise.
Everything is vectorised and depends only on ``seed``.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np
from .._options import integer
from .._options import seed as check_seed
from .dataset import LetorDataset

__all__ = ["MSLR_GRADES", "mslr_like", "mslr_like_splits"]

#: Share of grades 0-4 in MSLR-WEB10K.
MSLR_GRADES = (0.52, 0.32, 0.13, 0.02, 0.01)


def _sizes(rng: np.random.Generator, n_queries: int, mean_docs: int) -> np.ndarray:
    """Documents per query: log-normal around ``mean_docs`` (MSLR: 120), at least 5."""
    raw = rng.lognormal(np.log(mean_docs) - 0.18, 0.6, n_queries)
    return np.clip(np.round(raw), 5, 8 * mean_docs).astype(np.int64)


def _grades(rng: np.random.Generator, latent: np.ndarray, qidx: np.ndarray, nq: int) -> np.ndarray:
    shift = rng.normal(0.0, 0.6, nq)[qidx]
    score = latent + shift + rng.normal(0.0, 0.5, len(latent))
    cuts = np.quantile(score, np.cumsum(MSLR_GRADES)[:-1])
    return cast(np.ndarray, np.searchsorted(cuts, score).astype(np.float64))


def _informative(
    rng: np.random.Generator, z: np.ndarray, qidx: np.ndarray, nq: int, k: int
) -> np.ndarray:
    """``k`` noisy views of the latent qualities ``z`` (n x d) in MSLR-like forms."""
    n, d = z.shape
    out = np.empty((n, k), dtype=np.float64)
    for j in range(k):
        base = z[:, j % d] + rng.normal(0.0, 0.6 + 0.1 * (j // d), n)
        offset = rng.normal(0.0, 0.5, nq)[qidx]  # query-dependent scale, as raw BM25
        form = j % 4
        if form == 0:  # counts
            out[:, j] = rng.poisson(np.exp(0.5 * base + 1.0))
        elif form == 1:  # BM25-like scores
            out[:, j] = np.round(np.maximum(0.0, 8.0 + 3.0 * base + 4.0 * offset), 4)
        elif form == 2:  # ratios in [0, 1]
            out[:, j] = np.round(1.0 / (1.0 + np.exp(-base - offset)), 6)
        else:  # log-probabilities
            out[:, j] = np.round(-12.0 + 2.0 * base + offset, 4)
    return out


def mslr_like(
    n_queries: int = 300,
    *,
    mean_docs: int = 120,
    n_features: int = 136,
    informative: int = 24,
    seed: int = 0,
    name: str = "synthetic",
) -> LetorDataset:
    """Generate a seeded collection shaped like MSLR-WEB10K.

    Relevance is a non-linear function of a few latent qualities plus noise, cut into grades
    0-4 with MSLR-WEB10K's skew (:data:`MSLR_GRADES`); ``informative`` features are noisy
    views of the qualities, one is constant, one empty and the rest noise (see the module
    documentation). The same ``seed`` gives the same collection.

    Parameters
    ----------
    n_queries : int
        The number of queries.
    mean_docs : int
        The mean number of documents per query (log-normal, at least 5; MSLR: 120).
    n_features : int
        The number of features (at least 8).
    informative : int
        The number of informative features (at most ``n_features - 4``).
    seed : int
        The seed of every draw.
    name : str
        The collection's name.

    Returns
    -------
    LetorDataset
        The collection, query ids ``"1"`` ... and document ids ``"d1"`` ....

    Examples
    --------
    >>> from assay import ltr
    >>> ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    LetorDataset('synthetic': 20 queries, 181 documents, 8 dense features)
    """
    nq = integer(n_queries, "n_queries", minimum=1)
    m = integer(n_features, "n_features", minimum=8)
    k = integer(informative, "informative", minimum=1, maximum=m - 4)
    rng = np.random.default_rng(check_seed(seed))
    sizes = _sizes(rng, nq, integer(mean_docs, "mean_docs", minimum=5))
    qidx = np.repeat(np.arange(nq), sizes)
    n = len(qidx)
    z = rng.normal(size=(n, 4))
    latent = z[:, 0] + 0.8 * z[:, 1] * z[:, 2] + 0.7 * np.maximum(z[:, 3], 0.0)
    labels = _grades(rng, latent, qidx, nq)
    x = np.empty((n, m), dtype=np.float32)
    x[:, :k] = _informative(rng, z, qidx, nq, k)
    x[:, k] = 1.0  # constant
    x[:, k + 1] = 0.0  # empty
    noise = m - k - 2
    x[:, k + 2 :] = np.round(rng.gamma(1.5, 2.0, size=(n, noise)), 3)
    order = rng.permutation(m)  # informative features are not all first
    features = np.ascontiguousarray(x[:, order])
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    qids = pc.cast(from_np(np.arange(1, nq + 1)), pa.string())
    docs = pc.binary_join_element_wise("d", pc.cast(from_np(np.arange(1, n + 1)), pa.string()), "")
    info = {"generator": "mslr_like", "seed": seed, "informative": k}
    return LetorDataset(
        labels, offsets, qids, docs, features, name=name, source=f"<{name}>", info=info
    )


def mslr_like_splits(
    n_queries: int = 300, *, seed: int = 0, vali: float = 0.2, test: float = 0.2, **options: object
) -> dict[str, LetorDataset]:
    """Generate :func:`mslr_like` cut by query into train, vali and test splits.

    The last ``test`` share of the queries is the test split, the ``vali`` share before it the
    validation split, the rest training (60/20/20 by default); an empty split is left out.

    Parameters
    ----------
    n_queries : int
        The number of queries, over all splits.
    seed : int
        The seed of every draw.
    vali, test : float
        The shares of the queries in the validation and test splits.
    **options
        :func:`mslr_like`'s other options (``mean_docs``, ``n_features``, ``informative``).

    Returns
    -------
    dict of str to LetorDataset
        The splits by name (``"train"``, ``"vali"``, ``"test"``), each named after its split.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> {name: data.n_queries for name, data in splits.items()}
    {'train': 12, 'vali': 4, 'test': 4}
    """
    data = mslr_like(n_queries, seed=seed, **options)  # type: ignore[arg-type]  # why: mslr_like's keywords, checked by it
    nq = data.n_queries
    n_test, n_vali = round(test * nq), round(vali * nq)
    cut = {
        "train": np.arange(0, nq - n_vali - n_test),
        "vali": np.arange(nq - n_vali - n_test, nq - n_test),
        "test": np.arange(nq - n_test, nq),
    }
    out = {}
    for split, q in cut.items():
        if len(q):
            part = data.take(q)
            out[split] = LetorDataset(
                part.labels,
                part.offsets,
                part.query_ids,
                part.doc_ids,
                part.features,
                name=split,
                source=data.source,
                info=data.info,
            )
    return out
