"""Run fusion benchmark: assay.fusion.fuse vs ranx.fuse, end to end from TREC files.

Five seeded runs of 6,980 queries x 1,000 documents each (every query's documents drawn from
a pool of 2,000, scores correlated across runs) are fused with RRF (rrf_k = 60) and with
CombMNZ after min-max normalisation. Each tool runs in a fresh subprocess that reads the five TREC
files, fuses them and writes the fused TREC run (every fused document, no cut-off); the
parent records wall time (median) and the child's peak RSS, and checks that both tools wrote
the same number of lines. Tools alternate (A B A B ...).

    python benchmarks/bench_fusion.py                      # assay and ranx, 3 runs each
    python benchmarks/bench_fusion.py --tools assay --runs 5
    python benchmarks/bench_fusion.py --tools assay assay-stream --runs 1

``assay-stream`` is ``assay.fusion.fuse_files`` (block by block; the runs list their
queries in numeric order, which it detects); when both assay tools ran, the two fused files
are read back and checked to hold the same run.

Data are written to benchmarks/data/ (git-ignored).
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
N_RUNS, NQ, ND, POOL = 5, 6_980, 1_000, 2_000


def make_runs(seed: int = 7) -> list[Path]:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    DATA.mkdir(parents=True, exist_ok=True)
    paths = [DATA / f"fuse.run{i}.{NQ}x{ND}.txt" for i in range(N_RUNS)]
    if all(p.exists() for p in paths):
        return paths
    rng = np.random.default_rng(seed)
    quality = rng.standard_normal((NQ, POOL))  # shared "relevance" of every pool document
    qid = pc.cast(pa.array(np.repeat(np.arange(NQ), ND)), pa.string())
    opts = pcsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    for i, path in enumerate(paths):
        noisy = quality + rng.standard_normal((NQ, POOL)) * (0.5 + 0.25 * i)
        top = np.argsort(-noisy, axis=1)[:, :ND]  # each run keeps its top ND of the pool
        score = np.take_along_axis(noisy, top, axis=1).ravel() * (1 + i) + 3 * i  # own scale
        dnum = (np.arange(NQ)[:, None] * POOL + top).ravel()
        rank = np.tile(np.arange(1, ND + 1), NQ)
        n = NQ * ND
        did = pc.binary_join_element_wise("D", pc.cast(pa.array(dnum), pa.string()), "")
        pcsv.write_csv(
            pa.table(
                {
                    "q": qid,
                    "z": pa.array(np.full(n, "Q0")),
                    "d": did,
                    "r": rank,
                    "s": np.round(score, 6),
                    "t": pa.array(np.full(n, f"run{i}")),
                }
            ),
            path,
            write_options=opts,
        )
    return paths


ASSAY = """
import time, json, resource, sys
t = time.perf_counter()
from assay import Run
from assay.fusion import fuse
method, norm, out, *paths = sys.argv[1:]
runs = [Run.from_trec(p) for p in paths]
fused = fuse(runs, method=method, norm=norm)
fused.to_trec(out)
print(json.dumps({"seconds": time.perf_counter() - t, "rows": len(fused),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

RANX = """
import time, json, resource, sys, warnings
warnings.simplefilter("ignore")
t = time.perf_counter()
from ranx import Run, fuse
method, norm, out, *paths = sys.argv[1:]
method = {"combmnz": "mnz"}.get(method, method)
runs = [Run.from_file(p, kind="trec") for p in paths]
fused = fuse(runs, norm=norm, method=method)
fused.save(out, kind="trec")
print(json.dumps({"seconds": time.perf_counter() - t, "rows": sum(map(len, fused.run.values())),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

ASSAY_STREAM = """
import time, json, resource, sys
t = time.perf_counter()
from assay.fusion import fuse_files
method, norm, out, *paths = sys.argv[1:]
summary = fuse_files(paths, out, method=method, norm=norm)
print(json.dumps({"seconds": time.perf_counter() - t, "rows": summary.rows_written,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

TOOLS = {"assay": ASSAY, "ranx": RANX, "assay-stream": ASSAY_STREAM}
CASES = [("rrf", "min-max"), ("combmnz", "min-max")]


def run_tool(code: str, method: str, norm: str, out: Path, paths: list[Path]) -> dict[str, float]:
    start = time.perf_counter()
    res = subprocess.run(
        [sys.executable, "-c", code, method, norm, str(out), *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if res.returncode != 0:
        raise RuntimeError(res.stderr.strip().splitlines()[-1] if res.stderr else "failed")
    info = json.loads(res.stdout.strip().splitlines()[-1])
    info["wall"] = wall
    return info


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=3, help="timed runs per tool (after a warm-up)")
    ap.add_argument("--tools", nargs="+", choices=list(TOOLS), default=list(TOOLS))
    ap.add_argument("--no-warmup", action="store_true", help="skip the warm-up run")
    args = ap.parse_args()
    # Written by a subprocess, so that this process stays small (see above).
    subprocess.run(
        [sys.executable, "-c", "import bench_fusion as b; b.make_runs()"], check=True, cwd=HERE
    )
    paths = make_runs()
    print(
        f"# machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
        f"{N_RUNS} runs x {NQ:,} queries x {ND:,} docs; tools: {', '.join(args.tools)}"
    )
    print(
        "| method | tool | wall s (median) | min-max | in-process s | peak RSS MB | "
        "fused rows | wall / assay | RSS / assay |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for method, norm in CASES:
        samples: dict[str, list[dict[str, float]]] = {t: [] for t in args.tools}
        outs = {t: DATA / f"fused.{t}.{method}.txt" for t in args.tools}
        if not args.no_warmup:
            for t in args.tools:
                run_tool(TOOLS[t], method, norm, outs[t], paths)
        for _ in range(args.runs):
            for t in args.tools:
                samples[t].append(run_tool(TOOLS[t], method, norm, outs[t], paths))
        if "assay" in outs and "assay-stream" in outs:
            # In a subprocess: a child's peak RSS counts its parent's at the fork.
            code = "import sys; from assay import Run; r = Run.from_trec; "
            code += "print(r(sys.argv[1]) == r(sys.argv[2]))"
            argv = [sys.executable, "-c", code, str(outs["assay"]), str(outs["assay-stream"])]
            same = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
            print(f"<!-- {method}: assay-stream's fused run == assay's: {same.strip()} -->")
        base = samples.get("assay")
        base_wall = statistics.median(s["wall"] for s in base) if base else None
        base_rss = statistics.median(s["rss_mb"] for s in base) if base else None
        for t in args.tools:
            walls = [s["wall"] for s in samples[t]]
            wall = statistics.median(walls)
            rss = statistics.median(s["rss_mb"] for s in samples[t])
            inproc = statistics.median(s["seconds"] for s in samples[t])
            label = f"{method} ({norm})" if method != "rrf" else "rrf (k=60)"
            print(
                f"| {label} | {t} | {wall:.2f} | {min(walls):.2f}-{max(walls):.2f} | "
                f"{inproc:.2f} | {rss:.0f} | {int(samples[t][-1]['rows']):,} | "
                f"{wall / base_wall:.2f} | {rss / base_rss:.2f} |"
                if base_wall and base_rss
                else f"| {label} | {t} | {wall:.2f} | - | - | {rss:.0f} | - | - | - |",
                flush=True,
            )


if __name__ == "__main__":
    main()
