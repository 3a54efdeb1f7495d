"""End-to-end evaluation benchmark: assay vs pytrec_eval vs ranx, from the same TREC files.

Each tool runs in a fresh subprocess that reads the qrels and the run from disk and computes
MAP, NDCG@10, RR@10, P@10 and R@100; the parent records wall time (median of the runs) and the
child's peak resident memory. Tools run in turn (A B C A B C ...) so that drift in machine
speed affects them alike; ratios are reported against assay.

    python benchmarks/bench_evaluate.py                 # both sizes, 3 runs each
    python benchmarks/bench_evaluate.py --sizes small --runs 5

Data are seeded synthetic collections written to benchmarks/data/ (git-ignored).
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
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

SIZES = {
    "small": (10_000, 100),  # 10k queries x 100 docs = 1M rows
    "large": (6_980, 1_000),  # 6,980 queries x 1,000 docs = 6.98M rows (MS MARCO dev size)
}


#: Rows generated at a time (whole queries): bounds the generator's memory at 3.5e7 rows.
CHUNK_ROWS = 8_000_000
#: Run variants: rank order with 4-decimal scores; scores rounded to 1 decimal (many ties);
#: each query's rows in random order (queries still together, as TREC runs keep them).
VARIANTS = ("plain", "ties", "shuffled")


def data_paths(nq: int, nd: int, variant: str = "plain") -> tuple[Path, Path, Path]:
    """Where :func:`make_data` writes the qrels, the TREC run and the Parquet run (the
    judged sample follows the rows' order, so each variant has its own qrels)."""
    tail = "" if variant == "plain" else f".{variant}"
    stem = f"{nq}x{nd}{tail}"
    return DATA / f"qrels.{stem}.txt", DATA / f"run.{stem}.txt", DATA / f"run.{stem}.parquet"


def make_data(
    nq: int, nd: int, seed: int = 42, *, variant: str = "plain", parquet: bool = False
) -> tuple[Path, Path]:
    """Write a seeded qrels (about 20 graded judgments per query) and a run (nd per query),
    CHUNK_ROWS at a time; with ``parquet`` the run is also written as Parquet (query, doc,
    score)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    DATA.mkdir(parents=True, exist_ok=True)
    qrels_path, run_path, parquet_path = data_paths(nq, nd, variant)
    if qrels_path.exists() and run_path.exists() and (parquet_path.exists() or not parquet):
        return qrels_path, run_path
    rng = np.random.default_rng(seed)
    shuffle_rng = np.random.default_rng(seed + 1)
    step = max(1, CHUNK_ROWS // nd)
    opts = pcsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    schema = pa.schema([("query", pa.string()), ("doc", pa.string()), ("score", pa.float64())])
    writer = pq.ParquetWriter(parquet_path, schema) if parquet else None
    with pa.OSFile(str(run_path), "wb") as run_out, pa.OSFile(str(qrels_path), "wb") as q_out:
        for first in range(0, nq, step):
            run, qrels = _chunk(rng, shuffle_rng, first, min(nq, first + step), nd, variant)
            pcsv.write_csv(run, run_out, write_options=opts)
            pcsv.write_csv(qrels, q_out, write_options=opts)
            if writer is not None:
                table = pa.table([run["q"], run["d"], run["s"]], schema=schema)
                writer.write_table(table)
    if writer is not None:
        writer.close()
    return qrels_path, run_path


def _chunk(rng: Any, shuffle_rng: Any, q0: int, q1: int, nd: int, variant: str) -> tuple[Any, Any]:
    """The run rows and the judgments of queries q0..q1-1."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    n = (q1 - q0) * nd
    qnum = np.repeat(np.arange(q0, q1), nd)
    # Each query retrieves nd distinct documents of its own pool of 10 * nd.
    slot = np.tile(np.arange(nd), q1 - q0)
    dnum = qnum.astype(np.int64) * (10 * nd) + slot * 10 + rng.integers(0, 10, size=n)
    grade = rng.choice(5, size=n, p=[0.90, 0.05, 0.03, 0.015, 0.005])
    score = np.round(grade * 0.5 + rng.standard_normal(n), 1 if variant == "ties" else 4)
    # Rank order within query (as a system would write it), or random order within query.
    within = shuffle_rng.random(n) if variant == "shuffled" else -score
    o = np.lexsort((within, qnum))
    qnum, dnum, score, grade = qnum[o], dnum[o], score[o], grade[o]
    rank = np.arange(n) - np.searchsorted(qnum, qnum) + 1
    qid = pc.cast(pa.array(qnum), pa.string())
    did = pc.binary_join_element_wise("D", pc.cast(pa.array(dnum), pa.string()), "")
    run = pa.table(
        {
            "q": qid,
            "z": pa.array(np.full(n, "Q0")),
            "d": did,
            "r": rank,
            "s": score,
            "t": pa.array(np.full(n, "bench")),
        }
    )
    # Judge about 20 documents per query: every relevant retrieved one plus a sample.
    judged = (grade > 0) | (rng.random(n) < 20 / nd)
    qrels = pa.table(
        {
            "q": qid.filter(pa.array(judged)),
            "z": pa.array(np.zeros(int(judged.sum()), dtype=np.int8)),
            "d": did.filter(pa.array(judged)),
            "g": pa.array(grade[judged]),
        }
    )
    return run, qrels


ASSAY = """
import time, json, resource, sys
t = time.perf_counter()
import assay
q = assay.Qrels.from_trec(sys.argv[1]); r = assay.Run.from_trec(sys.argv[2])
res = assay.evaluate(q, r, ["map", "ndcg@10", "RR@10", "P@10", "R@100"])
m = res.mean()[r.name]
print(json.dumps({"seconds": time.perf_counter() - t, "map": m["AP"], "ndcg@10": m["ndcg@10"],
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

PYTREC = """
import time, json, resource, sys
t = time.perf_counter()
import pytrec_eval
with open(sys.argv[1]) as f: qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f: run = pytrec_eval.parse_run(f)
ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "recip_rank", "P.10", "recall.100"})
res = ev.evaluate(run)
n = len(res)
mean = lambda k: sum(v[k] for v in res.values()) / n
print(json.dumps({"seconds": time.perf_counter() - t, "map": mean("map"),
                  "ndcg@10": mean("ndcg_cut_10"),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

RANX = """
import time, json, resource, sys
t = time.perf_counter()
from ranx import Qrels, Run, evaluate
qrels = Qrels.from_file(sys.argv[1], kind="trec"); run = Run.from_file(sys.argv[2], kind="trec")
m = evaluate(qrels, run, ["map", "ndcg@10", "mrr@10", "precision@10", "recall@100"])
print(json.dumps({"seconds": time.perf_counter() - t, "map": m["map"], "ndcg@10": m["ndcg@10"],
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

TOOLS = {"assay": ASSAY, "pytrec_eval": PYTREC, "ranx": RANX}


def run_tool(code: str, qrels: Path, run: Path) -> dict[str, float]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code, str(qrels), str(run)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    info = json.loads(out.stdout.strip().splitlines()[-1])
    info["wall"] = wall
    return info


def available(tool: str) -> bool:
    mod = {"assay": "assay", "pytrec_eval": "pytrec_eval", "ranx": "ranx"}[tool]
    return (
        subprocess.run(
            [sys.executable, "-c", f"import {mod}"], capture_output=True, check=False
        ).returncode
        == 0
    )


def compile_assay() -> None:
    """Write assay's bytecode, as pip does when it installs a package (every peer here has
    its own). An editable install has none, and where PYTHONDONTWRITEBYTECODE is set (as on
    the machine of benchmarks/RESULTS.md) each process would compile every module it imports
    again: 0.04 s of a whole-process figure that a user's install never pays."""
    import compileall

    compileall.compile_dir(str(HERE.parent / "src" / "assay"), quiet=1)


def startup(runs: int) -> None:
    """Whole-process time of `assay --help` and of a small evaluation (trec_eval's test files)."""
    compile_assay()
    exe = Path(sys.executable).with_name("assay")
    shared = HERE.parent.parent / "shared" / "data" / "trec_eval"
    cmds = {"assay --help": [str(exe), "--help"]}
    if (shared / "results.test").exists():
        cmds["assay evaluate (trec_eval test files, 1,500 rows)"] = [
            str(exe),
            "evaluate",
            str(shared / "qrels.test"),
            str(shared / "results.test"),
            "-m",
            "map",
            "-m",
            "ndcg@10",
            "-f",
            "tsv",
        ]
    print(f"| command | wall s (median of {runs}) | min-max |")
    print("|---|---:|---:|")
    for label, cmd in cmds.items():
        subprocess.run(cmd, capture_output=True, check=True)
        walls = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True)
            walls.append(time.perf_counter() - t)
        print(f"| `{label}` | {statistics.median(walls):.3f} | {min(walls):.3f}-{max(walls):.3f} |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", nargs="+", choices=list(SIZES), default=list(SIZES))
    ap.add_argument("--runs", type=int, default=3, help="timed runs per tool (after one warm-up)")
    ap.add_argument("--tools", nargs="+", choices=list(TOOLS), default=list(TOOLS))
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up timings")
    args = ap.parse_args()
    if not args.no_startup:
        startup(max(args.runs, 5))
    tools = [t for t in args.tools if available(t)]
    missing = sorted(set(args.tools) - set(tools))
    print(
        f"# machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
        f"tools: {', '.join(tools)}"
        + (f" (not installed: {', '.join(missing)})" if missing else "")
    )
    print(
        "| size | rows | tool | wall s (median) | min-max | peak RSS MB | wall / assay | RSS / assay | MAP | NDCG@10 |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        nq, nd = SIZES[size]
        qrels, run = make_data(nq, nd)
        samples: dict[str, list[dict[str, float]]] = {t: [] for t in tools}
        for t in tools:  # warm-up: file cache, numba cache
            run_tool(TOOLS[t], qrels, run)
        for _ in range(args.runs):
            for t in tools:
                samples[t].append(run_tool(TOOLS[t], qrels, run))
        base_wall = (
            statistics.median(s["wall"] for s in samples["assay"]) if "assay" in samples else None
        )
        base_rss = (
            statistics.median(s["rss_mb"] for s in samples["assay"]) if "assay" in samples else None
        )
        for t in tools:
            walls = [s["wall"] for s in samples[t]]
            rss = statistics.median(s["rss_mb"] for s in samples[t])
            wall = statistics.median(walls)
            ratio = f"{wall / base_wall:.2f}" if base_wall else "-"
            rratio = f"{rss / base_rss:.2f}" if base_rss else "-"
            last = samples[t][-1]
            print(
                f"| {size} | {nq * nd:,} | {t} | {wall:.2f} | {min(walls):.2f}-{max(walls):.2f} | "
                f"{rss:.0f} | {ratio} | {rratio} | {last['map']:.4f} | {last['ndcg@10']:.4f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
