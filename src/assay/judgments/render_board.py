"""What :class:`~assay.judgments.Leaderboard` shows: the table (rank, item, score with its
interval, rank interval, counts, status; :func:`board_report`) and the HTML report's plots
(the scores with their intervals, and the pairwise win-probability matrix;
:func:`board_document`). Item names are data: every renderer escapes them."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..report.output import Report
from ..report.table import Cell, Column, DisplayTable
from ..report.values import short

if TYPE_CHECKING:
    from ..report.document import Document
    from .board import Leaderboard

__all__ = ["BOARD_COLUMNS", "board_document", "board_report"]

BOARD_COLUMNS = (
    "rank",
    "item",
    "score",
    "ci_low",
    "ci_high",
    "rank_low",
    "rank_high",
    "comparisons",
    "wins",
    "losses",
    "ties",
    "status",
)
#: Items drawn in the forest plot (the best ones) and, as rows and columns, in the heatmap.
PLOT_ITEMS = 40

_NAMES = {
    "counting": "counting",
    "average_win_rate": "average win rate",
    "bradley_terry": "Bradley–Terry",
    "newman": "Newman",
    "elo": "Elo",
    "eigen": "eigenvector",
    "pagerank": "PageRank",
}


def _number(x: float) -> str:
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "+∞" if x > 0 else "−∞"
    return short(x, ".4g")


def _count(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else short(x, ".4g")


def _rank(x: float) -> str:
    return "—" if math.isnan(x) else str(int(x))


def board_report(board: Leaderboard) -> Report:
    """The leaderboard's table, best first, and its records."""
    prov = board.provenance
    columns = [
        Column("rank", align="right"),
        Column("item", style="bold"),
        Column("score", align="right"),
        Column("rank interval", align="right"),
        Column("comparisons", align="right"),
        Column("W/L/T", align="right"),
        Column("status"),
    ]
    rows: list[list[Cell | str]] = []
    for i in board.order():
        interval = f"[{_number(board.ci_low[i])}, {_number(board.ci_high[i])}]"
        rows.append(
            [
                _rank(board.rank[i]),
                board.items[i],
                Cell(_number(board.scores[i]), note=interval),
                f"{_rank(board.rank_low[i])}–{_rank(board.rank_high[i])}",
                _count(board.comparisons[i]),
                f"{_count(board.wins[i])}/{_count(board.losses[i])}/{_count(board.ties[i])}",
                board.status[i],
            ]
        )
    return Report(
        table=DisplayTable(
            columns,
            rows,
            title=f"Leaderboard: {_NAMES[board.method]}",
            legend=_legend(board),
            keys=2,
        ),
        records=board.records(),
        columns=BOARD_COLUMNS,
        key="items",
        document={"provenance": dict(prov)},
    )


def _legend(board: Leaderboard) -> str:
    prov = board.provenance
    conf = round(100 * float(prov["confidence"]), 2)
    notes = [
        f"[{conf:g}% bootstrap percentile intervals, {prov['n_resamples']} resamples "
        f"({prov['bootstrap']}), seed {prov['seed']}]",
        f"rank: {prov['rank_rule']}",
    ]
    if board.method in ("bradley_terry", "newman") and not prov["strongly_connected"]:
        notes.append(
            "the comparison graph is not strongly connected: some scores are not comparable "
            "(no finite maximum-likelihood estimate)"
        )
    if not prov["converged"]:
        notes.append(f"the fit stopped at the iteration cap after {prov['iterations']} iterations")
    if board.method == "elo":
        notes.append("Elo depends on the order of the comparisons")
    return "; ".join(notes)


def _finite_or_none(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def _forest(board: Leaderboard) -> dict[str, Any] | None:
    shown = [i for i in board.order() if not math.isnan(board.scores[i])][:PLOT_ITEMS]
    if not shown:
        return None
    return {
        "kind": "interval",
        "title": "Scores with their intervals",
        "caption": f"The {min(len(shown), PLOT_ITEMS)} best items; an arrow: the interval is unbounded.",
        "columns": 1,
        "width": 8.0,
        "panels": [
            {
                "labels": [board.items[i] for i in shown],
                "values": [_finite_or_none(board.scores[i]) for i in shown],
                "low": [_finite_or_none(board.ci_low[i]) for i in shown],
                "high": [_finite_or_none(board.ci_high[i]) for i in shown],
                "xlabel": f"{_NAMES[board.method]} score",
            }
        ],
    }


def board_document(board: Leaderboard) -> Document:
    """The report's tables, the forest plot and the win-probability heatmap."""
    from ..report.document import section
    from ..report.sections_tasks import heatmap, tables_document

    sections = []
    forest = _forest(board)
    if forest is not None:
        sections.append(section("Scores", forest))
    order = [int(i) for i in board.order()][:PLOT_ITEMS]
    names = [board.items[i] for i in order]
    model = board.win_probability is not None
    matrix = board.win_probability if board.win_probability is not None else board.empirical
    picked = np.asarray(matrix)[np.ix_(order, order)] if order else np.zeros((0, 0))
    plot = heatmap(
        "Model win probability" if model else "Observed win rate",
        names,
        names,
        np.nan_to_num(picked, nan=0.0),
        xlabel="opponent",
        ylabel="item",
        caption=(
            "P(row beats column) under the model (the diagonal, no comparison, drawn as 0)"
            if model
            else "How often the row beat the column (ties count half; 0 where they never met)"
        ),
    )
    if plot is not None:
        sections.append(section("Win probabilities", plot))
    return tables_document("Leaderboard", board.family, board_report(board), sections=sections)
