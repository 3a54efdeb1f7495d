"""Reports of the tagging family: one tagger (:class:`~assay.tagging.TaggingReport`) or several
on the same gold with paired tests (:class:`~assay.tagging.TaggerComparison`), and
conlleval's own text layout (:func:`conlleval_text`).

One tagger: a row per type, the three averages, then nervaluate's four match schemes
(precision, recall, F1, support = gold spans, found = predicted spans, correct). Several
taggers: a row per tagger with its micro precision, recall and F1 (with the bootstrap
interval) and the F1 difference from the baseline (interval, corrected p-value, ▲/▼).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .output import Report
from .table import Cell, Column, DisplayTable
from .values import short

if TYPE_CHECKING:
    from ..tagging import TaggerComparison, TaggingReport

__all__ = ["TAGGING_COLUMNS", "conlleval_text", "tagging_report"]

TAGGING_COLUMNS = ("tagger", "match", "type", "measure", "value", "aggregate")
COMPARISON_COLUMNS = (*TAGGING_COLUMNS, "ci_low", "ci_high", "pvalue", "p_adjusted", "significant")
_MARK = {1: "▲", -1: "▼", 0: ""}
_MATCH_LABELS = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "type"}


# ---------------------------------------------------------------- conlleval's layout


def _percent(num: int, den: int) -> float:
    return 100 * num / den if den > 0 else 0.0


def _fb1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def conlleval_block(rep: TaggingReport) -> str:
    """conlleval's output for one tagger, byte for byte: the overall counts, the overall
    line and one line per type (``%17s``, percentages with ``%6.2f``, the type's predicted
    spans last). Tokens count as read (``-DOCSTART-`` lines are not tokens here; conlleval
    counts them)."""
    c = rep.counts
    tp, pred, gold = int(c.tp.sum()), int(c.pred.sum()), int(c.gold.sum())
    lines = [
        f"processed {c.n_tokens} tokens with {gold} phrases; found: {pred} phrases; correct: {tp}.\n"
    ]
    if c.n_tokens > 0:
        p, r = _percent(tp, pred), _percent(tp, gold)
        accuracy = 100 * c.correct_tokens / c.n_tokens
        lines.append(
            "accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"  # noqa: UP031 - Perl's printf
            % (accuracy, p, r, _fb1(p, r))
        )
    for i, kind in enumerate(c.types):
        p, r = _percent(int(c.tp[i]), int(c.pred[i])), _percent(int(c.tp[i]), int(c.gold[i]))
        lines.append(
            "%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n"  # noqa: UP031
            % (kind, p, r, _fb1(p, r), int(c.pred[i]))
        )
    return "".join(lines)


def conlleval_text(result: TaggingReport | TaggerComparison) -> str:
    """conlleval's layout: exactly its output for one tagger; for several, one block per
    tagger after a line ``tagger: NAME``, then a line per paired test."""
    from ..tagging import TaggingReport

    if isinstance(result, TaggingReport):
        return conlleval_block(result)
    blocks = [f"tagger: {name}\n{conlleval_block(result.reports[name])}" for name in result.names]
    prov = result.provenance
    tests = [
        f"{p.tagger} vs {p.baseline}: FB1 difference {100 * p.diff:+.2f} "
        f"[{100 * p.ci_low:+.2f}, {100 * p.ci_high:+.2f}]; p = {p.pvalue:.4f}, "
        f"{result.correction} p = {p.p_adjusted:.4f}{' *' if p.significant else ''} "
        f"(paired {result.test}, {prov['n_resamples']} resamples of the sentences, seed {prov['seed']})\n"
        for p in result.pairs
    ]
    return "\n".join(blocks) + ("\n" + "".join(tests) if tests else "")


# ---------------------------------------------------------------- one tagger


def _single(rep: TaggingReport, name: str | None) -> Report:
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
    tagger = name if name is not None else _tagger_name(rep)
    records = [{"tagger": tagger, **r} for r in rep.records()]
    return Report(
        table=DisplayTable(columns, rows, legend=legend, sections=frozenset(sections)),
        records=records,
        columns=TAGGING_COLUMNS,
        key="records",
        document={"provenance": dict(rep.provenance)},
    )


def _tagger_name(rep: TaggingReport) -> str:
    return str(rep.provenance.get("inputs", {}).get("y_pred", "y_pred"))


# ---------------------------------------------------------------- several taggers


def _comparison(cmp: TaggerComparison) -> Report:
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
                "tagger": p.tagger,
                "match": "span",
                "type": None,
                "aggregate": "micro",
                "measure": f"f1 diff vs {p.baseline}",
                "value": p.diff,
                "ci_low": p.ci_low,
                "ci_high": p.ci_high,
                "pvalue": p.pvalue,
                "p_adjusted": p.p_adjusted,
                "significant": p.significant,
            }
        )
    return rows


def tagging_report(result: TaggingReport | TaggerComparison, *, name: str | None = None) -> Report:
    """The report of one tagger's evaluation (its records' ``tagger`` is ``name``, default:
    its input) or of a comparison of taggers."""
    from ..tagging import TaggingReport

    if isinstance(result, TaggingReport):
        return _single(result, name)
    return _comparison(result)
