"""The metric registry machinery: declarations, the registry and the name parser.

The declarations themselves live with their families (the modules each entry of
:data:`assay._families.FAMILIES` names); the registry imports a family's declarations on the
first lookup of one of its metrics, whatever was imported before, so
``assay.metrics.parse("f1", family="classification")`` works in a fresh interpreter and a
ranking lookup imports no other family.
"""

from .._families import metric_families
from .names import parse, parse_all
from .registry import REGISTRY, Metric, MetricSpec, Param, Registry, make

#: The registry's family names, in the declared order (derived from the one family list,
#: :data:`assay._families.FAMILIES`).
FAMILIES: tuple[str, ...] = metric_families()


def load_families() -> None:
    """Load every family's declarations now (lookups load them on demand; listings and docs
    may call this to load everything at once).

    Returns
    -------
    None
        The declarations are in :data:`REGISTRY` afterwards.

    Examples
    --------
    >>> from assay.metrics import REGISTRY, load_families
    >>> load_families()
    >>> REGISTRY.families()[:3]
    ['ranking', 'classification', 'agreement']
    """
    REGISTRY.load()


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
