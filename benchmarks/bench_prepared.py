"""The prepared evaluator (``assay.prepare``) against pytrec_eval, in process: the same qrels,
new scores each call -- a ranker's validation set evaluated once per epoch.

Per size, four ways of evaluating one new score array, called in turn (A B C D A B C D ...):

* ``assay prepared``: ``ev(scores)`` of an evaluator prepared once from the pairs;
* ``assay evaluate``: ``assay.evaluate(qrels, Run.from_columns(queries, docs, scores))``,
  what a loop did before (the ids are encoded again at every call);
* ``pytrec_eval``: ``RelevanceEvaluator.evaluate(run)`` on a run dict built beforehand (its
  building is not timed: the most favourable reading of pytrec_eval);
* ``pytrec_eval + dict``: building that dict from the arrays, then ``evaluate``.

Five metrics (MAP, NDCG@10, RR, P@10, R@100); 1,000 documents per query, about 28 graded
judgments per query, scores with 4 decimals (ties occur). Every call's values are checked
equal between assay's two ways and against pytrec_eval (to 1e-12; pytrec_eval keeps doubles).

    python benchmarks/bench_prepared.py                     # 50 and 1,000 queries, 7 rounds
    python benchmarks/bench_prepared.py --queries 50 1000 --rounds 11
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import assay

METRICS = ["map", "ndcg@10", "recip_rank", "P@10", "recall@100"]
PYTREC = {"map": "map", "ndcg@10": "ndcg_cut_10", "recip_rank": "recip_rank"}
PYTREC |= {"P@10": "P_10", "recall@100": "recall_100"}
DOCS_PER_QUERY = 1000


def make_collection(nq: int, seed: int = 0) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """Qrels ``{query: {doc: grade}}`` and the pairs (query and doc id arrays, object dtype)."""
    rng = np.random.default_rng(seed)
    qids = np.array([f"q{i}" for i in range(nq)], dtype=object)
    queries = np.repeat(qids, DOCS_PER_QUERY)
    docs = np.array([f"d{i}" for i in range(nq * DOCS_PER_QUERY)], dtype=object)
    qrels: dict[str, dict[str, int]] = {}
    for i, q in enumerate(qids):
        judged = rng.choice(DOCS_PER_QUERY, size=28, replace=False) + i * DOCS_PER_QUERY
        grades = rng.integers(0, 3, size=28)
        qrels[q] = {docs[j]: int(g) for j, g in zip(judged, grades, strict=True)}
    return qrels, queries, docs


def run_dict(queries: np.ndarray, docs: np.ndarray, scores: np.ndarray) -> dict[str, Any]:
    out: dict[str, dict[str, float]] = {}
    for q, d, s in zip(queries.tolist(), docs.tolist(), scores.tolist(), strict=True):
        out.setdefault(q, {})[d] = s
    return out


def bench(nq: int, rounds: int) -> list[dict[str, Any]]:
    import pytrec_eval

    qrels, queries, docs = make_collection(nq)
    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    ev = assay.prepare(qrels, METRICS, queries=queries, docs=docs)
    prepare_s = time.perf_counter() - t0
    aq = assay.Qrels.from_dict(qrels)
    pt = pytrec_eval.RelevanceEvaluator(
        qrels, {"map", "ndcg_cut.10", "recip_rank", "P.10"} | {"recall.100"}
    )

    def prepared(scores: np.ndarray, _: Any) -> dict[str, float]:
        return ev(scores)

    def evaluate(scores: np.ndarray, _: Any) -> dict[str, float]:
        run = assay.Run.from_columns(queries, docs, scores)
        return assay.evaluate(aq, run, METRICS).mean()["run"]

    def pytrec(_: np.ndarray, prebuilt: dict[str, Any]) -> dict[str, float]:
        return _pytrec_means(pt.evaluate(prebuilt))

    def pytrec_dict(scores: np.ndarray, _: Any) -> dict[str, float]:
        return _pytrec_means(pt.evaluate(run_dict(queries, docs, scores)))

    ways: dict[str, Callable[[np.ndarray, Any], dict[str, float]]] = {
        "assay prepared": prepared,
        "assay evaluate": evaluate,
        "pytrec_eval (prebuilt dict)": pytrec,
        "pytrec_eval + dict": pytrec_dict,
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(rounds + 1):  # the first round warms up and is not counted
        scores = np.round(rng.normal(size=len(docs)), 4)
        prebuilt = run_dict(queries, docs, scores)
        values = {}
        for name, way in ways.items():
            t0 = time.perf_counter()
            values[name] = way(scores, prebuilt)
            times[name].append(time.perf_counter() - t0)
        _check(values)
    base = statistics.median(times["pytrec_eval (prebuilt dict)"][1:])
    rows = []
    for name, ts in times.items():
        med = statistics.median(ts[1:])
        rows.append(
            {
                "queries": nq,
                "rows": len(docs),
                "way": name,
                "median_ms": med * 1e3,
                "min_ms": min(ts[1:]) * 1e3,
                "ratio": med / base,
            }
        )
    rows.append(
        {
            "queries": nq,
            "rows": len(docs),
            "way": "assay prepare (once)",
            "median_ms": prepare_s * 1e3,
            "min_ms": prepare_s * 1e3,
            "ratio": float("nan"),
        }
    )
    return rows


def _pytrec_means(per_query: dict[str, dict[str, float]]) -> dict[str, float]:
    return {
        ours: float(np.mean([v[theirs] for v in per_query.values()]))
        for ours, theirs in PYTREC.items()
    }


def _check(values: dict[str, dict[str, float]]) -> None:
    ours = values["assay prepared"]
    if ours != values["assay evaluate"]:
        raise SystemExit(f"prepared {ours} != evaluate {values['assay evaluate']}")
    for name in ("pytrec_eval (prebuilt dict)", "pytrec_eval + dict"):
        for metric, value in values[name].items():
            if abs(ours[metric] - value) > 1e-12:
                raise SystemExit(f"{metric}: assay {ours[metric]} != {name} {value}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--queries", type=int, nargs="+", default=[50, 1000])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    print("| queries | rows | way | median ms | min ms | / pytrec_eval (prebuilt dict) |")
    print("|---:|---:|---|---:|---:|---:|")
    for nq in args.queries:
        for r in bench(nq, args.rounds):
            ratio = "" if np.isnan(r["ratio"]) else f"{r['ratio']:.3f}"
            print(
                f"| {r['queries']:,} | {r['rows']:,} | {r['way']} | {r['median_ms']:.1f} "
                f"| {r['min_ms']:.1f} | {ratio} |"
            )


if __name__ == "__main__":
    main()
