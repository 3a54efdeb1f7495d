"""The tables and plots of :class:`~assay.judgments.CrowdQrels`: a summary, the workers'
agreement per topic, and each run's score under the majority-vote and the aggregated qrels
with the rankings' correlation; the agreement as a bar per topic and the scores as grouped
bars."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..report.output import Report
from ..report.table import Cell, Column, DisplayTable
from ..report.values import short

if TYPE_CHECKING:
    from .crowd_qrels_result import CrowdQrels

__all__ = ["agreement_plot", "crowd_qrels_report", "scores_plot"]


def _summary_table(res: CrowdQrels) -> DisplayTable:
    return DisplayTable(
        [Column("measure", latex="Measure"), Column("value", align="right", latex="Value")],
        [[name, short(v)] for name, v in res.summary().items()],
        title="Relevance judgments from crowds",
        caption=f"{res.provenance.get('source', '')}: qrels by {res.method}",
        legend=(
            "grade rule: argmax = the method's most probable grade; expected = the posterior's "
            "expected grade rounded to the nearest grade (halfway: the higher). alpha: Krippendorff's alpha of the workers' "
            "grades, the judged documents as units."
        ),
    )


def _band(alpha: float) -> str:
    from ..agreement import alpha_band

    return "" if math.isnan(alpha) else alpha_band(alpha)


def _agreement_table(res: CrowdQrels) -> DisplayTable:
    rows: list[list[Cell | str]] = []
    for t in [*res.agreement, res.overall]:
        name = "all topics" if t["query"] is None else str(t["query"])
        alpha = float(t["alpha"])
        note = "" if t["defined"] or t["n_units"] == 0 else "no variation"
        rows.append(
            [
                Cell(name, strong=t["query"] is None),
                str(t["n_docs"]),
                str(t["n_labels"]),
                str(t["n_units"]),
                Cell(short(alpha), note=note),
                _band(alpha),
            ]
        )
    level = res.provenance.get("level")
    return DisplayTable(
        [
            Column("query", latex="Query", style="bold"),
            Column("docs", align="right"),
            Column("labels", align="right"),
            Column("units", align="right"),
            Column("alpha", align="right"),
            Column("band"),
        ],
        rows,
        title="Agreement per topic",
        legend=(
            f"Krippendorff's alpha ({level}) of the workers' grades, units: the topic's judged "
            "documents with two grades or more; nan: no such document, or every grade the same "
            "(no variation). Bands after Krippendorff (2004): reliable >= 0.800, tentative "
            ">= 0.667."
        ),
        sections=frozenset({len(rows) - 2}) if len(rows) > 1 else frozenset(),
    )


def _ranking_table(res: CrowdQrels) -> DisplayTable | None:
    r = res.ranking
    if r is None:
        return None
    rows: list[list[Cell | str]] = [
        [
            s["system"],
            short(s["majority_vote"]),
            short(s["aggregated"]),
            Cell(short(s["difference"], "+.4f")),
            str(s["rank_majority_vote"]),
            str(s["rank_aggregated"]),
        ]
        for s in res.scores
    ]
    return DisplayTable(
        [
            Column("system", latex="System", style="bold"),
            Column("majority vote", align="right"),
            Column(f"aggregated ({res.method})", align="right"),
            Column("difference", align="right"),
            Column("rank (MV)", align="right"),
            Column("rank (aggregated)", align="right"),
        ],
        rows,
        title=f"Ranking change ({r['metric']})",
        caption=(
            f"Kendall tau {short(r['kendall_tau'])} (p {short(r['kendall_pvalue'])}), tau_AP "
            f"{short(r['tau_ap'])}, RBO_ext {short(r['rbo_ext'])} (p={r['p']:g}) between the "
            f"rankings of {r['n_runs']} runs"
        ),
        legend=(
            f"mean {r['metric']} of each run under the majority-vote qrels and the {res.method} "
            "qrels; difference: aggregated minus majority vote; ranks: 1 is best, tied scores "
            "share the best rank; tau_AP: the aggregated ranking against majority vote's, ties "
            "averaged."
        ),
    )


def _records(res: CrowdQrels) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {"kind": "summary", "name": name, "value": value} for name, value in res.summary().items()
    ]
    for t in res.agreement:
        rows.append(_topic_record("topic", t))
    rows.append(_topic_record("overall", res.overall))
    for s in res.scores:
        rows.append(
            {
                "kind": "system",
                "name": s["system"],
                **{k: v for k, v in s.items() if k != "system"},
            }
        )
    from .crowd_qrels_result import CROWD_QRELS_COLUMNS

    return [{k: r.get(k) for k in CROWD_QRELS_COLUMNS} for r in rows]


def _topic_record(kind: str, t: Any) -> dict[str, Any]:  # Any: a topic's mapping
    return {
        "kind": kind,
        "name": t["query"],
        "value": t["alpha"],
        "n_docs": t["n_docs"],
        "n_labels": t["n_labels"],
        "n_units": t["n_units"],
        "defined": t["defined"],
    }


def crowd_qrels_report(res: CrowdQrels) -> Report:
    """The summary, the agreement per topic and the ranking change (with runs)."""
    from .crowd_qrels_result import CROWD_QRELS_COLUMNS

    more = [_agreement_table(res)]
    ranking = _ranking_table(res)
    if ranking is not None:
        more.append(ranking)
    return Report(
        table=_summary_table(res),
        records=_records(res),
        columns=CROWD_QRELS_COLUMNS,
        key="records",
        document={"provenance": dict(res.provenance)},
        more=more,
    )


def agreement_plot(res: CrowdQrels) -> dict[str, Any] | None:
    """α per topic as horizontal bars, lowest first (at most ``PLOT_TOPICS`` topics; topics
    without an α are counted in the caption)."""
    from .crowd_qrels_result import PLOT_TOPICS

    defined = [t for t in res.agreement if not math.isnan(float(t["alpha"]))]
    if not defined:
        return None
    shown = sorted(defined, key=lambda t: float(t["alpha"]))[:PLOT_TOPICS]
    notes = []
    if len(defined) > len(shown):
        notes.append(f"the {len(shown)} topics of lowest alpha of {len(defined)}")
    if len(defined) < len(res.agreement):
        notes.append(f"{len(res.agreement) - len(defined)} topics without an alpha left out")
    return {
        "kind": "hbar",
        "title": "Agreement per topic",
        "caption": f"Krippendorff's alpha ({res.provenance.get('level')}) of the workers' "
        f"grades per topic{'; ' + '; '.join(notes) if notes else ''}.",
        "panels": [
            {
                "labels": [str(t["query"]) for t in shown],
                "values": [float(t["alpha"]) for t in shown],
                "xlabel": "alpha",
            }
        ],
        "columns": 1,
        "width": 7.0,
    }


def scores_plot(res: CrowdQrels) -> dict[str, Any] | None:
    """Each run's mean score under both qrels as grouped bars."""
    if res.ranking is None or not res.scores:
        return None
    metric = res.ranking["metric"]
    return {
        "kind": "bars",
        "title": f"{metric} under both qrels",
        "caption": f"Mean {metric} of each run under the majority-vote and the {res.method} qrels.",
        "panels": [
            {
                "categories": [str(s["system"]) for s in res.scores],
                "series": [
                    {"name": "majority vote", "values": [s["majority_vote"] for s in res.scores]},
                    {"name": res.method, "values": [s["aggregated"] for s in res.scores]},
                ],
                "ylabel": metric,
            }
        ],
        "columns": 1,
        "width": 8.0,
    }
