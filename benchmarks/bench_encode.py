"""Building runs and qrels from columns (issue 30): ``Run.from_columns`` from NumPy text
(object, ``<U``, StringDType) and Arrow, ``Run.from_pandas``, ``Run.from_dict`` and
``Qrels.from_columns``, this tree's code against an older commit's, side by side.

Usage::

    python benchmarks/bench_encode.py                       # 250k and 1M rows, against 4cca8ea
    python benchmarks/bench_encode.py --sizes 1e6 --runs 7 --base 4cca8ea

The older code is taken from git (``git archive <base> src``) into a temporary folder; both
trees get their bytecode compiled first. Every measurement is a fresh process that imports one
tree, makes the data (seeded, the same for both; not timed), builds the table once untimed and
then ``--repeat`` times timed, and prints the median; the two trees take turns (A B A B ...),
``--runs`` processes each, and the table gives the median over processes and the ratio. Each
child also checks what it built: the rows of ``to_dict`` (hashed) must be equal for both trees.

Data: ``n`` rows, 1,000 documents per query, queries each in one run of rows (as files and data
frames hold them) in numeric order (``q1``, ``q2``, ... -- not byte order), document ids like
MS MARCO's (``D`` and 7 digits, distinct within a query, repeated across queries), and the scores
of a model being trained (random: the rows are not in rank order); with ``--sorted`` the rows
come in rank order, as systems write runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CASES = {
    "from_columns, NumPy object": "object",
    "from_columns, NumPy <U": "unicode",
    "from_columns, NumPy StringDType": "stringdtype",
    "from_columns, pyarrow": "arrow",
    "from_pandas": "pandas",
    "from_dict": "dict",
    "Qrels.from_columns, NumPy object": "qrels",
}

CHILD = r"""
import hashlib, json, statistics, sys, time
import numpy as np
import pyarrow as pa
case, n, repeat, ordered = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
from assay import Qrels, Run
rng = np.random.default_rng(30)
per = 1000
nq = max(n // per, 1)
q = np.repeat(np.array([f"q{i + 1}" for i in range(nq)], dtype=object), per)[:n]
ids = rng.integers(0, 8_841_823, size=n)
# distinct within a query: nudge a repeat to the next free number
d = np.array([f"D{x:07d}" for x in ids], dtype=object)
key = np.char.add(q.astype(str), d.astype(str))
_, first = np.unique(key, return_index=True)
dup = np.setdiff1d(np.arange(n), first)
d[dup] = [f"E{i:07d}" for i in dup]
s = rng.random(n)
if ordered:
    o = np.lexsort((-s, np.repeat(np.arange(nq), per)[:n]))
    q, d, s = q[o], d[o], s[o]
if case == "unicode":
    args = (q.astype(str), d.astype(str), s)
elif case == "stringdtype":
    args = (q.astype(np.dtypes.StringDType()), d.astype(np.dtypes.StringDType()), s)
elif case == "arrow":
    args = (pa.array(q.tolist(), pa.string()), pa.array(d.tolist(), pa.string()), s)
else:
    args = (q, d, s)
if case == "pandas":
    import pandas as pd
    df = pd.DataFrame({"query": q, "doc": d, "score": s})
    build = lambda: Run.from_pandas(df)
elif case == "dict":
    nested = {}
    for qq, dd, ss in zip(q.tolist(), d.tolist(), s.tolist()):
        nested.setdefault(qq, {})[dd] = ss
    build = lambda: Run.from_dict(nested)
elif case == "qrels":
    g = (s * 4).astype(np.int64)
    build = lambda: Qrels.from_columns(q, d, g)
else:
    build = lambda: Run.from_columns(*args)
table = build()
digest = hashlib.sha256(json.dumps(table.to_dict(), sort_keys=True).encode()).hexdigest()
times = []
for _ in range(repeat):
    t = time.perf_counter()
    build()
    times.append(time.perf_counter() - t)
print(json.dumps({"s": statistics.median(times), "digest": digest}))
"""


def base_tree(rev: str, folder: Path) -> Path:
    """``src`` of commit ``rev``, unpacked into ``folder`` (no worktree, no checkout)."""
    blob = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def compile_tree(src: Path) -> None:
    import compileall

    compileall.compile_dir(str(src / "assay"), quiet=1)


def child(src: Path, case: str, n: int, repeat: int, ordered: bool) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, case, str(n), str(repeat), "1" if ordered else "0"],
        capture_output=True,
        text=True,
        env=env,
    )
    if proc.returncode:
        raise SystemExit(f"{case} {n} under {src} failed: {proc.stderr.strip()[-800:]}")
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[2.5e5, 1e6])
    ap.add_argument("--cases", nargs="+", choices=sorted(CASES.values()), default=None)
    ap.add_argument("--runs", type=int, default=5, help="processes per tree and case")
    ap.add_argument("--repeat", type=int, default=5, help="timed builds per process")
    ap.add_argument("--base", default="4cca8ea", help="the older commit (default: 4cca8ea)")
    ap.add_argument("--sorted", action="store_true", help="rows in rank order")
    args = ap.parse_args()
    cases = {k: v for k, v in CASES.items() if args.cases is None or v in args.cases}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": base_tree(args.base, Path(tmp)), "after": ROOT / "src"}
        for src in trees.values():
            compile_tree(src)
        print(
            f"rows, input | before ({args.base}) s | after s | after / before "
            f"(median of {args.runs} processes x {args.repeat} builds, "
            f"{'rank order' if args.sorted else 'random scores'})"
        )
        for size in args.sizes:
            n = int(size)
            for label, case in cases.items():
                times: dict[str, list[float]] = {name: [] for name in trees}
                digests: dict[str, set[object]] = {name: set() for name in trees}
                for _ in range(args.runs):
                    for name, src in trees.items():
                        r = child(src, case, n, args.repeat, args.sorted)
                        times[name].append(float(str(r["s"])))
                        digests[name].add(r["digest"])
                if digests["before"] != digests["after"] or len(digests["after"]) != 1:
                    raise SystemExit(f"{label} at {n:,} rows: the trees built different tables")
                before = statistics.median(times["before"])
                after = statistics.median(times["after"])
                print(f"{n:,}, {label} | {before:.4f} | {after:.4f} | {after / before:.2f}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
