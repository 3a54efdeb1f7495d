"""``assay evaluate --dask`` in process: a scheduler address or ``local``, TREC text and
Parquet datasets, the same output as the single-machine command; a missing extra or an
unreachable scheduler is one line and exit 2. Large run files are streamed by default."""

from __future__ import annotations

import importlib
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import assay
import assay.dist.trec
import assay.evaluation
from support.cli import assert_one_line_error, invoke

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")

METRICS = ["-m", "map", "-m", "ndcg@10", "-m", "P@5", "-m", "recip_rank", "-m", "bpref"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("dask-cli")
    qrels, runs = assay.datasets.synthetic(
        n_queries=40, docs_per_query=30, noise=(0.5, 1.0), run_names=("a", "b"), seed=8
    )
    out = {"qrels": d / "qrels.txt", "a": d / "a.txt", "b": d / "b.txt"}
    qrels.to_trec(out["qrels"])
    for name in ("a", "b"):
        runs[name].to_trec(out[name])
    # The same run as a Parquet dataset of three files that cut queries in two.
    table = runs["b"].to_arrow().select(["query", "doc", "score"])
    folder = d / "b.parquet"
    folder.mkdir()
    step = table.num_rows // 3 + 7
    for i, start in enumerate(range(0, table.num_rows, step)):
        pq.write_table(table.slice(start, step), folder / f"part-{i}.parquet")
    out["b_dataset"] = folder
    return out


@pytest.fixture(scope="module")
def scheduler() -> str:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _output(*args: str | Path) -> str:
    code, out, err = invoke("evaluate", *args, "-q", "-f", "tsv")
    assert code == 0, err
    return out


def test_scheduler_address_gives_the_single_machine_output(files, scheduler) -> None:
    expected = _output(files["qrels"], files["a"], files["b"], *METRICS)
    # Small byte ranges: TREC text is read in many partitions that cut queries.
    original = assay.dist.trec.DEFAULT_PARTITION_BYTES
    assay.dist.trec.DEFAULT_PARTITION_BYTES = 2000
    try:
        on_dask = _output(files["qrels"], files["a"], files["b"], *METRICS, "--dask", scheduler)
    finally:
        assay.dist.trec.DEFAULT_PARTITION_BYTES = original
    assert on_dask == expected
    assert len(expected.splitlines()) > 2 * 5 * 40


def test_parquet_dataset_folder_on_dask(files, scheduler) -> None:
    expected = _output(files["qrels"], files["b"], *METRICS).replace("b.txt", "b.parquet")
    on_dask = _output(files["qrels"], files["b_dataset"], *METRICS, "--dask", scheduler)
    assert on_dask == expected


def test_dask_local_starts_a_cluster(files) -> None:
    expected = _output(files["qrels"], files["a"], "-m", "map")
    assert _output(files["qrels"], files["a"], "-m", "map", "--dask", "local") == expected


def test_missing_extra_is_an_install_hint(files, monkeypatch) -> None:
    real = importlib.import_module

    def without_distributed(name: str, *args: object) -> object:
        if name.split(".")[0] == "distributed":
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr("assay._optional.importlib.import_module", without_distributed)
    code, out, err = invoke("evaluate", files["qrels"], files["a"], "--dask", "local")
    assert_one_line_error(code, out, err, "pip install 'assay[dist]'")


def test_unreachable_scheduler_is_one_line(files) -> None:
    code, out, err = invoke("evaluate", files["qrels"], files["a"], "--dask", "no-port")
    assert_one_line_error(code, out, err, "cannot reach the Dask scheduler at no-port")
    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
        code, out, err = invoke(
            "evaluate", files["qrels"], files["a"], "--dask", "tcp://127.0.0.1:1"
        )
    assert_one_line_error(code, out, err, "cannot reach the Dask scheduler")


def test_other_run_formats_are_refused_on_dask(files, tmp_path) -> None:
    csv = tmp_path / "run.csv"
    csv.write_text("query,doc,score\nq1,d1,1.0\n")
    code, out, err = invoke("evaluate", files["qrels"], csv, "--dask", "no-port")
    assert_one_line_error(code, out, err, "--dask reads TREC text or Parquet runs")


def test_large_run_files_are_streamed(files, monkeypatch) -> None:
    import assay.io.blocks

    expected = _output(files["qrels"], files["a"], files["b"], *METRICS)
    read = []
    iter_run_blocks = assay.io.blocks.iter_run_blocks

    def counting(path, **options):
        read.append(Path(path).name)
        return iter_run_blocks(path, **options)

    threshold = files["a"].stat().st_size
    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", threshold)
    monkeypatch.setattr(assay.io.blocks, "iter_run_blocks", counting)
    assert _output(files["qrels"], files["a"], files["b"], *METRICS) == expected
    # Exactly the files at or above the threshold are read block by block.
    big = [f"{n}.txt" for n in ("a", "b") if files[n].stat().st_size >= threshold]
    assert read == big and "a.txt" in read


def test_compare_streams_large_run_files_too(files, monkeypatch) -> None:
    import assay.io.blocks

    argv = ["compare", files["qrels"], files["a"], files["b"], "-m", "map", "-f", "tsv"]
    argv += ["--n-resamples", "200"]
    code, expected, err = invoke(*argv)
    assert code == 0, err
    read = []
    iter_run_blocks = assay.io.blocks.iter_run_blocks

    def counting(path, **options):
        read.append(Path(path).name)
        return iter_run_blocks(path, **options)

    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1)
    monkeypatch.setattr(assay.io.blocks, "iter_run_blocks", counting)
    assert invoke(*argv)[1] == expected
    assert read == ["a.txt", "b.txt"]


def test_report_and_save_are_refused_with_dask(files: dict[str, Path], tmp_path: Path) -> None:
    """The report draws curves from the runs on this machine: not from a Dask cluster."""
    for flag in ("--report", "--save"):
        target = tmp_path / ("r.html" if flag == "--report" else "r.json")
        code, out, err = invoke(
            "evaluate", files["qrels"], files["a"], "--dask", "local", flag, target
        )
        assert_one_line_error(code, out, err, "not with --dask")
        assert not target.exists()
