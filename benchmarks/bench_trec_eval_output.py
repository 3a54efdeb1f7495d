"""Peak memory of `assay trec-eval -q` as its output grows (the per-topic text is written as
it is formatted, so memory should follow the data, not the output).

Seeded synthetic TREC files (``--queries`` topics x ``--docs`` documents, graded 0-2); each
command runs in its own process, writing to /dev/null; the figure is the child's peak RSS.

    python benchmarks/bench_trec_eval_output.py --queries 20000 --docs 100
    python benchmarks/bench_trec_eval_output.py --queries 20000 --docs 100 --before /tmp/old/src
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

WRAPPER = (
    "import json, resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "with open('/dev/null', 'w') as out:\n"
    "    p = subprocess.run(sys.argv[1:], stdout=out)\n"
    "w = time.perf_counter() - t\n"
    "if p.returncode: sys.exit(p.returncode)\n"
    "print(json.dumps({'wall_s': w, "
    "'peak_mb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))\n"
)


def make_files(folder: Path, n_queries: int, n_docs: int) -> tuple[Path, Path]:
    rng = np.random.default_rng(0)
    qrels, run = folder / "qrels", folder / "run"
    with qrels.open("w") as fq, run.open("w") as fr:
        for q in range(n_queries):
            grades = rng.integers(0, 3, n_docs)
            scores = rng.random(n_docs)
            fq.writelines(f"q{q} 0 d{d} {g}\n" for d, g in enumerate(grades))
            fr.writelines(f"q{q} Q0 d{d} {d + 1} {s:.6f} r\n" for d, s in enumerate(scores))
    return qrels, run


def measure(args: list[str], src: str | None) -> dict[str, float]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    cmd = [sys.executable, "-m", "assay", "trec-eval", *args]
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, *cmd], capture_output=True, text=True, env=env, check=True
    )
    out: dict[str, float] = json.loads(proc.stdout)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--queries", type=int, default=20000)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument("--before", default=None, help="src directory of the code to compare with")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        qrels, run = make_files(Path(tmp), a.queries, a.docs)
        print(
            "| command | peak RSS MB | wall s |"
            + (" before: peak RSS MB | wall s |" * bool(a.before))
        )
        print("|---|---:|---:|" + ("---:|---:|" * bool(a.before)))
        for flags in (["-m", "all_trec"], ["-q", "-m", "all_trec"]):
            args = [*flags, str(qrels), str(run)]
            r = measure(args, None)
            row = f"| trec-eval {' '.join(flags)} | {r['peak_mb']:.0f} | {r['wall_s']:.1f} |"
            if a.before:
                b = measure(args, a.before)
                row += f" {b['peak_mb']:.0f} | {b['wall_s']:.1f} |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
