"""Evaluating a run file block by block gives the in-memory path's values, for every metric
in the ranking catalogue and every convention; memory is bounded by a block."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import assay
import assay.evaluation
from assay import InputWarning, MissingQueryError, Qrels, Run
from assay.metrics import REGISTRY
from support.contracts import assert_same_results


def _all_ranking_metrics() -> list[str]:
    names = []
    for name, spec in REGISTRY.items():
        if spec.cutoff == "required":
            names.append(f"{name}@5")
        else:
            names.append(name)
    return names


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    """A synthetic collection with queries absent from the run, run queries unknown to the
    qrels, unjudged and negative judgments, and many score ties."""
    qrels, runs = assay.datasets.synthetic(
        n_queries=30, docs_per_query=25, noise=(0.5,), run_names=("r",), seed=11
    )
    run = runs["r"]
    keep = [q for q in run.queries if q not in ("q3", "q17")]  # absent from the run
    rows = run.to_arrow().select(["query", "doc", "score"])
    table = rows.filter(pa.compute.is_in(rows.column("query"), pa.array(keep)))
    extra = pa.table({"query": ["zz"] * 3, "doc": ["a", "b", "c"], "score": [1.0, 1.0, 2.0]})
    table = pa.concat_tables([table, extra.cast(table.schema)])
    # Round the scores so that ties are common.
    table = table.set_column(2, "score", pa.array(np.round(table.column(2).to_numpy(), 1)))
    path = tmp_path_factory.mktemp("stream") / "run.txt"
    Run.from_arrow(table, name="run.txt").to_trec(path)
    return qrels, path


CONVENTIONS = [
    {"ties": t, "missing": m, "no_relevant": n, "judged_only": j, "depth": d}
    for t, m, n, j, d in [
        ("docno", "zero", "zero", False, None),
        ("input", "skip", "nan", False, None),
        ("docno", "zero", "one", True, None),
        ("input", "zero", "skip", False, 7),
        ("docno", "skip", "zero", True, 3),
    ]
]


@pytest.mark.parametrize("conv", CONVENTIONS, ids=lambda c: "-".join(map(str, c.values())))
def test_blocks_equal_in_memory_for_every_metric(collection, conv):
    qrels, path = collection
    metrics = _all_ranking_metrics()
    memory = assay.evaluate(qrels, Run.read(path), metrics, **conv)
    import assay.io.blocks as blocks

    original = blocks.DEFAULT_BLOCK_BYTES
    blocks.DEFAULT_BLOCK_BYTES = 700  # a few lines per block: many carried-over queries
    try:
        assert len(list(blocks.iter_run_blocks(path))) > 20
        streamed = assay.evaluate(qrels, path, metrics, stream=True, **conv)
    finally:
        blocks.DEFAULT_BLOCK_BYTES = original
    assert_same_results(memory, streamed)
    assert streamed.provenance["runs"]["run.txt"]["read"] == "in blocks of whole queries"


def test_average_ties_blocks_equal_in_memory(collection):
    qrels, path = collection
    metrics = [n for n in _all_ranking_metrics() if REGISTRY.lookup(n.split("@")[0]).average_ties]
    memory = assay.evaluate(qrels, Run.read(path), metrics, ties="average")
    streamed = assay.evaluate(qrels, path, metrics, ties="average", stream=True)
    assert_same_results(memory, streamed)


def test_queries_not_together_fall_back_to_memory_and_say_so(tmp_path):
    path = tmp_path / "run.txt"
    # q1's rows come back after more of q2's than a block holds: q1 is in two blocks.
    q2 = [f"q2 Q0 x{i} {i} {1 - i / 100} t" for i in range(12)]
    rows = ["q1 Q0 a 1 3 t", "q1 Q0 b 2 2 t", *q2, "q1 Q0 c 3 1 t"]
    path.write_text("\n".join(rows) + "\n")
    qrels = Qrels.from_dict({"q1": {"a": 1, "c": 1}, "q2": {"x3": 1}})
    import assay.io.blocks as blocks

    original = blocks.DEFAULT_BLOCK_BYTES
    blocks.DEFAULT_BLOCK_BYTES = 16
    try:
        with pytest.warns(InputWarning, match="not together"):
            streamed = assay.evaluate(qrels, path, ["map"], stream=True)
    finally:
        blocks.DEFAULT_BLOCK_BYTES = original
    assert_same_results(assay.evaluate(qrels, Run.read(path), ["map"]), streamed)


def test_missing_error_is_raised_from_blocks_too(collection):
    qrels, path = collection
    with pytest.raises(MissingQueryError, match="q17"):
        assay.evaluate(qrels, path, ["map"], missing="error", stream=True)


def test_parquet_runs_stream_too(collection, tmp_path):
    qrels, path = collection
    run = Run.read(path)
    target = tmp_path / "run.parquet"
    pq.write_table(run.to_arrow(), target, row_group_size=50)
    import assay.io.blocks as blocks

    original = blocks.DEFAULT_BLOCK_ROWS
    blocks.DEFAULT_BLOCK_ROWS = 37
    try:
        streamed = assay.evaluate(qrels, target, ["map", "ndcg@10"], stream=True)
    finally:
        blocks.DEFAULT_BLOCK_ROWS = original
    memory = assay.evaluate(qrels, {"run.parquet": run}, ["map", "ndcg@10"])
    assert_same_results(memory, streamed)


def test_parquet_runs_stream_by_row_count(collection, tmp_path, monkeypatch):
    qrels, path = collection
    run = Run.read(path)
    target = tmp_path / "run.parquet"
    pq.write_table(run.to_arrow(), target)
    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1 << 40)  # bytes do not decide
    monkeypatch.setattr(assay.evaluation, "STREAM_ROWS", len(run) + 1)
    whole = assay.evaluate(qrels, target, ["map"])
    assert "read" not in whole.provenance["runs"]["run.parquet"]
    monkeypatch.setattr(assay.evaluation, "STREAM_ROWS", len(run))
    streamed = assay.evaluate(qrels, target, ["map"])
    assert streamed.provenance["runs"]["run.parquet"]["read"] == "in blocks of whole queries"
    assert_same_results(whole, streamed)


def test_queries_not_together_within_a_block_are_ranked_there(tmp_path):
    """A query whose rows are apart but within one block needs no fallback: the block is
    ranked from a Run, with the in-memory values."""
    path = tmp_path / "run.txt"
    rows = ["q1 Q0 a 1 3 t", "q1 Q0 b 2 2 t", "q2 Q0 a 1 1 t", "q1 Q0 c 3 1 t"]
    path.write_text("\n".join(rows) + "\n")
    qrels = Qrels.from_dict({"q1": {"a": 1, "c": 1}, "q2": {"a": 1}})
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        streamed = assay.evaluate(qrels, path, ["map", "P@2"], stream=True)
    assert_same_results(assay.evaluate(qrels, Run.read(path), ["map", "P@2"]), streamed)


@pytest.mark.parametrize("threads", ["1", "3"])
def test_thread_count_changes_nothing(collection, monkeypatch, threads):
    qrels, path = collection
    metrics = ["map", "ndcg@10", "P@5", "recip_rank", "R@10"]
    import assay.io.blocks as blocks

    monkeypatch.setattr(blocks, "DEFAULT_BLOCK_BYTES", 900)
    monkeypatch.setenv("ASSAY_THREADS", "2")
    two = assay.evaluate(qrels, path, metrics, stream=True)
    monkeypatch.setenv("ASSAY_THREADS", threads)
    assert_same_results(two, assay.evaluate(qrels, path, metrics, stream=True))
