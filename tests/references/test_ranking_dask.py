"""assay.dist: evaluation on Dask gives the in-memory values whatever the partitioning,
scheduler or worker count."""

from __future__ import annotations

import itertools

import pytest

import assay
from assay import Qrels, Run
from support.contracts import assert_same_results

dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")

METRICS = ["map", "ndcg@10", "P@5", "recip_rank", "err@20", "rbp_resid", "bpref", "11pt_avg"]
METRICS += ["gdeval_ndcg@20", "gdeval_err@20"]
METRICS += ["alpha_ndcg@10", "err_ia@5", "nerr_ia@20", "nnrbp", "map_ia", "p_ia@5", "strec@10"]


@pytest.fixture(scope="module")
def collection():
    qrels, runs = assay.datasets.synthetic(
        n_queries=25, docs_per_query=30, noise=(0.4, 1.0), run_names=("a", "b"), seed=5
    )
    frames = {}
    for name, run in runs.items():
        df = run.to_pandas()[["query", "doc", "score"]]
        df = df[~df["query"].isin(["q4"])]  # one qrels query without results
        # Rows of a query spread over partitions: the shuffle must gather them.
        df = df.sample(frac=1.0, random_state=1).reset_index(drop=True)
        frames[name] = df
    return qrels, frames


@pytest.mark.parametrize("npartitions", [1, 3, 7])
@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_dask_equals_in_memory(collection, npartitions, missing):
    qrels, frames = collection
    memory = assay.evaluate(
        qrels,
        {n: Run.from_pandas(df, name=n) for n, df in frames.items()},
        METRICS,
        missing=missing,
    )
    ddfs = {n: dd.from_pandas(df, npartitions=npartitions) for n, df in frames.items()}
    with dask.config.set(scheduler="sync"):
        distributed = assay.dist.evaluate(qrels, ddfs, METRICS, missing=missing)
    assert_same_results(memory, distributed)
    assert distributed.provenance["runs"]["a"]["partitions"] == npartitions


@pytest.mark.parametrize("npartitions", [1, 4])
def test_dask_equals_in_memory_for_every_catalogue_metric(collection, npartitions):
    """Every declaration of the ranking catalogue (the preference metrics included) gives
    the in-memory values bit for bit on Dask."""
    from assay.metrics import REGISTRY

    qrels, frames = collection
    metrics = [f"{n}@5" if s.cutoff == "required" else n for n, s in REGISTRY.items()]
    assert {"pref_agreement", "pref_agreement_balanced", "pref_pairs"} <= set(metrics)
    memory = assay.evaluate(qrels, Run.from_pandas(frames["a"], name="a"), metrics)
    with dask.config.set(scheduler="sync"):
        distributed = assay.dist.evaluate(
            qrels, {"a": dd.from_pandas(frames["a"], npartitions=npartitions)}, metrics
        )
    assert_same_results(memory, distributed)


def test_dask_on_a_distributed_cluster(collection):
    distributed = pytest.importorskip("distributed")
    qrels, frames = collection
    memory = assay.evaluate(qrels, Run.from_pandas(frames["a"], name="run"), METRICS)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False) as cluster,
        distributed.Client(cluster),
    ):
        result = assay.dist.evaluate(qrels, dd.from_pandas(frames["a"], npartitions=4), METRICS)
    assert_same_results(memory, result)


def test_unshuffled_partitions_splitting_a_query_are_refused(collection):
    qrels, frames = collection
    ddf = dd.from_pandas(frames["a"], npartitions=3)
    with dask.config.set(scheduler="sync"), pytest.raises(assay.InputError, match="not together"):
        assay.dist.evaluate(qrels, ddf, ["map"], shuffled=True)


def test_bad_inputs_are_refused(collection):
    qrels, frames = collection
    with pytest.raises(assay.InputError, match="Dask DataFrame"):
        assay.dist.evaluate(qrels, frames["a"], ["map"])
    ddf = dd.from_pandas(frames["a"].rename(columns={"doc": "docno"}), npartitions=2)
    with pytest.raises(assay.InputError, match="no column"):
        assay.dist.evaluate(qrels, {"x": ddf}, ["map"])
    with pytest.raises(assay.OptionError):
        assay.dist.evaluate(qrels, {"x": ddf}, ["map"], ties="random")
    assert isinstance(qrels, Qrels)


def test_a_run_path_that_is_not_parquet_is_an_input_error(collection, tmp_path):
    """A TREC text run given where a Parquet path is expected: one InputError naming the
    file and the reader to use (it was Arrow's ArrowInvalid)."""
    qrels, _ = collection
    text = tmp_path / "run.txt"
    text.write_text("q1 Q0 d1 1 1.0 r\n", encoding="utf-8")
    with pytest.raises(assay.InputError, match=r"run\.txt.*not a Parquet.*read_trec_run"):
        assay.dist.evaluate(qrels, str(text), ["map"])


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:The inplace keyword")  # dask's Parquet reader on pandas 3
def test_million_rows_parquet_dataset_on_two_workers(tmp_path):
    """1M rows written as a Parquet dataset whose files split queries, and as TREC text read
    in byte ranges, evaluated on a local cluster of two worker processes: the per-query
    values and the means are bit-identical to the single-machine path."""
    distributed = pytest.importorskip("distributed")
    import pyarrow.parquet as pq

    qrels, runs = assay.datasets.synthetic(
        n_queries=1000,
        docs_per_query=1000,
        noise=(0.8,),
        run_names=("big",),
        judged_fraction=0.3,
        seed=3,
    )
    run = runs["big"]
    assert len(run) == 1_000_000
    table = run.to_arrow().select(["query", "doc", "score"])
    folder = tmp_path / "big"
    folder.mkdir()
    step = 333_333  # not a multiple of 1000: files begin and end inside queries
    for i, start in enumerate(range(0, table.num_rows, step)):
        pq.write_table(table.slice(start, step), folder / f"part-{i}.parquet")
    dataset = dd.read_parquet(str(folder))
    with dask.config.set(scheduler="sync"):
        queries = [dataset.partitions[i]["query"].compute() for i in range(dataset.npartitions)]
    split = [a.iloc[-1] == b.iloc[0] for a, b in itertools.pairwise(queries)]
    assert dataset.npartitions == 4 and all(split)
    text = tmp_path / "big.txt"
    run.to_trec(text)
    metrics = ["map", "ndcg@10", "recip_rank", "P@10", "recall@100"]
    memory = assay.evaluate(qrels, {"big": run}, metrics)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster,
        distributed.Client(cluster),
    ):
        result = assay.dist.evaluate(qrels, {"big": str(folder)}, metrics)
        from_text = assay.dist.evaluate(
            qrels, {"big": assay.dist.read_trec_run(text, partition_bytes=5_000_000)}, metrics
        )
    assert_same_results(memory, result)
    assert_same_results(memory, from_text)
    assert len(result["big", "AP"].values) == 1000
    assert result.provenance["runs"]["big"]["partitions"] == 4


def test_trec_text_in_byte_ranges(collection, tmp_path):
    """Byte ranges of every size cut lines and queries anywhere: the rows read are the
    file's, once each, and the values those of the in-memory path."""
    qrels, frames = collection
    run = Run.from_pandas(frames["a"], name="a")
    path = tmp_path / "a.txt"
    run.to_trec(path)
    memory = assay.evaluate(qrels, {"a": run}, METRICS)
    size = path.stat().st_size
    for partition_bytes in (997, 4096, size - 1, size, 10 * size):
        ddf = assay.dist.read_trec_run(path, partition_bytes=partition_bytes)
        assert ddf.npartitions == -(-size // partition_bytes)
        with dask.config.set(scheduler="sync"):
            assert len(ddf) == len(run)
            assert_same_results(memory, assay.dist.evaluate(qrels, {"a": ddf}, METRICS))
    with pytest.raises(assay.OptionError):
        assay.dist.read_trec_run(path, partition_bytes=0)
    with pytest.raises(assay.ParseError, match="no such file"):
        assay.dist.read_trec_run(tmp_path / "nothing.txt")
