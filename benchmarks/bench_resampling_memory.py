"""Peak memory and time of assay's resampling procedures as n_resamples grows.

Every procedure runs in a fresh subprocess on seeded synthetic scores (50 queries x 5 runs,
as `assay compare` sees them); the figure is the child's peak resident set size
(``ru_maxrss``) and its wall time, including the interpreter and imports (the ``baseline`` row
imports the same modules and does nothing).

    python benchmarks/bench_resampling_memory.py --n-resamples 1000000
    python benchmarks/bench_resampling_memory.py --n-resamples 10000,1000000 --only compare_bca
    # before/after: another checkout's src first on the path, cases measured in turn
    python benchmarks/bench_resampling_memory.py --n-resamples 1000000 --before /tmp/old/src
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

SETUP = """
import numpy as np
import assay
from assay import stats
rng = np.random.default_rng(0)
N_Q, N_RUNS = 50, 5
scores = rng.beta(2, 5, size=(N_Q, N_RUNS))
B = {n}
"""

CASES = {
    "baseline": "pass",
    "randomization_test": "stats.randomization_test(scores[:, 0], scores[:, 1], n_resamples=B)",
    "randomization_user_stat": (
        "stats.randomization_test(scores[:, 0], scores[:, 1], np.median, n_resamples=B)"
    ),
    "bootstrap_ci": "stats.bootstrap_ci(scores[:, 0], n_resamples=B)",
    "bootstrap_ci_user_stat": "stats.bootstrap_ci(scores[:, 0], np.median, n_resamples=B)",
    "bootstrap_mean_ci": "stats.bootstrap_mean_ci(scores.T, n_resamples=B)",
    "paired_bootstrap_test": "stats.paired_bootstrap_test(scores[:, 0], scores[:, 1], n_resamples=B)",
    "paired_pvalues_bootstrap": (
        "stats.paired_pvalues(scores.T[1:] - scores.T[0], test='bootstrap', n_resamples=B)"
    ),
    "tukey_hsd": "stats.tukey_hsd(scores, n_resamples=B)",
    "stratified_shuffling": (
        "stats.stratified_shuffling_test(scores[:, 0], scores[:, 1], np.mean, n_resamples=B)"
    ),
    "compare_bca": """
queries = [f"q{i}" for i in range(N_Q)]
qrels = assay.Qrels.from_dict({q: {f"d{j}": int(j % 3 == 0) for j in range(20)} for q in queries})
runs = [
    assay.Run.from_dict(
        {q: {f"d{j}": float(rng.random()) for j in range(20)} for q in queries}, name=f"run{r}"
    )
    for r in range(N_RUNS)
]
assay.compare(qrels, runs, ["ndcg@10", "map"], n_resamples=B, seed=0)
""",
}


def measure_isolated(case: str, n: int, src: str | None = None) -> dict[str, float]:
    """Peak RSS of one child, read by a wrapper process (RUSAGE_CHILDREN is a running max)."""
    wrapper = (
        "import json, resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run([sys.executable, '-c', sys.argv[1]], capture_output=True, text=True)\n"
        "w = time.perf_counter() - t\n"
        "if p.returncode: sys.stderr.write(p.stderr); sys.exit(1)\n"
        "print(json.dumps({'wall_s': w, "
        "'peak_mb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))\n"
    )
    code = SETUP.format(n=n) + CASES[case]
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    proc = subprocess.run(
        [sys.executable, "-c", wrapper, code], capture_output=True, text=True, check=False, env=env
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{case} failed:\n{proc.stderr}")
    out: dict[str, float] = json.loads(proc.stdout)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n-resamples", default="1000000", help="comma-separated counts")
    ap.add_argument("--only", default="", help="comma-separated case names")
    ap.add_argument("--before", default=None, help="src directory of the code to compare with")
    args = ap.parse_args()
    counts = [int(float(x)) for x in args.n_resamples.split(",")]
    cases = [c for c in CASES if not args.only or c in args.only.split(",") or c == "baseline"]
    if args.before is None:
        print("| procedure | n_resamples | peak RSS MB | wall s |")
        print("|---|---:|---:|---:|")
    else:
        print("| procedure | n_resamples | peak RSS MB before | after | wall s before | after |")
        print("|---|---:|---:|---:|---:|---:|")
    for n in counts:
        for case in cases:
            r = measure_isolated(case, n)
            if args.before is None:
                print(f"| {case} | {n:,} | {r['peak_mb']:.0f} | {r['wall_s']:.2f} |", flush=True)
                continue
            b = measure_isolated(case, n, args.before)
            print(
                f"| {case} | {n:,} | {b['peak_mb']:.0f} | {r['peak_mb']:.0f} | "
                f"{b['wall_s']:.2f} | {r['wall_s']:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
