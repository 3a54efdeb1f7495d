"""Optional dependencies, imported only through :func:`require`, inside the function that
needs them: a missing one gives an install hint, never a traceback."""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingExtraError

# module name -> (pip distribution, assay extra)
_EXTRAS: dict[str, tuple[str, str]] = {
    "pandas": ("pandas", "frames"),
    "polars": ("polars", "frames"),
    "lightgbm": ("lightgbm", "ltr"),
    "sklearn": ("scikit-learn", "ltr"),
    "faiss": ("faiss-cpu", "embed"),
    "sacrebleu": ("sacrebleu", "nlp"),
    "rouge_score": ("rouge-score", "nlp"),
    "matplotlib": ("matplotlib", "plot"),
    "dask": ("dask[dataframe]", "dist"),
    "distributed": ("distributed", "dist"),
    "ir_datasets": ("ir_datasets", "irds"),
}


def require(module: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        dist, extra = _EXTRAS.get(top, (top, "all"))
        raise MissingExtraError(
            f"this feature needs the optional dependency '{dist}', which is not installed; "
            f"install it with: pip install 'assay[{extra}]' (or: pip install {dist})"
        ) from exc
