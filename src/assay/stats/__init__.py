"""Statistics for comparing systems, over plain arrays: paired tests, bootstrap confidence
intervals, multiple-comparison corrections and correlations. Every random procedure takes a
``seed`` and gives the same result for the same seed whatever the number of threads; every
option is keyword-only and a bad one raises :class:`~assay.errors.OptionError`.

Modules, by role: :mod:`~assay.stats.paired` (paired tests and the effect size),
:mod:`~assay.stats.shuffling` (stratified shuffling),
:mod:`~assay.stats.contingency` (McNemar's test and Cochran's Q on per-item correctness), :mod:`~assay.stats.bootstrap`,
:mod:`~assay.stats.multinomial` (bootstrap resamples of counted observations),
:mod:`~assay.stats.tukey`, :mod:`~assay.stats.anova` (two-way ANOVA without replication),
:mod:`~assay.stats.across_datasets` (replicability analysis over datasets),
:mod:`~assay.stats.stochastic_order` (:func:`aso`, almost stochastic order),
:mod:`~assay.stats.seeds` (several runs per system: score distributions, Welch's test),
:mod:`~assay.stats.corrections`, :mod:`~assay.stats.correlation`,
:mod:`~assay.stats.concordance` (Kendall's τ from pair counts),
:mod:`~assay.stats.risk` (URisk, TRisk, ZRisk, GeoRisk against baselines) and
:mod:`~assay.stats.result` (:class:`StatResult`, :class:`TukeyHSDResult`) and
:mod:`~assay.stats.pairs` (:class:`PairResult`: one system against the baseline, in every
family). Their public
names are loaded lazily from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import LazyNames

_LAZY = {
    # results
    "StatResult": "result",
    "TukeyHSDResult": "result",
    "PairResult": "pairs",
    # paired tests and effect size
    "randomization_test": "paired",
    "ttest": "paired",
    "wilcoxon": "paired",
    "sign_test": "paired",
    "paired_bootstrap_test": "paired",
    "paired_pvalues": "paired",
    "cohens_d_paired": "paired",
    "stratified_shuffling_test": "shuffling",
    "corpus_pair_test": "corpus",
    # paired 0/1 outcomes (classifiers' correctness)
    "mcnemar": "contingency",
    "cochran_q": "contingency",
    # intervals, many systems, corrections
    "bootstrap_ci": "bootstrap",
    "bootstrap_mean_ci": "bootstrap",
    "multinomial_resamples": "multinomial",
    "tukey_hsd": "tukey",
    # many systems over topics, one comparison over many datasets
    "AnovaResult": "anova",
    "anova_two_way": "anova",
    "ReplicabilityResult": "across_datasets",
    "partial_conjunction": "across_datasets",
    "replicability": "across_datasets",
    "correct": "corrections",
    # several runs per system (seeds): almost stochastic order, score distributions
    "aso": "stochastic_order",
    "ScoreDistribution": "seeds",
    "seed_distribution": "seeds",
    "welch_ttest": "seeds",
    # correlations
    "pearson": "correlation",
    "spearman": "correlation",
    "kendall": "concordance",
    "tau_ap": "correlation",
    "system_rank_correlation": "correlation",
    # risk-sensitive evaluation against a baseline
    "risk_differences": "risk",
    "urisk": "risk",
    "trisk": "risk",
    "zrisk": "risk",
    "georisk": "risk",
}


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .across_datasets import ReplicabilityResult as ReplicabilityResult
    from .across_datasets import partial_conjunction as partial_conjunction
    from .across_datasets import replicability as replicability
    from .anova import AnovaResult as AnovaResult
    from .anova import anova_two_way as anova_two_way
    from .bootstrap import bootstrap_ci as bootstrap_ci
    from .bootstrap import bootstrap_mean_ci as bootstrap_mean_ci
    from .concordance import kendall as kendall
    from .contingency import cochran_q as cochran_q
    from .contingency import mcnemar as mcnemar
    from .corpus import corpus_pair_test as corpus_pair_test
    from .corrections import correct as correct
    from .correlation import pearson as pearson
    from .correlation import spearman as spearman
    from .correlation import system_rank_correlation as system_rank_correlation
    from .correlation import tau_ap as tau_ap
    from .multinomial import multinomial_resamples as multinomial_resamples
    from .paired import cohens_d_paired as cohens_d_paired
    from .paired import paired_bootstrap_test as paired_bootstrap_test
    from .paired import paired_pvalues as paired_pvalues
    from .paired import randomization_test as randomization_test
    from .paired import sign_test as sign_test
    from .paired import ttest as ttest
    from .paired import wilcoxon as wilcoxon
    from .pairs import PairResult as PairResult
    from .result import StatResult as StatResult
    from .result import TukeyHSDResult as TukeyHSDResult
    from .risk import georisk as georisk
    from .risk import risk_differences as risk_differences
    from .risk import trisk as trisk
    from .risk import urisk as urisk
    from .risk import zrisk as zrisk
    from .seeds import ScoreDistribution as ScoreDistribution
    from .seeds import seed_distribution as seed_distribution
    from .seeds import welch_ttest as welch_ttest
    from .shuffling import stratified_shuffling_test as stratified_shuffling_test
    from .stochastic_order import aso as aso
    from .tukey import tukey_hsd as tukey_hsd

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
