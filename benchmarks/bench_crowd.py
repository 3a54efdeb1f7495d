"""Crowd label aggregation (issue 28): assay's Dawid–Skene and GLAD kernels against crowd-kit's
``DawidSkene`` and ``GLAD``, side by side in one run.

Seeded synthetic labels from ``assay.judgments._synthetic.synthetic_crowd`` (``--tasks`` tasks,
``--workers`` workers of varied quality, ``--classes`` classes, ``--per-task`` labels per task:
by default 100k x 10 = 1M labels), written once to an ``.npz`` file. Each tool runs in its own
process (``_child.measure``: imports, reading the file and, for crowd-kit, building its
DataFrame included) with the same iteration cap and tolerance (100 and 1e-5, both tools'
defaults); the figures are the median wall time and the largest peak RSS of the child.
``labels = assay`` is the share of tasks on which the tool's aggregated label is assay's.
The assay kernels run ``--runs`` times, crowd-kit's ``--peer-runs`` times (its GLAD takes
minutes on 1M labels). Dawid–Skene is skipped when ``assay.judgments._dawid_skene`` is absent.

    python benchmarks/bench_crowd.py --runs 3 --peer-runs 1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

from _child import measure

MAX_ITER, TOLERANCE = 100, 1e-5

# One child: read the labels, fit, print the aggregated label codes one per line.
CHILD = f"""
import sys
import numpy as np
data = np.load(sys.argv[1])
tool, method = sys.argv[2], sys.argv[3]
n_tasks = int(data["task"].max()) + 1
if tool == "assay":
    from assay.judgments._fit import CrowdCodes
    codes = CrowdCodes(data["task"], data["worker"], data["label"], n_tasks,
                       int(data["worker"].max()) + 1, int(data["label"].max()) + 1)
    if method == "glad":
        from assay.judgments._glad import glad as kernel
    else:
        from assay.judgments._dawid_skene import dawid_skene as kernel
    labels = kernel(codes, max_iter={MAX_ITER}, tolerance={TOLERANCE}).labels
else:
    import pandas as pd
    from crowdkit.aggregation import GLAD, DawidSkene
    df = pd.DataFrame({{"task": data["task"], "worker": data["worker"], "label": data["label"]}})
    if method == "glad":
        model = GLAD(n_iter={MAX_ITER}, tol={TOLERANCE})
    else:
        model = DawidSkene(n_iter={MAX_ITER}, tol={TOLERANCE})
    labels = model.fit_predict(df).reindex(range(n_tasks)).to_numpy()
sys.stdout.write("\\n".join(map(str, labels.tolist())))
"""


def has_dawid_skene() -> bool:
    try:
        import assay.judgments._dawid_skene  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tasks", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2_000)
    ap.add_argument("--classes", type=int, default=5)
    ap.add_argument("--per-task", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer-runs", type=int, default=None)
    ap.add_argument("--methods", nargs="+", default=["dawid_skene", "glad"])
    a = ap.parse_args()
    peer_runs = a.runs if a.peer_runs is None else a.peer_runs
    from assay.judgments._synthetic import synthetic_crowd

    codes = synthetic_crowd(a.tasks, a.workers, a.classes, a.per_task, seed=0)
    methods = [m for m in a.methods if m != "dawid_skene" or has_dawid_skene()]
    if methods != a.methods:
        print("(assay.judgments._dawid_skene is absent: Dawid–Skene skipped)")
    print(
        f"{codes.task.size:,} labels: {a.tasks:,} tasks, {a.workers:,} workers, "
        f"{a.classes} classes, {a.per_task} labels per task"
    )
    print(
        "| method | tool | runs | wall s (median) | peak RSS MB | crowd-kit / assay | labels = assay |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = folder / "labels.npz"
        np.savez(data, task=codes.task, worker=codes.worker, label=codes.label)
        for method in methods:
            figures: dict[str, tuple[int, float, float, np.ndarray]] = {}
            for tool, runs in (("assay", a.runs), ("crowd-kit", peer_runs)):
                out = folder / f"{tool}-{method}.txt"
                walls, peak = [], 0.0
                for _ in range(runs):
                    r = measure([sys.executable, "-c", CHILD, str(data), tool, method], out)
                    walls.append(r["wall_s"])
                    peak = max(peak, r["peak_mb"])
                labels = np.array(out.read_text().split(), dtype=np.int64)
                figures[tool] = (runs, statistics.median(walls), peak, labels)
            mine = figures["assay"]
            for tool, (runs, wall, peak, labels) in figures.items():
                ratio = wall / mine[1]
                same = float(np.mean(labels == mine[3]))
                print(
                    f"| {method} | {tool} | {runs} | {wall:.2f} | {peak:.0f} | "
                    f"{ratio:.1f} | {same:.4f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
