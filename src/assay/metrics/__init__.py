"""The metric catalogue of every family: declarations, the registry and the name parser.

Importing this package registers the ranking metrics; the other families register when their
modules are imported (:mod:`assay.metrics.classification`, ...), which
:func:`load_families` does for tools that list everything.
"""

from importlib import import_module

from .names import parse, parse_all
from .registry import REGISTRY, Metric, MetricSpec, Param, Registry, make

# The ranking core's declarations (assay.ranking.measures) register when the registry is
# imported, as they did when they lived here; by name, since the registry sits below them.
import_module("assay.ranking.measures")

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

    for family in FAMILIES[1:]:
        import_module(f"{__name__}.{family}")


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
