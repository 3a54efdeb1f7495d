"""The ranking core's metric declarations; importing this package registers them all:
:mod:`~assay.ranking.measures.basic` (binary-relevance measures over the ranked list),
:mod:`~assay.ranking.measures.graded` (DCG/NDCG, ERR, pFound, RBP),
:mod:`~assay.ranking.measures.pairwise` (pairwise and error measures),
:mod:`~assay.ranking.measures.trec` (trec_eval's own measures) and
:mod:`~assay.ranking.measures.diversity` (ndeval's intent-aware measures)."""

from __future__ import annotations

from . import basic, diversity, graded, pairwise, trec

__all__ = ["basic", "diversity", "graded", "pairwise", "trec"]
