"""``assay metrics``: every metric of every family in the registry, with its parameters and a
one-line description."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ._common import FormatOption, OutputOption, errors, present

__all__ = ["metrics", "register"]


def metrics(
    fmt: FormatOption = None,
    family: Annotated[
        list[str] | None,
        typer.Option(
            "--family",
            help="Only this family (repeatable): ranking, classification, agreement, "
            "clustering, regression, tagging, embeddings, generation, judgments",
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
    chosen = [_registry_name(f) for f in families] if families else REGISTRY.families()
    return [describe(spec) for fam in dict.fromkeys(chosen) for spec in REGISTRY.specs(fam)]


def _registry_name(name: str) -> str:
    """The registry's name of a family given by its package name too (``embeddings`` is the
    registry's ``embedding``); any other name is left for the registry to refuse."""
    from .._families import FAMILIES

    for fam in FAMILIES:
        if fam.name == name and fam.metric_family is not None:
            return fam.metric_family
    return name


def register(app: typer.Typer) -> None:
    """Add ``assay metrics`` to ``app``."""
    app.command("metrics")(metrics)
