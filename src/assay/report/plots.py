"""Plots drawn from plot specifications (plain data, see :mod:`assay.report.document`) with
matplotlib (the ``plot`` extra): inline SVG for the HTML report (:func:`svg`) and PNG, SVG or
PDF files (:func:`export`).

A specification is ``{"kind", "title", "caption", "columns", "panels": [...]}``; the panels
are drawn in a grid (``columns`` per row, default up to 3), each by the drawer of ``kind``:

- ``box`` — ``groups`` (names) and ``values`` (one list per group): horizontal box plots,
  the mean marked;
- ``diff`` — ``values`` sorted: one bar per query, better green, worse red;
- ``line`` — ``series`` of ``{name, x, y, best}`` (``best``: an x to mark), ``diagonal``;
- ``hbar`` — ``labels`` and ``values``, first on top;
- ``bars`` — ``categories`` and ``series`` of ``{name, values}``: grouped bars;
- ``heatmap`` — ``rows``, ``cols`` and ``matrix``: counts written in the cells;
- ``interval`` — ``labels``, ``values``, ``low`` and ``high``: one dot per label with its
  interval, first on top (a forest plot); a null end is an open interval, drawn to the
  axis' edge with an arrow, a null value is not drawn;
- ``scatter`` — ``x``, ``y``, ``highlight`` (booleans) and ``labels`` of the two kinds.

Every panel may give ``title``, ``xlabel`` and ``ylabel``. Text from the data goes through
:func:`assay.report.escape.matplotlib` (``$`` never starts mathtext); matplotlib's SVG writer
escapes ``<``, ``>`` and ``&``. Figures are built with :class:`matplotlib.figure.Figure`,
never pyplot, so no GUI backend is chosen and the caller's matplotlib state is untouched.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .._files import atomic_path
from .._options import PlotFormat
from . import escape

__all__ = ["PlotFormat", "export", "figure", "svg"]

#: Run colours, in run order (colour-blind safe: Okabe & Ito 2008).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000")
BETTER, WORSE, NEUTRAL = "#009E73", "#D55E00", "#999999"
#: Above this many points a scatter is drawn as an embedded image inside the SVG.
RASTER_POINTS = 5000
#: Above this many queries sorted differences are drawn as filled areas, not bars, and box
#: plots leave out their outliers (the SVG stays small for collections of any size).
MANY_BARS = 1000

_STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.fontsize": 8,
    "legend.frameon": False,
}


def _t(text: Any) -> str:
    return escape.matplotlib(str(text))


def _color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


# ---------------------------------------------------------------- drawers


def _horizontal() -> dict[str, Any]:
    """Horizontal boxes: ``orientation`` from matplotlib 3.10 (``vert`` is deprecated)."""
    import matplotlib

    major, minor = (int(x) for x in matplotlib.__version__.split(".")[:2])
    return {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}


def _box(ax: Any, p: Mapping[str, Any]) -> None:
    groups = [list(v) for v in p["values"]]
    names = [_t(g) for g in p["groups"]]
    positions = list(range(len(groups), 0, -1))  # first group on top
    kept = [(g, pos) for g, pos in zip(groups, positions, strict=True) if g]
    ax.set_yticks(positions, names)
    ax.grid(axis="y", visible=False)
    if not kept:  # no run has a value: the axes stay, empty
        return
    parts = ax.boxplot(
        [g for g, _ in kept],
        positions=[pos for _, pos in kept],
        **_horizontal(),
        widths=0.6,
        showmeans=True,
        patch_artist=True,
        flierprops={"markersize": 3, "alpha": 0.5},
        showfliers=max((len(g) for g in groups), default=0) <= MANY_BARS,
        meanprops={
            "marker": "D",
            "markerfacecolor": "white",
            "markeredgecolor": "black",
            "markersize": 4,
        },
        medianprops={"color": "black"},
    )
    for i, patch in enumerate(parts["boxes"]):
        patch.set_facecolor(_color(len(groups) - kept[i][1]))
        patch.set_alpha(0.6)
    ax.set_yticks(positions, names)  # boxplot set its own ticks: the run names again


def _diff(ax: Any, p: Mapping[str, Any]) -> None:
    values = [math.nan if v is None else float(v) for v in p["values"]]
    good, bad = (WORSE, BETTER) if p.get("lower_is_better") else (BETTER, WORSE)
    if len(values) > MANY_BARS:
        # Sorted values: MANY_BARS evenly spaced ones draw the same area, as one filled path
        # per sign instead of a bar per query.
        step = (len(values) - 1) / (MANY_BARS - 1)
        xs = [round(i * step) for i in range(MANY_BARS)]
        ys = [values[x] for x in xs]
        ax.fill_between(xs, ys, 0, where=[v >= 0 for v in ys], color=good, linewidth=0)
        ax.fill_between(xs, ys, 0, where=[v <= 0 for v in ys], color=bad, linewidth=0)
    else:
        colors = [good if v > 0 else bad if v < 0 else NEUTRAL for v in values]
        ax.bar(range(len(values)), values, width=1.0, color=colors, linewidth=0)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlim(-0.5, max(len(values), 1) - 0.5)
    ax.set_xticks([])
    ax.grid(axis="x", visible=False)


def _line(ax: Any, p: Mapping[str, Any]) -> None:
    if p.get("diagonal"):
        ax.plot([0, 1], [0, 1], color=NEUTRAL, linestyle="--", linewidth=0.8)
    series = p["series"]
    for i, s in enumerate(series):
        x = [math.nan if v is None else v for v in s["x"]]
        y = [math.nan if v is None else v for v in s["y"]]
        style = {"marker": "o", "markersize": 3} if len(x) <= 30 else {}
        ax.plot(
            x,
            y,
            color=_color(s.get("color", i)),
            label=_t(s["name"]),
            linewidth=1.5,
            drawstyle=s.get("drawstyle", "default"),
            **style,
        )
        if s.get("best") is not None:
            ax.axvline(s["best"], color=_color(s.get("color", i)), linestyle=":", linewidth=1)
    if any(s["name"] for s in series):
        ax.legend(loc=p.get("legend", "best"))
    for axis in ("xlim", "ylim"):
        if p.get(axis):
            getattr(ax, f"set_{axis}")(*p[axis])


def _hbar(ax: Any, p: Mapping[str, Any]) -> None:
    labels = [_t(v) for v in p["labels"]]
    values = [0.0 if v is None else float(v) for v in p["values"]]
    ax.barh(range(len(values), 0, -1), values, color=_color(p.get("color", 0)), height=0.7)
    ax.set_yticks(range(len(values), 0, -1), labels)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.grid(axis="y", visible=False)


def _bars(ax: Any, p: Mapping[str, Any]) -> None:
    cats = [_t(c) for c in p["categories"]]
    series = p["series"]
    width = 0.8 / max(len(series), 1)
    for i, s in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(cats))]
        ys = [math.nan if v is None else v for v in s["values"]]
        ax.bar(xs, ys, width=width, color=_color(i), label=_t(s["name"]))
    ax.set_xticks(range(len(cats)), cats)
    ax.grid(axis="x", visible=False)
    if len(series) > 1:
        ax.legend(loc=p.get("legend", "best"))
    if p.get("ylim"):
        ax.set_ylim(*p["ylim"])


def _heatmap(ax: Any, p: Mapping[str, Any]) -> None:
    matrix = [[0.0 if v is None else float(v) for v in row] for row in p["matrix"]]
    values = [v for row in matrix for v in row]
    low, top = min(min(values, default=0.0), 0.0), max(values, default=0.0)
    image = ax.imshow(matrix, cmap="Blues", aspect="auto", vmin=low, vmax=max(top, low + 1e-12))
    small = len(values) <= 400
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            if small:  # the count in every cell, dark text on light cells, white on dark ones
                text = f"{v:g}" if float(v).is_integer() else f"{v:.2f}"
                color = "white" if v > (low + top) / 2 else "black"
                ax.text(j, i, text, ha="center", va="center", color=color, fontsize=8)
    ax.set_xticks(range(len(p["cols"])), [_t(c) for c in p["cols"]], rotation=45, ha="right")
    ax.set_yticks(range(len(p["rows"])), [_t(r) for r in p["rows"]])
    ax.grid(visible=False)
    ax.figure.colorbar(image, ax=ax, shrink=0.8)


def _interval(ax: Any, p: Mapping[str, Any]) -> None:
    labels = [_t(v) for v in p["labels"]]
    ys = list(range(len(labels), 0, -1))
    value, low, high = (
        [math.nan if v is None else float(v) for v in p[key]] for key in ("values", "low", "high")
    )
    finite = [v for v in value + low + high if math.isfinite(v)]
    left, right = (min(finite), max(finite)) if finite else (0.0, 1.0)
    pad = 0.05 * (right - left or 1.0)
    left, right = left - pad, right + pad
    for y, v, lo, hi in zip(ys, value, low, high, strict=True):
        a = left if math.isnan(lo) else lo
        b = right if math.isnan(hi) else hi
        if not (math.isnan(lo) and math.isnan(hi) and math.isnan(v)):
            ax.plot([a, b], [y, y], color=_color(0), linewidth=1.5)
        # an open end: an arrow at the axis' edge says the interval goes on
        if math.isnan(hi) and not math.isnan(lo):
            ax.plot([b], [y], marker=">", color=_color(0), markersize=5)
        if math.isnan(lo) and not math.isnan(hi):
            ax.plot([a], [y], marker="<", color=_color(0), markersize=5)
        if not math.isnan(v):
            ax.plot([v], [y], marker="o", color=_color(1), markersize=5, zorder=3)
    ax.set_xlim(left, right)
    ax.set_yticks(ys, labels)
    ax.grid(axis="y", visible=False)


def _scatter(ax: Any, p: Mapping[str, Any]) -> None:
    x, y, hi = list(p["x"]), list(p["y"]), [bool(h) for h in p.get("highlight", [])]
    hi = hi or [False] * len(x)
    raster = len(x) > RASTER_POINTS
    labels = [_t(v) for v in p.get("labels", ["", ""])]
    plain = [(a, b) for a, b, h in zip(x, y, hi, strict=True) if not h]
    marked = [(a, b) for a, b, h in zip(x, y, hi, strict=True) if h]
    for points, color, size, label in (
        (plain, NEUTRAL, 1, labels[0]),
        (marked, WORSE, 4, labels[1]),
    ):
        if points:
            ax.scatter(
                [a for a, _ in points],
                [b for _, b in points],
                s=size,
                color=color,
                label=label or None,
                rasterized=raster,
                linewidths=0,
            )
    if any(labels):
        ax.legend(loc=p.get("legend", "best"), markerscale=4)


_DRAW: dict[str, Callable[[Any, Mapping[str, Any]], None]] = {
    "box": _box,
    "diff": _diff,
    "line": _line,
    "hbar": _hbar,
    "bars": _bars,
    "heatmap": _heatmap,
    "interval": _interval,
    "scatter": _scatter,
}


# ---------------------------------------------------------------- figures


def _panel_height(spec: Mapping[str, Any]) -> float:
    if spec.get("panel_height"):
        return float(spec["panel_height"])
    if spec["kind"] in ("box", "hbar", "interval"):
        rows = max((len(p.get("groups", p.get("labels", []))) for p in spec["panels"]), default=1)
        return max(1.4, 0.35 * rows + 0.9)
    return 3.0


def figure(spec: Mapping[str, Any]) -> Any:
    """A :class:`matplotlib.figure.Figure` of ``spec`` (call inside :func:`_style`)."""
    from .._optional import require

    require("matplotlib")
    from matplotlib.figure import Figure

    panels = spec["panels"]
    ncols = max(1, min(len(panels), int(spec.get("columns", 3))))
    nrows = max(1, math.ceil(len(panels) / ncols))
    width = float(spec.get("width", 11.5))
    fig = Figure(figsize=(width, _panel_height(spec) * nrows + 0.4), layout="constrained")
    engine: Any = fig.get_layout_engine()
    engine.set(h_pad=0.12, w_pad=0.08)  # air between rows of panels
    axes = fig.subplots(nrows, ncols, squeeze=False)
    draw = _DRAW[spec["kind"]]
    for ax, panel in zip(axes.flat, panels, strict=False):
        draw(ax, panel)
        if panel.get("title"):
            ax.set_title(_t(panel["title"]))
        ax.set_xlabel(_t(panel.get("xlabel", spec.get("xlabel", ""))))
        ax.set_ylabel(_t(panel.get("ylabel", spec.get("ylabel", ""))))
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    return fig


def _style(salt: str) -> Any:
    import matplotlib

    style: Any = {**_STYLE, "svg.hashsalt": salt}
    return matplotlib.rc_context(style)


_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
_ID = re.compile(r'\b(id="|url\(#|href="#)([^")]+)')
#: An SVG tag: ids are prefixed inside tags only, never in text (a label may read "url(#x)";
#: matplotlib escapes ``<`` and ``>`` in text and in attribute values).
_TAG = re.compile(r"<[^>]*>")


def svg(spec: Mapping[str, Any], ident: str = "plot") -> str:
    """``spec`` as an ``<svg>`` element to inline in HTML: no XML prolog, a ``<title>``, and
    every id prefixed with ``ident`` so several plots can share a page."""
    from .._optional import require

    require("matplotlib")
    buf = io.StringIO()
    with _style(ident):
        fig = figure(spec)
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    text = _METADATA.sub("", text)
    prefixed = lambda m: f"{m.group(1)}{ident}-{m.group(2)}"  # noqa: E731
    text = _TAG.sub(lambda tag: _ID.sub(prefixed, tag.group(0)), text)
    head_end = text.index(">") + 1
    title = f"<title>{escape.html(str(spec.get('title', '')))}</title>"
    opening = text[:head_end].replace("<svg ", '<svg role="img" ', 1)
    return opening + title + text[head_end:]


def export(spec: Mapping[str, Any], path: str | Path, fmt: PlotFormat | None = None) -> None:
    """``spec`` drawn to a PNG (150 dpi), SVG or PDF file (format from ``fmt`` or the file's
    extension)."""
    from .._options import choice

    chosen = choice(fmt or Path(path).suffix.lstrip(".").lower(), PlotFormat, "format")
    with _style("export"):
        fig = figure(spec)
        fig.suptitle(_t(spec.get("title", "")))
        meta = {"Date": None} if chosen == "svg" else {}
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=chosen, dpi=150, metadata=meta or None)
