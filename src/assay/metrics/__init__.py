"""The metric catalogue of every family: declarations, the registry and the name parser.

Importing this package registers the ranking metrics; the other families register when their
modules are imported (:mod:`assay.classification.measures`, ...), which
:func:`load_families` does for tools that list everything.
"""

# Importing the ranking modules registers their declarations (set, graded, pairwise, and
# trec_eval's own measures).
from . import ranking as _ranking  # noqa: F401
from . import ranking_graded as _ranking_graded  # noqa: F401
from . import ranking_pairwise as _ranking_pairwise  # noqa: F401
from . import ranking_trec as _ranking_trec  # noqa: F401
from .names import parse, parse_all
from .registry import REGISTRY, Metric, MetricSpec, Param, Registry, make

FAMILIES: tuple[str, ...] = (
    "ranking",
    "classification",
    "agreement",
    "clustering",
    "regression",
    "tagging",
    "embedding",
)


def load_families() -> None:
    """Import every family's declarations (for listings and docs)."""
    from importlib import import_module

    from .._families import FAMILIES as _FAMILIES

    for family in _FAMILIES:
        for module in family.measure_modules:
            import_module(module)


__all__ = [
    "FAMILIES",
    "REGISTRY",
    "Metric",
    "MetricSpec",
    "Param",
    "Registry",
    "load_families",
    "make",
    "parse",
    "parse_all",
]
