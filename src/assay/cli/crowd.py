"""The judgments family's `crowd` commands (being built)."""

from __future__ import annotations

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    del app
