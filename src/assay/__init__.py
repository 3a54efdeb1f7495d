"""assay: offline evaluation of ranking and NLP systems.

>>> import assay
>>> qrels = assay.Qrels.from_trec("qrels.txt")              # doctest: +SKIP
>>> run = assay.Run.from_trec("run.txt")                    # doctest: +SKIP
>>> assay.evaluate(qrels, run, ["ndcg@10", "map"]).mean()   # doctest: +SKIP

Heavy modules are imported on first use, so ``import assay`` and ``assay --help`` stay fast.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._families import FAMILIES as _FAMILIES
from ._version import __version__
from .errors import (
    AssayError,
    AssayWarning,
    ConventionError,
    CoverageWarning,
    DuplicateError,
    EmptyInputError,
    InputError,
    InputWarning,
    MetricError,
    MissingExtraError,
    MissingQueryError,
    OptionError,
    ParseError,
    PowerWarning,
)

if TYPE_CHECKING:
    from .comparison import Comparison, compare
    from .conventions import Conventions
    from .data import Qrels, Run
    from .evaluation import MetricValues, Results, evaluate
    from .metrics import Metric
    from .prepared import PreparedEvaluator, prepare
    from .seeds import SeedComparison, compare_seeds, compare_seeds_runs

_LAZY = {
    "Qrels": ("assay.data", "Qrels"),
    "Run": ("assay.data", "Run"),
    "evaluate": ("assay.evaluation", "evaluate"),
    "Results": ("assay.evaluation", "Results"),
    "MetricValues": ("assay.evaluation", "MetricValues"),
    "Conventions": ("assay.conventions", "Conventions"),
    "Metric": ("assay.metrics", "Metric"),
    "metrics": ("assay.metrics", None),
    "datasets": ("assay.datasets", None),
    "compare": ("assay.comparison", "compare"),
    "Comparison": ("assay.comparison", "Comparison"),
    "prepare": ("assay.prepared", "prepare"),
    "PreparedEvaluator": ("assay.prepared", "PreparedEvaluator"),
    "compare_seeds": ("assay.seeds", "compare_seeds"),
    "compare_seeds_runs": ("assay.seeds", "compare_seeds_runs"),
    "SeedComparison": ("assay.seeds", "SeedComparison"),
    "stats": ("assay.stats", None),
    "dist": ("assay.dist", None),
    # Every family package (assay.tagging, assay.regression, ...), from the one family list.
    **{f.name: (f.package, None) for f in _FAMILIES},
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        try:
            mod = import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # a missing dependency inside it: its own error
                raise
            raise AttributeError(f"module 'assay' has no attribute {name!r}") from None
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'assay' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "AssayError",
    "AssayWarning",
    "Comparison",
    "ConventionError",
    "Conventions",
    "CoverageWarning",
    "DuplicateError",
    "EmptyInputError",
    "InputError",
    "InputWarning",
    "Metric",
    "MetricError",
    "MetricValues",
    "MissingExtraError",
    "MissingQueryError",
    "OptionError",
    "ParseError",
    "PowerWarning",
    "PreparedEvaluator",
    "Qrels",
    "Results",
    "Run",
    "SeedComparison",
    "__version__",
    "compare",
    "compare_seeds",
    "compare_seeds_runs",
    "evaluate",
    "prepare",
]
