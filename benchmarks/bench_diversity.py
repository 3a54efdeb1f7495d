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
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np

import assay
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


def build(qrows: list[tuple], rrows: list[tuple]) -> tuple[Qrels, Run]:
    qrels = Qrels.from_subtopics(*(list(c) for c in zip(*qrows, strict=True)))
    run = Run.from_columns(*(list(c) for c in zip(*rrows, strict=True)), name="r")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
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
