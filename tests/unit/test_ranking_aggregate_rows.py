"""Aggregate rows are marked by the ``aggregate`` field, never by a query id: a query named
``all`` (or ``mean``, or the empty-looking ones) is a query like any other, in records,
pandas, Arrow and every record format of ``assay evaluate``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from assay import Qrels, Run, evaluate
from support.cli import invoke, tsv_rows

QRELS = {"all": {"d1": 1, "d2": 0}, "q2": {"d3": 1}}
RUN = {"all": {"d1": 2.0, "d2": 1.0}, "q2": {"d4": 2.0, "d3": 1.0}}


def _results():
    return evaluate(Qrels.from_dict(QRELS), {"r": Run.from_dict(RUN)}, ["RR", "num_ret"])


def test_records_mark_aggregates_by_field_not_id() -> None:
    rows = _results().records(per_query=True)
    per_query = [x for x in rows if x["aggregate"] is None]
    aggregates = [x for x in rows if x["aggregate"] is not None]
    assert [(x["metric"], x["query"], x["value"]) for x in per_query] == [
        ("RR", "all", 1.0),
        ("RR", "q2", 0.5),
        ("num_ret", "all", 2),
        ("num_ret", "q2", 2),
    ]
    assert [(x["metric"], x["query"], x["aggregate"]) for x in aggregates] == [
        ("RR", None, "mean"),
        ("num_ret", None, "sum"),
    ]


def test_pandas_and_arrow_keep_a_query_named_all() -> None:
    pytest.importorskip("pandas")
    res = _results()
    frame = res.to_pandas()
    assert sorted(frame["query"][frame["metric"] == "RR"]) == ["all", "q2"]
    assert frame["aggregate"].isna().all()
    table = res.to_arrow()
    assert table.num_rows == 4 and table.column("query").null_count == 0
    means = res.to_arrow(per_query=False)
    assert means.column("query").null_count == means.num_rows == 2
    assert means.column("aggregate").to_pylist() == ["mean", "sum"]


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("all 0 d1 1\nall 0 d2 0\nq2 0 d3 1\n")
    run.write_text("all Q0 d1 1 2.0 t\nall Q0 d2 2 1.0 t\nq2 Q0 d4 1 2.0 t\nq2 Q0 d3 2 1.0 t\n")
    return qrels, run


def test_cli_formats_tell_query_all_from_the_aggregate(files: tuple[Path, Path]) -> None:
    qrels, run = files
    code, out, _ = invoke("evaluate", qrels, run, "-m", "RR", "-q", "-f", "tsv")
    assert code == 0
    assert [r[2:] for r in tsv_rows(out)] == [("all", "1.0"), ("q2", "0.5"), ("", "0.75")]
    code, out, _ = invoke("evaluate", qrels, run, "-m", "RR", "-q", "-f", "csv")
    assert [r[2:] for r in csv.reader(io.StringIO(out))] == [
        ["query", "value", "aggregate"],
        ["all", "1.0", ""],
        ["q2", "0.5", ""],
        ["", "0.75", "mean"],
    ]
    for fmt in ("jsonl", "json"):
        code, out, _ = invoke("evaluate", qrels, run, "-m", "RR", "-q", "-f", fmt)
        objs = [json.loads(x) for x in out.splitlines()] if fmt == "jsonl" else json.loads(out)
        objs = objs if fmt == "jsonl" else objs["results"]
        assert [(o["query"], o["aggregate"]) for o in objs] == [
            ("all", None),
            ("q2", None),
            (None, "mean"),
        ]
