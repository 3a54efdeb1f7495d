"""``assay cluster`` in process: hard and soft layouts, every format, stdin and gzip,
one-line errors naming file and line."""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from assay import clustering as C
from support.cli import invoke
from support.examples import MRS_GOLD, MRS_PRED
from support.process import run_python


def cli(*args: str | Path, input: str | None = None) -> tuple[int, str, str]:
    return invoke("cluster", *args, input=input)


def write_labels(path: Path, labels: list[Any], prefix: str = "item") -> Path:
    path.write_text("".join(f"{prefix}{i}\t{lab}\n" for i, lab in enumerate(labels)))
    return path


def write_clusters(path: Path, labels: list[Any], prefix: str = "item") -> Path:
    groups: dict[Any, list[str]] = defaultdict(list)
    for i, lab in enumerate(labels):
        groups[lab].append(f"{prefix}{i}")
    path.write_text("".join(" ".join(g) + "\n" for g in groups.values()))
    return path


def tsv(text: str) -> dict[str, float]:
    lines = text.splitlines()
    assert lines[0] == "metric\tvalue"
    return {m: float(v) for m, v in (line.split("\t") for line in lines[1:])}


@pytest.mark.parametrize(
    "layouts", [("labels", "labels"), ("clusters", "clusters"), ("labels", "clusters")]
)
def test_cli_hard_layouts(tmp_path: Path, layouts: tuple[str, str]) -> None:
    writers = {"labels": write_labels, "clusters": write_clusters}
    g = writers[layouts[0]](tmp_path / "gold.txt", MRS_GOLD)
    p = writers[layouts[1]](tmp_path / "pred.txt", MRS_PRED)
    code, out, err = cli(g, p)  # not a terminal: tsv
    assert code == 0, err
    vals = tsv(out)
    assert vals["items"] == 17 and vals["pair_tp"] == 20 and vals["pair_tn"] == 72
    expected = C.hard_report(MRS_GOLD, MRS_PRED)
    for k, v in expected.items():
        assert vals[k] == pytest.approx(v, abs=1e-15), k


def test_cli_formats(tmp_path: Path) -> None:
    g = write_labels(tmp_path / "g.tsv", MRS_GOLD)
    p = write_clusters(tmp_path / "p.txt", MRS_PRED)
    expected = C.hard_report(MRS_GOLD, MRS_PRED)
    _, out, _ = cli(g, p, "-f", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert {r["metric"]: r["value"] for r in rows} == pytest.approx(expected)
    assert rows[0] == {"metric": "items", "value": 17}
    _, out, _ = cli(g, p, "--format", "json")
    doc = json.loads(out)
    assert doc["kind"] == "hard" and doc["gold"]["layout"] == "labels"
    assert doc["pred"]["layout"] == "clusters" and len(doc["results"]) == len(expected)
    _, out, _ = cli(g, p, "-f", "csv")
    lines = out.splitlines()
    assert lines[0] == "metric,value" and lines[1] == "items,17"
    _, out, _ = cli(g, p, "-f", "markdown")
    assert "| purity | 0.7059 |" in out
    _, out, _ = cli(g, p, "-f", "latex")
    assert "adjusted\\_rand\\_index & 0.2429 \\\\" in out and out.startswith("\\begin{tabular}")
    code, out, _ = cli(g, p, "-f", "table")
    assert code == 0 and "0.6765" in out and "rand_index" in out


def test_cli_soft(tmp_path: Path) -> None:
    gold = tmp_path / "gold.txt"
    gold.write_text("bank riverbank streambank streamside\nbank building bank_building\n")
    pred = tmp_path / "pred.txt"
    pred.write_text("bank\n\nbank building\nriverbank streambank streamside\nbank_building\n")
    code, out, err = cli(gold, pred, "-f", "tsv")
    assert code == 0, err
    vals = tsv(out)
    assert vals["nmpu"] == pytest.approx(0.75) and vals["nipu"] == pytest.approx(0.75)
    assert vals["pairwise_precision"] == 1.0
    assert "ami" not in vals
    # weights and the labels layout with an item on two lines
    gold2 = tmp_path / "gold2.tsv"
    gold2.write_text("a\tG1\nb\tG1\nc\tG1\nc\tG2\nd\tG2\n")
    pred2 = tmp_path / "pred2.txt"
    pred2.write_text("a:1 c:3\nc d\nb:2\n")
    code, out, err = cli(gold2, pred2)
    assert code == 0, err
    vals = tsv(out)
    assert vals["nmpu"] == pytest.approx(0.75) and vals["nipu"] == pytest.approx(0.75)


def test_cli_different_items_warns(tmp_path: Path) -> None:
    g = write_labels(tmp_path / "g.tsv", [0, 0, 1, 1])
    p = write_labels(tmp_path / "p.tsv", [0, 0, 1])
    code, out, err = cli(g, p)
    assert code == 0
    assert "warning" in err and "1 item(s) only in" in err
    assert "nmpu" in tsv(out) and "ami" not in tsv(out)


def test_cli_stdin_and_gzip(tmp_path: Path) -> None:
    g = tmp_path / "g.tsv.gz"
    with gzip.open(g, "wt") as fh:
        fh.write("".join(f"i{k}\t{lab}\n" for k, lab in enumerate(MRS_GOLD)))
    text = write_labels(tmp_path / "p.tsv", MRS_PRED, prefix="i").read_text()
    code, out, err = cli(g, "-", input=text)
    assert code == 0, err
    assert tsv(out)["purity"] == pytest.approx(12 / 17)


@pytest.mark.parametrize(
    "content,message",
    [
        ("a\t1\nb\t1\tx\n", "p.txt:2: expected item<TAB>cluster"),
        ("a\t1\na\t1\n", "p.txt:2: item 'a' is in cluster '1' twice"),
        ("a b a\n", "p.txt:1: item 'a' appears twice"),
        ("a:-1 b\n", "p.txt:1: item 'a' has weight -1"),
        ("\n\n", "p.txt: no cluster"),
        (b"\xff\xfe\n", "p.txt:1: not valid UTF-8"),
    ],
)
def test_cli_bad_file(tmp_path: Path, content: str | bytes, message: str) -> None:
    g = write_labels(tmp_path / "g.tsv", [0, 1])
    p = tmp_path / "p.txt"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content)
    code, out, err = cli(g, p)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("assay: error: ")
    assert message in lines[0]


def test_cli_missing_file_and_double_stdin(tmp_path: Path) -> None:
    code, _, err = cli(tmp_path / "nope.txt", tmp_path / "nope2.txt")
    assert code == 2 and len(err.splitlines()) == 1 and "nope.txt" in err
    code, _, err = cli("-", "-", input="a b\n")
    assert code == 2 and "stdin" in err


def test_cli_module_import_is_light() -> None:
    code = (
        "import sys, assay.cli.cluster; "
        "print(sorted(m for m in ('numpy', 'scipy', 'assay.clustering') if m in sys.modules))"
    )
    assert run_python(code).stdout.strip() == "[]"
