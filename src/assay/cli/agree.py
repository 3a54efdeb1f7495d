"""``assay agree FILE``: inter-rater reliability (Krippendorff's alpha, and kappas).

Files are read by :func:`assay.io.read_ratings`: CSV or TSV with a header; long (unit, rater,
value columns; chosen with ``--long`` or from the column names) or wide (one column per
rater, optional unit id column). Missing cells: empty, ``NA``, ``NaN``, ``.``, ``*``.

Printed: alpha, D_o, D_e, n_pairable, n_units, the interpretation band (Krippendorff: α ≥
0.800 reliable, 0.667 ≤ α < 0.800 tentative, below unreliable), Cohen's kappa when there are
exactly two raters, Fleiss' kappa when every unit has every rater's value, and with
``--bootstrap N`` the percentile CI and P(alpha < 0.667), P(alpha < 0.8).

Only typer and the standard library are imported at module level; NumPy and
:mod:`assay.agreement` load inside the command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from .._options import Level
from ._common import FormatOption, SeedOption, errors, present

if TYPE_CHECKING:
    from ..io import Ratings

__all__ = ["agree", "register"]


def agree(
    path: Annotated[
        str,
        typer.Argument(
            help="CSV/TSV of ratings: wide (one column per rater, optional unit id column) "
            "or long (unit, rater, value columns); - for stdin."
        ),
    ],
    level: Annotated[
        Level, typer.Option("-l", "--level", help="Level of measurement for alpha.")
    ] = "nominal",
    long: Annotated[
        bool, typer.Option("--long", help="Read the long layout (unit, rater, value).")
    ] = False,
    bootstrap: Annotated[
        int,
        typer.Option("--bootstrap", min=0, help="Bootstrap resamples for alpha's CI (0: none)."),
    ] = 0,
    seed: SeedOption = 0,
    fmt: FormatOption = None,
) -> None:
    """Inter-rater reliability: Krippendorff's alpha (D_o, D_e, band, optional bootstrap CI),
    Cohen's kappa for two raters, Fleiss' kappa for complete data."""
    with errors():
        from ..io import read_ratings
        from ..report import values_report

        ratings = read_ratings(path, layout="long" if long else "auto")
        values, meta = _alpha(ratings, level)
        values.update(_kappas(ratings))
        if bootstrap:
            values_boot, meta["bootstrap"] = _bootstrap(ratings, level, bootstrap, seed)
            values.update(values_boot)
        caption = f"{path} ({ratings.layout}, {len(ratings.raters)} raters), {level}"
        present(values_report(values, caption=caption, document=meta), fmt)


def _alpha(ratings: Ratings, level: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Krippendorff's alpha and its parts; the metadata of the analysis."""
    from .. import agreement
    from ..errors import InputError

    try:
        result = agreement.krippendorff_alpha(ratings.data, level=level)
    except InputError as exc:  # a problem of the file: name it
        if ratings.layout != "long":
            raise
        raise InputError(exc.detail, source=ratings.source) from None
    values: dict[str, Any] = {
        "alpha": result.alpha,
        "D_o": result.observed,
        "D_e": result.expected,
        "n_pairable": result.n_pairable,
        "n_units": result.n_units,
        "band": result.band,
    }
    meta: dict[str, Any] = {
        "path": ratings.source,
        "layout": ratings.layout,
        "level": level,
        "raters": len(ratings.raters),
        "defined": result.defined,
    }
    return values, meta


def _kappas(ratings: Ratings) -> dict[str, Any]:
    """Cohen's kappa for two raters (NaN where undefined), Fleiss' for complete data."""
    import math

    from .. import agreement
    from ..errors import AssayError

    out: dict[str, Any] = {}
    if len(ratings.raters) == 2:
        a = [row[0] for row in ratings.matrix]
        b = [row[1] for row in ratings.matrix]
        try:
            out["cohen_kappa"] = agreement.cohen_kappa(a, b).value
        except AssayError:
            out["cohen_kappa"] = math.nan
    if ratings.complete:
        out["fleiss_kappa"] = agreement.fleiss_kappa(ratings.matrix).value
    return out


def _bootstrap(
    ratings: Ratings, level: str, n_resamples: int, seed: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Alpha's bootstrap CI and probabilities; its settings."""
    from .. import agreement

    bs = agreement.alpha_bootstrap(ratings.matrix, level=level, n_resamples=n_resamples, seed=seed)
    values: dict[str, Any] = {}
    values["alpha_ci_low"], values["alpha_ci_high"] = bs.ci
    for t, p in bs.probabilities.items():
        values[f"P(alpha<{t:g})"] = p
    settings = {
        "n_resamples": n_resamples,
        "seed": seed,
        "confidence": bs.confidence,
        "method": bs.method,
    }
    return values, settings


def register(app: typer.Typer) -> None:
    """Add ``assay agree`` to ``app``."""
    app.command("agree")(agree)
