"""Evaluation conventions (ties, missing, no_relevant, judged_only): see
:mod:`assay.data.conventions`, where they are defined, and ``docs/conventions.md``."""

from .data.conventions import DESCRIPTIONS, Conventions

__all__ = ["DESCRIPTIONS", "Conventions"]
