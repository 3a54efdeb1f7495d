"""``assay agree FILE``: inter-rater reliability (Krippendorff's alpha, and kappas).

Files are read by :func:`assay.agreement.read_ratings`: CSV or TSV with a header; long (unit, rater,
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
``--n-resamples N`` the percentile CI and P(alpha < 0.667), P(alpha < 0.8).

Which coefficients apply is :func:`assay.agreement.evaluate`'s decision; its result builds the
table and the ``--report`` page. Only typer, the standard library and the option types are
imported at module level; NumPy and the agreement code load inside the command.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..agreement.options import Level, RatingsOrientation
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
    warn,
    write_documents,
)

__all__ = ["agree", "register"]

#: The title of the ``--report`` page.
TITLE = "assay agree"


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
        typer.Option(
            "--n-resamples",
            "--bootstrap",
            min=0,
            help="Bootstrap resamples for alpha's CI (0: none; --bootstrap is its old name).",
        ),
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
        from ..agreement import evaluate, read_ratings

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
        with busy(f"bootstrap of alpha ({bootstrap} resamples)", quiet or not bootstrap):
            result = evaluate(ratings, level=level, n_resamples=bootstrap, seed=seed)
        present(result.report(), fmt)
        if report is not None or save is not None:
            write_documents([result.document()], report=report, save=save, title=TITLE, quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay agree`` to ``app``."""
    app.command("agree")(agree)
