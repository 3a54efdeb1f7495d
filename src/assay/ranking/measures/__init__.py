"""The ranking core's metric declarations; importing this package registers them all:
:mod:`~assay.ranking.measures.basic` (binary-relevance measures over the ranked list),
:mod:`~assay.ranking.measures.graded` (DCG/NDCG, ERR, pFound, RBP),
:mod:`~assay.ranking.measures.gdeval` (the TREC Web track's gdeval nDCG@k and ERR@k),
:mod:`~assay.ranking.measures.cwl` (the C/W/L measures as cwl_eval computes them),
:mod:`~assay.ranking.measures.compatibility` (Compat: RBO against the ideal ranking),
:mod:`~assay.ranking.measures.diversity` (ndeval's intent-aware measures),
:mod:`~assay.ranking.measures.pairwise` (pairwise and error measures),
:mod:`~assay.ranking.measures.preferences` (preferences from graded qrels, trec_eval's
``prefs_*``) and :mod:`~assay.ranking.measures.trec` (trec_eval's own measures)."""

from __future__ import annotations

from . import basic, compatibility, cwl, diversity, gdeval, graded, pairwise, preferences, trec

__all__ = [
    "basic",
    "compatibility",
    "cwl",
    "diversity",
    "gdeval",
    "graded",
    "pairwise",
    "preferences",
    "trec",
]
