"""Saving and loading fitted rankers: :func:`save_model` (LightGBM's text model for
:class:`~assay.ltr.LambdaMART`, JSON for :class:`~assay.ltr.Linear`) and :func:`load_model`,
the one serialiser of learning to rank."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from .._files import atomic_open, atomic_path
from .._optional import require
from ..errors import InputError
from .models import LambdaMART, Linear, Model

__all__ = ["load_model", "save_model"]


def save_model(model: Model, path: str | os.PathLike[str]) -> Path | None:
    """Write ``model`` next to ``path`` with the suffix of its format.

    Parameters
    ----------
    model : Model
        A fitted :class:`~assay.ltr.LambdaMART` or :class:`~assay.ltr.Linear` (any other
        model, or an unfitted one, writes nothing).
    path : str or path-like
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
    path : str or path-like
        A ``.txt`` file (LightGBM's text model: a :class:`~assay.ltr.LambdaMART`, needs the
        ``ltr`` extra) or a ``.json`` file (a :class:`~assay.ltr.Linear` model). The model is
        named after the file's stem.

    Returns
    -------
    LambdaMART or Linear
        The fitted model; it predicts the scores the saved one did.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> saved = ltr.Linear(l2=1.0).fit(data).save("ridge-model")
    >>> model = ltr.load_model(saved)
    >>> saved.name, model.name, model.l2, model.predict(data)[:3].round(4)
    ('ridge-model.json', 'ridge-model', 1.0, array([0.4102, 0.5487, 1.399 ]))
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
