"""The metric catalogue: declarations, registry and name parser."""

from . import ranking as _ranking  # noqa: F401  (registers the declarations)
from .registry import REGISTRY, Metric, MetricSpec, Param, make, parse, parse_all

__all__ = ["REGISTRY", "Metric", "MetricSpec", "Param", "make", "parse", "parse_all"]
