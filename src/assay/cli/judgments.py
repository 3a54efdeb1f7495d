"""The judgments family's commands (none yet)."""

from __future__ import annotations

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the judgments family's commands to ``app``."""
    del app
