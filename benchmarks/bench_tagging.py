"""Span F1 benchmark: assay.tagging vs seqeval (and nervaluate, on request).

1,000,000 tokens in 50,000 sentences of 20 tokens, IOB2 tags of 4 entity types (about one
token in three inside an entity); the prediction copies the gold tags and corrupts 10 % of
them (a random tag, often ill formed). Seeded. Each tool runs in a fresh subprocess that
unpickles the same lists of tag lists and computes micro span F1, in conlleval mode
(seqeval's default) and in strict IOB2 mode; the child reports the time of the computation
(imports included, unpickling not) and its peak RSS; the parent records the wall time of the
whole process. Medians of the runs, tools alternating, after one warm-up; ratios against
assay. ``--tools nervaluate`` adds nervaluate's four partial-match schemes (against
``assay.tagging.tagging_report``, which computes them together with everything else).

    python benchmarks/bench_tagging.py                 # 3 runs, assay and seqeval
    python benchmarks/bench_tagging.py --runs 5 --tokens 200000 --tools assay seqeval nervaluate
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

_REPORT = """
print(json.dumps({"seconds": time.perf_counter() - t, "value": value,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
_LOAD = """
import json, pickle, resource, sys, time
with open(sys.argv[1], "rb") as fh:
    gold, pred = pickle.load(fh)
task = sys.argv[2]
t = time.perf_counter()
"""
ASSAY = (
    _LOAD
    + """
from assay import tagging as T
if task == "nervaluate":
    value = T.tagging_report(gold, pred).partial["strict"].f1()
else:
    value = T.span_f1(gold, pred, mode=task)
"""
    + _REPORT
)
SEQEVAL = (
    _LOAD
    + """
from seqeval.metrics import f1_score
from seqeval.scheme import IOB2
kwargs = {"mode": "strict", "scheme": IOB2} if task == "strict" else {}
value = f1_score(gold, pred, **kwargs)
"""
    + _REPORT
)
NERVALUATE = (
    _LOAD
    + """
from nervaluate import Evaluator
value = Evaluator(gold, pred, tags=["PER", "LOC", "ORG", "MISC"], loader="list").evaluate()["overall"]["strict"].f1
"""
    + _REPORT
)
TOOLS = {"assay": ASSAY, "seqeval": SEQEVAL, "nervaluate": NERVALUATE}
#: Which tasks each tool runs (nervaluate only has its own).
TASKS = {
    "conlleval": ("assay", "seqeval"),
    "strict": ("assay", "seqeval"),
    "nervaluate": ("assay", "nervaluate"),
}


def make_data(tokens: int, seed: int = 7) -> Path:
    import numpy as np

    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"tagging.{tokens}.pkl"
    if path.exists():
        return path
    rng = np.random.default_rng(seed)
    types = np.array(["PER", "LOC", "ORG", "MISC"])
    n_sent, length = tokens // 20, 20
    gold: list[list[str]] = []
    for _ in range(n_sent):
        tags = ["O"] * length
        i = int(rng.integers(0, 3))
        while i < length:
            span = int(rng.integers(1, 4))
            kind = types[rng.integers(0, 4)]
            for j in range(i, min(i + span, length)):
                tags[j] = ("B-" if j == i else "I-") + kind
            i += span + int(rng.integers(1, 5))
        gold.append(tags)
    vocab = ["O"] + [f"{p}-{t}" for p in "BI" for t in types]
    pred = []
    for sentence in gold:
        noisy = list(sentence)
        for j in np.flatnonzero(rng.random(length) < 0.1):
            noisy[j] = vocab[rng.integers(0, len(vocab))]
        pred.append(noisy)
    with path.open("wb") as fh:
        pickle.dump((gold, pred), fh)
    return path


def run_tool(code: str, path: Path, task: str) -> dict[str, float]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), task], capture_output=True, text=True, check=False
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
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tools", nargs="+", default=["assay", "seqeval"], choices=list(TOOLS))
    args = ap.parse_args()
    path = make_data(args.tokens)
    print(
        f"# machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
        f"{args.tokens:,} tokens in {args.tokens // 20:,} sentences"
    )
    print(
        "| task | tool | compute s (median) | min-max | process wall s | peak RSS MB "
        "| compute / assay | wall / assay | RSS / assay | F1 |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for task, tools in TASKS.items():
        tools = tuple(t for t in tools if t in args.tools)
        if len(tools) < 2:
            continue
        samples: dict[str, list[dict[str, float]]] = {t: [] for t in tools}
        for t in tools:  # warm-up
            run_tool(TOOLS[t], path, task)
        for _ in range(args.runs):
            for t in tools:
                samples[t].append(run_tool(TOOLS[t], path, task))
        med = {
            t: {
                k: statistics.median(s[k] for s in samples[t])
                for k in ("wall", "seconds", "rss_mb")
            }
            for t in tools
        }
        for t in tools:
            secs = [s["seconds"] for s in samples[t]]
            m, b = med[t], med["assay"]
            print(
                f"| {task} | {t} | {m['seconds']:.2f} | {min(secs):.2f}-{max(secs):.2f} | "
                f"{m['wall']:.2f} | {m['rss_mb']:.0f} | {m['seconds'] / b['seconds']:.2f} | "
                f"{m['wall'] / b['wall']:.2f} | {m['rss_mb'] / b['rss_mb']:.2f} | "
                f"{samples[t][-1]['value']:.6f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
