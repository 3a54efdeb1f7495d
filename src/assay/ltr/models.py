"""Rankers: least squares and ridge (:class:`Linear`), LambdaMART through LightGBM's
lambdarank objective (:class:`LambdaMART`), any scikit-learn-style regressor or ranker
(:class:`Estimator`), and seeded random scores (:class:`RandomScores`) as a floor.

Every model has ``name``, ``seed``, ``fit(train, vali=None)`` and ``predict(data)``; fitting
is deterministic for a given seed (LambdaMART: ``deterministic=True``, the same bits whatever
``num_threads``). ``save(path)`` writes a fitted model (:func:`save_model`: LightGBM's text
model for LambdaMART, JSON for a linear model) and :func:`load_model` reads it back, the one
serialiser of learning to rank.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar, cast

import numpy as np

from .._optional import require
from .._options import choice, integer, number
from .._options import seed as check_seed
from ..errors import InputError
from .dataset import LetorDataset
from .options import ModelName

__all__ = [
    "LAMBDARANK_EXAMPLE",
    "Estimator",
    "LambdaMART",
    "Linear",
    "Model",
    "ModelName",
    "RandomScores",
    "make_model",
    "with_seed",
]

#: LightGBM's examples/lambdarank/train.conf, the settings of its reference figures.
LAMBDARANK_EXAMPLE: Mapping[str, Any] = {
    "num_leaves": 31,
    "learning_rate": 0.1,
    "min_data_in_leaf": 50,
    "min_sum_hessian_in_leaf": 5.0,
    "bagging_fraction": 0.9,
    "bagging_freq": 1,
    "feature_fraction": 1.0,
    "max_bin": 255,
}
#: Called as progress(done, total) while a model trains.
Progress = Callable[[int, int], None]


class Model(Protocol):
    """What every ranker is: a ``name``, a ``seed``, ``fit``, ``predict`` and ``save``.

    ``fit(train, vali=None, *, progress=None)`` trains on a :class:`LetorDataset` (and
    returns the model), ``predict(data)`` gives one score per document of ``data``, and
    ``save(path)`` writes the fitted model (None when it has no saved form). :class:`Linear`,
    :class:`LambdaMART`, :class:`Estimator` and :class:`RandomScores` are models; any class
    with these members can be given to :func:`~assay.ltr.run_experiment`.

    Parameters
    ----------
    name : str
        The model's name in results and reports.
    seed : int
        The seed of its training (fitting is deterministic for a given seed).

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> model = ltr.make_model("linear")
    >>> model.name, model.seed, model.fit(data).predict(data).shape
    ('linear', 0, (181,))
    """

    name: str
    seed: int

    def fit(
        self,
        train: LetorDataset,
        vali: LetorDataset | None = None,
        *,
        progress: Progress | None = None,
    ) -> Any: ...

    def predict(self, data: LetorDataset) -> np.ndarray: ...

    def save(self, path: str | os.PathLike[str]) -> Path | None: ...


#: A model's own type (:func:`with_seed` returns the type it is given).
_M = TypeVar("_M", bound=Model)


def _matrix(data: LetorDataset) -> Any:
    return data.features


# ---------------------------------------------------------------- linear


@dataclass
class Linear:
    """Least squares or ridge regression of the labels on the features.

    With an unpenalised intercept: min ||y - Xw - b||² + l2 ||w||², solved by ``lstsq`` on
    the design matrix (stacked with sqrt(l2)·I for ridge). The seed notebook's baseline.
    ``fit`` sets ``coef_`` and ``intercept_``.

    Parameters
    ----------
    l2 : float
        The ridge penalty (0: least squares).
    name : str
        The model's name.
    seed : int
        Unused (least squares is deterministic); kept so every model has one.
    coef_ : numpy.ndarray, optional
        The fitted weights, one per feature (set by ``fit``).
    intercept_ : float
        The fitted intercept (set by ``fit``).

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> model = ltr.Linear(l2=1.0).fit(data)
    >>> model.coef_.shape, round(model.intercept_, 4)
    ((8,), 0.2402)
    >>> model.predict(data)[:3].round(4)
    array([0.4102, 0.5487, 1.399 ])
    """

    l2: float = 0.0
    name: str = "linear"
    seed: int = 0
    coef_: np.ndarray | None = field(default=None, repr=False)
    intercept_: float = 0.0

    def fit(
        self,
        train: LetorDataset,
        vali: LetorDataset | None = None,
        *,
        progress: Progress | None = None,
    ) -> Linear:
        l2 = number(self.l2, "l2", low=0)
        x = train.dense(np.float64)
        design = np.hstack([x, np.ones((len(x), 1))])
        y = train.labels
        if l2 > 0:
            penalty = np.hstack([np.sqrt(l2) * np.eye(x.shape[1]), np.zeros((x.shape[1], 1))])
            design = np.vstack([design, penalty])
            y = np.concatenate([y, np.zeros(x.shape[1])])
        w, *_ = np.linalg.lstsq(design, y, rcond=None)
        self.coef_, self.intercept_ = w[:-1], float(w[-1])
        if progress is not None:
            progress(1, 1)
        return self

    def predict(self, data: LetorDataset) -> np.ndarray:
        if self.coef_ is None:
            raise InputError(f"model {self.name!r} is not fitted")
        if data.n_features != len(self.coef_):
            raise InputError(
                f"{data.name} has {data.n_features} features, the model {len(self.coef_)}"
            )
        return np.asarray(data.features @ self.coef_, dtype=np.float64).ravel() + self.intercept_

    def save(self, path: str | os.PathLike[str]) -> Path | None:
        """Write the fitted model (see :func:`save_model`); returns the file written."""
        from .saving import save_model

        return save_model(self, path)


# ---------------------------------------------------------------- LambdaMART


#: LightGBM's evaluation hook: (scores, its Dataset) -> [(name, value, higher is better)].
Feval = Callable[[np.ndarray, Any], list[tuple[str, float, bool]]]  # Any: lightgbm.Dataset


def _assay_ndcg(params: dict[str, Any], splits: Mapping[int, LetorDataset]) -> Feval | None:
    """LightGBM's ndcg@k (its default gains 2^g - 1) computed by assay's prepared evaluator
    instead, under the workbench's conventions, for every cutoff of ``eval_at`` and every
    split (by the id of its LightGBM Dataset); ``params`` then asks LightGBM for no metric
    of its own. None, leaving LightGBM's, when the parameters ask for another metric or
    other gains."""
    if params.get("metric") != "ndcg" or "label_gain" in params:
        return None
    at = params["eval_at"]
    cutoffs = [integer(k, "eval_at", minimum=1) for k in ([at] if isinstance(at, int) else at)]
    metrics = [f"ndcg(gain='exp')@{k}" for k in cutoffs]
    names = [f"ndcg@{k}" for k in cutoffs]
    evaluators = {key: data.evaluator(metrics) for key, data in splits.items()}
    params["metric"] = "None"

    def feval(preds: np.ndarray, dataset: Any) -> list[tuple[str, float, bool]]:  # Any: Dataset
        values = evaluators[id(dataset)](preds)
        return [(name, values[m], True) for name, m in zip(names, metrics, strict=True)]

    return feval


@dataclass
class LambdaMART:
    """LambdaMART: LightGBM's ``lambdarank`` objective (Burges 2010).

    Defaults from LightGBM's lambdarank example (:data:`LAMBDARANK_EXAMPLE`, 100 trees).
    With a validation set, training stops when NDCG@``stop_at`` on it has not improved for
    ``early_stopping`` rounds (0: never) and the best iteration is kept. Training records
    NDCG@stop_at on train and validation after every tree (``evals_result_``). Needs the
    ``ltr`` extra (LightGBM).

    Parameters
    ----------
    n_estimators : int
        The most trees trained.
    early_stopping : int
        The rounds without improvement on the validation set before training stops (0:
        never).
    stop_at : int
        The cutoff of the NDCG watched.
    seed : int
        LightGBM's seed (training is deterministic: the same bits whatever ``num_threads``).
    num_threads : int
        LightGBM's threads.
    params : mapping
        LightGBM parameters, passed as they are (they override the defaults).
    name : str
        The model's name.
    booster_ : lightgbm.Booster, optional
        The trained booster (set by ``fit``).
    best_iteration_ : int
        The number of trees kept (set by ``fit``).
    evals_result_ : dict
        NDCG@``stop_at`` after every tree, by set (``train``, ``vali``; set by ``fit``).

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> model = ltr.LambdaMART(n_estimators=5, params={"min_data_in_leaf": 5}).fit(data)
    >>> model.best_iteration_, model.predict(data)[:3].round(4)
    (5, array([-0.2726, -0.3071,  0.1955]))
    """

    n_estimators: int = 100
    early_stopping: int = 50
    stop_at: int = 10
    seed: int = 0
    num_threads: int = 1
    params: Mapping[str, Any] = field(default_factory=dict)  # Any: LightGBM's values
    name: str = "lambdamart"
    booster_: Any = field(default=None, repr=False)  # Any: lightgbm.Booster (optional extra)
    best_iteration_: int = 0
    evals_result_: dict[str, dict[str, list[float]]] = field(default_factory=dict, repr=False)

    def lightgbm_params(self) -> dict[str, Any]:
        return {
            "objective": "lambdarank",
            **LAMBDARANK_EXAMPLE,
            "metric": "ndcg",
            "eval_at": [integer(self.stop_at, "stop_at", minimum=1)],
            "seed": check_seed(self.seed),
            "num_threads": integer(self.num_threads, "num_threads", minimum=1),
            "deterministic": True,
            "force_row_wise": True,
            "verbose": -1,
            **dict(self.params),
        }

    def fit(
        self,
        train: LetorDataset,
        vali: LetorDataset | None = None,
        *,
        progress: Progress | None = None,
    ) -> LambdaMART:
        lgb = require("lightgbm")
        rounds = integer(self.n_estimators, "n_estimators", minimum=1)
        patience = integer(self.early_stopping, "early_stopping", minimum=0)
        dtrain = lgb.Dataset(_matrix(train), label=train.grades, group=train.sizes)
        sets, names = [dtrain], ["train"]
        if vali is not None:
            sets.append(
                lgb.Dataset(_matrix(vali), label=vali.grades, group=vali.sizes, reference=dtrain)
            )
            names.append("vali")
        params = self.lightgbm_params()
        feval = _assay_ndcg(params, {id(dtrain): train} | ({id(sets[-1]): vali} if vali else {}))
        record: dict[str, Any] = {}
        callbacks = [lgb.record_evaluation(record)]
        if vali is not None and patience > 0:
            callbacks.append(lgb.early_stopping(patience, first_metric_only=True, verbose=False))
        if progress is not None:
            callbacks.append(lambda env: progress(env.iteration + 1, rounds))
        booster = lgb.train(
            params,
            dtrain,
            rounds,
            valid_sets=sets,
            valid_names=names,
            feval=feval,
            callbacks=callbacks,
            keep_training_booster=True,
        )
        self.booster_ = booster
        self.best_iteration_ = int(booster.best_iteration or booster.current_iteration())
        self.evals_result_ = {k: {m: list(v) for m, v in d.items()} for k, d in record.items()}
        return self

    def predict(self, data: LetorDataset, *, trees: int | None = None) -> np.ndarray:
        """Scores from the first ``trees`` trees (default: the best iteration)."""
        if self.booster_ is None:
            raise InputError(f"model {self.name!r} is not fitted")
        n = self.best_iteration_ if trees is None else integer(trees, "trees", minimum=1)
        return np.asarray(self.booster_.predict(_matrix(data), num_iteration=n), dtype=np.float64)

    def importance(self, importance_type: Literal["gain", "split"] = "gain") -> np.ndarray:
        """LightGBM's feature importance of the kept trees: total gain or number of splits."""
        kind = choice(importance_type, Literal["gain", "split"], "importance_type")
        if self.booster_ is None:
            raise InputError(f"model {self.name!r} is not fitted")
        values = self.booster_.feature_importance(
            importance_type=kind, iteration=self.best_iteration_
        )
        return np.asarray(values, dtype=np.float64)

    def save(self, path: str | os.PathLike[str]) -> Path | None:
        """Write the fitted model (see :func:`save_model`); returns the file written."""
        from .saving import save_model

        return save_model(self, path)


# ---------------------------------------------------------------- any estimator


@dataclass
class Estimator:
    """A ranker from any object with ``fit(X, y)`` and ``predict(X)``.

    A scikit-learn regressor, or a ranker whose ``fit`` takes ``group=`` sizes, as
    LightGBM's ``LGBMRanker``, or ``qid=``, as XGBoost's. It is cloned before fitting when
    scikit-learn can clone it; a ``random_state`` parameter receives the seed.

    Parameters
    ----------
    estimator : object
        The estimator, with ``fit`` and ``predict`` methods.
    name : str
        The model's name (default: the estimator's class name).
    seed : int
        Given to the estimator's ``random_state``, when it has one.
    fitted_ : object, optional
        The fitted estimator (set by ``fit``).

    Examples
    --------
    >>> from sklearn.linear_model import Ridge
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> model = ltr.Estimator(Ridge(alpha=1.0)).fit(data)
    >>> model.name, model.predict(data)[:3].round(4)
    ('Ridge', array([0.4102, 0.5487, 1.399 ]))
    """

    estimator: Any  # Any: any object with fit and predict methods
    name: str = ""
    seed: int = 0
    fitted_: Any = field(default=None, repr=False)  # Any: the fitted estimator

    def __post_init__(self) -> None:
        if not (hasattr(self.estimator, "fit") and hasattr(self.estimator, "predict")):
            raise InputError(f"{type(self.estimator).__name__} has no fit/predict methods")
        self.name = self.name or type(self.estimator).__name__

    def fit(
        self,
        train: LetorDataset,
        vali: LetorDataset | None = None,
        *,
        progress: Progress | None = None,
    ) -> Estimator:
        model = _clone(self.estimator)
        if "random_state" in getattr(model, "get_params", dict)():
            model.set_params(random_state=check_seed(self.seed))
        takes = inspect.signature(model.fit).parameters
        extra: dict[str, Any] = {}
        if "group" in takes:
            extra["group"] = train.sizes
        elif "qid" in takes:
            extra["qid"] = train.qidx
        model.fit(_matrix(train), train.labels, **extra)
        self.fitted_ = model
        if progress is not None:
            progress(1, 1)
        return self

    def predict(self, data: LetorDataset) -> np.ndarray:
        if self.fitted_ is None:
            raise InputError(f"model {self.name!r} is not fitted")
        return np.asarray(self.fitted_.predict(_matrix(data)), dtype=np.float64).ravel()

    def save(self, path: str | os.PathLike[str]) -> Path | None:
        """A wrapped estimator has no saved form of assay's: returns None (see :func:`save_model`)."""
        from .saving import save_model

        return save_model(self, path)


def _clone(estimator: Any) -> Any:
    try:
        from sklearn.base import clone
    except ImportError:  # cloning is a courtesy; the estimator itself works without it
        return estimator
    try:
        return clone(estimator)
    except TypeError:
        return estimator


# ---------------------------------------------------------------- random floor


@dataclass
class RandomScores:
    """Uniform random scores, seeded: the floor every ranker should clear.

    Parameters
    ----------
    seed : int
        The seed of the scores (the same for every call of ``predict``).
    name : str
        The model's name.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> ltr.RandomScores(seed=3).fit(data).predict(data)[:3].round(4)
    array([0.0856, 0.2368, 0.8013])
    """

    seed: int = 0
    name: str = "random"

    def fit(
        self,
        train: LetorDataset,
        vali: LetorDataset | None = None,
        *,
        progress: Progress | None = None,
    ) -> RandomScores:
        return self

    def predict(self, data: LetorDataset) -> np.ndarray:
        return np.random.default_rng(check_seed(self.seed)).random(data.n_docs)

    def save(self, path: str | os.PathLike[str]) -> Path | None:
        """Write the fitted model (see :func:`save_model`); returns the file written."""
        from .saving import save_model

        return save_model(self, path)


# ---------------------------------------------------------------- by name


def make_model(
    name: ModelName,
    *,
    seed: int = 0,
    num_threads: int = 1,
    **options: Any,  # Any: the chosen model's own fields, of their types
) -> Model:
    """Make a model by name.

    ``linear`` (least squares), ``ridge`` (``l2``, default 1.0), ``lambdamart``, ``random``.
    ``seed`` and ``num_threads`` are checked whatever the model, so a bad one is never
    silently unused.

    Parameters
    ----------
    name : {"linear", "ridge", "lambdamart", "random"}
        The model (in any case).
    seed : int
        The model's seed.
    num_threads : int
        LightGBM's threads (``lambdamart``).
    **options
        The model's other fields (:class:`Linear`'s ``l2``, :class:`LambdaMART`'s
        ``n_estimators``, ...).

    Returns
    -------
    Model
        The model, not fitted.

    Examples
    --------
    >>> from assay import ltr
    >>> ltr.make_model("ridge", seed=2)
    Linear(l2=1.0, name='ridge', seed=2, intercept_=0.0)
    """
    name = choice(name, ModelName, "models", ignore_case=True)
    seed = check_seed(seed)
    num_threads = integer(num_threads, "num_threads", minimum=1)
    if name == "linear":
        return Linear(seed=seed, **options)
    if name == "ridge":
        return Linear(l2=options.pop("l2", 1.0), name="ridge", seed=seed, **options)
    if name == "lambdamart":
        return LambdaMART(seed=seed, num_threads=num_threads, **options)
    return RandomScores(seed=seed, **options)


def with_seed(model: _M, seed: int) -> _M:
    """Copy a model, unfitted, with another seed.

    Parameters
    ----------
    model : Model
        A model (a dataclass, as every model of :mod:`assay.ltr` is).
    seed : int
        The copy's seed.

    Returns
    -------
    Model
        A copy of ``model`` with ``seed`` and its fitted state (``coef_``, ``booster_``,
        ``fitted_``) cleared.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> fresh = ltr.with_seed(ltr.Linear().fit(data), 7)
    >>> fresh.seed, fresh.coef_ is None
    (7, True)
    """
    fresh = {f: None for f in ("coef_", "booster_", "fitted_") if hasattr(model, f)}
    copy: _M = replace(cast(Any, model), seed=check_seed(seed), **fresh)  # a dataclass
    return copy
