"""LETOR loading benchmark: assay's reader vs scikit-learn's ``load_svmlight_file``.

A seeded synthetic file the size of an MSLR-WEB10K training fold (6,000 queries, about
720,000 lines, 136 dense features written MSLR-style as ``label qid:N 1:v ... 136:v``, no
comments; ``assay.ltr.mslr_like`` then ``write_letor``), about 0.9 GB. Each tool runs in a
fresh subprocess that imports itself and reads the file: assay's ``read_letor`` (float32,
dense because every feature is present) and ``load_svmlight_file(path, query_id=True)``
(float64 CSR, what it returns). The parent records wall time (median of the runs after one
warm-up read, tools alternating) and the child's peak RSS once the file is loaded; a
checksum of the features (as float32) shows both read the same numbers. Ratios are against assay.

    python benchmarks/bench_letor.py                   # 1 run (scikit-learn takes minutes)
    python benchmarks/bench_letor.py --runs 3 --queries 1000
    python benchmarks/bench_letor.py --queries 1250 --runs 3 --base 4cca8ea   # 150k x 136
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

ASSAY = """
import json, resource, sys, time
t = time.perf_counter()
import numpy as np
from assay.ltr.letor import read_letor
f = read_letor(sys.argv[1], dtype=sys.argv[2])
seconds = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before the checksum
x = f.features
print(json.dumps({"seconds": seconds, "rows": int(x.shape[0]), "features": int(x.shape[1]),
                  "queries": f.n_queries, "labels": float(f.labels.sum()),
                  "checksum": float(x.sum(dtype=np.float64)),
                  "layout": type(x).__name__, "dtype": str(x.dtype), "rss_mb": rss}))
"""

SKLEARN = """
import json, resource, sys, time
t = time.perf_counter()
import numpy as np
from sklearn.datasets import load_svmlight_file
x, y, q = load_svmlight_file(sys.argv[1], query_id=True)
seconds = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before the checksum
print(json.dumps({"seconds": seconds, "rows": int(x.shape[0]), "features": int(x.shape[1]),
                  "queries": int((np.diff(q) != 0).sum() + 1), "labels": float(y.sum()),
                  "checksum": float(x.data.astype(np.float32).sum(dtype=np.float64)),
                  "layout": type(x).__name__, "dtype": str(x.dtype), "rss_mb": rss}))
"""

TOOLS = {
    "assay": (ASSAY, ["float32"]),
    "scikit-learn": (SKLEARN, []),
}


def make_data(queries: int, seed: int = 42) -> Path:
    """The seeded LETOR file (written once; later runs reuse it)."""
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"letor.{queries}q.seed{seed}.txt"
    if path.exists():
        return path
    from assay.ltr import mslr_like
    from assay.ltr.letor import write_letor

    data = mslr_like(queries, mean_docs=120, seed=seed)
    tmp = path.with_suffix(".part")
    write_letor(tmp, data.labels, data.offsets, data.query_ids, data.features)
    tmp.rename(path)
    return path


def run_tool(code: str, args: list[str], path: Path, src: Path | None = None) -> dict[str, float]:
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
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
    ap.add_argument("--queries", type=int, default=6000)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--float64", action="store_true", help="also time assay with dtype=float64")
    ap.add_argument(
        "--base", help="also read with the reader of this older commit (git archive of its src)"
    )
    ap.add_argument("--no-sklearn", action="store_true", help="leave scikit-learn out")
    args = ap.parse_args()
    tools = dict(TOOLS)
    if args.no_sklearn:
        del tools["scikit-learn"]
    if args.float64:
        tools["assay (float64)"] = (ASSAY, ["float64"])
    srcs: dict[str, Path | None] = dict.fromkeys(tools)
    srcs["assay"] = HERE.parent / "src"  # this tree, whatever assay is installed
    tmp = tempfile.TemporaryDirectory()
    if args.base:
        from bench_encode import base_tree, compile_tree

        srcs[f"assay ({args.base})"] = base_tree(args.base, Path(tmp.name))
        tools[f"assay ({args.base})"] = (ASSAY, ["float32"])
        compile_tree(HERE.parent / "src")
        for src in srcs.values():
            if src is not None:
                compile_tree(src)
    path = make_data(args.queries)
    size = path.stat().st_size / 1e6
    print(
        f"# machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
        f"{path.name}: {size:.0f} MB"
    )
    print(
        "| tool | rows | features | layout | wall s (median) | min-max | load s (median) "
        "| peak RSS MB | wall / assay | RSS / assay | checksum |"
    )
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    samples: dict[str, list[dict[str, float]]] = {t: [] for t in tools}
    # Warm-up: one read brings the file into the page cache for every tool (scikit-learn's
    # own read takes minutes at this size, so it is not repeated for nothing).
    run_tool(*tools["assay"], path)
    for _ in range(args.runs):
        for t, (code, extra) in tools.items():
            samples[t].append(run_tool(code, extra, path, srcs[t]))
    med = {
        t: {k: statistics.median(s[k] for s in samples[t]) for k in ("wall", "seconds", "rss_mb")}
        for t in tools
    }
    for t in tools:
        walls = [s["wall"] for s in samples[t]]
        m, b, last = med[t], med["assay"], samples[t][-1]
        print(
            f"| {t} | {last['rows']:,} | {last['features']} | {last['layout']} {last['dtype']} | "
            f"{m['wall']:.2f} | {min(walls):.2f}-{max(walls):.2f} | {m['seconds']:.2f} | "
            f"{m['rss_mb']:.0f} | {m['wall'] / b['wall']:.2f} | {m['rss_mb'] / b['rss_mb']:.2f} | "
            f"{last['checksum']:.6e} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
