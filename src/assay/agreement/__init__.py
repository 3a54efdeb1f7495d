"""Inter-rater reliability: Krippendorff's alpha, Cohen's, Fleiss', Scott's and Randolph's
coefficients, and percent agreement.

Modules, by role: :mod:`~assay.agreement.kappas` (the kappa-type coefficients and percent
agreement; its documentation gives the conventions for missing labels and varying numbers of
raters), :mod:`~assay.agreement.alpha` (Krippendorff's alpha and its formulas),
:mod:`~assay.agreement.bootstrap` (its bootstrap) --
every coefficient is declared in the metric registry --, :mod:`~assay.agreement.ratings`
(ratings files: :func:`read_ratings`), :mod:`~assay.agreement.evaluation` (:func:`evaluate`:
what ``assay agree`` prints, as a result that builds its own table and HTML page) and
:mod:`~assay.agreement.options` (the option types). :func:`cohen_kappa` is also exported by
:mod:`assay.classification`. Public names load on first use.
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY = {
    # two raters, many raters
    "LEVELS": "alpha",
    "AgreementResult": "kappas",
    "cohen_kappa": "kappas",
    "fleiss_kappa": "kappas",
    "percent_agreement": "kappas",
    "randolph_kappa": "kappas",
    "scott_pi": "kappas",
    # Krippendorff's alpha
    "AlphaBootstrap": "bootstrap",
    "AlphaResult": "alpha",
    "alpha_band": "alpha",
    "alpha_bootstrap": "bootstrap",
    "krippendorff_alpha": "alpha",
    # ratings files, and every coefficient that applies to one
    "Ratings": "ratings",
    "read_ratings": "ratings",
    "AgreementEvaluation": "evaluation",
    "evaluate": "evaluation",
}


_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
