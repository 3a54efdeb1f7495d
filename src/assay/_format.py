"""Rendering results: rich table, TSV, CSV, JSON Lines, JSON, Markdown, LaTeX."""

from __future__ import annotations

import csv
import io
import json
import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .evaluation import Results

FORMATS = ("table", "tsv", "csv", "jsonl", "json", "markdown", "latex")


def _num(value: float, integer: bool, digits: int = 4) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if integer and float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def _json_value(value: float, integer: bool) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if integer and float(value).is_integer():
        return int(value)
    return value


def _integer(results: Results) -> dict[str, bool]:
    return {str(m): m.spec.integer for m in results.metrics}


def _best(results: Results) -> dict[str, float]:
    """Best aggregate per metric across runs (direction from the metric's declaration)."""
    out = {}
    for m in results.metrics:
        vals = [results.data[(r, str(m))].aggregate for r in results.runs]
        vals = [v for v in vals if not math.isnan(v)]
        if vals and len(results.runs) > 1 and not m.spec.integer:
            out[str(m)] = max(vals) if m.spec.higher_is_better else min(vals)
    return out


def _rows(results: Results, per_query: bool) -> list[tuple[str, str, dict[str, float]]]:
    """(run, query, {metric: value}) rows; per-query rows first, then 'all'."""
    rows: list[tuple[str, str, dict[str, float]]] = []
    names = results.metric_names
    for r in results.runs:
        if per_query:
            per: dict[str, dict[str, float]] = {}
            order: list[str] = []
            for m in names:
                for q, v in results.data[(r, m)].as_dict().items():
                    if q not in per:
                        per[q] = {}
                        order.append(q)
                    per[q][m] = v
            rows.extend((r, q, per[q]) for q in order)
        rows.append((r, "all", {m: results.data[(r, m)].aggregate for m in names}))
    return rows


def render(results: Results, fmt: str, per_query: bool = False) -> str:
    integer = _integer(results)
    if fmt == "tsv":
        return "".join(
            f"{x['run']}\t{x['metric']}\t{x['query']}\t{_plain(x['value'], integer[x['metric']])}\n"
            for x in results.records(per_query)
        )
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["run", "metric", "query", "value"])
        for x in results.records(per_query):
            w.writerow(
                [x["run"], x["metric"], x["query"], _plain(x["value"], integer[x["metric"]])]
            )
        return buf.getvalue()
    if fmt == "jsonl":
        return "".join(
            json.dumps({**x, "value": _json_value(x["value"], integer[x["metric"]])}) + "\n"
            for x in results.records(per_query)
        )
    if fmt == "json":
        doc = {
            "results": [
                {**x, "value": _json_value(x["value"], integer[x["metric"]])}
                for x in results.records(per_query)
            ],
            "warnings": results.warnings,
            "provenance": results.provenance,
        }
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "markdown":
        return _markdown(results, per_query)
    if fmt == "latex":
        return _latex(results, per_query)
    raise ValueError(f"unknown format {fmt!r}")


def _plain(value: float, integer: bool) -> str:
    """Full precision (shortest round-trip repr) for machine formats; counts as integers."""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if integer and float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def _markdown(results: Results, per_query: bool) -> str:
    names = results.metric_names
    integer = _integer(results)
    best = _best(results)
    head = ["run", *(["query"] if per_query else []), *names]
    lines = [
        "| " + " | ".join(_md_escape(h) for h in head) + " |",
        "|" + "|".join(["---"] * (1 + per_query) + ["---:"] * len(names)) + "|",
    ]
    for run, query, vals in _rows(results, per_query):
        cells = []
        for m in names:
            text = _num(vals[m], integer[m]) if m in vals else ""
            if query == "all" and m in best and vals.get(m) == best[m]:
                text = f"**{text}**"
            cells.append(text)
        lines.append(
            "| "
            + " | ".join([_md_escape(run), *([_md_escape(query)] if per_query else []), *cells])
            + " |"
        )
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


_LATEX_SPECIAL = {
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


def _tex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def _latex(results: Results, per_query: bool) -> str:
    names = results.metric_names
    integer = _integer(results)
    best = _best(results)
    cols = "l" + ("l" if per_query else "") + "r" * len(names)
    out = [f"\\begin{{tabular}}{{{cols}}}", "\\toprule"]
    head = ["Run", *(["Query"] if per_query else []), *(_tex(m) for m in names)]
    out.append(" & ".join(head) + " \\\\")
    out.append("\\midrule")
    for run, query, vals in _rows(results, per_query):
        cells = []
        for m in names:
            text = _num(vals[m], integer[m]) if m in vals else ""
            if query == "all" and m in best and vals.get(m) == best[m]:
                text = f"\\textbf{{{text}}}"
            cells.append(text)
        out.append(" & ".join([_tex(run), *([_tex(query)] if per_query else []), *cells]) + " \\\\")
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out) + "\n"


def rich_table(results: Results, per_query: bool = False) -> Any:
    """A rich table. Names are escaped: a run called ``bm25[bold]`` is shown as is."""
    from rich.markup import escape
    from rich.table import Table

    names = results.metric_names
    integer = _integer(results)
    best = _best(results)
    conv = results.conventions
    table = Table(
        caption=(
            f"ties={conv.ties}  missing={conv.missing}  no_relevant={conv.no_relevant}  "
            f"judged_only={conv.judged_only}"
        ),
        caption_justify="left",
    )
    table.add_column("run", style="bold", no_wrap=True)
    if per_query:
        table.add_column("query", no_wrap=True)
    for m in names:
        table.add_column(
            escape(m),
            justify="right",
            no_wrap=True,
            min_width=max(6, min(len(m), 12)),
            overflow="fold",
        )
    for run, query, vals in _rows(results, per_query):
        cells = []
        for m in names:
            text = _num(vals[m], integer[m]) if m in vals else ""
            if query == "all" and m in best and vals.get(m) == best[m]:
                text = f"[bold green]{text}[/]"
            cells.append(text)
        table.add_row(
            escape(run),
            *([escape(query)] if per_query else []),
            *cells,
            end_section=per_query and query == "all",
        )
    return table


# ---------------------------------------------------------------- comparisons

_COMPARE_COLUMNS = (
    "run",
    "metric",
    "query",
    "value",
    "baseline",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
)


def _cell(x: Any) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return "nan" if math.isnan(x) else repr(x)
    return str(x)


def render_comparison(cmp: Any, fmt: str) -> str:
    """Machine formats: the rows of ``Comparison.records()`` (summaries, then comparisons)."""
    rows = list(cmp.records())
    if fmt == "jsonl":
        return "".join(json.dumps({k: _json_num(v) for k, v in r.items()}) + "\n" for r in rows)
    if fmt == "json":
        doc = {
            "records": [{k: _json_num(v) for k, v in r.items()} for r in rows],
            "settings": cmp.settings,
            "warnings": cmp.results.warnings,
            "provenance": cmp.results.provenance,
        }
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "tsv":
        return "".join("\t".join(_cell(r.get(c)) for c in _COMPARE_COLUMNS) + "\n" for r in rows)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(_COMPARE_COLUMNS)
        for r in rows:
            w.writerow([_cell(r.get(c)) for c in _COMPARE_COLUMNS])
        return buf.getvalue()
    if fmt == "markdown":
        return _compare_markdown(cmp)
    if fmt == "latex":
        return _compare_latex(cmp)
    raise ValueError(f"unknown format {fmt!r}")


def _json_num(v: Any) -> Any:
    return None if isinstance(v, float) and math.isnan(v) else v


def _compare_legend(cmp: Any) -> str:
    if cmp.baseline is not None:
        return (
            f"▲/▼: significantly better/worse than {cmp.baseline} ({cmp.test} test, "
            f"{cmp.correction} correction per metric, alpha={cmp.alpha})"
        )
    letters = ", ".join(f"{v}={k}" for k, v in cmp.letters().items())
    return (
        f"letters: significantly better than that run ({letters}; {cmp.test} test, "
        f"{cmp.correction} correction per metric, alpha={cmp.alpha})"
    )


def _compare_markdown(cmp: Any) -> str:
    names = cmp.metrics
    lines = [
        "| run | " + " | ".join(_md_escape(m) for m in names) + " |",
        "|---|" + "|".join(["---:"] * len(names)) + "|",
    ]
    letters = cmp.letters()
    for r in cmp.runs:
        cells = []
        for m in names:
            s = cmp.summary(r, m)
            mark = cmp.markers(r, m)
            cells.append(f"{s.mean:.4f}{('<sup>' + mark + '</sup>') if mark else ''}")
        label = r if cmp.baseline is not None else f"({letters[r]}) {r}"
        lines.append("| " + " | ".join([_md_escape(label), *cells]) + " |")
    return "\n".join(lines) + "\n\n" + _compare_legend(cmp) + "\n"


def _compare_latex(cmp: Any) -> str:
    names = cmp.metrics
    letters = cmp.letters()
    out = [
        f"\\begin{{tabular}}{{l{'r' * len(names)}}}",
        "\\toprule",
        " & ".join(["Run", *(_tex(m) for m in names)]) + " \\\\",
        "\\midrule",
    ]
    for r in cmp.runs:
        cells = []
        for m in names:
            s = cmp.summary(r, m)
            mark = (
                cmp.markers(r, m)
                .replace("▲", "\\blacktriangle")
                .replace("▼", "\\blacktriangledown")
            )
            cells.append(f"{s.mean:.4f}" + (f"$^{{{mark}}}$" if mark else ""))
        label = _tex(r) if cmp.baseline is not None else f"({letters[r]}) {_tex(r)}"
        out.append(" & ".join([label, *cells]) + " \\\\")
    out += ["\\bottomrule", "\\end{tabular}", "% " + _compare_legend(cmp)]
    return "\n".join(out) + "\n"


def rich_comparison_table(cmp: Any) -> Any:
    from rich.markup import escape
    from rich.table import Table

    letters = cmp.letters()
    table = Table(caption=_compare_legend(cmp), caption_justify="left")
    table.add_column("run", style="bold", no_wrap=True)
    for m in cmp.metrics:
        table.add_column(escape(m), justify="right", no_wrap=True)
    for r in cmp.runs:
        cells = []
        for m in cmp.metrics:
            s = cmp.summary(r, m)
            mark = cmp.markers(r, m)
            text = f"{s.mean:.4f} [dim][{s.ci_low:.4f}, {s.ci_high:.4f}][/]"
            if mark:
                color = "green" if mark in ("▲",) or cmp.baseline is None else "red"
                text += f" [bold {color}]{escape(mark)}[/]"
            cells.append(text)
        label = escape(r) if cmp.baseline is not None else f"({letters[r]}) {escape(r)}"
        table.add_row(label, *cells)
    return table


# ---------------------------------------------------------------- metric/value lists


def _plain_value(v: Any) -> str:
    """Full precision for machine formats; integers as integers."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return str(v)
    if isinstance(v, int):
        return str(v)
    return "nan" if math.isnan(v) else repr(float(v))


def _short_value(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return str(v)
    if isinstance(v, int):
        return str(v)
    return "nan" if math.isnan(v) else f"{v:.4f}"


def render_metric_values(fmt: str, values: dict[str, Any], meta: dict[str, Any]) -> str:
    """``{metric: value}`` in the machine and document formats of ``assay evaluate``
    (tsv/csv rows ``metric, value``; jsonl ``{"metric", "value"}``; json adds ``meta``)."""
    if fmt == "tsv":
        return "".join(f"{m}\t{_plain_value(v)}\n" for m, v in values.items())
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["metric", "value"])
        w.writerows([m, _plain_value(v)] for m, v in values.items())
        return buf.getvalue()
    if fmt == "jsonl":
        return "".join(
            json.dumps({"metric": m, "value": _json_num(v)}) + "\n" for m, v in values.items()
        )
    if fmt == "json":
        doc = {"results": [{"metric": m, "value": _json_num(v)} for m, v in values.items()], **meta}
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "markdown":
        rows = [f"| {_md_escape(m)} | {_short_value(v)} |" for m, v in values.items()]
        return "\n".join(["| metric | value |", "|---|---:|", *rows]) + "\n"
    if fmt == "latex":
        rows = [f"{_tex(m)} & {_short_value(v)} \\\\" for m, v in values.items()]
        head = ["\\begin{tabular}{lr}", "\\toprule", "Metric & Value \\\\", "\\midrule"]
        return "\n".join([*head, *rows, "\\bottomrule", "\\end{tabular}"]) + "\n"
    raise ValueError(f"unknown format {fmt!r}")


def metric_values_table(values: dict[str, Any], caption: str) -> Any:
    """``{metric: value}`` as a two-column rich table (the default on a terminal)."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(caption=escape(caption), caption_justify="left")
    table.add_column("metric", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    for m, v in values.items():
        table.add_row(escape(m), _short_value(v))
    return table
