"""Extrinsic evaluation of clusterings against a gold clustering.

The public face of the clustering family; the code lives in :mod:`assay.metrics`
(:mod:`~assay.metrics.clustering` for hard clusterings, :mod:`~assay.metrics.clustering_soft`
for overlapping, weighted ones), where every scalar measure is declared in the metric registry
(``assay metrics``, ``docs/metrics.md``) and the definitions and ill-defined cases are
documented.
"""

from __future__ import annotations

from .metrics import clustering as _hard
from .metrics import clustering_soft as _soft
from .metrics.clustering import *  # noqa: F403
from .metrics.clustering_soft import *  # noqa: F403

__all__ = [*_hard.__all__, *_soft.__all__]
