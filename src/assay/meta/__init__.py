"""Evaluating the evaluation (``assay.meta``): discriminative power of metrics (Sakai 2006),
topic-set size design (Sakai 2016), rank-biased overlap (Webber, Moffat & Zobel 2010),
reproducibility measures (Breuer et al. 2020, as ``repro_eval``) and assessor agreement on
qrels (Voorhees 2000).

Public names are loaded lazily from the modules :mod:`~assay.meta.discpower`,
:mod:`~assay.meta.topicsize`, :mod:`~assay.meta.overlap` (RBO), :mod:`~assay.meta.repro`,
:mod:`~assay.meta.assessors` and :mod:`~assay.meta.options` (the options' ``Literal`` types).
Every result builds its own report (``report()``, the table ``assay meta`` prints;
``html(title=...)``, its ``--report`` page), rendered by :mod:`~assay.meta.report`.
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY = {
    "DiscPowerTest": "options",
    "DiscriminativePower": "discpower",
    "discriminative_power": "discpower",
    "PowerMethod": "options",
    "TopicSetSize": "topicsize",
    "anova_power": "topicsize",
    "residual_variance": "topicsize",
    "topic_set_size": "topicsize",
    "ttest_power": "topicsize",
    "RBOResult": "overlap",
    "RBORuns": "overlap",
    "RBOTies": "options",
    "rbo": "overlap",
    "rbo_runs": "overlap",
    "rbo_systems": "overlap",
    "PerTopic": "repro",
    "ReproKind": "options",
    "Reproducibility": "repro",
    "ktau_union": "repro",
    "repro_rbo": "repro",
    "reproducibility": "repro",
    "AssessorAgreement": "assessors",
    "assessor_agreement": "assessors",
}


_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
