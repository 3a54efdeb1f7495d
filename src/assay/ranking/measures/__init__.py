"""The ranking core's metric declarations; importing this package registers them all:
:mod:`~assay.ranking.measures.basic` (binary-relevance measures over the ranked list),
:mod:`~assay.ranking.measures.graded` (DCG/NDCG, ERR, pFound, RBP),
:mod:`~assay.ranking.measures.pairwise` (pairwise and error measures) and
:mod:`~assay.ranking.measures.trec` (trec_eval's own measures)."""

from __future__ import annotations

from . import basic, compatibility, cwl, graded, pairwise, trec

__all__ = ["basic", "compatibility", "cwl", "graded", "pairwise", "trec"]
