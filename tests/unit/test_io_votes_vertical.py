"""A vote file of one candidate per line, each a different one, is most likely one ranking
written vertically, read as that many one-candidate votes that all tie (issue 25, a sibling
of the clustering file read as one-item clusters): it is warned about. The reader moved to
:mod:`assay.fusion` (issue 26); ``assay.io.read_votes`` still resolves, with a warning."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import assay.fusion
import assay.io
import assay.report
from assay.errors import InputWarning
from assay.fusion import read_votes
from assay.fusion.report import consensus_report
from support.cli import invoke


def _said(path: Path) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_votes(path)
    return [str(w.message) for w in caught if issubclass(w.category, InputWarning)]


def test_vertical_ranking_is_warned(tmp_path: Path) -> None:
    path = tmp_path / "v.txt"
    path.write_text("a\nb\nc\n")
    said = _said(path)
    assert len(said) == 1 and "one ranking per line" in said[0]
    code, _, err = invoke("aggregate", path)
    assert code == 0 and err.startswith("assay: warning: ") and err.count("\n") == 1


def test_plurality_votes_and_rankings_are_not(tmp_path: Path) -> None:
    for text in ("a\na\nb\n", "a b c\nb a c\n", "a\n"):
        path = tmp_path / "v.txt"
        path.write_text(text)
        assert _said(path) == [], text


def test_the_old_names_are_deprecated_aliases() -> None:
    with pytest.warns(DeprecationWarning, match="assay.fusion"):
        assert assay.io.read_votes is assay.fusion.read_votes
    with pytest.warns(DeprecationWarning, match="assay.fusion.report.consensus_report"):
        assert assay.report.consensus_report is consensus_report
    assert "read_votes" not in assay.io.__all__ and "read_votes" in assay.fusion.__all__
    assert "consensus_report" not in assay.report.__all__
