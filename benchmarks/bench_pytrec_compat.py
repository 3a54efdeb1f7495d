"""assay.compat.pytrec_eval vs pytrec_eval on a 1M-line run (10,000 queries x 100 documents).

Two measurements, each library in its own subprocess, run in turn:

* ``dicts``: evaluator construction + ``evaluate`` on in-memory dicts (what BEIR-style code
  does), median of 5 repetitions after a warm-up, in-process timer;
* ``files``: a whole process: import, ``parse_qrel``/``parse_run`` of the TREC files, evaluate.

    python benchmarks/bench_pytrec_compat.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_evaluate import make_data  # noqa: E402

MEASURES = ["map", "ndcg_cut.10", "recip_rank", "P.10", "recall.100"]

DICTS = """
import json, statistics, sys, time
mod = sys.argv[3]
if mod == "assay":
    from assay.compat import pytrec_eval as pe
else:
    import pytrec_eval as pe
with open(sys.argv[1]) as f: qrels = pe.parse_qrel(f)
with open(sys.argv[2]) as f: run = pe.parse_run(f)
measures = set(json.loads(sys.argv[4]))
times = []
for i in range(int(sys.argv[5]) + 1):
    t = time.perf_counter()
    res = pe.RelevanceEvaluator(qrels, measures).evaluate(run)
    if i:
        times.append(time.perf_counter() - t)
m = sum(v["map"] for v in res.values()) / len(res)
print(json.dumps({"seconds": statistics.median(times), "min": min(times), "max": max(times),
                  "map": m}))
"""

FILES = """
import json, sys, time
t = time.perf_counter()
mod = sys.argv[3]
if mod == "assay":
    from assay.compat import pytrec_eval as pe
else:
    import pytrec_eval as pe
with open(sys.argv[1]) as f: qrels = pe.parse_qrel(f)
with open(sys.argv[2]) as f: run = pe.parse_run(f)
res = pe.RelevanceEvaluator(qrels, set(json.loads(sys.argv[4]))).evaluate(run)
m = sum(v["map"] for v in res.values()) / len(res)
print(json.dumps({"seconds": time.perf_counter() - t, "map": m}))
"""


def _run(code: str, *args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         check=False)
    if out.returncode:
        raise RuntimeError(out.stderr.strip().splitlines()[-1])
    info: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return info


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    qrels, run = make_data(10_000, 100)
    meas = json.dumps(MEASURES)
    tools = ["assay", "pytrec_eval"]
    print(f"# 1,000,000-line run, measures {', '.join(MEASURES)}; Python {sys.version.split()[0]}")
    print("| scenario | tool | seconds (median) | min-max | ratio to pytrec_eval | MAP |")
    print("|---|---|---:|---:|---:|---:|")
    dicts = {t: _run(DICTS, str(qrels), str(run), t, meas, str(args.runs)) for t in tools}
    for t in tools:
        d = dicts[t]
        print(f"| dicts: construct + evaluate | {t} | {d['seconds']:.3f} | "
              f"{d['min']:.3f}-{d['max']:.3f} | {d['seconds'] / dicts['pytrec_eval']['seconds']:.2f} | "
              f"{d['map']:.6f} |", flush=True)
    files: dict[str, list[float]] = {t: [] for t in tools}
    maps = {}
    for t in tools:
        _run(FILES, str(qrels), str(run), t, meas)  # warm-up
    for _ in range(args.runs):
        for t in tools:
            start = time.perf_counter()
            info = _run(FILES, str(qrels), str(run), t, meas)
            files[t].append(time.perf_counter() - start)
            maps[t] = info["map"]
    base = statistics.median(files["pytrec_eval"])
    for t in tools:
        w = files[t]
        print(f"| files: process, parse + evaluate | {t} | {statistics.median(w):.3f} | "
              f"{min(w):.3f}-{max(w):.3f} | {statistics.median(w) / base:.2f} | {maps[t]:.6f} |")


if __name__ == "__main__":
    main()
