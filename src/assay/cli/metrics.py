"""``assay metrics``: every metric of every family in the registry, with its parameters and a
one-line description."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .._families import FAMILIES
from ._common import FormatOption, OutputOption, errors, present

__all__ = ["metrics", "register"]


def metrics(
    fmt: FormatOption = None,
    family: Annotated[
        list[str] | None,
        typer.Option(
            "--family",
            help="Only this family (repeatable): "
            + ", ".join(f.name for f in FAMILIES if f.metric_family is not None),
        ),
    ] = None,
    output: OutputOption = None,
) -> None:
    """List every metric: the names it answers to, its parameters and what it computes."""
    with errors():
        from ..report import catalog_report

        present(catalog_report(_rows(family)), fmt, output)


def _rows(families: list[str] | None) -> list[dict[str, Any]]:
    """The described declarations of the chosen families (default: all), family by family."""
    from ..metrics import REGISTRY
    from ..metrics.catalog import describe

    # Every family by default, in the declared order of the family list (assay._families).
    chosen = families or REGISTRY.families()
    specs = [spec for fam in chosen for spec in REGISTRY.specs(fam)]
    return [describe(spec) for spec in dict.fromkeys(specs)]


def register(app: typer.Typer) -> None:
    """Add ``assay metrics`` to ``app``."""
    app.command("metrics")(metrics)
