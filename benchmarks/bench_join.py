"""Where one streamed evaluation of a 1M-row run spends its time, in process (issue 30).

Three measurements on the 1,000-topic × 1,000 files of ``bench_evaluate.make_data`` (MAP,
NDCG@10, RR, P@10, R@100, as ``bench_small.py``), each child a fresh Python process:

- ``first``: the time to import assay's modules that the call needs (after NumPy and
  pyarrow), then the first and the second ``evaluate_files`` call: what a fresh process
  pays once beyond its imports, and how much one call's time moves from process to process;
- ``groups``: the block join's group size (``assay.data.blockjoin.GROUP_ROWS``) in turn, in
  one process per thread count (``ASSAY_THREADS``), the median of the rounds per size;
- ``profile``: ``cProfile`` of the second call on one thread, the functions with the most
  time of their own.

    python benchmarks/bench_join.py                       # all three
    python benchmarks/bench_join.py --only groups --rounds 9 --sizes 8192 16384 32768
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from bench_evaluate import compile_assay, make_data

SRC = Path(__file__).resolve().parent.parent / "src"
METRICS = ["map", "ndcg@10", "recip_rank", "P@10", "recall@100"]

# argv: qrels, run, metrics as JSON; prints {"imports": s, "first": s, "second": s} (imports:
# assay's modules the call needs, after NumPy and pyarrow).
FIRST = """
import json, sys, time
import numpy, pyarrow, pyarrow.compute, pyarrow.csv
t = time.perf_counter()
import assay.evaluation, assay.data.blockjoin, assay.io.blocks, assay.ranking.reports
from assay.ranking.collection import evaluate_files
times = [time.perf_counter() - t]
qrels, run, metrics = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
for _ in range(2):
    t = time.perf_counter()
    evaluate_files(qrels, [run], metrics)
    times.append(time.perf_counter() - t)
print(json.dumps({"imports": times[0], "first": times[1], "second": times[2]}))
"""

# argv: qrels, run, metrics, sizes as JSON, rounds; prints {size: median seconds}.
GROUPS = """
import json, statistics, sys, time
import assay.data.blockjoin as blockjoin
from assay.ranking.collection import evaluate_files
qrels, run, metrics = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sizes, rounds = json.loads(sys.argv[4]), int(sys.argv[5])
evaluate_files(qrels, [run], metrics)  # imports and first-call costs out of the way
times = {size: [] for size in sizes}
for _ in range(rounds):
    for size in sizes:
        blockjoin.GROUP_ROWS = size
        t = time.perf_counter()
        evaluate_files(qrels, [run], metrics)
        times[size].append(time.perf_counter() - t)
print(json.dumps({size: statistics.median(v) for size, v in times.items()}))
"""

# argv: qrels, run, metrics, top; prints the profile of the second call.
PROFILE = """
import cProfile, json, pstats, sys
from assay.ranking.collection import evaluate_files
qrels, run, metrics, top = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
evaluate_files(qrels, [run], metrics)
profile = cProfile.Profile()
profile.runcall(evaluate_files, qrels, [run], metrics)
pstats.Stats(profile).sort_stats("tottime").print_stats(top)
"""


def _child(code: str, args: list[str], threads: int | None = None) -> str:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    if threads is not None:
        env["ASSAY_THREADS"] = str(threads)
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env
    )
    if proc.returncode:
        raise SystemExit(proc.stderr.strip()[-800:])
    return proc.stdout


def first_calls(files: list[str], processes: int) -> None:
    print("| process | assay's imports s | first call s | second call s |\n|---:|---:|---:|---:|")
    for i in range(processes):
        found = json.loads(_child(FIRST, files))
        print(
            f"| {i + 1} | {found['imports']:.3f} | {found['first']:.3f} | {found['second']:.3f} |"
        )


def group_sizes(files: list[str], sizes: list[int], rounds: int) -> None:
    print(f"\n| threads | {' | '.join(f'{s:,} rows' for s in sizes)} |")
    print("|---:|" + "---:|" * len(sizes))
    for threads in (1, 2):
        found = json.loads(_child(GROUPS, [*files, json.dumps(sizes), str(rounds)], threads))
        cells = " | ".join(f"{found[str(s)] * 1000:.0f} ms" for s in sizes)
        print(f"| {threads} | {cells} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["first", "groups", "profile"])
    parser.add_argument("--processes", type=int, default=6, help="first: processes")
    parser.add_argument("--rounds", type=int, default=9, help="groups: rounds per size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[8192, 16384, 32768])
    parser.add_argument("--top", type=int, default=25, help="profile: functions shown")
    args = parser.parse_args()
    compile_assay()
    qrels, run = make_data(1_000, 1_000)
    files = [str(qrels), str(run), json.dumps(METRICS)]
    print(f"# 2 cores, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {run.name}")
    if args.only in (None, "first"):
        first_calls(files, args.processes)
    if args.only in (None, "groups"):
        group_sizes(files, args.sizes, args.rounds)
    if args.only in (None, "profile"):
        print()
        print(_child(PROFILE, [*files, str(args.top)], threads=1))


if __name__ == "__main__":
    main()
