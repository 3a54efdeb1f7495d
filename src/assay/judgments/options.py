"""The choices of the judgments family's options, as ``Literal`` types (typing only: importing
this module loads nothing else, so a CLI module can use it at module level). Their
validators are :func:`assay._options.choice` and friends."""

from __future__ import annotations

from typing import Literal

__all__: list[str] = []
