"""The tables of the tagging family's results: one tagger
(:meth:`TaggingReport.report() <assay.tagging.TaggingReport.report>`) or several on the
same gold with paired tests (:meth:`TaggerComparison.report()
<assay.tagging.TaggerComparison.report>`).

One tagger: a row per type, the three averages, then nervaluate's four match schemes
(precision, recall, F1, support = gold spans, found = predicted spans, correct). Several
taggers: a row per tagger with its micro precision, recall and F1 (with the bootstrap
interval) and the F1 difference from the baseline (interval, corrected p-value, ▲/▼).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..report.output import Report
from ..report.table import Cell, Column, DisplayTable
from ..report.values import short

if TYPE_CHECKING:
    from .comparison import TaggerComparison
    from .evaluation import TaggingReport

__all__ = [
    "COMPARISON_COLUMNS",
    "TAGGING_COLUMNS",
    "comparison_report",
    "report_of",
    "single_report",
]

TAGGING_COLUMNS = ("tagger", "match", "type", "measure", "value", "aggregate")
COMPARISON_COLUMNS = (*TAGGING_COLUMNS, "ci_low", "ci_high", "pvalue", "p_adjusted", "significant")
_MARK = {1: "▲", -1: "▼", 0: ""}
_MATCH_LABELS = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "type"}


# ---------------------------------------------------------------- one tagger


def single_report(rep: TaggingReport, name: str | None = None) -> Report:
    """The report of one tagger (its records' ``tagger`` is ``name``, default: the tagger's
    own name, else its input)."""
    columns = [Column("type", style="bold")]
    columns += [
        Column(h, align="right")
        for h in ("precision", "recall", "F1", "support", "found", "correct")
    ]
    c = rep.counts
    per_type = (rep.precision(None), rep.recall(None), rep.f1(None))
    rows: list[list[Cell | str]] = []
    for i, kind in enumerate(c.types):
        values = [per_type[k][i] for k in range(3)]
        rows.append(
            [kind, *(short(v) for v in values), str(c.gold[i]), str(c.pred[i]), str(c.tp[i])]
        )
    sections = {len(rows) - 1} if rows else set()
    for average in ("micro", "macro", "weighted"):
        found = [str(c.pred.sum()), str(c.tp.sum())] if average == "micro" else ["", ""]
        means = (rep.precision(average), rep.recall(average), rep.f1(average))
        rows.append([f"{average} avg", *(short(v) for v in means), str(c.gold.sum()), *found])
    sections.add(len(rows) - 1)
    zd = float("nan") if rep.zero_division == "nan" else float(rep.zero_division)
    for match, label in _MATCH_LABELS.items():
        pc = rep.partial[match]
        scores = (pc.precision(zd), pc.recall(zd), pc.f1(zd))
        correct = f"{pc.correct}+{pc.partial}/2" if match == "partial" else str(pc.correct)
        rows.append(
            [
                f"{label} match",
                *(short(v) for v in scores),
                str(pc.possible),
                str(pc.actual),
                correct,
            ]
        )
    legend = (
        f"scheme {rep.scheme}, mode {rep.mode}; {rep.n_tokens} tokens in {rep.n_sentences} "
        f"sentences, token accuracy {short(rep.accuracy)}; support: gold spans, found: "
        "predicted spans; last rows: nervaluate's match schemes"
    )
    tagger = name if name is not None else rep.tagger
    records = [{"tagger": tagger, **r} for r in rep.records()]
    return Report(
        table=DisplayTable(columns, rows, legend=legend, sections=frozenset(sections)),
        records=records,
        columns=TAGGING_COLUMNS,
        key="records",
        document={"provenance": dict(rep.provenance)},
    )


# ---------------------------------------------------------------- several taggers


def comparison_report(cmp: TaggerComparison) -> Report:
    """The report of several taggers on the same gold, tested against the baseline."""
    columns = [Column("tagger", style="bold")]
    columns += [Column(h, align="right") for h in ("accuracy", "precision", "recall", "F1", "ΔF1")]
    rows: list[list[Cell | str]] = []
    for name in cmp.names:
        rep = cmp.reports[name]
        low, high = cmp.intervals[name]
        f1 = Cell(short(rep.f1()), note=f"[{short(low)}, {short(high)}]")
        if name == cmp.baseline:
            rows.append(
                [
                    f"{name} (baseline)",
                    short(rep.accuracy),
                    short(rep.precision()),
                    short(rep.recall()),
                    f1,
                    "",
                ]
            )
            continue
        pair = cmp.pair(name)
        note = f"[{short(pair.ci_low)}, {short(pair.ci_high)}] p={short(pair.p_adjusted)}"
        diff = Cell(f"{pair.diff:+.4f}", marks=_MARK[pair.direction], note=note)
        rows.append(
            [name, short(rep.accuracy), short(rep.precision()), short(rep.recall()), f1, diff]
        )
    return Report(
        table=DisplayTable(columns, rows, legend=_legend(cmp)),
        records=_comparison_records(cmp),
        columns=COMPARISON_COLUMNS,
        key="records",
        document={"provenance": dict(cmp.provenance)},
    )


def _legend(cmp: TaggerComparison) -> str:
    prov = cmp.provenance
    conf = round(100 * cmp.confidence)
    first = cmp.reports[cmp.baseline]
    notes = [
        f"scheme {first.scheme}, mode {first.mode}; micro span F1 [{conf}% percentile bootstrap "
        f"interval, {prov['ci_resamples']} resamples of the sentences]"
    ]
    if cmp.pairs:
        notes.append(
            f"ΔF1: F1 - F1 of {cmp.baseline}, paired {cmp.test} test on corpus-level F1 "
            f"({prov['n_resamples']} resamples of the sentences, seed {prov['seed']}), "
            f"{cmp.correction} correction; ▲/▼ significantly better/worse at alpha={cmp.alpha}"
        )
    return "; ".join(notes)


def _comparison_records(cmp: TaggerComparison) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in cmp.names:
        low, high = cmp.intervals[name]
        for r in cmp.reports[name].records():
            row: dict[str, Any] = {"tagger": name, **r}
            if (r["match"], r["aggregate"], r["measure"]) == ("span", "micro", "f1"):
                row |= {"ci_low": low, "ci_high": high}
            rows.append(row)
    for p in cmp.pairs:
        rows.append(
            {
                "tagger": p.system,
                "match": "span",
                "type": None,
                "aggregate": "micro",
                "measure": f"f1 diff vs {p.baseline}",
                "value": p.diff,
                "ci_low": p.ci_low,
                "ci_high": p.ci_high,
                "pvalue": p.p_value,
                "p_adjusted": p.p_adjusted,
                "significant": p.significant,
            }
        )
    return rows


def report_of(result: TaggingReport | TaggerComparison, *, name: str | None = None) -> Report:
    """The report of one tagger's evaluation (its records' ``tagger`` is ``name``, default:
    the tagger's name) or of a comparison of taggers: ``result.report()``. (What
    ``assay.report.tagging_report`` was; that name is deprecated.)"""
    from .evaluation import TaggingReport

    if isinstance(result, TaggingReport):
        return single_report(result, name)
    return comparison_report(result)
