"""Pairwise leaderboards (issue 28): Bradley–Terry with bootstrap intervals, ``assay
leaderboard`` against evalica's Rust core doing the same rounds, side by side.

Seeded synthetic comparisons (:func:`assay.judgments._synthetic_pairs.synthetic_comparisons`:
``--items`` items with latent strengths, 10 % ties) are written once as Parquet. Each tool
then runs in its own process (reading the file included) and computes the Bradley–Terry
scores (ties as half wins, tolerance 1e-6, at most 100 iterations: both tools' defaults) and
``--rounds`` bootstrap resamples, with 95 % percentile intervals:

- assay: ``assay leaderboard FILE --n-resamples R -f tsv`` (multinomial counts of the
  distinct comparisons, the batched kernel over blocks of resamples);
- evalica: the Chatbot Arena loop on evalica's Rust core, items coded once, then per round
  ``N`` row indices drawn with replacement and ``evalica.bradley_terry`` (pyo3 solver) on
  the drawn rows. (``evalica.bootstrap`` hands the rows to ``scipy.stats.bootstrap``, which
  draws all ``R x N`` indices at once: 8 GB at a million rows and 1,000 rounds.)

The figures are the median wall time and the peak RSS of the child; ``agree`` compares the
tools' interval ends (different random draws: the ends agree to the Monte Carlo error).

    python benchmarks/bench_pairwise.py --sizes 1e6 --rounds 1000 --runs 3
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from _child import measure_in_turn

EVALICA = """
import sys
import numpy as np, pandas as pd, pyarrow.parquet as pq
import evalica
path, rounds = sys.argv[1], int(sys.argv[2])
t = pq.read_table(path)
left, right = t["left"].to_numpy(zero_copy_only=False), t["right"].to_numpy(zero_copy_only=False)
codes = {"left": evalica.Winner.X, "right": evalica.Winner.Y, "tie": evalica.Winner.Draw}
winner = pd.Series(t["winner"].to_numpy(zero_copy_only=False)).map(codes).to_numpy(dtype=np.int64)
index = pd.Index(pd.unique(np.concatenate([left, right])))
xi, yi = index.get_indexer(left), index.get_indexer(right)
codes_index = pd.RangeIndex(len(index))
observed = evalica.bradley_terry(xi, yi, winner.tolist(), index=codes_index).scores.sort_index().to_numpy()
rng = np.random.default_rng(0)
n = len(xi)
dist = np.empty((rounds, len(index)))
for r in range(rounds):
    idx = rng.integers(0, n, n)
    res = evalica.bradley_terry(xi[idx], yi[idx], winner[idx].tolist(), index=codes_index)
    dist[r] = res.scores.sort_index().to_numpy()
low, high = np.percentile(dist, [2.5, 97.5], axis=0)
for name, s, lo, hi in zip(index, observed, low, high):
    print(f"{name}\\t{float(s)!r}\\t{float(lo)!r}\\t{float(hi)!r}")
"""


def _intervals(tsv: bytes, assay: bool) -> dict[str, tuple[float, float, float]]:
    """item -> (score, low, high), scores normalised to sum 1 (the tools scale differently)."""
    rows = [line.split("\t") for line in tsv.decode().splitlines() if line]
    if assay:
        head = rows[0]
        at = {k: head.index(k) for k in ("item", "score", "ci_low", "ci_high")}
        rows = [
            [r[at["item"]], r[at["score"]], r[at["ci_low"]], r[at["ci_high"]]] for r in rows[1:]
        ]
    return {r[0]: (float(r[1]), float(r[2]), float(r[3])) for r in rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=float, nargs="+", default=[1e6])
    ap.add_argument("--items", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tools", nargs="+", default=["assay", "evalica"])
    a = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import pyarrow as pa
    import pyarrow.parquet as pq

    from assay.judgments._synthetic_pairs import synthetic_comparisons

    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    print(
        "| comparisons | items | rounds | tool | wall s (median) | peak RSS MB | wall / evalica | agree |"
    )
    print("|---:|---:|---:|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for size in a.sizes:
            c = synthetic_comparisons(int(size), a.items, tie_share=0.1, seed=0)
            names = np.array(c.items, dtype=object)
            path = folder / "votes.parquet"
            table = pa.table(
                {
                    "left": names[c.left],
                    "right": names[c.right],
                    "winner": np.array(["left", "right", "tie"], dtype=object)[c.winner],
                }
            )
            pq.write_table(table, path)
            tools = {
                "assay": [
                    sys.executable,
                    "-m",
                    "assay",
                    "leaderboard",
                    str(path),
                    "--n-resamples",
                    str(a.rounds),
                    "-f",
                    "tsv",
                    "--quiet",
                ],
                "evalica": [sys.executable, "-c", EVALICA, str(path), str(a.rounds)],
            }
            tools = {k: v for k, v in tools.items() if k in a.tools}
            got = measure_in_turn(tools, folder, a.runs)
            agree = ""
            if {"assay", "evalica"} <= set(got):
                ours = _intervals(got["assay"][2], assay=True)
                theirs = _intervals(got["evalica"][2], assay=False)
                total_o = sum(v[0] for v in ours.values())
                total_t = sum(v[0] for v in theirs.values())
                gaps = [
                    max(abs(ours[k][j] / total_o - theirs[k][j] / total_t) for j in range(3))
                    / (theirs[k][2] / total_t - theirs[k][1] / total_t)
                    for k in theirs
                ]
                agree = f"ends within {max(gaps):.0%} of the interval's width"
            base = got.get("evalica", (float("nan"),))[0]
            for name, (wall, peak, _) in got.items():
                ratio = wall / base if base == base else float("nan")
                print(
                    f"| {int(size):,} | {a.items} | {a.rounds} | {name} | {wall:.2f} | {peak:.0f} | "
                    f"{ratio:.2f} | {agree} |"
                )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
