"""Inter-rater reliability: Krippendorff's alpha, Cohen's, Fleiss', Scott's and Randolph's
coefficients, and percent agreement.

The public face of the agreement family; the code lives in :mod:`assay.metrics.agreement`
(the kappas and the module documentation) and :mod:`assay.metrics.agreement_alpha`
(Krippendorff's alpha, its formulas and bootstrap), where every coefficient is declared in the
metric registry. :func:`cohen_kappa` is also exported by :mod:`assay.classification`.
"""

from __future__ import annotations

from .metrics import agreement as _agreement
from .metrics.agreement import *  # noqa: F403

__all__ = list(_agreement.__all__)
