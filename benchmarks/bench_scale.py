"""Scale benchmark: assay, pytrec-eval-terrier, ranx and ir_measures side by side, from
1e5 to 3.5e7 run rows, TREC text and Parquet inputs, plain / tied-score / shuffled runs.

Each tool runs in a fresh subprocess that imports itself, reads the qrels (TREC text) and the
run from disk and computes MAP, NDCG@10, RR, P@10 and R@100 per query; it reports the time of
each phase (import, load, evaluate; assay's streaming path reads and evaluates in one pass,
reported as evaluate), its CPU time and its peak resident memory, then writes its per-query
values, which the parent compares with pytrec_eval's (every query, every metric). End-to-end
is the whole process's wall time minus the time spent writing the per-query values. The first
run of each tool is reported as "cold" (first process on those files: module and numba caches,
page cache as left by the generator), the median of the following ones as "warm"; tools run in
turn (A B C D A B C D ...) so that drift in machine speed affects them alike.

    python benchmarks/bench_scale.py                           # 1e5 and 1e6, all variants
    python benchmarks/bench_scale.py --sizes 6.98e6 --variants plain --formats trec
    python benchmarks/bench_scale.py --sizes 3.5e7 --tools assay pytrec_eval --runs 1
    python benchmarks/bench_scale.py --plot benchmarks/scale.png   # also draw the plot

Data: seeded synthetic collections from ``bench_evaluate.make_data`` in benchmarks/data/
(git-ignored). Results are appended as JSON lines to benchmarks/out/scale.jsonl, which the
plot reads.
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
from typing import Any

from bench_evaluate import VARIANTS, compile_assay, data_paths

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"

SIZES = {
    "1e5": (1_000, 100),
    "1e6": (10_000, 100),
    "6.98e6": (6_980, 1_000),  # MS MARCO dev size
    "3.5e7": (35_000, 1_000),
}
METRICS = ("AP", "NDCG@10", "RR", "P@10", "R@100")

# Every child: argv = qrels, run, format (trec|parquet), output file for per-query values.
# It prints one JSON line: phases, cpu, rss_mb, dump (seconds spent writing the values).
PRELUDE = """
import json, resource, sys, time
T0 = time.perf_counter()
qrels_path, run_path, fmt, out_path = sys.argv[1:5]
def finish(phases, per_query, extra=None):
    ru = resource.getrusage(resource.RUSAGE_SELF)
    info = {"phases": phases, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024}
    info.update(extra or {})
    t = time.perf_counter()
    with open(out_path, "w") as f:
        json.dump(per_query, f)
    info["dump"] = time.perf_counter() - t
    print(json.dumps(info))
"""

ASSAY = (
    PRELUDE
    + """
import assay
T1 = time.perf_counter()
q = assay.Qrels.from_trec(qrels_path)
T2 = time.perf_counter()
names = {"AP": "map", "NDCG@10": "ndcg@10", "RR": "recip_rank", "P@10": "P@10", "R@100": "R@100"}
res = assay.evaluate(q, {"run": run_path}, list(names.values()))
T3 = time.perf_counter()
per_query = {}
for key, name in names.items():
    mv = res["run", name]
    per_query[key] = dict(zip(mv.queries.tolist(), mv.values.tolist()))
read = res.provenance["runs"]["run"].get("read", "whole")
finish({"import": T1 - T0, "load": T2 - T1, "evaluate": T3 - T2}, per_query, {"path": read})
"""
)

PYTREC = (
    PRELUDE
    + """
import pytrec_eval
T1 = time.perf_counter()
with open(qrels_path) as f:
    qrels = pytrec_eval.parse_qrel(f)
if fmt == "trec":
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
else:
    import pyarrow.parquet as pq
    t = pq.read_table(run_path)
    run = {}
    for qid, doc, score in zip(*(t.column(c).to_pylist() for c in ("query", "doc", "score"))):
        run.setdefault(qid, {})[doc] = score
    del t
T2 = time.perf_counter()
names = {"AP": "map", "NDCG@10": "ndcg_cut_10", "RR": "recip_rank", "P@10": "P_10",
         "R@100": "recall_100"}
ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "recip_rank", "P.10",
                                            "recall.100"})
res = ev.evaluate(run)
T3 = time.perf_counter()
per_query = {k: {q: v[m] for q, v in res.items()} for k, m in names.items()}
finish({"import": T1 - T0, "load": T2 - T1, "evaluate": T3 - T2}, per_query)
"""
)

RANX = (
    PRELUDE
    + """
from ranx import Qrels, Run, evaluate
T1 = time.perf_counter()
qrels = Qrels.from_file(qrels_path, kind="trec")
if fmt == "trec":
    run = Run.from_file(run_path, kind="trec")
else:
    import pandas as pd
    df = pd.read_parquet(run_path).astype({"query": object, "doc": object})
    run = Run.from_df(df, q_id_col="query", doc_id_col="doc", score_col="score")
    del df
T2 = time.perf_counter()
names = {"AP": "map", "NDCG@10": "ndcg@10", "RR": "mrr", "P@10": "precision@10",
         "R@100": "recall@100"}
evaluate(qrels, run, list(names.values()))
T3 = time.perf_counter()
per_query = {k: {q: float(v) for q, v in run.scores[m].items()} for k, m in names.items()}
finish({"import": T1 - T0, "load": T2 - T1, "evaluate": T3 - T2}, per_query)
"""
)

IR_MEASURES = (
    PRELUDE
    + """
import ir_measures
from ir_measures import AP, RR, nDCG, P, R
T1 = time.perf_counter()
qrels = list(ir_measures.read_trec_qrels(qrels_path))
if fmt == "trec":
    run = list(ir_measures.read_trec_run(run_path))
else:
    import pandas as pd
    run = pd.read_parquet(run_path).rename(
        columns={"query": "query_id", "doc": "doc_id"})
T2 = time.perf_counter()
names = {AP: "AP", nDCG@10: "NDCG@10", RR: "RR", P@10: "P@10", R@100: "R@100"}
per_query = {k: {} for k in names.values()}
for m in ir_measures.iter_calc(list(names), qrels, run):
    per_query[names[m.measure]][m.query_id] = m.value
T3 = time.perf_counter()
finish({"import": T1 - T0, "load": T2 - T1, "evaluate": T3 - T2}, per_query)
"""
)

TOOLS = {"assay": ASSAY, "pytrec_eval": PYTREC, "ranx": RANX, "ir_measures": IR_MEASURES}
MODULES = {
    "assay": "assay",
    "pytrec_eval": "pytrec_eval",
    "ranx": "ranx",
    "ir_measures": "ir_measures",
}


def generate(nq: int, nd: int, variant: str, parquet: bool) -> None:
    """The data files, written by a subprocess: a child's peak RSS counts its parent's at the
    fork (Linux keeps the high-water mark across exec), so this process must stay small."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from bench_evaluate import make_data; "
        f"make_data({nq}, {nd}, variant={variant!r}, parquet={parquet})"
    )
    subprocess.run([sys.executable, "-c", code, str(HERE)], check=True)


def run_tool(tool: str, qrels: Path, run: Path, fmt: str, values: Path) -> dict[str, Any]:
    """One subprocess of ``tool``: its report, with ``wall`` (end to end, writing excluded)."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", TOOLS[tool], str(qrels), str(run), fmt, str(values)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    if out.returncode != 0:
        last = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "killed"
        raise RuntimeError(f"{tool}: exit {out.returncode}: {last}")
    info: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    info["wall"] = wall - info["dump"]
    return info


def compare(reference: dict[str, dict[str, float]], other: dict[str, dict[str, float]]) -> str:
    """How ``other``'s per-query values differ from pytrec_eval's, in a few words."""
    worst, differing, total, missing = 0.0, 0, 0, 0
    for metric in METRICS:
        ref, got = reference[metric], other[metric]
        for q, v in ref.items():
            if q not in got:
                missing += 1
                continue
            total += 1
            d = abs(got[q] - v)
            worst = max(worst, d)
            differing += d > 1e-12
    text = f"{total} values: " + (
        "all equal" if not differing else f"{differing} differ (max {worst:.2g})"
    )
    return text + (f", {missing} missing" if missing else "")


def measure(tools: list[str], size: str, variant: str, fmt: str, runs: int) -> list[dict[str, Any]]:
    nq, nd = SIZES[size]
    generate(nq, nd, variant, fmt == "parquet")
    qrels, run_txt, run_parquet = data_paths(nq, nd, variant)
    run = run_txt if fmt == "trec" else run_parquet
    with tempfile.TemporaryDirectory() as tmp:
        values = {t: Path(tmp) / f"{t}.json" for t in tools}
        samples: dict[str, list[dict[str, Any]]] = {t: [] for t in tools}
        failed: dict[str, str] = {}
        for _ in range(runs + 1):  # the first is the cold run
            for t in tools:
                if t in failed:
                    continue
                try:
                    samples[t].append(run_tool(t, qrels, run, fmt, values[t]))
                except RuntimeError as exc:
                    failed[t] = str(exc)
        reference = (
            json.loads(values["pytrec_eval"].read_text()) if samples.get("pytrec_eval") else None
        )
        rows = []
        for t in tools:
            if t in failed:
                rows.append({"tool": t, "error": failed[t]})
                continue
            warm = samples[t][1:] or samples[t]
            row = {
                "tool": t,
                "size": size,
                "rows": nq * nd,
                "variant": variant,
                "format": fmt,
                "cold": samples[t][0]["wall"],
                "wall": statistics.median(s["wall"] for s in warm),
                "cpu": statistics.median(s["cpu"] for s in warm),
                "rss_mb": max(s["rss_mb"] for s in samples[t]),
                "phases": {
                    k: statistics.median(s["phases"][k] for s in warm)
                    for k in samples[t][0]["phases"]
                },
                "path": samples[t][-1].get("path", ""),
                "check": compare(reference, json.loads(values[t].read_text()))
                if reference is not None
                else "no pytrec_eval reference",
            }
            rows.append(row)
    return rows


def print_rows(rows: list[dict[str, Any]]) -> None:
    base = next((r for r in rows if r["tool"] == "pytrec_eval" and "error" not in r), None)
    for r in rows:
        if "error" in r:
            print(f"| {r['tool']} | failed: {r['error']} |", flush=True)
            continue
        ph = r["phases"]
        ratio = (
            f"{r['wall'] / base['wall']:.2f} | {r['cpu'] / base['cpu']:.2f} | "
            f"{r['rss_mb'] / base['rss_mb']:.2f}"
            if base
            else "- | - | -"
        )
        print(
            f"| {r['size']} | {r['variant']} | {r['format']} | {r['tool']} | {r['cold']:.2f} | "
            f"{r['wall']:.2f} | {r['cpu']:.2f} | {ph['import']:.2f} / {ph['load']:.2f} / "
            f"{ph['evaluate']:.2f} | {r['rss_mb']:.0f} | {ratio} | {r['check']} |",
            flush=True,
        )


def plot(path: Path) -> None:
    """Time and peak memory against rows, one line per tool (plain TREC runs)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(line) for line in (OUT / "scale.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r.get("variant") == "plain" and r.get("format") == "trec"]
    latest: dict[tuple[str, int], dict[str, Any]] = {}
    for r in rows:  # the last measurement of each (tool, rows)
        latest[(r["tool"], r["rows"])] = r
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(10, 4))
    for tool in TOOLS:
        pts = sorted((n, r) for (t, n), r in latest.items() if t == tool)
        if not pts:
            continue
        xs = [n for n, _ in pts]
        ax_t.plot(xs, [r["wall"] for _, r in pts], marker="o", label=tool)
        ax_m.plot(xs, [r["rss_mb"] for _, r in pts], marker="o", label=tool)
    for ax, label in ((ax_t, "end-to-end wall time (s)"), (ax_m, "peak RSS (MB)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("run rows")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    ax_t.legend()
    fig.suptitle("MAP, NDCG@10, RR, P@10, R@100 from TREC files (benchmarks/bench_scale.py)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"plot written to {path}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", nargs="+", choices=list(SIZES), default=["1e5", "1e6"])
    ap.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    ap.add_argument(
        "--formats", nargs="+", choices=("trec", "parquet"), default=["trec", "parquet"]
    )
    ap.add_argument("--tools", nargs="+", choices=list(TOOLS), default=list(TOOLS))
    ap.add_argument("--runs", type=int, default=2, help="warm runs per tool (after the cold one)")
    ap.add_argument("--plot", type=Path, help="draw time and memory against rows to this file")
    args = ap.parse_args()
    compile_assay()
    tools = [
        t
        for t in args.tools
        if subprocess.run([sys.executable, "-c", f"import {MODULES[t]}"], check=False).returncode
        == 0
    ]
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}; Python {sys.version.split()[0]}; "
        f"tools: {', '.join(tools)}"
    )
    print(
        "| rows | variant | input | tool | cold s | warm s | CPU s | import / load / evaluate s "
        "| peak RSS MB | wall / pytrec_eval | CPU / pytrec_eval | RSS / pytrec_eval "
        "| per-query values vs pytrec_eval |"
    )
    print("|---|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|")
    OUT.mkdir(exist_ok=True)
    for size in args.sizes:
        for variant in args.variants:
            for fmt in args.formats:
                rows = measure(tools, size, variant, fmt, args.runs)
                print_rows(rows)
                with open(OUT / "scale.jsonl", "a") as f:
                    for r in rows:
                        f.write(json.dumps({**r, "date": time.strftime("%Y-%m-%d")}) + "\n")
    if args.plot:
        plot(args.plot)


if __name__ == "__main__":
    main()
