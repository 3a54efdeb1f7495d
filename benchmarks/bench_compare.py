"""Comparing systems: assay.compare vs ranx.compare on the same runs.

10 runs x 5 metrics x 6,980 queries (100 documents each), all 45 pairs, 10,000 resamples of
the paired randomization (Fisher) test. Each tool runs in its own subprocess: reading the
files is timed separately from the comparison (evaluation + tests + correction).

    python benchmarks/bench_compare.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "compare"
N_RUNS, N_QUERIES, DEPTH = 10, 6_980, 100


def make_data() -> tuple[Path, list[Path]]:
    import assay

    DATA.mkdir(parents=True, exist_ok=True)
    qrels_path = DATA / "qrels.txt"
    paths = [DATA / f"run{i:02d}.txt" for i in range(N_RUNS)]
    if qrels_path.exists() and all(p.exists() for p in paths):
        return qrels_path, paths
    noise = [0.8 + 0.05 * i for i in range(N_RUNS)]  # close systems: a realistic mix of p-values
    qrels, runs = assay.datasets.synthetic(
        n_queries=N_QUERIES, docs_per_query=DEPTH, noise=noise, judged_fraction=0.3, seed=2026
    )
    qrels.to_trec(qrels_path)
    for p, run in zip(paths, runs.values(), strict=True):
        run.to_trec(p)
    return qrels_path, paths


ASSAY = """
import json, sys, time
import assay
t = time.perf_counter()
qrels = assay.Qrels.from_trec(sys.argv[1])
runs = [assay.Run.from_trec(p) for p in sys.argv[2:]]
load = time.perf_counter() - t
t = time.perf_counter()
cmp = assay.compare(qrels, runs, ["map", "ndcg@10", "RR@10", "P@10", "R@100"],
                    test="randomization", n_resamples=10000, seed=0, correction="holm",
                    ci="percentile")
sec = time.perf_counter() - t
sig = sum(p.significant for p in cmp.pairs)
print(json.dumps({"load": load, "compare": sec, "significant": sig, "tests": len(cmp.pairs)}))
"""

RANX = """
import json, sys, time
from ranx import Qrels, Run, compare
t = time.perf_counter()
qrels = Qrels.from_file(sys.argv[1], kind="trec")
runs = []
for p in sys.argv[2:]:
    r = Run.from_file(p, kind="trec"); r.name = p.rsplit("/", 1)[-1]; runs.append(r)
load = time.perf_counter() - t
t = time.perf_counter()
report = compare(qrels, runs, ["map", "ndcg@10", "mrr@10", "precision@10", "recall@100"],
                 stat_test="fisher", n_permutations=10000, max_p=0.05, random_seed=0)
sec = time.perf_counter() - t
print(json.dumps({"load": load, "compare": sec}))
"""


def run_tool(code: str, qrels: Path, runs: list[Path]) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", code, str(qrels), *map(str, runs)],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise RuntimeError(out.stderr.strip().splitlines()[-1])
    info: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return info


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tools", nargs="+", default=["assay", "ranx"])
    args = ap.parse_args()
    qrels, paths = make_data()
    codes = {"assay": ASSAY, "ranx": RANX}
    samples: dict[str, list[dict[str, float]]] = {t: [] for t in args.tools}
    for _ in range(args.runs):
        for t in args.tools:
            samples[t].append(run_tool(codes[t], qrels, paths))
    print(
        f"# {N_RUNS} runs x 5 metrics x {N_QUERIES:,} queries ({DEPTH} docs each), all pairs, "
        f"10,000 resamples; Python {sys.version.split()[0]}"
    )
    print("| tool | compare s (median) | min-max | load s (median) | ratio to assay |")
    print("|---|---:|---:|---:|---:|")
    base = statistics.median(s["compare"] for s in samples["assay"]) if "assay" in samples else None
    for t in args.tools:
        c = [s["compare"] for s in samples[t]]
        ld = statistics.median(s["load"] for s in samples[t])
        ratio = f"{statistics.median(c) / base:.2f}" if base else "-"
        print(
            f"| {t} | {statistics.median(c):.2f} | {min(c):.2f}-{max(c):.2f} | {ld:.2f} | {ratio} |"
        )
    if "assay" in samples:
        s = samples["assay"][-1]
        print(f"\nassay: {s['significant']} of {s['tests']} comparisons significant after Holm.")


if __name__ == "__main__":
    main()
