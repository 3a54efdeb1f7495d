"""``assay agree FILE``: inter-rater reliability (Krippendorff's alpha, and kappas).

Registered by :func:`assay.cli._register_task_commands`. Only typer and the standard library
are imported here; NumPy and :mod:`assay.agreement` are imported when the command runs.

File layouts (CSV, or TSV when the file name ends in ``.tsv``/``.tab`` or the header line
holds a tab; the first line is always a header; ``-`` reads stdin):

- **long** — chosen with ``--long``, or automatically when the header has exactly three
  columns named (case-insensitive) unit/item/subject, rater/coder/annotator/observer and
  value/label/rating/code/category: one rating per row.
- **wide** — otherwise: one column per rater, one row per unit. A first column named
  unit/item/subject/id/unit_id/item_id is the unit id and is not a rater.

Missing cells: empty, ``NA``, ``NaN``, ``.``, ``*``. Values are numbers when every
non-missing cell parses as one, else strings (nominal level only).

Printed: alpha, D_o, D_e, n_pairable, n_units, the interpretation band (Krippendorff: α ≥
0.800 reliable, 0.667 ≤ α < 0.800 tentative, below unreliable), Cohen's kappa when there are
exactly two raters, Fleiss' kappa when every unit has every rater's value, and with
``--bootstrap N`` the percentile CI and P(alpha < 0.667), P(alpha < 0.8).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

_MISSING = {"", "na", "nan", ".", "*", "n/a", "null", "none"}
_UNIT = {"unit", "item", "subject", "id", "unit_id", "item_id"}
_RATER = {"rater", "coder", "annotator", "observer", "rater_id", "coder_id"}
_VALUE = {"value", "label", "rating", "code", "category"}


class AgreeFormat(StrEnum):
    table = "table"
    tsv = "tsv"
    csv = "csv"
    jsonl = "jsonl"
    json = "json"
    markdown = "markdown"
    latex = "latex"


class Level(StrEnum):
    nominal = "nominal"
    ordinal = "ordinal"
    interval = "interval"
    ratio = "ratio"


def _read(path: str) -> tuple[list[str], list[list[str]]]:
    import csv
    import io

    from .errors import EmptyInputError, ParseError
    from .io.text import read_text

    text = read_text(path)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise EmptyInputError("no header line", source=path)
    name = path[:-3] if path.endswith(".gz") else path
    delim = "\t" if name.endswith((".tsv", ".tab")) or "\t" in lines[0] else ","
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=delim) if any(c.strip() for c in r)]
    header = [h.strip() for h in rows[0]]
    body = rows[1:]
    for no, r in enumerate(body, 2):
        if len(r) != len(header):
            raise ParseError(
                f"expected {len(header)} fields (as the header), got {len(r)}", source=path, line=no
            )
    if not body:
        raise EmptyInputError("no data rows", source=path)
    return header, body


def _cell(text: str) -> str | None:
    t = text.strip()
    return None if t.lower() in _MISSING else t


def _typed(cells: list[str | None]) -> list[Any]:
    present = [c for c in cells if c is not None]
    try:
        [float(c) for c in present]
    except ValueError:
        return cells
    return [None if c is None else float(c) for c in cells]


def _analyse(
    path: str, long: bool, level: str, bootstrap: int, seed: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    import math

    from . import agreement
    from .errors import AssayError, InputError

    header, body = _read(path)
    lower = [h.lower() for h in header]
    is_long = long or (
        len(header) == 3
        and any(h in _UNIT for h in lower)
        and any(h in _RATER for h in lower)
        and any(h in _VALUE for h in lower)
    )
    if is_long:
        if len(header) != 3:
            raise InputError("--long needs three columns: unit, rater, value", source=path)
        iu = next((i for i, h in enumerate(lower) if h in _UNIT), 0)
        ir = next((i for i, h in enumerate(lower) if h in _RATER), 1)
        iv = next((i for i, h in enumerate(lower) if h in _VALUE), 2)
        values = _typed([_cell(r[iv]) for r in body])
        units = [r[iu].strip() for r in body]
        raters = [r[ir].strip() for r in body]
        try:
            data: Any = {"unit": units, "rater": raters, "value": values}
            unit_index = {u: k for k, u in enumerate(dict.fromkeys(units))}
            rater_index = {u: k for k, u in enumerate(dict.fromkeys(raters))}
            wide: list[list[Any]] = [[None] * len(rater_index) for _ in unit_index]
            for u, r, v in zip(units, raters, values, strict=True):
                wide[unit_index[u]][rater_index[r]] = v
            result = agreement.krippendorff_alpha(data, level=level)
        except InputError as exc:
            raise InputError(exc.detail, source=path) from None
        n_raters = len(rater_index)
    else:
        first = 1 if lower[0] in _UNIT else 0
        if len(header) - first < 2:
            raise InputError("the wide layout needs two or more rater columns", source=path)
        cols = [_typed([_cell(r[j]) for r in body]) for j in range(first, len(header))]
        wide = [list(row) for row in zip(*cols, strict=True)]
        n_raters = len(cols)
        result = agreement.krippendorff_alpha(wide, level=level)
    values_out: dict[str, Any] = {
        "alpha": result.alpha,
        "D_o": result.observed,
        "D_e": result.expected,
        "n_pairable": result.n_pairable,
        "n_units": result.n_units,
        "band": result.band,
    }
    complete = all(v is not None for row in wide for v in row)
    if n_raters == 2:
        try:
            a = [row[0] for row in wide]
            b = [row[1] for row in wide]
            values_out["cohen_kappa"] = agreement.cohen_kappa(a, b).value
        except AssayError:
            values_out["cohen_kappa"] = math.nan
    if complete:
        values_out["fleiss_kappa"] = agreement.fleiss_kappa(wide).value
    meta: dict[str, Any] = {
        "path": path,
        "layout": "long" if is_long else "wide",
        "level": level,
        "raters": n_raters,
        "defined": result.defined,
    }
    if bootstrap:
        bs = agreement.alpha_bootstrap(wide, level=level, n_resamples=bootstrap, seed=seed)
        values_out["alpha_ci_low"], values_out["alpha_ci_high"] = bs.ci
        for t, p in bs.probabilities.items():
            values_out[f"P(alpha<{t:g})"] = p
        meta["bootstrap"] = {
            "n_resamples": bootstrap,
            "seed": seed,
            "confidence": bs.confidence,
            "method": bs.method,
        }
    return values_out, meta


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
    ] = Level.nominal,
    long: Annotated[
        bool, typer.Option("--long", help="Read the long layout (unit, rater, value).")
    ] = False,
    bootstrap: Annotated[
        int,
        typer.Option("--bootstrap", min=0, help="Bootstrap resamples for alpha's CI (0: none)."),
    ] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap.")] = 0,
    fmt: Annotated[
        AgreeFormat | None,
        typer.Option(
            "-f", "--format", help="Output format (default: table on a terminal, else tsv)."
        ),
    ] = None,
) -> None:
    """Inter-rater reliability: Krippendorff's alpha (D_o, D_e, band, optional bootstrap CI),
    Cohen's kappa for two raters, Fleiss' kappa for complete data."""
    from .cli import _errors

    with _errors():
        values, meta = _analyse(path, long, level.value, bootstrap, seed)
        from ._format import metric_values_table, render_metric_values
        from .cli import _present

        _present(
            fmt,  # type: ignore[arg-type]  # a format enum with the same values
            None,
            lambda: metric_values_table(
                values, f"{path} ({meta['layout']}, {meta['raters']} raters), {level.value}"
            ),
            lambda chosen: render_metric_values(chosen, values, meta),
        )
