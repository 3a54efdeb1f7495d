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

from typing import TYPE_CHECKING

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


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .alpha import LEVELS as LEVELS
    from .alpha import AlphaResult as AlphaResult
    from .alpha import alpha_band as alpha_band
    from .alpha import krippendorff_alpha as krippendorff_alpha
    from .bootstrap import AlphaBootstrap as AlphaBootstrap
    from .bootstrap import alpha_bootstrap as alpha_bootstrap
    from .evaluation import AgreementEvaluation as AgreementEvaluation
    from .evaluation import evaluate as evaluate
    from .kappas import AgreementResult as AgreementResult
    from .kappas import cohen_kappa as cohen_kappa
    from .kappas import fleiss_kappa as fleiss_kappa
    from .kappas import percent_agreement as percent_agreement
    from .kappas import randolph_kappa as randolph_kappa
    from .kappas import scott_pi as scott_pi
    from .ratings import Ratings as Ratings
    from .ratings import read_ratings as read_ratings

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
