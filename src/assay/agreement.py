"""Inter-rater reliability: Krippendorff's alpha, Cohen's, Fleiss', Scott's and Randolph's
coefficients, and percent agreement.

The public face of the agreement family; the code lives in :mod:`assay.metrics.agreement`
(the kappas and the module documentation) and :mod:`assay.metrics.agreement_alpha`
(Krippendorff's alpha, its formulas and bootstrap), where every coefficient is declared in the
metric registry. :func:`cohen_kappa` is also exported by :mod:`assay.classification`.
"""

from __future__ import annotations

from .metrics.agreement import (
    LEVELS,
    AgreementResult,
    AlphaBootstrap,
    AlphaResult,
    alpha_band,
    alpha_bootstrap,
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
    percent_agreement,
    randolph_kappa,
    scott_pi,
)

__all__ = [
    "LEVELS",
    "AgreementResult",
    "AlphaBootstrap",
    "AlphaResult",
    "alpha_band",
    "alpha_bootstrap",
    "cohen_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "percent_agreement",
    "randolph_kappa",
    "scott_pi",
]
