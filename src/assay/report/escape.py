"""The escaping each output format needs, in one place.

Text that comes from the data (run, query, metric, label and file names) goes through these;
decoration added by a renderer (bold, superscripts, rules) does not. Every function first
makes the text *visible*: characters that are not printable (newlines, tabs, ESC, BEL, the
Unicode line and paragraph separators, …) are shown as Python-style escapes (``\\n``,
``\\x1b``), so a name can neither end a line, a table row or a comment nor reach a terminal
as a control sequence. Then each format escapes its own syntax:

- :func:`terminal` — visible text (plain-text tables, messages);
- :func:`rich` — also rich's markup (``bm25[dense]`` stays ``bm25[dense]``);
- :func:`markdown` — also Markdown's inline syntax and raw HTML (``<script>`` is text);
- :func:`latex` — also LaTeX's special characters (``\\input{x}`` is text, and cannot escape
  a ``%`` comment because no newline survives);
- :func:`html` — also HTML's ``<``, ``>``, ``&`` and quotes (text and attribute values);
- :func:`matplotlib` — also mathtext's ``$`` (a plot label is shown as written; the SVG
  writer escapes the markup);
- :func:`tsv` — a reversible escaping of backslash, tab, newline, carriage return and other
  control characters (the "linear TSV" convention), so a field never splits a row.
"""

from __future__ import annotations

__all__ = [
    "LATEX_SPECIAL",
    "html",
    "latex",
    "latex_marks",
    "markdown",
    "matplotlib",
    "rich",
    "terminal",
    "tsv",
]

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
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}

#: Significance markers as math-mode symbols (they are typeset as superscripts).
_LATEX_MARKS = {"▲": r"\blacktriangle", "▼": r"\blacktriangledown"}

#: Characters with a meaning in Markdown's inline syntax (CommonMark and GitHub's tables and
#: strikethrough); a backslash makes each literal. ``<`` and ``>`` also keep raw HTML out.
_MARKDOWN_SPECIAL = set("\\`*_[]<>|~&$!#")

_TSV = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escaped(c: str) -> str:
    return repr(c)[1:-1] if c not in ("'", '"') else c


def terminal(text: str) -> str:
    """``text`` with every character that is not printable shown as an escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def latex(text: str) -> str:
    """``text`` safe in LaTeX running text (tabular cells and ``%`` comments)."""
    return "".join(LATEX_SPECIAL.get(c, c) for c in terminal(text))


def latex_marks(marks: str) -> str:
    """Significance markers for a math-mode superscript: ▲/▼ become symbols, letters stay."""
    return "".join(_LATEX_MARKS.get(c, latex(c)) for c in marks)


def markdown(text: str) -> str:
    """``text`` safe in a Markdown table cell or paragraph: inline syntax and HTML escaped."""
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in terminal(text))


def html(text: str) -> str:
    """``text`` safe in HTML text and in a quoted attribute value."""
    import html as _html

    return _html.escape(terminal(text), quote=True)


def matplotlib(text: str) -> str:
    """``text`` shown as written by matplotlib: ``$`` does not start mathtext."""
    return terminal(text).replace("$", r"\$")


def rich(text: str) -> str:
    """``text`` shown as is by rich (``bm25[bold]`` is not taken for markup)."""
    from rich.markup import escape

    return escape(terminal(text))


def tsv(text: str) -> str:
    """A TSV field: ``\\``, tab, newline and carriage return (and any other control character)
    escaped, so the field stays on its row and the escaping can be undone."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join(_TSV.get(c) or (c if c.isprintable() else _escaped(c)) for c in text)
