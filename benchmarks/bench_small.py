"""Small runs, whole process (issue 30): ``assay evaluate`` vs a pytrec_eval script vs
trec_eval's C binary, from the same TREC files, each command a fresh process.

Cases: 50 topics × 1,000 documents (50k rows, a TREC track's run), 1,000 topics × 1,000 (1M
rows; data from ``bench_evaluate.make_data``) and trec_eval's own test files (``qrels.test``,
``results.test``, 1,500 rows: the cold start), plus ``assay --help``. Five metrics: MAP,
NDCG@10, RR, P@10, R@100 (trec_eval: ``map ndcg_cut.10 recip_rank P.10 recall.100``).

- ``assay``: ``python -m assay evaluate QRELS RUN -m map -m ndcg@10 -m recip_rank -m P@10
  -m recall@100`` with this checkout's ``src`` first on ``PYTHONPATH``, its output to a file
  (not a terminal: TSV); ``--before SRC`` adds the same command on another checkout's
  ``src`` (the code before a change), timed in the same turns.
- ``pytrec_eval``: a script that imports pytrec_eval, parses both files
  (``parse_qrel``/``parse_run``), evaluates and prints each measure's mean.
- ``trec_eval``: the binary (``--trec-eval PATH``, else ``$TREC_EVAL``, else ``trec_eval`` on
  ``PATH``); left out when there is none.

Every command runs once untimed, then ``--runs`` times in turn (A B C A B C ...); reported:
the median wall time (benchmarks/_child.py: the child process alone, its output written to a
file) and the ratio to pytrec_eval's. Bytecode is compiled for assay first (pip does it on
install; pytrec_eval's is compiled). ``--phases`` also prints where one ``assay evaluate``
process spends its time (imports, read + evaluate, report, output), medians of the runs.

    python benchmarks/bench_small.py                         # 7 runs
    python benchmarks/bench_small.py --runs 9 --phases --before /tmp/old/src
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _child import measure
from bench_evaluate import compile_assay, make_data

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
SHARED = HERE.parent.parent / "shared" / "data" / "trec_eval"

ASSAY_METRICS = ["map", "ndcg@10", "recip_rank", "P@10", "recall@100"]
TREC_EVAL_METRICS = ["map", "ndcg_cut.10", "recip_rank", "P.10", "recall.100"]

PYTREC = """
import sys
import pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
measures = {"map", "ndcg_cut_10", "recip_rank", "P_10", "recall_100"}
res = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "recip_rank", "P.10",
                                             "recall.100"}).evaluate(run)
for m in sorted(measures):
    print(m, "all", sum(v[m] for v in res.values()) / len(res), sep="\\t")
"""

# One `assay evaluate` process, timed phase by phase (the CLI's own work is what is left of
# the whole after imports, read + evaluate, report and output).
PHASES = """
import io, json, sys, time
t0 = time.perf_counter()
import typer
t1 = time.perf_counter()
import assay.cli
t2 = time.perf_counter()
import numpy
t3 = time.perf_counter()
import pyarrow
t4 = time.perf_counter()
import pyarrow.compute
t5 = time.perf_counter()
from assay.ranking.collection import evaluate_files
res = evaluate_files(sys.argv[1], [sys.argv[2]], sys.argv[3:])
t6 = time.perf_counter()
from assay.cli._common import present
rep = res.report(per_query=False)
t7 = time.perf_counter()
out, sys.stdout = sys.stdout, io.StringIO()
present(rep, "tsv", None)
sys.stdout = out
t8 = time.perf_counter()
print(json.dumps({"typer": t1 - t0, "assay.cli (without typer)": t2 - t1, "numpy": t3 - t2,
                  "pyarrow": t4 - t3, "pyarrow.compute": t5 - t4,
                  "assay modules + read + evaluate": t6 - t5, "report": t7 - t6,
                  "output (TSV)": t8 - t7}))
"""


def _env(src: Path) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(src), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def _trec_eval(given: str | None) -> str | None:
    exe = given or os.environ.get("TREC_EVAL") or shutil.which("trec_eval")
    return exe if exe and Path(exe).is_file() else None


def tools_for(
    qrels: Path, run: Path, script: Path, trec_eval: str | None, before: Path | None
) -> dict[str, list[str]]:
    """The commands of one case, by tool (assay's run under ``env`` set by the caller)."""
    assay = ["-m", "assay", "evaluate", str(qrels), str(run)]
    for m in ASSAY_METRICS:
        assay += ["-m", m]
    # env(1) puts each checkout's src first for its own command only.
    tools = {"assay": ["env", f"PYTHONPATH={SRC}", sys.executable, *assay]}
    if before is not None:
        tools["assay (before)"] = ["env", f"PYTHONPATH={before}", sys.executable, *assay]
    tools["pytrec_eval"] = [sys.executable, str(script), str(qrels), str(run)]
    if trec_eval is not None:
        te = [trec_eval]
        for m in TREC_EVAL_METRICS:
            te += ["-m", m]
        tools["trec_eval"] = [*te, str(qrels), str(run)]
    return tools


def timed(tools: dict[str, list[str]], folder: Path, runs: int) -> dict[str, float]:
    """Median wall time per tool: one untimed run each, then ``runs`` in turn."""
    walls: dict[str, list[float]] = {name: [] for name in tools}
    for i, cmd in enumerate(tools.values()):
        measure(cmd, folder / f"warm{i}")
    for _ in range(runs):
        for i, (name, cmd) in enumerate(tools.items()):
            walls[name].append(measure(cmd, folder / f"out{i}")["wall_s"])
    return {name: statistics.median(w) for name, w in walls.items()}


def phases(qrels: Path, run: Path, runs: int, src: Path) -> dict[str, float]:
    """Median seconds of each phase of one ``assay evaluate`` process."""
    samples: list[dict[str, float]] = []
    for _ in range(runs):
        proc = subprocess.run(
            [sys.executable, "-c", PHASES, str(qrels), str(run), *ASSAY_METRICS],
            env=_env(src),
            capture_output=True,
            text=True,
            check=True,
        )
        samples.append(json.loads(proc.stdout))
    return {k: statistics.median(s[k] for s in samples) for k in samples[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="timed runs per command")
    ap.add_argument("--trec-eval", help="trec_eval binary (default: $TREC_EVAL, PATH)")
    ap.add_argument("--before", type=Path, help="another checkout's src, timed alongside")
    ap.add_argument("--phases", action="store_true", help="also time assay's phases")
    args = ap.parse_args()
    compile_assay()
    if args.before is not None:
        import compileall

        compileall.compile_dir(str(args.before / "assay"), quiet=1)
    trec_eval = _trec_eval(args.trec_eval)
    cases = {
        "50 topics × 1,000 (50k rows)": make_data(50, 1_000),
        "1,000 topics × 1,000 (1M rows)": make_data(1_000, 1_000),
    }
    if (SHARED / "results.test").exists():
        cases["trec_eval's test files (1,500 rows): cold start"] = (
            SHARED / "qrels.test",
            SHARED / "results.test",
        )
    load = os.getloadavg()
    print(
        f"# {os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"Python {sys.version.split()[0]}; trec_eval: {trec_eval or 'not found'}; "
        f"median of {args.runs}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script = folder / "pytrec_whole.py"
        script.write_text(PYTREC)
        print("| case | tool | wall s (median) | ÷ pytrec_eval |")
        print("|---|---|---:|---:|")
        for label, (qrels, run) in cases.items():
            walls = timed(tools_for(qrels, run, script, trec_eval, args.before), folder, args.runs)
            for name, wall in walls.items():
                ratio = wall / walls["pytrec_eval"]
                print(f"| {label} | {name} | {wall:.3f} | {ratio:.2f} |", flush=True)
        helps = {"assay": ["env", f"PYTHONPATH={SRC}", sys.executable, "-m", "assay", "--help"]}
        if args.before is not None:
            helps["assay (before)"] = [*helps["assay"][:1], f"PYTHONPATH={args.before}"]
            helps["assay (before)"] += helps["assay"][2:]
        for name, wall in timed(helps, folder, args.runs).items():
            print(f"| `assay --help` | {name} | {wall:.3f} | |")
    if args.phases:
        sources = {"assay": SRC} | ({"before": args.before} if args.before is not None else {})
        for tag, src in sources.items():
            print()
            print(f"| phase of one `assay evaluate` process ({tag}) | " + " | ".join(cases) + " |")
            print("|---|" + "---:|" * len(cases))
            found = {label: phases(q, r, args.runs, src) for label, (q, r) in cases.items()}
            for key in next(iter(found.values())):
                cells = " | ".join(f"{found[label][key]:.3f}" for label in cases)
                print(f"| {key} | {cells} |")


if __name__ == "__main__":
    main()
