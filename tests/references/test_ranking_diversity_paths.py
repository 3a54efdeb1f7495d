"""With subtopic qrels, the block-by-block (streamed run file) and Dask paths give the
in-memory values of every diversity measure bit for bit, whatever the block size or
partitioning."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay import Qrels, Run
from strategies.diversity import diversity_case
from support.contracts import assert_same_results

METRICS = [
    "alpha_dcg@5",
    "alpha_ndcg@10",
    "alpha_ndcg(alpha=0.2, rel=2)@3",
    "err_ia@20",
    "nerr_ia@5",
    "nrbp(beta=0.8)",
    "nnrbp",
    "p_ia@10",
    "map_ia",
    "subtopic_recall@5",
    "ndcg@10",
]


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> tuple[Qrels, Run, str]:
    rng = np.random.default_rng(3)
    qrels_rows, run_rows = [], []
    for c in range(60):
        case = diversity_case(rng)
        qrels_rows += [(f"q{c}-{q}", s, d, g) for q, s, d, g in case.qrels]
        run_rows += [(f"q{c}-{q}", d, x) for q, d, x in case.run]
    qrels = Qrels.from_subtopics(*(list(col) for col in zip(*qrels_rows, strict=True)))
    run = Run.from_columns(*(list(col) for col in zip(*run_rows, strict=True)), name="run.txt")
    path = tmp_path_factory.mktemp("div") / "run.txt"
    run.to_trec(path)
    return qrels, Run.read(path), str(path)


@pytest.mark.parametrize(
    "conv",
    [
        {},
        {"ties": "input", "missing": "skip", "no_relevant": "nan"},
        {"judged_only": True, "depth": 4},
    ],
)
def test_blocks_equal_in_memory(collection, conv) -> None:
    import assay.io.blocks as blocks

    qrels, run, path = collection
    memory = assay.evaluate(qrels, run, METRICS, **conv)
    original = blocks.DEFAULT_BLOCK_BYTES
    blocks.DEFAULT_BLOCK_BYTES = 500
    try:
        assert len(list(blocks.iter_run_blocks(path))) > 10
        streamed = assay.evaluate(qrels, path, METRICS, stream=True, **conv)
    finally:
        blocks.DEFAULT_BLOCK_BYTES = original
    assert_same_results(memory, streamed)


@pytest.mark.parametrize("npartitions", [1, 4])
def test_dask_equals_in_memory(collection, npartitions: int) -> None:
    dd = pytest.importorskip("dask.dataframe")
    dask = pytest.importorskip("dask")
    qrels, run, _ = collection
    df = run.to_pandas()[["query", "doc", "score"]].sample(frac=1.0, random_state=2)
    memory = assay.evaluate(qrels, Run.from_pandas(df, name="run"), METRICS)
    with dask.config.set(scheduler="sync"):
        distributed = assay.dist.evaluate(
            qrels, {"run": dd.from_pandas(df, npartitions=npartitions)}, METRICS
        )
    assert_same_results(memory, distributed)
    assert any(v > 0 for v in memory.per_query("run", "alpha_ndcg@10").values())
