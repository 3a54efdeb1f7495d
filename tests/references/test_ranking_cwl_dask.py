"""assay.dist: the C/W/L measures and Compat give the in-memory values, bit for bit, whatever
the partitioning (the block path is covered for every registry metric by
test_ranking_blocks.py)."""

from __future__ import annotations

import pytest

import assay
from assay import Run
from support.contracts import assert_same_results

dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")

METRICS = [
    "INST",
    "INST(T=2, quantity='ETU', residual=True)",
    "INSQ(depth=50)",
    "BPM@10",
    "BPM_dynamic(hb=0.5)@10",
    "SDCG@10",
    "NERR8@5",
    "NERR9@10",
    "NERR10(p=0.8, quantity='ED')",
    "NERR11(T=2)",
    "Compat",
    "Compat(p=0.8, normalize=False)",
]


@pytest.mark.parametrize("npartitions", [1, 3, 7])
def test_dask_equals_in_memory(npartitions: int) -> None:
    qrels, runs = assay.datasets.synthetic(
        n_queries=25, docs_per_query=30, noise=(0.6,), run_names=("a",), seed=11
    )
    df = runs["a"].to_pandas()[["query", "doc", "score"]]
    df = df.sample(frac=1.0, random_state=2).reset_index(drop=True)
    memory = assay.evaluate(qrels, {"a": Run.from_pandas(df, name="a")}, METRICS)
    with dask.config.set(scheduler="sync"):
        ddf = dd.from_pandas(df, npartitions=npartitions)
        distributed = assay.dist.evaluate(qrels, {"a": ddf}, METRICS)
    assert_same_results(memory, distributed)
