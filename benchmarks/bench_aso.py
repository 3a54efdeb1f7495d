"""Almost Stochastic Order: ``assay.stats.aso`` vs deepsig's ``aso``, side by side.

Two seeded samples of ``--n`` scores each (normal, means 0.502 and 0.500, sd 0.05), the same
settings for both tools (confidence 0.95, ``--iterations`` bootstrap iterations, dt 0.005,
seed 0; deepsig with one job and no progress bar). Each tool runs in its own subprocess, in
turn; "call s" times the call only (after the imports), "wall" the whole process. Medians of
``--runs`` runs; the ratio is deepsig's call time over assay's. Both print ε_min: they agree
to rounding (same draws, same estimator).

    python benchmarks/bench_aso.py                       # 1,000 vs 1,000 scores, 1,000 iterations
    python benchmarks/bench_aso.py --n 200 --runs 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CHILD = """
import json, sys, time, warnings
import numpy as np
tool, n, iterations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(42)
a, b = rng.normal(0.502, 0.05, n), rng.normal(0.50, 0.05, n)
if tool == "assay":
    from assay.stats import aso
    aso([0.1, 0.2], [0.3], num_bootstrap_iterations=2)  # load scipy.special once
    t = time.perf_counter()
    eps = aso(a, b, num_bootstrap_iterations=iterations, seed=0).statistic
else:
    warnings.simplefilter("ignore")
    from deepsig import aso
    t = time.perf_counter()
    eps = aso(a, b, num_bootstrap_iterations=iterations, seed=0, num_jobs=1, show_progress=False)
print(json.dumps({"call_s": time.perf_counter() - t, "eps_min": float(eps)}))
"""


def run(tool: str, n: int, iterations: int) -> dict[str, float]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, tool, str(n), str(iterations)],
        capture_output=True,
        text=True,
    )
    if proc.returncode:
        raise SystemExit(f"{tool} failed: {proc.stderr.strip()[-500:]}")
    out: dict[str, float] = json.loads(proc.stdout)
    out["wall_s"] = time.perf_counter() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="scores per sample")
    parser.add_argument("--iterations", type=int, default=1000, help="bootstrap iterations")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"assay": [], "deepsig": []}
    for _ in range(args.runs):
        for tool, rows in results.items():
            rows.append(run(tool, args.n, args.iterations))
    base = statistics.median(r["call_s"] for r in results["assay"])
    print(f"{args.n} vs {args.n} scores, {args.iterations} iterations, {args.runs} runs")
    print("| tool | call s (median) | min-max | wall s (median) | call / assay | eps_min |")
    print("|---|---:|---:|---:|---:|---:|")
    for tool, rows in results.items():
        calls = [r["call_s"] for r in rows]
        med = statistics.median(calls)
        print(
            f"| {tool} | {med:.3f} | {min(calls):.3f}-{max(calls):.3f} | "
            f"{statistics.median(r['wall_s'] for r in rows):.2f} | {med / base:.1f} | "
            f"{rows[0]['eps_min']:.12f} |"
        )


if __name__ == "__main__":
    main()
