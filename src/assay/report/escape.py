"""The escaping each output format needs, in one place.

Text that comes from the data (run, query, metric, label and file names) goes through these;
decoration added by a renderer (bold, superscripts, rules) does not. Every function first
makes the text *visible*: characters that are not printable (newlines, tabs, ESC, BEL, the
Unicode line and paragraph separators, …) are shown as Python-style escapes (``\\n``,
``\\x1b``), so a name can neither end a line, a table row or a comment nor reach a terminal
as a control sequence. Then each format escapes its own syntax:

- :func:`terminal` — visible text (plain-text tables, messages);
- :func:`rich` — also rich's markup (``bm25[dense]`` stays ``bm25[dense]``);
- :func:`markdown` — also Markdown's inline syntax and raw HTML (``<script>`` is text), and
  what GitHub would make live: ``@mentions``, e-mail addresses, bare URLs and ``www.`` links
  get a zero-width space (``&#8203;``) after the ``@``, the ``:`` of ``://`` or the ``www``;
- :func:`latex` — also LaTeX's special characters (``\\input{x}`` is text, and cannot escape
  a ``%`` comment because no newline survives);
- :func:`html` — also HTML's ``<``, ``>``, ``&`` and quotes (text and attribute values);
- :func:`matplotlib` — also mathtext's ``$`` (a plot label is shown as written; the SVG
  writer escapes the markup), and a leading ``_``, which would hide a legend entry;
- :func:`tsv` — a reversible escaping of backslash, tab, newline, carriage return and other
  control characters (the "linear TSV" convention), so a field never splits a row;
- :func:`csv` — a text field of CSV: escaped as TSV, and a field a spreadsheet would run as a
  formula (starting with ``=``, ``+``, ``-`` or ``@``) starts with ``'`` (OWASP's rule).

JSON needs none of these: ``json.dumps`` writes every control and non-ASCII character
(bidirectional overrides and zero-width characters included) as a ``\\uXXXX`` escape.
"""

from __future__ import annotations

import re

__all__ = [
    "LATEX_SPECIAL",
    "csv",
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

#: What GitHub turns into a link or a notification, each to get a zero-width space after
#: it: an ``@`` that can start a mention (not after a letter or digit: ``P@5`` stays) or
#: precedes an e-mail domain, the ``:`` of ``scheme://``, the ``www`` of ``www.``.
_LIVE = re.compile(r"(?<![A-Za-z0-9])@|@(?=[\w+-]*\.\w)|:(?=//)|(?i:www)(?=\.)")
_ZERO_WIDTH_SPACE = "&#8203;"

_TSV = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
#: A field a spreadsheet runs as a formula starts with one of these (OWASP, "CSV Injection").
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: A number as text (``-0.5``, ``+1e3``): a spreadsheet reads it as a number, not a formula.
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


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
    """Significance markers for a math-mode superscript: ▲/▼ become symbols, letters and
    digits stay; anything else is text in an ``\\mbox`` (text commands fail in math mode)."""
    return "".join(
        _LATEX_MARKS.get(c) or (c if c.isascii() and c.isalnum() else f"\\mbox{{{latex(c)}}}")
        for c in marks
    )


def markdown(text: str) -> str:
    """``text`` safe in a Markdown table cell or paragraph: inline syntax and HTML escaped,
    no mention or autolink live."""
    escaped = "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in terminal(text))
    return _LIVE.sub(lambda m: m.group(0) + _ZERO_WIDTH_SPACE, escaped)


def html(text: str) -> str:
    """``text`` safe in HTML text and in a quoted attribute value."""
    import html as _html

    return _html.escape(terminal(text), quote=True)


def matplotlib(text: str) -> str:
    """``text`` shown as written by matplotlib: ``$`` does not start mathtext, and a leading
    ``_`` (which makes matplotlib leave a label out of the legend) follows a zero-width
    space."""
    shown = terminal(text).replace("$", r"\$")
    return "\u200b" + shown if shown.startswith("_") else shown


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


def csv(text: str) -> str:
    """A CSV text field: :func:`tsv`, then ``'`` before a field that starts like a formula
    (``=HYPERLINK(...)``, ``+``, ``-``, ``@``) unless it is a plain number (``-0.5``)."""
    field = tsv(text)
    if field.startswith(_FORMULA) and not _NUMBER.fullmatch(field):
        return "'" + field
    return field
