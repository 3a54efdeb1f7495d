"""``assay ndeval`` against the real ndeval binary (4.5, compiled from pyndeval's source):
the same CSV text, byte for byte, on the shared trec_eval inputs turned into subtopic qrels and
on seeded random collections, with every option: ``-c``, ``-M``, ``-traditional``, ``-alpha``,
``-beta`` and risk mode (``-baseline``, ``-riskAlpha``).

The qrels include judgments above 1, a topic whose subtopics have no positive judgment (ndeval
prints nan for its nNRBP), qrels topics without results and run topics without judgments.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import shared_file
from support.cli import invoke
from support.ndeval import build_ndeval


@pytest.fixture(scope="module")
def ndeval(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_ndeval(tmp_path_factory.mktemp("ndeval"))


def _subtopic_qrels(path: Path, out: Path, seed: int) -> None:
    """The topic-level qrels as subtopic qrels: each judgment spread over 1-3 of 4 subtopics
    with grades 0-3, plus a topic judged 0 everywhere."""
    rng = np.random.default_rng(seed)
    lines = []
    for line in path.read_text().splitlines():
        topic, _, doc, grade = line.split()
        for sub in sorted(rng.choice(4, size=int(rng.integers(1, 4)), replace=False)):
            g = int(grade) * int(rng.integers(0, 4)) if rng.random() < 0.8 else 0
            lines.append(f"{topic} {sub + 1} {doc} {g}")
    lines += [f"999 {s} zero-doc-{i} 0" for s in (1, 2) for i in range(3)]
    out.write_text("\n".join(lines) + "\n")


def _random_case(folder: Path, seed: int) -> tuple[Path, Path, Path]:
    """Random subtopic qrels, a run (topics with a task prefix, tied scores, ranks that
    disagree with the scores) and a baseline over partly other topics."""
    rng = np.random.default_rng(seed)
    qrels, runs = [], {"run": [], "base": []}
    for topic in range(1, 9):
        docs = [f"D{int(x)}" for x in rng.choice(60, size=25, replace=False)]
        for doc in docs:
            for sub in range(1, int(rng.integers(2, 6))):
                if rng.random() < 0.4:
                    qrels.append(f"{topic} {sub} {doc} {int(rng.integers(0, 3))}")
        for name in runs:
            if rng.random() < 0.2:
                continue
            ranked = list(rng.choice(docs + [f"X{i}" for i in range(10)], size=30, replace=False))
            ranks = rng.permutation(len(ranked)) + 1
            for doc, rank in zip(ranked, ranks, strict=True):
                score = float(rng.integers(0, 8))
                runs[name].append(f"wt{topic}-{topic} Q0 {doc} {rank} {score} {name}-{seed}")
    runs["run"].append("wt-77 Q0 D1 1 1.0 run")  # a run topic without judgments
    qrels += ["90 1 Z1 0", "90 2 Z2 0"]  # no positive judgment: ndeval's nNRBP is 0/0
    runs["run"].append("90 Q0 Z1 1 1.0 run")
    qpath, rpath, bpath = folder / f"q{seed}", folder / f"r{seed}", folder / f"b{seed}"
    qpath.write_text("\n".join(qrels or ["1 1 D0 1"]) + "\n")
    rpath.write_text("\n".join(runs["run"]) + "\n")
    bpath.write_text("\n".join(runs["base"] or ["1 Q0 D0 1 1.0 b"]) + "\n")
    return qpath, rpath, bpath


OPTIONS = [
    [],
    ["-c"],
    ["-M", "7"],
    ["-traditional"],
    ["-alpha", "0.3", "-beta", "0.8"],
    ["-alpha", "1", "-beta", "0", "-c"],
    ["-traditional", "-M", "12", "-c"],
]


def _same(ndeval: Path, args: list[str]) -> None:
    expected = subprocess.run([str(ndeval), *args], capture_output=True, check=True).stdout
    code, out, err = invoke("ndeval", *args)
    assert code == 0, err
    assert out == expected.decode(), args


@pytest.mark.parametrize("options", OPTIONS, ids=" ".join)
def test_shared_inputs(ndeval: Path, tmp_path: Path, options: list[str]) -> None:
    qrels = tmp_path / "qrels.div"
    _subtopic_qrels(shared_file("trec_eval", "qrels.test"), qrels, seed=7)
    run = shared_file("trec_eval", "results.test")
    _same(ndeval, [*options, str(qrels), str(run)])


def test_shared_inputs_risk_mode(ndeval: Path, tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.div"
    _subtopic_qrels(shared_file("trec_eval", "qrels.test"), qrels, seed=8)
    run = shared_file("trec_eval", "results.test")
    base = shared_file("trec_eval", "results.trunc")
    _same(ndeval, ["-baseline", str(base), "-riskAlpha", "2", str(qrels), str(run)])
    _same(ndeval, ["-c", "-baseline", str(base), str(qrels), str(run)])


@pytest.mark.parametrize("seed", range(12))
def test_random_collections(ndeval: Path, tmp_path: Path, seed: int) -> None:
    qrels, run, base = _random_case(tmp_path, seed)
    options = OPTIONS[seed % len(OPTIONS)]
    _same(ndeval, [*options, str(qrels), str(run)])
    risk = ["-baseline", str(base), "-riskAlpha", str(seed % 3)]
    _same(ndeval, [*risk, *(["-c"] if seed % 2 else []), str(qrels), str(run)])
