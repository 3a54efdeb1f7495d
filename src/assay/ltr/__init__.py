"""Learning to rank: LETOR data in, rankers trained, evaluated, compared and analysed.

>>> from assay import ltr
>>> splits = ltr.load("MSLR-WEB10K", fold=1)                      # doctest: +SKIP
>>> exp = ltr.run_experiment(splits, ["linear", "lambdamart"])     # doctest: +SKIP
>>> exp.comparison.pair("lambdamart", "linear", "ndcg(gain='exp')@10")  # doctest: +SKIP

Needs the ``ltr`` extra (LightGBM, scikit-learn) for LambdaMART and scikit-learn models;
reading, statistics, the linear model and evaluation work without it.
"""

from . import analysis, synthetic
from .dataset import SENTINEL, FeatureNorm, LetorDataset, load, normalize
from .experiment import (
    LTR_METRICS,
    Experiment,
    SeedSpread,
    compare_scores,
    evaluate_scores,
    run_experiment,
)
from .models import (
    LAMBDARANK_EXAMPLE,
    Estimator,
    LambdaMART,
    Linear,
    Model,
    ModelName,
    RandomScores,
    make_model,
    with_seed,
)
from .stats import DatasetStats, FeatureStats, dataset_stats, feature_stats
from .synthetic import MSLR_GRADES, mslr_like, mslr_like_splits

__all__ = [
    "LAMBDARANK_EXAMPLE",
    "LTR_METRICS",
    "MSLR_GRADES",
    "SENTINEL",
    "DatasetStats",
    "Estimator",
    "Experiment",
    "FeatureNorm",
    "FeatureStats",
    "LambdaMART",
    "LetorDataset",
    "Linear",
    "Model",
    "ModelName",
    "RandomScores",
    "SeedSpread",
    "analysis",
    "compare_scores",
    "dataset_stats",
    "evaluate_scores",
    "feature_stats",
    "load",
    "make_model",
    "mslr_like",
    "mslr_like_splits",
    "normalize",
    "run_experiment",
    "synthetic",
    "with_seed",
]
