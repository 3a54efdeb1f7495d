"""``assay agree FILE``: inter-rater reliability (Krippendorff's alpha, and kappas).

Files are read by :func:`assay.io.read_ratings`: CSV or TSV with a header; long (unit, rater,
value columns: named with ``--unit-column``/``--rater-column``/``--value-column``, or found
by name) or wide (one column per rater and a row per unit, or ``--orientation
raters-by-units``: a row per rater, as the krippendorff package's ``reliability_data``). The
row id column is named with ``--id-column`` (``--no-id-column``: none), else found by its
name; a column that only looks like ids is refused rather than taken for a rater. Missing
cells: empty, ``NA``, ``NaN``, ``.``, ``*``. A first line that looks like data (a text
name that is also a value of its column) is refused; ``--no-header`` reads a file without a
header (columns ``1``, ``2``, ...). The caption says how the file was read.

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

from .._options import Level, RatingsOrientation
from ._common import (
    FormatOption,
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    busy,
    check_report,
    errors,
    present,
    tables_documents,
    warn,
)

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
    orientation: Annotated[
        RatingsOrientation,
        typer.Option(
            "--orientation",
            help="Wide files: units-by-raters (a row per unit, a column per rater) or "
            "raters-by-units (a row per rater, as krippendorff's reliability_data).",
        ),
    ] = "units-by-raters",
    id_column: Annotated[
        str | None,
        typer.Option(
            "--id-column", help="Wide files: the column of the row ids (units, or raters)."
        ),
    ] = None,
    no_id_column: Annotated[
        bool,
        typer.Option("--no-id-column", help="Wide files: no id column; every column is rated."),
    ] = False,
    no_header: Annotated[
        bool,
        typer.Option(
            "--no-header",
            help="The file has no header line: columns are named 1, 2, ... (--id-column 1). "
            "A first line that looks like data is refused without it.",
        ),
    ] = False,
    unit_column: Annotated[
        str | None, typer.Option("--unit-column", help="Long files: the unit column.")
    ] = None,
    rater_column: Annotated[
        str | None, typer.Option("--rater-column", help="Long files: the rater column.")
    ] = None,
    value_column: Annotated[
        str | None, typer.Option("--value-column", help="Long files: the value column.")
    ] = None,
    bootstrap: Annotated[
        int,
        typer.Option("--bootstrap", min=0, help="Bootstrap resamples for alpha's CI (0: none)."),
    ] = 0,
    seed: SeedOption = 0,
    fmt: FormatOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Inter-rater reliability: Krippendorff's alpha (D_o, D_e, band, optional bootstrap CI),
    Cohen's kappa for two raters, Fleiss' kappa for complete data."""
    with errors():
        from ..io import read_ratings
        from ..report import values_report

        check_report(report)
        if no_id_column and id_column is not None:
            from ..errors import OptionError

            raise OptionError(
                "--id-column and --no-id-column exclude each other", option="id_column"
            )
        ratings = read_ratings(
            path,
            layout="long" if long else "auto",
            orientation=orientation,
            id_column=False if no_id_column else id_column,
            unit_column=unit_column,
            rater_column=rater_column,
            value_column=value_column,
            header=not no_header,
        )
        if ratings.layout == "wide" and len(ratings.units) == len(ratings.raters):
            # A square table reads either way, and the two readings give different alphas.
            warn(f"{path}: read as {ratings.describe()} (--orientation to read it the other way)")
        values, meta = _alpha(ratings, level)
        values.update(_kappas(ratings))
        if bootstrap:
            with busy(f"bootstrap of alpha ({bootstrap} resamples)", quiet):
                values_boot, meta["bootstrap"] = _bootstrap(ratings, level, bootstrap, seed)
            values.update(values_boot)
        caption = f"{path} ({ratings.describe()}), {level}"
        shown = values_report(values, caption=caption, document=meta)
        present(shown, fmt)
        if report is not None or save is not None:
            tables_documents(
                shown,
                family="agreement",
                heading="Agreement",
                report=report,
                save=save,
                title="assay agree",
                sections=_coincidence(ratings, level),
                quiet=quiet,
            )


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
        "read_as": ratings.describe(),
        "orientation": ratings.orientation if ratings.layout == "wide" else None,
        "id_column": ratings.id_column,
        "level": level,
        "raters": len(ratings.raters),
        "defined": result.defined,
    }
    return values, meta


def _coincidence(ratings: Ratings, level: str) -> list[Any]:
    """Krippendorff's coincidence matrix as a heatmap (values that pair, within units)."""
    from .. import agreement
    from ..report.document import section
    from ..report.sections_tasks import heatmap

    result = agreement.krippendorff_alpha(ratings.data, level=level)
    plot = heatmap(
        "Coincidence matrix", list(result.domain), list(result.domain), result.coincidence,
        xlabel="value", ylabel="value",
        caption="Pairable values within units, each pair counted both ways and weighted by "
        "1/(m_u - 1) (Krippendorff 2011); the diagonal is agreement.",
    )  # fmt: skip
    return [section("Coincidence matrix", plot)]


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
