"""Typesetting a LaTeX table as a user would (pdflatex, booktabs) and reading back the text
of the PDF, for the tests that check names from the data are typeset as text."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

__all__ = ["typeset"]

_DOCUMENT = (
    "\\documentclass{article}\\usepackage{booktabs,amssymb}\\usepackage[T1]{fontenc}"
    "\\begin{document}\\input{table.tex}\\end{document}\n"
)


def typeset(table: str, folder: Path) -> str:
    """The text pdftotext reads from ``table`` typeset in an article (``folder`` holds the
    files). A missing pdflatex or pdftotext fails under CI (``.ci/run`` installs both) and
    skips elsewhere."""
    engine, pdftotext = shutil.which("pdflatex"), shutil.which("pdftotext")
    if engine is None or pdftotext is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("no pdflatex/pdftotext: .ci/run installs texlive and poppler-utils")
        pytest.skip("no pdflatex/pdftotext on this machine")
    (folder / "table.tex").write_text(table, encoding="utf-8")
    (folder / "doc.tex").write_text(_DOCUMENT, encoding="utf-8")
    done = subprocess.run(
        [engine, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    read = subprocess.run(
        [pdftotext, "doc.pdf", "-"], cwd=folder, capture_output=True, text=True, check=True
    )
    return read.stdout
