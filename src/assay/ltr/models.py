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
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from .._files import atomic_open, atomic_path
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
    "load_model",
    "make_model",
    "save_model",
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


def _matrix(data: LetorDataset) -> Any:
    return data.features


# ---------------------------------------------------------------- linear


@dataclass
class Linear:
    """Least squares (``l2=0``) or ridge regression of the labels on the features, with an
    unpenalised intercept: min ||y - Xw - b||² + l2 ||w||², solved by ``lstsq`` on the
    design matrix (stacked with sqrt(l2)·I for ridge). The seed notebook's baseline."""

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
        return save_model(self, path)


# ---------------------------------------------------------------- LambdaMART


@dataclass
class LambdaMART:
    """LambdaMART: LightGBM's ``lambdarank`` objective (Burges 2010), defaults from LightGBM's
    lambdarank example (:data:`LAMBDARANK_EXAMPLE`, 100 trees).

    With a validation set, training stops when NDCG@``stop_at`` on it has not improved for
    ``early_stopping`` rounds (0: never) and the best iteration is kept. ``params`` are
    passed to LightGBM as they are (they override the defaults). Training records NDCG@stop_at
    on train and validation after every tree (``evals_result_``).
    """

    n_estimators: int = 100
    early_stopping: int = 50
    stop_at: int = 10
    seed: int = 0
    num_threads: int = 1
    params: Mapping[str, Any] = field(default_factory=dict)
    name: str = "lambdamart"
    booster_: Any = field(default=None, repr=False)
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
        record: dict[str, Any] = {}
        callbacks = [lgb.record_evaluation(record)]
        if vali is not None and patience > 0:
            callbacks.append(lgb.early_stopping(patience, first_metric_only=True, verbose=False))
        if progress is not None:
            callbacks.append(lambda env: progress(env.iteration + 1, rounds))
        booster = lgb.train(
            self.lightgbm_params(),
            dtrain,
            rounds,
            valid_sets=sets,
            valid_names=names,
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
        return save_model(self, path)


# ---------------------------------------------------------------- any estimator


@dataclass
class Estimator:
    """Any object with ``fit(X, y)`` and ``predict(X)`` (a scikit-learn regressor, or a
    ranker whose ``fit`` takes ``group=`` sizes, as LightGBM's ``LGBMRanker``, or ``qid=``,
    as XGBoost's). It is cloned before fitting when scikit-learn can clone it; a
    ``random_state`` parameter receives the seed."""

    estimator: Any
    name: str = ""
    seed: int = 0
    fitted_: Any = field(default=None, repr=False)

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


def _clone(estimator: Any) -> Any:
    try:
        from sklearn.base import clone
    except ImportError:  # cloning is a courtesy; the estimator itself works without it
        return estimator
    try:
        return clone(estimator)
    except TypeError:
        return estimator

    def save(self, path: str | os.PathLike[str]) -> Path | None:
        """Write the fitted model (see :func:`save_model`); returns the file written."""
        return save_model(self, path)


# ---------------------------------------------------------------- random floor


@dataclass
class RandomScores:
    """Uniform random scores, seeded: the floor every ranker should clear."""

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
        return save_model(self, path)


# ---------------------------------------------------------------- by name


def make_model(name: ModelName, *, seed: int = 0, num_threads: int = 1, **options: Any) -> Model:
    """A model by name: ``linear`` (least squares), ``ridge`` (``l2``, default 1.0),
    ``lambdamart``, ``random``. ``seed`` and ``num_threads`` are checked whatever the model,
    so a bad one is never silently unused."""
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


def with_seed(model: Any, seed: int) -> Any:
    """A fresh, unfitted copy of ``model`` with another seed."""
    fresh = {f: None for f in ("coef_", "booster_", "fitted_") if hasattr(model, f)}
    return replace(model, seed=check_seed(seed), **fresh)


# ---------------------------------------------------------------- saving


def save_model(model: Model, path: str | os.PathLike[str]) -> Path | None:
    """Write ``model`` next to ``path`` with the suffix of its format.

    Parameters
    ----------
    model
        A fitted :class:`~assay.ltr.LambdaMART` or :class:`~assay.ltr.Linear` (any other
        model, or an unfitted one, writes nothing).
    path
        Where to write, without caring for the suffix: ``.txt`` (LightGBM's text model) or
        ``.json`` (a linear model's weights) replaces it.

    Returns
    -------
    Path or None
        The file written, or None when the model has no saved form.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, n_features=8, informative=2, seed=1)
    >>> m = ltr.Linear().fit(data)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     saved = m.save(Path(d) / "linear")
    ...     again = ltr.load_model(saved)
    ...     print(saved.name, bool((again.predict(data) == m.predict(data)).all()))
    linear.json True
    """
    target = Path(path)
    if isinstance(model, LambdaMART) and model.booster_ is not None:
        written = target.with_suffix(".txt")
        with atomic_path(written) as tmp:
            model.booster_.save_model(tmp, num_iteration=model.best_iteration_)
        return written
    if isinstance(model, Linear) and model.coef_ is not None:
        written = target.with_suffix(".json")
        body = {"intercept": model.intercept_, "coef": model.coef_.tolist(), "l2": model.l2}
        with atomic_open(written, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(body))
        return written
    return None


def load_model(path: str | os.PathLike[str]) -> LambdaMART | Linear:
    """A model saved by :func:`save_model` (``Model.save``), ready to ``predict``.

    Parameters
    ----------
    path
        A ``.txt`` file (LightGBM's text model: a :class:`~assay.ltr.LambdaMART`, needs the
        ``ltr`` extra) or a ``.json`` file (a :class:`~assay.ltr.Linear` model). The model is
        named after the file's stem.

    Returns
    -------
    LambdaMART or Linear
        The fitted model; it predicts the scores the saved one did.

    Examples
    --------
    See :func:`save_model`.
    """
    source = Path(path)
    if not source.is_file():
        raise InputError(f"no model file {str(source)!r}", source=str(source))
    if source.suffix == ".json":
        try:
            body = json.loads(source.read_text(encoding="utf-8"))
            coef = np.asarray(body["coef"], dtype=np.float64)
            return Linear(
                l2=float(body["l2"]),
                name=source.stem,
                coef_=coef,
                intercept_=float(body["intercept"]),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"not a saved linear model: {exc}", source=str(source)) from None
    if source.suffix == ".txt":
        lgb = require("lightgbm")
        booster = lgb.Booster(model_file=str(source))
        trees = int(booster.current_iteration())
        return LambdaMART(name=source.stem, booster_=booster, best_iteration_=trees)
    raise InputError(
        f"a saved model is a .txt (LambdaMART) or .json (linear) file, not {source.name!r}",
        source=str(source),
    )
