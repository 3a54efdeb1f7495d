"""Embedding retrieval benchmark: ``assay.embeddings.retrieval_metrics`` on its faiss and
its NumPy back-end.

100,000 × 128-d float32 embeddings in 100 classes of about 1,000 (Gaussian class centres
plus noise, seeded), leave-one-out (the reference set is the query set, ``exclude_self``),
euclidean distance, every measure: precision@1, r_precision, map@r, map, recall@1,
recall@10, recall_ir@10, mrr, ndcg@10 (k = the largest R, about 1,060 neighbours per query).
Each back-end runs in a fresh subprocess that loads the same .npy files; the parent records
the wall time, the time inside ``retrieval_metrics``, the child's CPU time (user + system,
less sensitive than wall time to other load on the machine) and its peak RSS. Both must
give the same values (checked: every per-query value equal).

    python benchmarks/bench_embeddings.py                  # 1 run each
    python benchmarks/bench_embeddings.py --items 20000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
METRICS = [
    "precision@1", "r_precision", "map@r", "map", "recall@1", "recall@10", "recall_ir@10",
    "mrr", "ndcg@10",
]  # fmt: skip

CHILD = """
import hashlib, json, resource, sys, time
import numpy as np
x = np.load(sys.argv[1]); y = np.load(sys.argv[2]); backend = sys.argv[3]
metrics = json.loads(sys.argv[4])
t = time.perf_counter()
from assay.embeddings import retrieval_metrics
res = retrieval_metrics(x, y, metrics=metrics, backend=backend)
seconds = time.perf_counter() - t
digest = hashlib.sha256(b"".join(res[m].tobytes() for m in res.metrics)).hexdigest()
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"seconds": seconds, "means": res.mean(), "k": res.k,
                  "neighbours": res.n_neighbours, "digest": digest,
                  "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}))
"""


def make_data(items: int, dim: int = 128, classes: int = 100, seed: int = 13) -> tuple[Path, Path]:
    import numpy as np

    DATA.mkdir(parents=True, exist_ok=True)
    xs, ys = DATA / f"embed.{items}x{dim}.npy", DATA / f"embed.{items}.labels.npy"
    if xs.exists() and ys.exists():
        return xs, ys
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(classes, dim)).astype(np.float32)
    labels = rng.integers(0, classes, items)
    noise = rng.normal(scale=1.5, size=(items, dim)).astype(np.float32)
    np.save(xs, centres[labels] + noise)
    np.save(ys, labels)
    return xs, ys


def run(backend: str, xs: Path, ys: Path) -> dict:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(xs), str(ys), backend, json.dumps(METRICS)],
        check=True,
        capture_output=True,
        text=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["wall"] = time.perf_counter() - start
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--backends", nargs="+", default=["faiss", "numpy"])
    args = parser.parse_args()
    xs, ys = make_data(args.items)
    results: dict[str, list[dict]] = {b: [] for b in args.backends}
    for _ in range(args.runs):
        for backend in args.backends:
            results[backend].append(run(backend, xs, ys))
    first = results[args.backends[0]][0]
    print(f"{args.items} x 128, k = {first['k']}, {first['neighbours']} neighbours per query")
    print(
        "| back-end | wall s | in-process s | CPU s | peak RSS MB | wall / faiss | CPU / faiss | RSS / faiss |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    base = min(results[args.backends[0]], key=lambda r: r["wall"])
    for backend, runs in results.items():
        best = min(runs, key=lambda r: r["wall"])
        print(
            f"| {backend} | {best['wall']:.1f} | {best['seconds']:.1f} | {best['cpu']:.1f} | "
            f"{best['rss_mb']:.0f} | {best['wall'] / base['wall']:.2f} | "
            f"{best['cpu'] / base['cpu']:.2f} | {best['rss_mb'] / base['rss_mb']:.2f} |"
        )
    digests = {r["digest"] for runs in results.values() for r in runs}
    print("identical per-query values across back-ends:", len(digests) == 1)
    print("means:", json.dumps({m: round(v, 6) for m, v in first["means"].items()}))


if __name__ == "__main__":
    main()
