"""Diversity measures: assay vs pyndeval (ndeval.c) side by side, at 1e5 and 1e6 run rows.

The collection is assay's seeded synthetic one (``assay.datasets.synthetic``: graded qrels
and a run of 100 documents per query); each judged document is spread over 1-3 of 6
subtopics (seeded), its grade kept. Both compute ndeval's 21 default values (ERR-IA, nERR-IA,
alpha-DCG, alpha-nDCG @5/10/20, NRBP, nNRBP, MAP-IA, P-IA and strec @5/10/20) per query, from
in-memory rows: pyndeval from its tuples, assay from ``Qrels.from_subtopics`` /
``Run.from_columns`` (building them is timed; the evaluation alone, from built objects, is
shown too). Wall time, median of ``--repeat`` runs after a
warm-up; the per-query values are checked equal.

    python benchmarks/bench_diversity.py [--repeat 3]

``--files``: whole processes from files instead, ``assay ndeval QRELS RUN`` against the ndeval
4.5 binary (``--ndeval``, else ``$ASSAY_NDEVAL``; ``make .ndeval/ndeval`` builds it). Seeded
synthetic files with ``--sizes`` run rows: numeric topics (ndeval reads natural numbers only),
100 results per topic with distinct ranks (ndeval sorts by the rank column itself, so the
file's order is free; it is shuffled within each topic here), 60 judged documents per topic,
40 of them retrieved, each judged for 1-3 of 6 subtopics with judgments 0-2 (ndeval counts
2 as 1). Each command runs in its own process writing to a file (imports and reading
included); the figures are the median wall time and the peak RSS of the child, ``same``
whether assay printed ndeval's bytes.

    python benchmarks/bench_diversity.py --files --sizes 1e5 1e6 --repeat 3 \\
        --ndeval .ndeval/ndeval
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import assay
from _child import measure_in_turn
from assay import Qrels, Run

PEER = [
    "ERR-IA@5", "ERR-IA@10", "ERR-IA@20", "nERR-IA@5", "nERR-IA@10", "nERR-IA@20",
    "alpha-DCG@5", "alpha-DCG@10", "alpha-DCG@20", "alpha-nDCG@5", "alpha-nDCG@10",
    "alpha-nDCG@20", "NRBP", "nNRBP", "MAP-IA", "P-IA@5", "P-IA@10", "P-IA@20",
    "strec@5", "strec@10", "strec@20",
]  # fmt: off


def _names() -> list[str]:
    out = []
    for m in PEER:
        m = m.replace("nERR-IA", "nerr_ia").replace("ERR-IA", "err_ia")
        m = m.replace("alpha-nDCG", "alpha_ndcg").replace("alpha-DCG", "alpha_dcg")
        m = m.replace("nNRBP", "nnrbp").replace("NRBP", "nrbp").replace("MAP-IA", "map_ia")
        out.append(m.replace("P-IA", "p_ia"))
    return out


def make(n_rows: int, seed: int = 0) -> tuple[list[tuple], list[tuple]]:
    n_queries = n_rows // 100
    qrels, runs = assay.datasets.synthetic(
        n_queries=n_queries, docs_per_query=100, noise=(0.7,), run_names=("r",), seed=seed
    )
    rng = np.random.default_rng(seed)
    qrows = []
    for q, d, g in qrels:
        for s in sorted(rng.choice(6, size=int(rng.integers(1, 4)), replace=False)):
            qrows.append((q, str(int(s) + 1), d, int(g)))
    qrows.sort(key=lambda r: int(r[1]))  # pyndeval numbers subtopics by first appearance
    t = runs["r"].to_arrow()
    rows = zip(t["query"].to_pylist(), t["doc"].to_pylist(), t["score"].to_pylist(), strict=True)
    rrows = sorted(rows, key=lambda r: (r[0], r[1]))  # pyndeval: ties by docno ascending
    return qrows, [(q, d, float(s)) for q, d, s in rrows]


def _columns(rows: list[tuple], width: int) -> list[list]:
    # One list per field. zip(*rows) would build tuples of millions of items, which the
    # garbage collector walks again and again (7 s instead of 1 s at 1e6 rows).
    return [[row[i] for row in rows] for i in range(width)]


def build(qrows: list[tuple], rrows: list[tuple]) -> tuple[Qrels, Run]:
    qrels = Qrels.from_subtopics(*_columns(qrows, 4))
    run = Run.from_columns(*_columns(rrows, 3), name="r")
    return qrels, run


def run_assay(qrows: list[tuple], rrows: list[tuple]) -> dict[str, dict[str, float]]:
    return evaluate(*build(qrows, rrows))


def evaluate(qrels: Qrels, run: Run) -> dict[str, dict[str, float]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = assay.evaluate(qrels, run, _names(), ties="input", missing="skip")
    return {n: res.per_query("r", n) for n in _names()}


def run_pyndeval(qrows: list[tuple], rrows: list[tuple]) -> dict[str, dict[str, float]]:
    import pyndeval

    return pyndeval.ndeval(qrows, rrows, measures=PEER)


def _time(fn, *args, repeat: int):
    fn(*args)
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args)
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


DOCS = 100  # results per topic


def make_files(folder: Path, rows: int, seed: int = 0) -> tuple[Path, Path]:
    """A subtopic qrels file and a run file with ``rows`` rows (see the module docstring)."""
    rng = np.random.default_rng(seed)
    n_topics = max(rows // DOCS, 1)
    qrels, run = folder / "qrels", folder / "run"
    with qrels.open("w") as fq, run.open("w") as fr:
        for t in range(1, n_topics + 1):
            order = rng.permutation(DOCS)  # file order differs from rank order
            scores = np.sort(np.round(rng.random(DOCS), 4))[::-1]
            fr.writelines(f"{t} Q0 d{d} {d + 1} {scores[d]:.4f} r\n" for d in order.tolist())
            judged = [*rng.choice(DOCS, 40, replace=False).tolist(), *range(DOCS, DOCS + 20)]
            for d in judged:
                subs = np.sort(rng.choice(6, int(rng.integers(1, 4)), replace=False)) + 1
                grades = rng.integers(0, 3, len(subs))
                fq.writelines(
                    f"{t} {s} d{d} {g}\n"
                    for s, g in zip(subs.tolist(), grades.tolist(), strict=True)
                )
    return qrels, run


def main_files(ndeval: str, sizes: list[float], repeat: int) -> None:
    print("| run rows | qrels rows | tool | wall s (median) | peak RSS MB | wall / ndeval | same |")
    print("|---:|---:|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for size in sizes:
            rows = int(size)
            qrels, run = make_files(folder, rows)
            with qrels.open("rb") as fh:
                n_qrels = sum(1 for _ in fh)
            tools = {
                "ndeval 4.5": [ndeval, str(qrels), str(run)],
                "assay ndeval": [sys.executable, "-m", "assay", "ndeval", str(qrels), str(run)],
            }
            measured = measure_in_turn(tools, folder, repeat)
            ref, _, want = measured["ndeval 4.5"]
            for name, (wall, peak, printed) in measured.items():
                same = "yes" if printed == want else "no"
                print(
                    f"| {rows:,} | {n_qrels:,} | {name} | {wall:.2f} | {peak:.0f} "
                    f"| {wall / ref:.2f} | {same} |",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--files", action="store_true", help="whole processes from files")
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e5, 1e6])
    parser.add_argument("--ndeval", default=os.environ.get("ASSAY_NDEVAL"))
    args = parser.parse_args()
    if args.files:
        if not args.ndeval:
            sys.exit("no ndeval: give --ndeval or set $ASSAY_NDEVAL (make .ndeval/ndeval)")
        main_files(args.ndeval, args.sizes, args.repeat)
        return
    print("| run rows | qrels rows | assay from rows (s) | of which evaluate (s) | pyndeval (s) "
          "| pyndeval / assay |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|")
    for n in (100_000, 1_000_000):
        qrows, rrows = make(n)
        t_ours, ours = _time(run_assay, qrows, rrows, repeat=args.repeat)
        t_eval, _ = _time(evaluate, *build(qrows, rrows), repeat=args.repeat)
        t_peer, theirs = _time(run_pyndeval, qrows, rrows, repeat=args.repeat)
        for ours_name, peer_name in zip(_names(), PEER, strict=True):
            for q, values in theirs.items():
                assert ours[ours_name][q] == values[peer_name], (ours_name, q)
        ratio = t_peer / t_ours
        print(
            f"| {n:,} | {len(qrows):,} | {t_ours:.2f} | {t_eval:.2f} | {t_peer:.2f} | {ratio:.2f}x |"
        )


if __name__ == "__main__":
    main()
