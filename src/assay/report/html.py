"""One self-contained HTML file from report documents (:mod:`assay.report.document`).

The page has inline CSS and inline SVG plots (:func:`assay.report.plots.svg`): nothing is
fetched from the network and no script runs; a Content-Security-Policy says so to the
browser (no scripts, no connections, styles and ``data:`` images only). Every text from the
data (run, query, metric, label and file names, titles) is escaped with
:func:`assay.report.escape.html`; tables are real ``<table>`` elements (significance marks
as ``<sup>``, the best value in ``<strong>``, the confidence interval under the value).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .._version import __version__
from . import escape
from .document import Document, table_from_dict
from .table import Cell, DisplayTable

__all__ = ["CSS", "FOLDED_ROWS", "table_html", "to_html"]

#: The page's style sheet (inline).
CSS = """
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --rule: #d0d7de;
        --up: #0a7d4f; --down: #c2410c; --band: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--ink); margin: 0 auto; padding: 1.5rem 2rem 4rem; max-width: 1180px; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2.5rem 0 .5rem; padding-bottom: .25rem;
     border-bottom: 2px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 1.75rem 0 .5rem; }
p, li { max-width: 80ch; }
.meta, .caption, figcaption, .legend { color: var(--muted); font-size: .85rem; }
nav ol { margin: .25rem 0; padding-left: 1.25rem; }
nav ul { display: flex; flex-wrap: wrap; gap: 0 1.5rem; padding-left: 0; list-style: none; }
.scroll { overflow-x: auto; margin: .5rem 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { padding: .3rem .65rem; border-bottom: 1px solid var(--rule); vertical-align: top; }
thead th { border-bottom: 2px solid var(--ink); text-align: left; white-space: nowrap; }
tbody th { text-align: left; font-weight: 600; }
th.num, td.num { text-align: right; }
td.num { padding-right: 1.2rem; }  /* room for the marks hanging right */
tbody tr:nth-child(even) { background: var(--band); }
td strong { color: var(--up); }
.w { white-space: nowrap; }  /* a line breaks between words, never inside 1.0e-04 */
sup { font-weight: 700; color: var(--up); margin-left: .1rem; }
td.num sup { display: inline-block; width: 0; }  /* marks hang right: the numbers stay aligned */
sup.down { color: var(--down); }
.note { display: block; color: var(--muted); font-size: .78rem; white-space: nowrap; }
figure { margin: 1rem 0 1.5rem; }
figure svg { max-width: 100%; height: auto; display: block; }
details { margin: 1rem 0; font-size: .85rem; }
pre { background: var(--band); padding: .75rem; overflow-x: auto; font-size: .8rem; }
"""

#: Tables with more rows than this are folded (``<details>``) under their title.
FOLDED_ROWS = 60

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _e(text: Any) -> str:
    return escape.html(str(text))


# ---------------------------------------------------------------- tables


def table_html(table: DisplayTable) -> str:
    """A display table as an HTML ``<table>`` (with its caption and legend after it)."""
    head = "".join(f'<th scope="col"{_num(c.align)}>{_e(c.name)}</th>' for c in table.columns)
    body = []
    for row in table.cells():
        cells = []
        for j, (cell, col) in enumerate(zip(row, table.columns, strict=True)):
            tag = "th" if j < table.keys else "td"
            scope = ' scope="row"' if tag == "th" else ""
            cells.append(f"<{tag}{scope}{_num(col.align)}>{_cell(cell)}</{tag}>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    caption = f"<caption>{_e(table.title)}</caption>" if table.title else ""
    notes = "".join(f'<p class="legend">{_e(t)}</p>' for t in (table.caption, table.legend) if t)
    return (
        f'<div class="scroll"><table>{caption}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>{notes}"
    )


def _num(align: str) -> str:
    return ' class="num"' if align == "right" else ""


def _cell(cell: Cell) -> str:
    words = cell.text.split(" ")
    text = " ".join(f'<span class="w">{_e(w)}</span>' if "-" in w else _e(w) for w in words)
    if cell.strong:
        text = f"<strong>{text}</strong>"
    if cell.marks:
        down = ' class="down"' if "▼" in cell.marks else ""
        text += f"<sup{down}>{_e(cell.marks)}</sup>"
    if cell.note:
        text += f'<span class="note">{_e(cell.note)}</span>'
    return text


# ---------------------------------------------------------------- page


def _plot_html(spec: Mapping[str, Any], ident: str) -> str:
    from .plots import svg

    caption = spec.get("caption", "")
    title = spec.get("title", "")
    parts = [f"<h4>{_e(title)}</h4>" if title else "", svg(spec, ident)]
    if caption:
        parts.append(f"<figcaption>{_e(caption)}</figcaption>")
    return f"<figure>{''.join(parts)}</figure>"


def _document_html(doc: Document, number: int) -> str:
    out = [f'<section id="r{number}"><h2>{_e(doc.get("title", "Result"))}</h2>']
    for i, sec in enumerate(doc["sections"]):
        out.append(f'<section id="r{number}-{i}"><h3>{_e(sec.get("title", ""))}</h3>')
        if sec.get("text"):
            out.append(f"<p>{_e(sec['text'])}</p>")
        for j, item in enumerate(sec["items"]):
            if "table" in item:
                out.append(_table_item(table_from_dict(item["table"])))
            elif "plot" in item:
                out.append(_plot_html(item["plot"], f"p{number}-{i}-{j}"))
        out.append("</section>")
    provenance = json.dumps(doc.get("provenance", {}), indent=2, ensure_ascii=False)
    out.append(f"<details><summary>Provenance</summary><pre>{_e_block(provenance)}</pre></details>")
    out.append("</section>")
    return "\n".join(out)


def _table_item(table: DisplayTable) -> str:
    """A table; one longer than :data:`FOLDED_ROWS` rows is folded under a summary."""
    if len(table.rows) <= FOLDED_ROWS:
        return table_html(table)
    what = _e(table.title or "Table")
    return (
        f"<details><summary>{what} ({len(table.rows)} rows)</summary>{table_html(table)}</details>"
    )


def _e_block(text: str) -> str:
    """Multi-line text for a ``<pre>``: each line escaped, the newlines kept."""
    return "\n".join(_e(line) for line in text.split("\n"))


def _contents(docs: Sequence[Document]) -> str:
    items = []
    for n, doc in enumerate(docs):
        subs = "".join(
            f'<li><a href="#r{n}-{i}">{_e(s.get("title", ""))}</a></li>'
            for i, s in enumerate(doc["sections"])
        )
        items.append(f'<li><a href="#r{n}">{_e(doc.get("title", ""))}</a><ul>{subs}</ul></li>')
    return f"<nav><strong>Contents</strong><ol>{''.join(items)}</ol></nav>"


def to_html(docs: Sequence[Document], *, title: str = "assay report", source: str = "") -> str:
    """Report documents as one self-contained HTML page.

    Inline CSS and SVG plots, no script and nothing fetched (see the module docstring); a
    table of contents when the page holds several documents or many sections. Every text
    from the data is escaped.

    Parameters
    ----------
    docs : sequence of dict
        The documents (:mod:`assay.report.document`: a result's
        :meth:`~assay.report.Reported.document`, or :func:`~assay.report.any_document`).
    title : str
        The page's title.
    source : str
        Where the page comes from (e.g. the command line), shown under the title.

    Returns
    -------
    str
        The HTML page.

    Examples
    --------
    >>> from assay.report import tables_document, to_html, values_report
    >>> doc = tables_document("Clustering", "clustering", values_report({"nmi": 0.5}))
    >>> page = to_html([doc], title="NMI <demo>")
    >>> page.startswith("<!DOCTYPE html>"), "<title>NMI &lt;demo&gt;</title>" in page
    (True, True)
    """
    body = "\n".join(_document_html(d, n) for n, d in enumerate(docs))
    made = f"made by assay {_e(__version__)}" + (f" from {_e(source)}" if source else "")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head>\n"
        f'<body><header><h1>{_e(title)}</h1><p class="meta">{made}</p></header>\n'
        f"{_contents(docs) if len(docs) > 1 or _many(docs) else ''}\n<main>\n{body}\n</main>"
        "</body></html>\n"
    )


def _many(docs: Sequence[Document]) -> bool:
    return sum(len(d["sections"]) for d in docs) > 3
