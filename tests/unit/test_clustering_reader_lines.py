"""A clustering file of one cluster label per line (scikit-learn's ``labels_true``) is read
as labels of items numbered by line, not as one-item clusters (issue 25: ``assay cluster``
read 120 one-item clusters over 3 items)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.clustering import read_clustering
from assay.errors import OptionError, ParseError
from support.cli import assert_one_line_error, invoke

GOLD = ["a", "b", "a", "c", "b", "a", "c", "c"]
PRED = ["x", "x", "x", "y", "y", "x", "z", "z"]


def _write(tmp_path: Path, name: str, labels: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("".join(f"{x}\n" for x in labels))
    return path


def test_one_label_per_line_is_detected(tmp_path: Path) -> None:
    c = read_clustering(_write(tmp_path, "g.txt", GOLD))
    assert c.layout == "lines" and c.hard
    assert c.items == frozenset(str(i) for i in range(1, 9))
    assert c.clusters == [
        {"1": 1.0, "3": 1.0, "6": 1.0},
        {"2": 1.0, "5": 1.0},
        {"4": 1.0, "7": 1.0, "8": 1.0},
    ]


def test_layouts_said_and_checked(tmp_path: Path) -> None:
    distinct = _write(tmp_path, "d.txt", ["a", "b", "c"])
    assert read_clustering(distinct).layout == "clusters"  # one-item clusters: ambiguous
    assert read_clustering(distinct, layout="lines").items == frozenset({"1", "2", "3"})
    with pytest.raises(OptionError, match="layout"):
        read_clustering(distinct, layout="rows")  # type: ignore[arg-type]
    blank = tmp_path / "b.txt"
    blank.write_text("a\n\na\n")
    with pytest.raises(ParseError, match=r"b\.txt:2: blank line"):
        read_clustering(blank)
    # a real one-cluster-per-line file is unchanged
    real = tmp_path / "c.txt"
    real.write_text("a b\nc\n")
    assert read_clustering(real).layout == "clusters"


def test_cli_cluster_agrees_with_sklearn(tmp_path: Path) -> None:
    from sklearn.metrics import adjusted_rand_score

    gold, pred = _write(tmp_path, "g.txt", GOLD), _write(tmp_path, "p.txt", PRED)
    code, out, err = invoke("cluster", gold, pred, "-f", "jsonl")
    assert code == 0, err
    values = {d["metric"]: d["value"] for d in map(json.loads, out.splitlines())}
    assert values["items"] == 8 and values["gold_clusters"] == 3
    assert values["adjusted_rand_index"] == pytest.approx(adjusted_rand_score(GOLD, PRED))


def test_cli_partner_of_distinct_labels(tmp_path: Path) -> None:
    # every item in its own predicted cluster: read as labels too, not items 'p', 'q', ...
    gold = _write(tmp_path, "g.txt", ["a", "a", "b"])
    pred = _write(tmp_path, "p.txt", ["p", "q", "r"])
    code, out, err = invoke("cluster", gold, pred, "-f", "jsonl")
    assert code == 0 and err == "", err
    values = {d["metric"]: d["value"] for d in map(json.loads, out.splitlines())}
    assert values["items"] == 3 and values["pred_clusters"] == 3
    assert values["bcubed_precision"] == 1.0
    assert_one_line_error(*invoke("cluster", gold, pred, "--layout", "rows"), "layout")
