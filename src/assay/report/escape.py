"""The escaping each output format needs, in one place.

Text that comes from the data (run, metric, label and file names) goes through these;
decoration added by a renderer (bold, superscripts, rules) does not.
"""

from __future__ import annotations

__all__ = ["LATEX_SPECIAL", "latex", "latex_marks", "markdown", "rich"]

#: LaTeX's special characters and what stands for each in running text.
LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}

#: Significance markers as math-mode symbols (they are typeset as superscripts).
_LATEX_MARKS = {"▲": r"\blacktriangle", "▼": r"\blacktriangledown"}


def latex(text: str) -> str:
    """``text`` safe in LaTeX running text (tabular cells)."""
    return "".join(LATEX_SPECIAL.get(c, c) for c in text)


def latex_marks(marks: str) -> str:
    """Significance markers for a math-mode superscript: ▲/▼ become symbols, letters stay."""
    return "".join(_LATEX_MARKS.get(c, latex(c)) for c in marks)


def markdown(text: str) -> str:
    """``text`` safe in a Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def rich(text: str) -> str:
    """``text`` shown as is by rich (``bm25[bold]`` is not taken for markup)."""
    from rich.markup import escape

    return escape(text)
