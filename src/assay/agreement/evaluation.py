"""One call for what ``assay agree`` prints: :func:`evaluate` decides which coefficients apply
to a ratings file (Krippendorff's alpha always; Cohen's kappa for exactly two raters;
Fleiss' kappa when every unit has every rater's value; alpha's bootstrap when asked) and its
:class:`AgreementEvaluation` builds the table (:meth:`~AgreementEvaluation.report`) and the
``--report`` page, with the coincidence matrix (:meth:`~assay.report.Reported.html`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._result import Result
from ..errors import AssayError, InputError
from ..report.reported import Reported
from .alpha import AlphaResult, krippendorff_alpha
from .bootstrap import AlphaBootstrap, alpha_bootstrap
from .kappas import cohen_kappa, fleiss_kappa
from .options import Level
from .ratings import Ratings

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["AgreementEvaluation", "evaluate"]

#: The coincidence matrix's caption on the report page.
COINCIDENCE_CAPTION = (
    "Pairable values within units, each pair counted both ways and weighted by "
    "1/(m_u - 1) (Krippendorff 2011); the diagonal is agreement."
)


@dataclass(frozen=True, eq=False, repr=False)
class AgreementEvaluation(Result, Reported):
    """The agreement of the raters of one ratings file: Krippendorff's ``alpha`` at ``level``,
    the ``kappas`` that apply (``cohen_kappa`` for two raters, NaN where undefined;
    ``fleiss_kappa`` for complete data) and, when asked, alpha's ``bootstrap``.

    ``report()``: rows ``metric, value`` (alpha, D_o, D_e, n_pairable, n_units, band, the
    kappas, the interval and probabilities of the bootstrap); ``document()`` adds
    Krippendorff's coincidence matrix as a heatmap. Built by :func:`evaluate`.

    Parameters
    ----------
    ratings : Ratings
        The ratings evaluated.
    level : str
        Alpha's level of measurement.
    alpha : AlphaResult
        Krippendorff's alpha.
    kappas : mapping of str to float
        The kappas that apply, by measure name.
    bootstrap : AlphaBootstrap, optional
        Alpha's bootstrap, when asked.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.agreement import Ratings, evaluate
    >>> r = Ratings("example", "wide", ["u1", "u2", "u3"], ["a", "b"], [[1, 1], [2, 2], [1, 2]])
    >>> ev = evaluate(r)
    >>> ev.level, round(ev.kappas["cohen_kappa"], 4)
    ('nominal', 0.4)
    """

    family = "agreement"

    ratings: Ratings
    level: str
    alpha: AlphaResult
    kappas: Mapping[str, float]
    bootstrap: AlphaBootstrap | None = None
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __repr__(self) -> str:
        shown = [f"alpha={self.alpha.alpha:.4g}", f"band={self.alpha.band!r}"]
        shown += [f"{name}={value:.4g}" for name, value in self.kappas.items()]
        if self.bootstrap is not None:
            low, high = self.bootstrap.ci
            shown.append(f"alpha_ci=({low:.4g}, {high:.4g})")
        return (
            f"AgreementEvaluation({self.ratings.source!r}, {self.ratings.describe()!r}, "
            f"level={self.level!r}, {', '.join(shown)})"
        )

    def values(self) -> dict[str, Any]:
        """The printed values by name, in the printed order."""
        a = self.alpha
        values: dict[str, Any] = {
            "alpha": a.alpha,
            "D_o": a.observed,
            "D_e": a.expected,
            "n_pairable": a.n_pairable,
            "n_units": a.n_units,
            "band": a.band,
            **self.kappas,
        }
        if self.bootstrap is not None:
            values["alpha_ci_low"], values["alpha_ci_high"] = self.bootstrap.ci
            for t, p in self.bootstrap.probabilities.items():
                values[f"P(alpha<{t:g})"] = p
        return values

    def settings(self) -> dict[str, Any]:
        """How the file was read and analysed (the report's JSON ``document``)."""
        r = self.ratings
        meta: dict[str, Any] = {
            "path": r.source,
            "layout": r.layout,
            "read_as": r.describe(),
            "orientation": r.orientation if r.layout == "wide" else None,
            "id_column": r.id_column,
            "level": self.level,
            "raters": len(r.raters),
            "defined": self.alpha.defined,
        }
        if self.bootstrap is not None:
            bs = self.bootstrap
            meta["bootstrap"] = {
                "n_resamples": bs.n_resamples,
                "seed": bs.seed,
                "confidence": bs.confidence,
                "method": bs.method,
            }
        return meta

    def records(self) -> list[dict[str, Any]]:
        return [{"metric": m, "value": v} for m, v in self.values().items()]

    def report(self) -> Report:
        from ..report.tasks import values_report

        caption = f"{self.ratings.source} ({self.ratings.describe()}), {self.level}"
        return values_report(self.values(), caption=caption, document=self.settings())

    def document(self) -> Document:
        from ..report.document import section
        from ..report.sections_tasks import heatmap, tables_document

        domain = list(self.alpha.domain)
        plot = heatmap(
            "Coincidence matrix",
            domain,
            domain,
            self.alpha.coincidence,
            xlabel="value",
            ylabel="value",
            caption=COINCIDENCE_CAPTION,
        )
        sections = [section("Coincidence matrix", plot)]
        return tables_document("Agreement", self.family, self.report(), sections=sections)


def evaluate(
    ratings: Ratings,
    *,
    level: Level = "nominal",
    n_resamples: int = 0,
    seed: int = 0,
) -> AgreementEvaluation:
    """The agreement of the raters of a ratings file, with every coefficient that applies.

    Parameters
    ----------
    ratings : Ratings
        The ratings, as :func:`~assay.agreement.read_ratings` reads them.
    level : {"nominal", "ordinal", "interval", "ratio"}
        Krippendorff's alpha's level of measurement.
    n_resamples : int
        Resamples of alpha's bootstrap (:func:`~assay.agreement.alpha_bootstrap`; 0: none).
    seed : int
        The bootstrap's seed (unused without a bootstrap).

    Returns
    -------
    AgreementEvaluation
        Krippendorff's alpha; Cohen's kappa when there are exactly two raters (NaN where it
        is undefined); Fleiss' kappa when every unit has every rater's value; the bootstrap.

    Examples
    --------
    >>> from assay.agreement import Ratings, evaluate
    >>> r = Ratings("example", "wide", ["u1", "u2", "u3", "u4"], ["a", "b"],
    ...             [["x", "x"], ["y", "y"], ["x", "y"], ["y", "y"]])
    >>> ev = evaluate(r)
    >>> round(ev.alpha.alpha, 4), sorted(ev.kappas)
    (0.5333, ['cohen_kappa', 'fleiss_kappa'])
    """
    try:
        alpha = krippendorff_alpha(ratings.data, level=level)
    except InputError as exc:  # a problem of the file: name it
        if ratings.layout != "long":
            raise
        raise InputError(exc.detail, source=ratings.source) from None
    kappas = _kappas(ratings)
    bootstrap = None
    if n_resamples != 0:  # alpha_bootstrap checks n_resamples and seed (0: no bootstrap)
        bootstrap = alpha_bootstrap(ratings.matrix, level=level, n_resamples=n_resamples, seed=seed)
    return AgreementEvaluation(ratings, level, alpha, kappas, bootstrap)


def _kappas(ratings: Ratings) -> dict[str, float]:
    """Cohen's kappa for two raters (NaN where undefined), Fleiss' for complete data."""
    out: dict[str, float] = {}
    if len(ratings.raters) == 2:
        a = [row[0] for row in ratings.matrix]
        b = [row[1] for row in ratings.matrix]
        try:
            out["cohen_kappa"] = cohen_kappa(a, b).value
        except AssayError:
            out["cohen_kappa"] = math.nan
    if ratings.complete:
        out["fleiss_kappa"] = fleiss_kappa(ratings.matrix).value
    return out
