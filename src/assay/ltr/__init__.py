"""Learning to rank: LETOR data in, rankers trained, evaluated, compared and analysed.

>>> from assay import ltr
>>> splits = ltr.load("MSLR-WEB10K", fold=1)                      # doctest: +SKIP
>>> exp = ltr.run_experiment(splits, ["linear", "lambdamart"])     # doctest: +SKIP
>>> exp.comparison.pair("lambdamart", "linear", "ndcg(gain='exp')@10")  # doctest: +SKIP
>>> exp.write_html("report.html", title="assay ltr run")           # doctest: +SKIP

Modules, by role: :mod:`~assay.ltr.letor` (the LETOR/SVMlight reader and writer),
:mod:`~assay.ltr.dataset` (:class:`LetorDataset`, :func:`load`, :func:`normalize`),
:mod:`~assay.ltr.stats`, :mod:`~assay.ltr.models` (the rankers), :mod:`~assay.ltr.saving`
(:func:`save_model` and :func:`load_model`), :mod:`~assay.ltr.experiment`
(:func:`run_experiment`), :mod:`~assay.ltr.analysis` (:func:`analyze`),
:mod:`~assay.ltr.files` (a model's runs, qrels and model file: :func:`export`),
:mod:`~assay.ltr.report` and :mod:`~assay.ltr.document` (the tables and the HTML report the
results build), :mod:`~assay.ltr.options` (the options' ``Literal`` types) and
:mod:`~assay.ltr.synthetic`. Public names are loaded on first use.

Needs the ``ltr`` extra (LightGBM, scikit-learn) for LambdaMART and scikit-learn models;
reading, statistics, the linear model and evaluation work without it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .._lazy import LazyNames

_LAZY = {
    "LAMBDARANK_EXAMPLE": "models",
    "LTR_METRICS": "experiment",
    "MSLR_GRADES": "synthetic",
    "SENTINEL": "dataset",
    "Analysis": "analysis",
    "CollectionStats": "stats",
    "DatasetStats": "stats",
    "Estimator": "models",
    "Experiment": "experiment",
    "Exported": "files",
    "FeatureNorm": "options",
    "FeatureStats": "stats",
    "LambdaMART": "models",
    "LetorDataset": "dataset",
    "Linear": "models",
    "Model": "models",
    "ModelName": "options",
    "RandomScores": "models",
    "SeedSpread": "experiment",
    "analyze": "analysis",
    "collection_stats": "stats",
    "compare_scores": "experiment",
    "dataset_stats": "stats",
    "evaluate_scores": "experiment",
    "export": "files",
    "feature_stats": "stats",
    "load": "dataset",
    "load_model": "saving",
    "make_model": "models",
    "mslr_like": "synthetic",
    "mslr_like_splits": "synthetic",
    "normalize": "dataset",
    "read_letor": "letor",
    "run_experiment": "experiment",
    "save_model": "saving",
    "with_seed": "models",
    "write_letor": "letor",
}
#: Submodules that are public names of the package.
_SUBMODULES = ("analysis", "synthetic")

_NAMES = LazyNames(__name__, globals(), _LAZY)


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return import_module(f"{__name__}.{name}")
    return _NAMES.get(name)


def __dir__() -> list[str]:
    return sorted({*_NAMES.listing(), *_SUBMODULES})


__all__ = sorted([*_LAZY, *_SUBMODULES])
