"""``assay metrics``: every metric of every family in the registry, with its parameters and a
one-line description."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import typer

from .._options import choices
from ._common import emit, errors, print_rich

__all__ = ["CatalogFormat", "metrics", "register"]

CatalogFormat = Literal["table", "markdown", "json"]


def metrics(
    fmt: Annotated[str, typer.Option("-f", "--format", help="table, markdown or json.")] = "table",
    family: Annotated[
        list[str] | None,
        typer.Option(
            "--family", help="Only this family (repeatable): ranking, classification, ..."
        ),
    ] = None,
) -> None:
    """List every metric with its parameters and a one-line description."""
    with errors():
        fmt = _format(fmt)
        rows = _rows(family)
        if fmt == "json":
            emit(json.dumps(rows, indent=2) + "\n", None)
        elif fmt == "markdown":
            emit(_markdown(rows), None)
        else:
            from ..report import catalog_table, to_rich

            print_rich(to_rich(catalog_table(rows)), width=200)


def _format(fmt: str) -> CatalogFormat:
    allowed = choices(CatalogFormat)
    if fmt not in allowed:
        from ..errors import OptionError

        expected = f"{', '.join(allowed[:-1])} or {allowed[-1]}"
        raise OptionError(f"unknown format {fmt!r}; expected {expected}", option="format")
    return fmt  # type: ignore[return-value]  # one of the Literal's choices


def _rows(families: list[str] | None) -> list[dict[str, Any]]:
    """The described declarations of the chosen families (default: all), family by family."""
    from ..metrics import FAMILIES, REGISTRY, load_families
    from ..metrics.catalog import describe

    load_families()
    rank = {family: i for i, family in enumerate(FAMILIES)}  # the declared order
    chosen = families or sorted(REGISTRY.families(), key=lambda f: rank.get(f, len(rank)))
    return [describe(spec) for fam in dict.fromkeys(chosen) for spec in REGISTRY.specs(fam)]


def _markdown(rows: list[dict[str, Any]]) -> str:
    """One table per family (under a heading when there are several)."""
    from ..metrics.catalog import markdown

    families = list(dict.fromkeys(r["family"] for r in rows))
    if len(families) <= 1:
        return markdown(rows)
    parts = [
        f"## {fam.capitalize()}\n\n" + markdown([r for r in rows if r["family"] == fam])
        for fam in families
    ]
    return "\n".join(parts)


def register(app: typer.Typer) -> None:
    """Add ``assay metrics`` to ``app``."""
    app.command("metrics")(metrics)
