"""assay.meta benchmark: discriminative power and RBO, each tool in a fresh subprocess.

- Discriminative power (Sakai's paired bootstrap, B = 1000): ``runs`` runs × 50 topics × 3
  metrics, seeded uniform scores; assay's vectorised path (one resample matrix for all pairs)
  against Sakai's procedure written pair by pair and resample by resample in NumPy (the
  MATTERS toolkit's loop structure).
- RBO_ext between two runs of ``queries`` queries × 1000 documents (overlapping pools):
  ``assay.meta.rbo_runs`` against the ``rbo`` package's ``rbo_ext`` per query (in the
  interpreter named by ASSAY_RBO_PYTHON; skipped without it).

The parent records wall time (median of the runs, tools alternating) and the child's peak
RSS; ratios are against assay.

    python benchmarks/bench_meta.py                 # 3 runs
    ASSAY_RBO_PYTHON=.venv-rbo/bin/python python benchmarks/bench_meta.py --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

DISC_ASSAY = """
import json, resource, sys, time
import numpy as np
x = np.load(sys.argv[1])
t = time.perf_counter()
from assay.meta import discriminative_power
res = discriminative_power({f"m{k}": x[k] for k in range(x.shape[0])}, test="bootstrap",
                           n_resamples=1000, seed=0)
power = [res.power[("bootstrap", f"m{k}")] for k in range(x.shape[0])]
print(json.dumps({"seconds": time.perf_counter() - t, "check": power,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

DISC_LOOP = """
import json, math, resource, sys, time
import numpy as np
x = np.load(sys.argv[1])
t = time.perf_counter()
n, k = x.shape[1], x.shape[2]
idx = np.random.default_rng(0).integers(0, n, (1000, n))
power = []
for m in range(x.shape[0]):
    sig = pairs = 0
    for i in range(k):
        for j in range(i + 1, k):
            z = x[m, :, i] - x[m, :, j]
            t_obs = abs(z.mean()) / (z.std(ddof=1) / math.sqrt(n))
            w = z - z.mean()
            count = 0
            for row in idx:
                wb = w[row]
                if abs(wb.mean()) / (wb.std(ddof=1) / math.sqrt(n)) >= t_obs:
                    count += 1
            sig += count / 1000 < 0.05
            pairs += 1
    power.append(sig / pairs)
print(json.dumps({"seconds": time.perf_counter() - t, "check": power,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

RBO_ASSAY = """
import json, resource, sys, time
t = time.perf_counter()
from assay.data import Run
from assay.meta import rbo_runs
a = Run.from_trec(sys.argv[1]); b = Run.from_trec(sys.argv[2])
res = rbo_runs(a, b, p=0.9)
print(json.dumps({"seconds": time.perf_counter() - t, "check": res.mean()["rbo_ext"],
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

RBO_PEER = """
import json, resource, sys, time
t = time.perf_counter()
from rbo import RankingSimilarity
def lists(path):
    out = {}
    for line in open(path):
        q, _, d, r, s, _ = line.split()
        out.setdefault(q, []).append((-float(s), d))
    return {q: [d for _, d in sorted(v)] for q, v in out.items()}  # scores are distinct
a, b = lists(sys.argv[1]), lists(sys.argv[2])
vals = [RankingSimilarity(a[q], b[q]).rbo_ext(p=0.9) for q in sorted(a)]
print(json.dumps({"seconds": time.perf_counter() - t, "check": sum(vals) / len(vals),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def disc_data(runs: int) -> Path:
    import numpy as np

    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"discpower.{runs}.npy"
    if not path.exists():
        rng = np.random.default_rng(7)
        x = rng.random((3, 50, runs)) * 0.6 + np.linspace(0, 0.3, runs)
        np.save(path, x)
    return path


def rbo_data(queries: int) -> tuple[Path, Path]:
    import numpy as np

    DATA.mkdir(parents=True, exist_ok=True)
    paths = (DATA / f"rbo_a.{queries}.run", DATA / f"rbo_b.{queries}.run")
    if all(p.exists() for p in paths):
        return paths
    rng = np.random.default_rng(3)
    for path in paths:
        with path.open("w") as fh:
            for q in range(queries):
                docs = rng.permutation(1500)[:1000]
                for r, d in enumerate(docs):
                    fh.write(f"q{q} Q0 d{d} {r + 1} {1000 - r} x\n")
    return paths


def run(code: str, args: list[str], python: str = sys.executable) -> dict:
    out = subprocess.run([python, "-c", code, *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def measure(label: str, tools: dict[str, tuple[str, str]], args: list[str], runs: int) -> None:
    times: dict[str, list[float]] = {t: [] for t in tools}
    last: dict[str, dict] = {}
    for _ in range(runs):
        for name, (code, python) in tools.items():
            last[name] = run(code, args, python)
            times[name].append(last[name]["seconds"])
    base = statistics.median(times["assay"])
    print(f"\n{label}")
    for name in tools:
        med = statistics.median(times[name])
        print(
            f"  {name:12s} {med:8.3f} s  x{med / base:7.1f}  peak {last[name]['rss_mb']:7.1f} MB  "
            f"check {last[name]['check']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--systems", type=int, default=20, help="runs for discriminative power")
    parser.add_argument("--queries", type=int, default=250, help="queries for RBO")
    args = parser.parse_args()
    disc = str(disc_data(args.systems))
    measure(
        f"discriminative power, bootstrap B=1000: {args.systems} runs x 50 topics x 3 metrics",
        {"assay": (DISC_ASSAY, sys.executable), "sakai-loop": (DISC_LOOP, sys.executable)},
        [disc],
        args.runs,
    )
    peer = os.environ.get("ASSAY_RBO_PYTHON")
    a, b = rbo_data(args.queries)
    tools = {"assay": (RBO_ASSAY, sys.executable)}
    if peer:
        tools["rbo"] = (RBO_PEER, peer)
    else:
        print("\n(ASSAY_RBO_PYTHON not set: the rbo package is not measured)")
    measure(
        f"RBO_ext, 2 runs x {args.queries} queries x 1000 docs", tools, [str(a), str(b)], args.runs
    )


if __name__ == "__main__":
    main()
