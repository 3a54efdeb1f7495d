"""Krippendorff's alpha benchmark: assay vs the ``krippendorff`` package.

1,000,000 units x 5 raters, values 1-5 (raters copy a shared latent value with probability
0.6), 10% of cells missing, seeded; nominal and interval levels. Each tool runs in a fresh
subprocess that loads the same .npy matrix and computes alpha; the parent records wall time
(median of the runs, tools alternating) and the child's peak RSS. Ratios are against assay.

    python benchmarks/bench_agreement.py               # 3 runs
    python benchmarks/bench_agreement.py --runs 5 --units 200000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

ASSAY = """
import json, resource, sys, time
import numpy as np
x = np.load(sys.argv[1]); level = sys.argv[2]
t = time.perf_counter()
from assay.agreement import krippendorff_alpha
a = float(krippendorff_alpha(x, level=level))
print(json.dumps({"seconds": time.perf_counter() - t, "alpha": a,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

KRIPP = """
import json, resource, sys, time
import numpy as np
x = np.load(sys.argv[1]); level = sys.argv[2]
t = time.perf_counter()
import krippendorff
a = float(krippendorff.alpha(reliability_data=x.T, level_of_measurement=level))
print(json.dumps({"seconds": time.perf_counter() - t, "alpha": a,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

TOOLS = {"assay": ASSAY, "krippendorff": KRIPP}


def make_data(units: int, raters: int = 5, seed: int = 42) -> Path:
    import numpy as np

    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"agreement.{units}x{raters}.npy"
    if path.exists():
        return path
    rng = np.random.default_rng(seed)
    latent = rng.integers(1, 6, size=(units, 1))
    x = np.where(rng.random((units, raters)) < 0.6, latent, rng.integers(1, 6, (units, raters)))
    x = x.astype(np.float64)
    x[rng.random(x.shape) < 0.1] = np.nan
    np.save(path, x)
    return path


def run_tool(code: str, path: Path, level: str) -> dict[str, float]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), level], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    info: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    info["wall"] = wall
    return info


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--units", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--levels", nargs="+", default=["nominal", "interval"])
    args = ap.parse_args()
    path = make_data(args.units)
    print(
        f"# machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
        f"{args.units:,} units x 5 raters, 10% missing"
    )
    print(
        "| level | tool | wall s (median) | min-max | alpha s (median) | peak RSS MB "
        "| wall / assay | alpha s / assay | RSS / assay | alpha |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for level in args.levels:
        samples: dict[str, list[dict[str, float]]] = {t: [] for t in TOOLS}
        for t in TOOLS:  # warm-up
            run_tool(TOOLS[t], path, level)
        for _ in range(args.runs):
            for t in TOOLS:
                samples[t].append(run_tool(TOOLS[t], path, level))
        med = {
            t: {
                k: statistics.median(s[k] for s in samples[t])
                for k in ("wall", "seconds", "rss_mb")
            }
            for t in TOOLS
        }
        for t in TOOLS:
            walls = [s["wall"] for s in samples[t]]
            m, b = med[t], med["assay"]
            print(
                f"| {level} | {t} | {m['wall']:.2f} | {min(walls):.2f}-{max(walls):.2f} | "
                f"{m['seconds']:.2f} | {m['rss_mb']:.0f} | {m['wall'] / b['wall']:.2f} | "
                f"{m['seconds'] / b['seconds']:.2f} | {m['rss_mb'] / b['rss_mb']:.2f} | "
                f"{samples[t][-1]['alpha']:.6f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
