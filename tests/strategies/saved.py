"""Hostile saved results (``--save`` files) for the fuzz suite: a well-formed result (a table
with every decoration and a plot of each kind) in which any field may be replaced by a
hostile string, a value of the wrong type, a huge number or a huge copy of itself.

Every hostile string is built from :data:`PIECES`, fragments that must never reach an
output raw (terminal escapes, bidirectional and zero-width characters, LaTeX commands,
HTML, spreadsheet formulas, GitHub mentions and links, a LaTeX row's optional argument);
:data:`RAW` says, per output format, which of them would be live there.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

#: Fragments of hostile strings.
PIECES = (
    "\x1b]0;t\x07",
    "\x1b[2J",
    "\u202e",
    "\u200b",
    "\u2028",
    "\r",
    "\n",
    "\t",
    "\x00",
    "\\input{x}",
    "\\write18{y}",
    "<script>",
    "=cmd",
    "+cmd",
    "-cmd",
    "@user",
    " @user",
    "http://x",
    "www.x",
    "[3cm]",
    "*",
    "_",
    "$x$",
    "url(#a)",
    "%",
    "&",
    "|",
    "{",
    "}",
    "a",
    "user@mail.x",
    "é",
    "▲",
)

#: Raw text that must never appear in an output of each format (its live form there).
_CONTROL = ("\x1b", "\x07", "\x00", "\u202e", "\u2028")
RAW = {
    "latex": (*_CONTROL, "\u200b", "\\input{", "\\write18{"),
    "markdown": (*_CONTROL, "\u200b", "<script>", " @user", "http://x", "www.x", "user@mail"),
    "table": (*_CONTROL, "\u200b", "\r"),
    "html": (*_CONTROL, "<script>"),
    "svg": (*_CONTROL, "<script>"),
    "tsv": (*_CONTROL, "\u200b", "\r"),
    "csv": (*_CONTROL, "\u200b", "\r"),
    "json": (*_CONTROL, "\u200b"),
    "jsonl": (*_CONTROL, "\u200b"),
}

hostile_text = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)

#: Values of the wrong type or size for any field.
_ODD: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([None, True, 0, -1, 3, 2**70, 10**400, 1e308, -1e308, 0.5, "", [], {}]),
    st.just([[]]),
    st.just({"kind": "line"}),
).map(copy.deepcopy)  # a fresh [] or {} each time: a later mutation may write into it


def _table(name: str) -> dict[str, Any]:
    return {
        "columns": [
            {"name": name, "align": "left", "latex": "Run"},
            {"name": "P@5", "align": "right", "latex": None},
        ],
        "rows": [
            [[name, False, "", ""], ["0.5000", True, "▲", "[0.4, 0.6]"]],
            [["bm25", False, "", ""], ["-0.2500", False, "ab", ""]],
        ],
        "title": name,
        "caption": name,
        "legend": name,
        "keys": 1,
        "pivot": "metric",
    }


def _plots(name: str) -> list[dict[str, Any]]:
    series = [{"name": name, "x": [0, 0.5, 1], "y": [1, 0.5, 0], "best": 0.5, "color": 1}]
    panels = [
        ("box", {"groups": [name, "b"], "values": [[0.1, 0.5, 0.9], [0.2, 0.3]]}),
        ("diff", {"values": [0.3, 0.0, None, -0.2], "lower_is_better": False}),
        ("line", {"series": series, "diagonal": True, "xlim": [0, 1], "legend": "best"}),
        ("hbar", {"labels": [name, "b"], "values": [0.4, -0.1]}),
        (
            "bars",
            {
                "categories": [name, "c"],
                "series": [{"name": name, "values": [1, 2]}, {"name": "b", "values": [2, 1]}],
            },
        ),
        ("heatmap", {"rows": [name, "r"], "cols": ["c", name], "matrix": [[3, 0], [1, 2]]}),
        (
            "scatter",
            {"x": [0.1, 0.2], "y": [0.2, 0.1], "highlight": [True, False], "labels": [name, name]},
        ),
    ]
    return [
        {
            "kind": kind,
            "title": name,
            "caption": name,
            "xlabel": name,
            "ylabel": name,
            "panels": [{"title": name, "xlabel": name, "ylabel": name, **panel}],
        }
        for kind, panel in panels
    ]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (keys and indices)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


@st.composite
def saved_results(draw: st.DrawFn) -> bytes:
    """A saved result (the file's bytes): every text hostile, then a few fields replaced by
    hostile strings, odd values or huge copies of themselves."""
    name = draw(hostile_text)
    plots = _plots(name)
    chosen = draw(st.lists(st.sampled_from(range(len(plots))), min_size=1, max_size=3))
    items = [{"table": _table(name)}] + [{"plot": plots[i]} for i in chosen]
    doc = {
        "title": name,
        "family": name,
        "provenance": {name: name, "options": {"k": [name]}},
        "records": [{"run": name, "metric": "P@5", "value": -0.5}],
        "sections": [{"title": name, "text": name, "items": items}],
    }
    data: Any = {"format": "assay-report", "version": 1, "documents": [doc]}
    paths = _paths(data)[4:]  # not the format, the version or the list of documents
    for _ in range(draw(st.integers(0, 4))):
        path = draw(st.sampled_from(paths))
        try:
            old = _get(data, path)
        except (KeyError, IndexError, TypeError):  # the path went with an earlier change
            continue
        how = draw(st.sampled_from(["text", "odd", "huge"]))
        new: Any
        if how == "text":
            new = draw(hostile_text)
        elif how == "odd":
            new = draw(_ODD)
        else:  # a bomb: the value repeated (to about a megabyte at most), or a big number
            times = draw(st.sampled_from([50, 1000, 20_000]))
            times = min(times, max(1, 1_000_000 // len(json.dumps(old, default=str))))
            if isinstance(old, list):  # copies, not references a later change would share
                new = json.loads(json.dumps(old * max(1, times // max(len(old), 1))))
            elif isinstance(old, str):
                new = old * times
            else:
                new = float(times) ** 3
        try:
            data = _put(data, path, new)
        except (KeyError, IndexError, TypeError):  # the path went with an earlier change
            continue
        if how == "odd":  # new paths to mutate inside; not after a bomb (too many, too big)
            paths = _paths(data)[4:]
    bom = draw(st.sampled_from([b"", b"\xef\xbb\xbf"]))
    return bom + json.dumps(data, indent=draw(st.sampled_from([None, 1]))).encode()
