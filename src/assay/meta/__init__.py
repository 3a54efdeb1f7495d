"""Evaluating the evaluation (``assay.meta``): discriminative power of metrics (Sakai 2006),
topic-set size design (Sakai 2016), rank-biased overlap (Webber, Moffat & Zobel 2010),
reproducibility measures (Breuer et al. 2020, as ``repro_eval``), assessor agreement on
qrels (Voorhees 2000), two-way ANOVA without replication of runs × topics (Sakai 2018) and
replicability analysis across datasets (Dror et al. 2017).

Public names are loaded lazily from the modules :mod:`~assay.meta.discpower`,
:mod:`~assay.meta.topicsize`, :mod:`~assay.meta.overlap` (RBO), :mod:`~assay.meta.repro`,
:mod:`~assay.meta.assessors`, :mod:`~assay.meta.twoway` (ANOVA),
:mod:`~assay.meta.across_datasets` (replicability) and :mod:`~assay.meta.options` (the options' ``Literal`` types).
Every result builds its own report (``report()``, the table ``assay meta`` prints;
``html(title=...)``, its ``--report`` page), rendered by :mod:`~assay.meta.report`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    "Anova": "twoway",
    "anova": "twoway",
    "Replicability": "across_datasets",
    "replicability": "across_datasets",
    "read_pvalues": "pvalue_table",
}


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .across_datasets import Replicability as Replicability
    from .across_datasets import replicability as replicability
    from .assessors import AssessorAgreement as AssessorAgreement
    from .assessors import assessor_agreement as assessor_agreement
    from .discpower import DiscriminativePower as DiscriminativePower
    from .discpower import discriminative_power as discriminative_power
    from .options import DiscPowerTest as DiscPowerTest
    from .options import PowerMethod as PowerMethod
    from .options import RBOTies as RBOTies
    from .options import ReproKind as ReproKind
    from .overlap import RBOResult as RBOResult
    from .overlap import RBORuns as RBORuns
    from .overlap import rbo as rbo
    from .overlap import rbo_runs as rbo_runs
    from .overlap import rbo_systems as rbo_systems
    from .pvalue_table import read_pvalues as read_pvalues
    from .repro import PerTopic as PerTopic
    from .repro import Reproducibility as Reproducibility
    from .repro import ktau_union as ktau_union
    from .repro import repro_rbo as repro_rbo
    from .repro import reproducibility as reproducibility
    from .topicsize import TopicSetSize as TopicSetSize
    from .topicsize import anova_power as anova_power
    from .topicsize import residual_variance as residual_variance
    from .topicsize import topic_set_size as topic_set_size
    from .topicsize import ttest_power as ttest_power
    from .twoway import Anova as Anova
    from .twoway import anova as anova

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
