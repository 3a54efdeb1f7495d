"""Every metric family in the registry has registry-driven property tests.

A family is covered by a module of this folder that walks its declarations
(``REGISTRY.specs("<family>")``, ``FAMILY_NAMES`` holding it, or for ranking the registry
itself); adding a family to ``FAMILIES`` without such a module fails here. Each covering
module in turn fails when one of its family's declarations is not placed in its invariant
categories (``test_every_declaration_is_placed`` and its kin).
"""

from __future__ import annotations

import re
from pathlib import Path

from assay.metrics import FAMILIES, REGISTRY, load_families

HERE = Path(__file__).parent


def _covered() -> dict[str, list[str]]:
    covered: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text(encoding="utf-8")
        names = set(re.findall(r"REGISTRY\.specs\(\s*\"(\w+)\"", text))
        for group in re.findall(r"FAMILY_NAMES\s*=\s*\(([^)]*)\)", text):
            names.update(re.findall(r"\"(\w+)\"", group))
        if re.search(r"for name, spec in REGISTRY\.items\(\)", text):
            names.add("ranking")  # the ranking family is the registry's mapping view
        for name in names:
            covered.setdefault(name, []).append(path.name)
    return covered


def test_every_family_has_property_tests() -> None:
    load_families()
    covered = _covered()
    missing = [family for family in FAMILIES if family not in covered]
    assert missing == [], f"no registry-driven property tests for: {missing}"


def test_every_registered_family_is_declared_in_families() -> None:
    load_families()
    assert set(REGISTRY.families()) <= set(FAMILIES)
