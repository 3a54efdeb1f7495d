"""What a saved result may hold: the type of every field a renderer reads, and bounds on the
work of drawing it.

A saved result (``--save``) is untrusted input: a file from a colleague, a download, a hand
edit. :func:`check` walks what :func:`assay.report.document.load` parsed and refuses, in one
:class:`~assay.errors.InputError` naming the file and the field
(``documents[0].sections[2].items[1].plot.panels[4].values``), anything the renderers could
not draw: a wrong type, a ragged table, a number outside the floating-point range, nesting
deeper than :data:`MAX_DEPTH`. It also bounds what a plot may ask of matplotlib (panels,
characters of text, numbers, figure size), since a few kilobytes of plot specification can
otherwise cost minutes and gigabytes; :func:`drawing_budget` bounds the panels and labels
of what a command draws. The caps and their lifts are listed in ``docs/inputs.md`` ("Saved results").

Text is only type-checked here; every renderer escapes it for its format.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..io.limits import limit

__all__ = [
    "DPI",
    "DRAWN_LABELS",
    "DRAWN_PANELS",
    "FIGURE_PIXELS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "PLOT_CHARS",
    "PLOT_NUMBERS",
    "PLOT_PANELS",
    "check",
    "drawing_budget",
]

#: Largest saved file read, in bytes (``ASSAY_MAX_SAVED_BYTES`` lifts it).
MAX_BYTES = 64 * 2**20
#: Deepest nesting of lists and objects (assay writes 6 levels).
MAX_DEPTH = 64
#: Most panels in one plot (assay draws at most 9).
PLOT_PANELS = 36
#: Most characters of text in one plot.
PLOT_CHARS = 20_000
#: Most numbers in one plot.
PLOT_NUMBERS = 1_000_000
#: Most bars in one panel of grouped bars (series times categories).
PANEL_BARS = 2_000
#: Figure size bounds, in inches: width, a panel's height, the figure's height.
WIDTH_INCHES = (0.5, 40.0)
PANEL_INCHES = (0.2, 20.0)
#: Resolution of exported raster plots, and the most pixels of one figure at it.
DPI = 150
FIGURE_PIXELS = 12_000_000
#: Most panels, and text labels (titles, axis and tick labels, legend entries), of what one
#: command draws: every plot of an ``assay report`` page, the plot ``assay plot`` exports
#: (``ASSAY_MAX_PLOT_PANELS`` and ``ASSAY_MAX_PLOT_LABELS`` lift them). Each costs matplotlib
#: about 0.1 s and 0.015 s; one comparison's report draws at most 64 panels.
DRAWN_PANELS = 64
DRAWN_LABELS = 400

_KINDS = ("box", "diff", "line", "hbar", "bars", "heatmap", "interval", "scatter")
_LEGEND = (
    "best",
    "upper right",
    "upper left",
    "lower left",
    "lower right",
    "right",
    "center left",
    "center right",
    "lower center",
    "upper center",
    "center",
)
_DRAWSTYLE = ("default", "steps", "steps-pre", "steps-mid", "steps-post")


class _Refused(Exception):
    """A field that is not what a saved result holds: its path and what was expected."""

    def __init__(self, path: str, expected: str) -> None:
        super().__init__(f"{path}: expected {expected}")


def _fail(path: str, expected: str) -> _Refused:
    return _Refused(path, expected)


# ---------------------------------------------------------------- scalar fields


def _text(value: Any, path: str, *, optional: bool = True) -> str:
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise _fail(path, "a string")
    return value


def _number(value: Any, path: str, *, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(path, "a number" + (" or null" if nullable else ""))
    if isinstance(value, int) and abs(value) > 2**1023:  # float() would overflow
        raise _fail(path, "a number within the floating-point range")


def _integer(value: Any, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(path, f"a whole number from {low} to {high}")
    return value


def _inches(value: Any, path: str, bounds: tuple[float, float]) -> float:
    _number(value, path)
    if not bounds[0] <= value <= bounds[1]:
        raise _fail(path, f"a size from {bounds[0]:g} to {bounds[1]:g} inches")
    return float(value)


def _flag(value: Any, path: str) -> None:
    if value is not None and not isinstance(value, bool):
        raise _fail(path, "true, false or null")


def _one_of(value: Any, path: str, allowed: Sequence[str]) -> None:
    if value is not None and value not in allowed:
        raise _fail(path, "one of " + ", ".join(allowed))


def _list(value: Any, path: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, "a list")
    if length is not None and len(value) != length:
        raise _fail(path, f"a list of {length} (as many as its labels)")
    return value


def _object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(path, "an object")
    return value


# ---------------------------------------------------------------- depth


def _depth(data: Any) -> int:
    """The nesting depth of parsed JSON, without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return depth
        deepest = max(deepest, depth)
        children = value.values() if isinstance(value, dict) else value
        if isinstance(value, dict | list):
            stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return deepest


# ---------------------------------------------------------------- tables


def _table(table: Any, path: str) -> None:
    table = _object(table, path)
    columns = _list(table.get("columns"), f"{path}.columns")
    for j, col in enumerate(columns):
        where = f"{path}.columns[{j}]"
        col = _object(col, where)
        _text(col.get("name"), f"{where}.name", optional=False)
        _one_of(col.get("align"), f"{where}.align", ("left", "right"))
        _text(col.get("latex"), f"{where}.latex")
    for i, row in enumerate(_list(table.get("rows"), f"{path}.rows")):
        where = f"{path}.rows[{i}]"
        if not isinstance(row, list) or len(row) != len(columns):
            raise _fail(where, f"a list of {len(columns)} cells (one per column)")
        for j, cell in enumerate(row):
            _cell(cell, f"{where}[{j}]")
    for key in ("title", "caption", "legend", "pivot"):
        _text(table.get(key), f"{path}.{key}")
    if table.get("keys") is not None:
        _integer(table["keys"], f"{path}.keys", 0, len(columns))


def _cell(cell: Any, path: str) -> None:
    if not isinstance(cell, list) or len(cell) != 4:
        raise _fail(path, "a cell [text, strong, marks, note]")
    text, strong, marks, note = cell
    _text(text, path, optional=False)
    if not isinstance(strong, bool):
        raise _fail(path, "a cell whose second field is true or false")
    _text(marks, path, optional=False)
    _text(note, path, optional=False)


# ---------------------------------------------------------------- plots


@dataclass
class _Cost:
    """What drawing a plot asks of matplotlib, counted as the fields are checked."""

    labels: int = 0
    chars: int = 0
    numbers: int = 0

    def label(self, value: Any, path: str) -> None:
        text = _text(value, path)
        if text:  # an empty label draws nothing
            self.labels += 1
            self.chars += len(text)

    def labels_of(self, value: Any, path: str, length: int | None = None) -> int:
        items = _list(value, path, length)
        for i, v in enumerate(items):
            self.label(v, f"{path}[{i}]")
        return len(items)

    def numbers_of(
        self, value: Any, path: str, length: int | None = None, *, nullable: bool = True
    ) -> int:
        items = _list(value, path, length)
        for i, v in enumerate(items):
            if v is None and nullable:
                continue
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise _fail(f"{path}[{i}]", "a number" + (" or null" if nullable else ""))
            if isinstance(v, int) and abs(v) > 2**1023:
                raise _fail(f"{path}[{i}]", "a number within the floating-point range")
        self.numbers += len(items)
        return len(items)


def _box(p: dict[str, Any], path: str, cost: _Cost) -> None:
    n = cost.labels_of(p.get("groups"), f"{path}.groups")
    for i, v in enumerate(_list(p.get("values"), f"{path}.values", n)):
        cost.numbers_of(v, f"{path}.values[{i}]", nullable=False)


def _diff(p: dict[str, Any], path: str, cost: _Cost) -> None:
    cost.numbers_of(p.get("values"), f"{path}.values")
    _flag(p.get("lower_is_better"), f"{path}.lower_is_better")


def _limits(p: dict[str, Any], path: str) -> None:
    for axis in ("xlim", "ylim"):
        if p.get(axis) is not None:
            pair = _list(p[axis], f"{path}.{axis}", 2)
            for k, v in enumerate(pair):
                _number(v, f"{path}.{axis}[{k}]", nullable=True)
    _one_of(p.get("legend"), f"{path}.legend", _LEGEND)


def _line(p: dict[str, Any], path: str, cost: _Cost) -> None:
    _flag(p.get("diagonal"), f"{path}.diagonal")
    _limits(p, path)
    for i, s in enumerate(_list(p.get("series"), f"{path}.series")):
        where = f"{path}.series[{i}]"
        s = _object(s, where)
        cost.label(s.get("name"), f"{where}.name")
        n = cost.numbers_of(s.get("x"), f"{where}.x")
        cost.numbers_of(s.get("y"), f"{where}.y", n)
        _number(s.get("best"), f"{where}.best", nullable=True)
        if "color" in s:  # drawn as given: null is no colour
            _integer(s["color"], f"{where}.color", 0, 2**31)
        _one_of(s.get("drawstyle"), f"{where}.drawstyle", _DRAWSTYLE)


def _hbar(p: dict[str, Any], path: str, cost: _Cost) -> None:
    n = cost.labels_of(p.get("labels"), f"{path}.labels")
    cost.numbers_of(p.get("values"), f"{path}.values", n)
    if "color" in p:
        _integer(p["color"], f"{path}.color", 0, 2**31)


def _bars(p: dict[str, Any], path: str, cost: _Cost) -> None:
    n = cost.labels_of(p.get("categories"), f"{path}.categories")
    series = _list(p.get("series"), f"{path}.series")
    if n * len(series) > PANEL_BARS:
        raise _fail(f"{path}.series", f"at most {PANEL_BARS} bars (series times categories)")
    for i, s in enumerate(series):
        where = f"{path}.series[{i}]"
        s = _object(s, where)
        cost.label(s.get("name"), f"{where}.name")
        cost.numbers_of(s.get("values"), f"{where}.values", n)
    _limits(p, path)


def _heatmap(p: dict[str, Any], path: str, cost: _Cost) -> None:
    n_rows = cost.labels_of(p.get("rows"), f"{path}.rows")
    n_cols = cost.labels_of(p.get("cols"), f"{path}.cols")
    if not n_rows or not n_cols:  # an image of no cells cannot be drawn
        raise _fail(path, "a heatmap of at least one row and one column")
    for i, row in enumerate(_list(p.get("matrix"), f"{path}.matrix", n_rows)):
        cost.numbers_of(row, f"{path}.matrix[{i}]", n_cols)


def _interval(p: dict[str, Any], path: str, cost: _Cost) -> None:
    n = cost.labels_of(p.get("labels"), f"{path}.labels")
    for key in ("values", "low", "high"):
        cost.numbers_of(p.get(key), f"{path}.{key}", n)


def _scatter(p: dict[str, Any], path: str, cost: _Cost) -> None:
    n = cost.numbers_of(p.get("x"), f"{path}.x", nullable=False)
    cost.numbers_of(p.get("y"), f"{path}.y", n, nullable=False)
    flags = _list(p["highlight"], f"{path}.highlight") if "highlight" in p else []
    if flags and (len(flags) != n or any(not isinstance(h, bool) for h in flags)):
        raise _fail(f"{path}.highlight", "a list of true or false, one per point")
    if "labels" in p:
        cost.labels_of(p["labels"], f"{path}.labels", 2)
    _one_of(p.get("legend"), f"{path}.legend", _LEGEND)


_PANEL: dict[str, Callable[[dict[str, Any], str, _Cost], None]] = {
    "box": _box,
    "diff": _diff,
    "line": _line,
    "hbar": _hbar,
    "bars": _bars,
    "heatmap": _heatmap,
    "interval": _interval,
    "scatter": _scatter,
}


def _plot(spec: Any, path: str) -> tuple[int, int]:
    """Check a plot specification; (panels, labels) it draws."""
    spec = _object(spec, path)
    kind = spec.get("kind")
    if kind not in _KINDS:
        raise _fail(f"{path}.kind", "one of " + ", ".join(_KINDS))
    cost = _Cost()
    for key in ("title", "caption", "xlabel", "ylabel"):
        cost.label(spec.get(key), f"{path}.{key}")
    panels = _list(spec.get("panels"), f"{path}.panels")
    if len(panels) > PLOT_PANELS:
        raise _fail(f"{path}.panels", f"at most {PLOT_PANELS} panels")
    for i, panel in enumerate(panels):
        where = f"{path}.panels[{i}]"
        panel = _object(panel, where)
        for key in ("title", "xlabel", "ylabel"):
            cost.label(panel.get(key), f"{where}.{key}")
        _PANEL[kind](panel, where, cost)
    _figure(spec, len(panels), path)
    for what, used, cap in (
        ("characters of text", cost.chars, PLOT_CHARS),
        ("numbers", cost.numbers, PLOT_NUMBERS),
    ):
        if used > cap:
            raise _fail(path, f"a plot of at most {cap} {what} (it has {used})")
    return len(panels), cost.labels


def _figure(spec: dict[str, Any], panels: int, path: str) -> None:
    """The figure's size: each dimension bounded, and its pixels at :data:`DPI`."""
    columns = 3
    if spec.get("columns") is not None:
        columns = _integer(spec["columns"], f"{path}.columns", 1, PLOT_PANELS)
    width = 11.5
    if spec.get("width") is not None:
        width = _inches(spec["width"], f"{path}.width", WIDTH_INCHES)
    height = 3.0
    if spec.get("panel_height") not in (None, 0):
        height = _inches(spec["panel_height"], f"{path}.panel_height", PANEL_INCHES)
    rows = math.ceil(max(panels, 1) / max(1, min(max(panels, 1), columns)))
    pixels = width * DPI * (height * rows + 0.4) * DPI
    if pixels > FIGURE_PIXELS:
        raise _fail(path, f"a figure of at most {FIGURE_PIXELS:,} pixels at {DPI} dpi")


# ---------------------------------------------------------------- documents


def _document(doc: dict[str, Any], path: str) -> None:
    for key in ("title", "family"):
        _text(doc.get(key), f"{path}.{key}")
    if doc.get("provenance") is not None:
        _object(doc["provenance"], f"{path}.provenance")
    if doc.get("records") is not None:
        for i, r in enumerate(_list(doc["records"], f"{path}.records")):
            _object(r, f"{path}.records[{i}]")
    for i, sec in enumerate(doc["sections"]):
        where = f"{path}.sections[{i}]"
        _text(sec.get("title"), f"{where}.title")
        _text(sec.get("text"), f"{where}.text")
        for j, item in enumerate(sec["items"]):
            _item(item, f"{where}.items[{j}]")


def _item(item: Any, path: str) -> None:
    item = _object(item, path)
    if "table" in item:
        _table(item["table"], f"{path}.table")
    elif "plot" in item:
        _plot(item["plot"], f"{path}.plot")
    else:
        raise _fail(path, 'an object holding a "table" or a "plot"')


def check(documents: list[Any], source: str) -> None:
    """Refuse saved documents that are not what assay writes (see the module documentation)."""
    try:
        if _depth(documents) > MAX_DEPTH:
            raise _fail("documents", f"nesting at most {MAX_DEPTH} deep")
        for n, doc in enumerate(documents):
            _document(doc, f"documents[{n}]")
    except _Refused as exc:
        raise InputError(f"not a saved result assay can show: {exc}", source=source) from None


def drawing_budget(plots: Iterable[Mapping[str, Any]], source: str | None = None) -> None:
    """Refuse to draw ``plots`` (checked specifications, from the file ``source``) when they
    hold more than :data:`DRAWN_PANELS` panels or :data:`DRAWN_LABELS` labels in all."""
    panels = labels = 0
    for spec in plots:
        try:
            p, lab = _plot(spec, "plot")
        except _Refused as exc:
            raise InputError(f"not a saved result assay can show: {exc}", source=source) from None
        panels, labels = panels + p, labels + lab
    for what, used, variable, default in (
        ("panels", panels, "ASSAY_MAX_PLOT_PANELS", DRAWN_PANELS),
        ("labels", labels, "ASSAY_MAX_PLOT_LABELS", DRAWN_LABELS),
    ):
        cap = limit(variable, default)
        if used > cap:
            raise InputError(
                f"drawing these plots takes {used} {what}, more than {cap}; set {variable} to "
                "allow more",
                source=source,
            )
