"""assay.compat.pytrec_eval vs pytrec_eval on a 1M-line run (10,000 queries x 100 documents).

Two measurements, each library in its own subprocess, run in turn:

* ``dicts``: evaluator construction + ``evaluate`` on in-memory dicts, median of 5
  repetitions after a warm-up, in-process timer: the dicts as each library's ``parse_run`` /
  ``parse_qrel`` returned them ("parsed"), and rebuilt as plain dicts ("plain", as code that
  builds its run from model scores, e.g. BEIR, passes them);
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

MEASURE_SETS = {
    "5 measures": ["map", "ndcg_cut.10", "recip_rank", "P.10", "recall.100"],
    # What BEIR's EvaluateRetrieval.evaluate asks pytrec_eval for (k = 1, 3, 5, 10, 100, 1000).
    "BEIR set": [
        "map_cut.1,3,5,10,100,1000",
        "ndcg_cut.1,3,5,10,100,1000",
        "recall.1,3,5,10,100,1000",
        "P.1,3,5,10,100,1000",
    ],
}

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
if sys.argv[6] == "plain":  # plain dicts, as code that builds its own run (BEIR) passes them
    qrels = {q: dict(d) for q, d in qrels.items()}
    run = {q: dict(d) for q, d in run.items()}
times = []
for i in range(int(sys.argv[5]) + 1):
    t = time.perf_counter()
    res = pe.RelevanceEvaluator(qrels, measures).evaluate(run)
    if i:
        times.append(time.perf_counter() - t)
key = sorted(next(iter(res.values())))[0]
m = sum(v[key] for v in res.values()) / len(res)
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
key = sorted(next(iter(res.values())))[0]
m = sum(v[key] for v in res.values()) / len(res)
print(json.dumps({"seconds": time.perf_counter() - t, "map": m}))
"""


def _run(code: str, *args: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False
    )
    if out.returncode:
        raise RuntimeError(out.stderr.strip().splitlines()[-1])
    info: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return info


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    qrels, run = make_data(10_000, 100)
    tools = ["assay", "pytrec_eval"]
    print(f"# 1,000,000-line run (10,000 queries x 100); Python {sys.version.split()[0]}")
    print(
        "| measures | scenario | tool | seconds (median) | min-max | ratio to pytrec_eval | "
        "mean of first output |"
    )
    print("|---|---|---|---:|---:|---:|---:|")
    for label, measures in MEASURE_SETS.items():
        meas = json.dumps(measures)
        for kind in ("parsed", "plain"):
            dicts = {
                t: _run(DICTS, str(qrels), str(run), t, meas, str(args.runs), kind) for t in tools
            }
            for t in tools:
                d = dicts[t]
                ratio = d["seconds"] / dicts["pytrec_eval"]["seconds"]
                print(
                    f"| {label} | {kind} dicts: construct + evaluate | {t} | "
                    f"{d['seconds']:.3f} | {d['min']:.3f}-{d['max']:.3f} | {ratio:.2f} | "
                    f"{d['map']:.6f} |",
                    flush=True,
                )
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
            print(
                f"| {label} | files: process, parse + evaluate | {t} | "
                f"{statistics.median(w):.3f} | {min(w):.3f}-{max(w):.3f} | "
                f"{statistics.median(w) / base:.2f} | {maps[t]:.6f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
