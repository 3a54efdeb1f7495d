"""assay.clustering and the ``assay cluster`` command.

Oracles: the worked example of Manning, Raghavan & Schütze (2008) §16.3; scikit-learn's
``sklearn.metrics.cluster`` on random inputs; slow per-item / per-pair references written here
from the definitions (B-Cubed: Bagga & Baldwin 1998, Amigó et al. 2009; nmPU/niPU: Kawahara,
Peterson & Palmer 2014; pairwise over pair sets); the hand examples of Watset's own tests
(nlpub/watset-java, NormalizedModifiedPurityTest and PairwiseTest).
"""

from __future__ import annotations

import gzip
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assay import clustering as C
from assay.errors import EmptyInputError, InputError, MetricError
from support.cli import invoke
from support.examples import MRS_GOLD, MRS_PRED
from support.process import run_python

# ---------------------------------------------------------------- Manning et al. (2008) §16.3


# ---------------------------------------------------------------- scikit-learn, random inputs


def test_large_n_pair_counts_exact() -> None:
    # Pair counts are Python ints: no overflow in ARI's products at n = 2e6.
    n = 2_000_000
    g = np.arange(n) % 3
    p = np.arange(n) % 4
    c = C.pair_counts(g, p)
    assert sum(c) == n * (n - 1) // 2
    assert -1 <= C.adjusted_rand_index(g, p) <= 1


# ---------------------------------------------------------------- slow references


# ---------------------------------------------------------------- invariances and bounds


def test_edge_conventions() -> None:
    assert C.rand_index([0], [5]) == 1.0
    assert C.adjusted_rand_index([0], [5]) == 1.0
    assert C.pair_counts([0], [5]) == (0, 0, 0, 0)
    assert C.nmi([0, 0, 0], [1, 1, 1]) == 1.0
    assert C.nmi([0, 0, 0], [0, 1, 2]) == 0.0
    assert C.ami([0, 0, 0], [0, 1, 2]) == 0.0
    assert C.pairwise_precision([0, 0, 1], [0, 1, 2]) == 0.0
    assert math.isnan(C.pairwise_precision([0, 0, 1], [0, 1, 2], zero_division=math.nan))
    # pred all singletons: nmPU 0 (no credit), purity 1
    assert C.purity([0, 0, 1], [0, 1, 2]) == 1.0
    assert C.nmpu([{0, 1}, {2}], [{0}, {1}, {2}]) == 0.0
    # mixed, unorderable label types fall back to hashing
    assert C.adjusted_rand_index([1, "a", 1, "a"], ["x", 2, "x", 2]) == 1.0
    # NumPy alone would make [1, "1"] two equal strings
    assert C.pair_counts([1, "1"], [0, 0]) == (0, 1, 0, 0)
    # items present in only one soft clustering count in that clustering's N
    assert C.nipu([{"a", "b"}, {"c", "d"}], [{"a", "b"}]) == 0.5
    assert C.nmpu([{"a", "b"}], [{"a", "b"}, {"c", "d"}]) == 0.5


def test_errors() -> None:
    with pytest.raises(InputError, match="same items"):
        C.purity([0, 1], [0])
    with pytest.raises(EmptyInputError):
        C.nmi([], [])
    with pytest.raises(InputError, match="NaN"):
        C.purity([0.0, math.nan], [0, 1])
    with pytest.raises(InputError, match="None"):
        C.purity(["a", None], [0, 1])
    with pytest.raises(InputError, match=r"gold\[1\] is nan"):
        C.purity(["a", math.nan], [0, 1])
    with pytest.raises(InputError, match="one-dimensional"):
        C.purity([[0, 1], [1, 0]], [[0, 1], [1, 0]])
    with pytest.raises(InputError, match="string"):
        C.purity("aab", "abb")
    with pytest.raises(MetricError):
        C.nmi([0, 1], [0, 1], average_method="harmonic")
    with pytest.raises(MetricError):
        C.pairwise_f([0, 1], [0, 1], beta=-1)
    with pytest.raises(InputError, match="> 0"):
        C.nmpu([{"a": 1}], [{"a": 0}])
    with pytest.raises(InputError, match="> 0"):
        C.nmpu([{"a": 1}], [{"a": math.inf}])
    with pytest.raises(InputError, match="not a number"):
        C.nmpu([{"a": 1}], [{"a": "x"}])
    with pytest.raises(InputError, match="not a cluster"):
        C.nmpu(["ab", "cd"], [{"a", "b"}])
    with pytest.raises(InputError, match="list of clusters"):
        C.nmpu({"a": 1}, [{"a"}])
    with pytest.raises(EmptyInputError):
        C.nipu([set()], [{"a"}])
    with pytest.raises(InputError, match="None"):
        C.nmpu([{"a", None}], [{"a"}])


# ---------------------------------------------------------------- CLI


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
    return {m: float(v) for m, v in (line.split("\t") for line in text.splitlines())}


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
