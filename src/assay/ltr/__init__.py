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
from typing import TYPE_CHECKING, Any

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
    "SeedSpread": "seeds",
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
    "fit_seeds": "seeds",
    "save_model": "saving",
    "with_seed": "models",
    "write_letor": "letor",
}
#: Submodules that are public names of the package.
_SUBMODULES = ("analysis", "synthetic")

if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from . import analysis as analysis
    from . import synthetic as synthetic
    from .analysis import Analysis as Analysis
    from .analysis import analyze as analyze
    from .dataset import SENTINEL as SENTINEL
    from .dataset import LetorDataset as LetorDataset
    from .dataset import load as load
    from .dataset import normalize as normalize
    from .experiment import LTR_METRICS as LTR_METRICS
    from .experiment import Experiment as Experiment
    from .experiment import compare_scores as compare_scores
    from .experiment import evaluate_scores as evaluate_scores
    from .experiment import run_experiment as run_experiment
    from .files import Exported as Exported
    from .files import export as export
    from .letor import read_letor as read_letor
    from .letor import write_letor as write_letor
    from .models import LAMBDARANK_EXAMPLE as LAMBDARANK_EXAMPLE
    from .models import Estimator as Estimator
    from .models import LambdaMART as LambdaMART
    from .models import Linear as Linear
    from .models import Model as Model
    from .models import RandomScores as RandomScores
    from .models import make_model as make_model
    from .models import with_seed as with_seed
    from .options import FeatureNorm as FeatureNorm
    from .options import ModelName as ModelName
    from .saving import load_model as load_model
    from .saving import save_model as save_model
    from .seeds import SeedSpread as SeedSpread
    from .seeds import fit_seeds as fit_seeds
    from .stats import CollectionStats as CollectionStats
    from .stats import DatasetStats as DatasetStats
    from .stats import FeatureStats as FeatureStats
    from .stats import collection_stats as collection_stats
    from .stats import dataset_stats as dataset_stats
    from .stats import feature_stats as feature_stats
    from .synthetic import MSLR_GRADES as MSLR_GRADES
    from .synthetic import mslr_like as mslr_like
    from .synthetic import mslr_like_splits as mslr_like_splits

_NAMES = LazyNames(__name__, globals(), _LAZY)


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return import_module(f"{__name__}.{name}")
    return _NAMES.get(name)


def __dir__() -> list[str]:
    return sorted({*_NAMES.listing(), *_SUBMODULES})


__all__ = sorted([*_LAZY, *_SUBMODULES])
