"""The mean and pooled rows of assay.meta's results are marked by ``aggregate``, not by a
query or topic id: a query or topic named ``all`` stays a query like any other."""

from __future__ import annotations

from assay import Run, meta
from assay.data import Qrels
from support.cli import invoke

IDS = ["all", "all", "t2", "t2"]
A = Run.from_columns(IDS, ["a", "b", "c", "d"], [2.0, 1.0, 2.0, 1.0], name="A")
B = Run.from_columns(IDS, ["b", "a", "c", "d"], [2.0, 1.0, 2.0, 1.0], name="B")


def _kinds(rows: list[dict], id_field: str) -> list[tuple[object, object]]:
    return [(r[id_field], r["aggregate"]) for r in rows]


def test_rbo_runs_mean_row_is_not_query_all() -> None:
    rows = meta.rbo_runs(A, B).records()
    assert _kinds(rows, "query") == [("all", None), ("t2", None), (None, "mean")]


def test_per_topic_repro_mean_row_is_not_topic_all() -> None:
    rows = meta.ktau_union(A, B).records()
    assert _kinds(rows, "topic") == [("all", None), ("t2", None), (None, "mean")]


def test_assessor_pooled_row_is_not_topic_all() -> None:
    a = Qrels.from_columns(IDS, ["a", "b", "c", "d"], [1, 0, 1, 0])
    b = Qrels.from_columns(IDS, ["a", "b", "c", "d"], [1, 1, 1, 0])
    topics = [r for r in meta.assessor_agreement(a, b).records() if r["kind"] == "topic"]
    assert _kinds(topics, "topic") == [("all", None), ("t2", None), (None, "pooled")]


def test_cli_rbo_tsv_has_the_aggregate_column(tmp_path) -> None:
    A.to_trec(tmp_path / "a")
    B.to_trec(tmp_path / "b")
    code, out, _ = invoke("meta", "rbo", tmp_path / "a", tmp_path / "b", "--per-query", "-f", "tsv")
    assert code == 0
    lines = [line.split("\t") for line in out.splitlines()]
    col = lines[0].index("query"), lines[0].index("aggregate")
    assert [(row[col[0]], row[col[1]]) for row in lines[1:]] == [
        ("all", ""),
        ("t2", ""),
        ("", "mean"),
    ]
