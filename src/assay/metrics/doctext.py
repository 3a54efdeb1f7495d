"""Docstring text for the catalogue: reStructuredText (roles, literals, emphasis, bullet
lists) as plain text for the terminal (:func:`plain`) and as Markdown for the catalogue page
(:func:`markdown_inline`, :func:`markdown_blocks`), and a description's first whole sentence
(:func:`first_sentence`). Used by :mod:`assay.metrics.catalog`.
"""

from __future__ import annotations

import re

__all__ = ["first_sentence", "markdown_blocks", "markdown_inline", "plain", "role_title"]

#: A role, ``:func:`name```, ``:class:`~a.b.Name```, ``:attr:`text <target>```.
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(?P<body>[^`]+)`")
_LITERAL = re.compile(r"``(?P<body>.+?)``")
_STRONG = re.compile(r"\*\*(?P<body>\S(?:.*?\S)?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?P<body>[^\s*](?:[^*]*?[^\s*])?)\*(?![\w*])")
_DEFAULT_ROLE = re.compile(r"(?<!`)`(?P<body>[^`]+)`(?!`)")


def role_title(target: str) -> str:
    """What a reST role shows for its target: the title of ``text <target>``, the last name
    of ``~a.b.Name``, else the target (a relative ``.name`` without its dot).

    Parameters
    ----------
    target : str
        The text between a role's backquotes.

    Returns
    -------
    str
        The text a reader sees.

    Examples
    --------
    >>> from assay.metrics.doctext import role_title
    >>> role_title("~assay.metrics.make"), role_title("the catalogue <assay.metrics.catalog>")
    ('make', 'the catalogue')
    """
    titled = re.fullmatch(r"(?P<title>.+?)\s*<[^<>]+>", target)
    if titled:
        return titled["title"]
    if target.startswith("~"):
        return target[1:].rsplit(".", 1)[-1]
    return target.lstrip(".")


def _role(match: re.Match[str]) -> str:
    return role_title(match["body"])


def plain(text: str) -> str:
    """reStructuredText as plain text, for the terminal: roles become their name
    (``:func:`~assay.metrics.make``` is make), literals and emphasis lose their marks, and the
    white space is one space.

    Parameters
    ----------
    text : str
        Text from a docstring.

    Returns
    -------
    str
        The text without markup, on one line.

    Examples
    --------
    >>> from assay.metrics.doctext import plain
    >>> plain("See :func:`~assay.metrics.make` and ``k``: *not* `x`.")
    'See make and k: not x.'
    """
    text = _ROLE.sub(_role, " ".join(text.split()))
    text = _LITERAL.sub(lambda m: m["body"], text)
    text = _STRONG.sub(lambda m: m["body"], text)
    text = _EMPHASIS.sub(lambda m: m["body"], text)
    return _DEFAULT_ROLE.sub(lambda m: m["body"], text)


def markdown_inline(text: str, *, cell: bool = False) -> str:
    """One paragraph of reStructuredText as Markdown: roles and literals become code spans,
    a ``<`` that could open an HTML tag an entity (``i<k``), emphasis stays; in a table
    ``cell``, ``|`` is escaped."""
    text = _ROLE.sub(lambda m: f"``{_role(m)}``", text)
    parts = re.split(r"(``.+?``)", " ".join(text.split()))
    out = []
    for part in parts:
        if part.startswith("``") and part.endswith("``") and len(part) > 4:
            body = part[2:-2]
            tick = "``" if "`" in body else "`"
            out.append(f"{tick}{body}{tick}")
        else:
            part = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", part)
            out.append(part.replace("|", "\\|") if cell else part)
    return "".join(out)


def markdown_blocks(text: str) -> str:
    """reStructuredText paragraphs and bullet lists as Markdown, each paragraph on one line
    (an indented formula becomes a paragraph: never a code block)."""
    blocks = []
    for para in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in para.splitlines() if line.strip()]
        if lines and lines[0].startswith("- "):
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line
            blocks.append("\n".join(f"- {markdown_inline(item)}" for item in items))
        else:
            blocks.append(markdown_inline(" ".join(lines)))
    return "\n\n".join(b for b in blocks if b)


def first_sentence(text: str) -> str:
    """The first sentence of plain text (up to a full stop followed by a capital letter or a
    parenthesis), whole: never cut inside it, so an abbreviation (et al., ch.) or an initial
    does not end it."""
    for found in re.finditer(r"\.\s+(?=[A-Z(])", text):
        word = re.search(r"(\S+)$", text[: found.start()])
        last = word.group(1) if word else ""
        if last.lower() in _ABBREVIATIONS or re.fullmatch(r"[A-Z]", last):
            continue
        return text[: found.start() + 1]
    return text


#: Words after which a full stop does not end a sentence.
_ABBREVIATIONS = {"al", "ch", "cf", "e.g", "i.e", "vs", "eq", "fig", "sec", "no", "vol"}
