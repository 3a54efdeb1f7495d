"""Classification evaluation: confusion matrices, the measures computed from them, and the
curves and summaries computed from scores.

The public face of the classification family; the code lives in :mod:`assay.metrics`
(:mod:`~assay.metrics.classification`, :mod:`~assay.metrics.classification_curves`,
:mod:`~assay.metrics.classification_report`), where every scalar measure is declared in the
metric registry (``assay metrics``, ``docs/metrics.md``). :func:`cohen_kappa` is the agreement
family's (one implementation, exported by both). See :mod:`assay.metrics.classification` for
the conventions (label order, ``labels``, ``average``, ``zero_division``, ``pos_label``).
"""

from __future__ import annotations

from .agreement.kappas import AgreementResult, cohen_kappa
from .metrics import classification as _measures
from .metrics import classification_curves as _curves
from .metrics import classification_report as _report
from .metrics.classification import *  # noqa: F403
from .metrics.classification_curves import *  # noqa: F403
from .metrics.classification_report import *  # noqa: F403

__all__ = [
    "AgreementResult",
    "cohen_kappa",
    *_measures.__all__,
    *_curves.__all__,
    *_report.__all__,
]
