"""``assay evaluate --dask`` never waits for ever and never loses rows without a word: a
cluster that finishes no task within the deadline (its only worker died) is one line and exit
2; a run file that changes after the work was planned (it grew: new rows the byte ranges cut
at planning would not cover) is refused by the task that reads it."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

import assay
import assay.dist
from support.cli import assert_one_line_error, invoke

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
#: The module (``assay.dist.evaluate`` names the function).
planning = sys.modules["assay.dist.evaluate"]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    qrels, runs = assay.datasets.synthetic(n_queries=12, docs_per_query=10, seed=4)
    out = {"qrels": tmp_path / "qrels.txt", "run": tmp_path / "run.txt"}
    qrels.to_trec(out["qrels"])
    runs["run1"].to_trec(out["run"])
    table = runs["run2"].to_arrow().select(["query", "doc", "score"])
    folder = tmp_path / "run2.parquet"
    folder.mkdir()
    import pyarrow.parquet as pq

    pq.write_table(table.slice(0, 50), folder / "part-0.parquet")
    pq.write_table(table.slice(50), folder / "part-1.parquet")
    out["dataset"] = folder
    return out


def test_a_cluster_without_workers_is_a_deadline_not_a_hang(files: dict[str, Path]) -> None:
    with distributed.LocalCluster(
        n_workers=0, processes=False, dashboard_address=None, protocol="tcp"
    ) as cluster:
        argv = ["evaluate", files["qrels"], files["run"], "-m", "P@5", "--dask"]
        result = invoke(*argv, cluster.scheduler_address, "--dask-timeout", "1.5")
    assert_one_line_error(
        *result, "finished no task in 1.5 s", "0 worker(s) alive", "--dask-timeout"
    )


def test_the_deadline_comes_from_the_environment(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASSAY_DASK_TIMEOUT", "1")
    with distributed.LocalCluster(
        n_workers=0, processes=False, dashboard_address=None, protocol="tcp"
    ) as cluster:
        argv = ["evaluate", files["qrels"], files["run"], "-m", "P@5", "--dask"]
        result = invoke(*argv, cluster.scheduler_address)
    assert_one_line_error(*result, "finished no task in 1 s", "ASSAY_DASK_TIMEOUT")
    monkeypatch.setenv("ASSAY_DASK_TIMEOUT", "soon")
    with pytest.raises(assay.errors.OptionError, match="ASSAY_DASK_TIMEOUT"):
        assay.dist.evaluate(assay.Qrels.read(files["qrels"]), files["dataset"], ["P@5"])


def test_a_bad_deadline_is_one_line(files: dict[str, Path]) -> None:
    for bad in ("0", "-3", "nan"):
        result = invoke("evaluate", files["qrels"], files["run"], "--dask-timeout", bad)
        assert_one_line_error(*result, "dask_timeout")


def test_a_run_that_grows_after_planning_is_refused(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    planned = assay.dist.read_trec_run

    def then_grows(path: str, **options: object) -> object:
        frame = planned(path, **options)
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("999 Q0 late 1 1.0 run\n")
        return frame

    monkeypatch.setattr(assay.dist, "read_trec_run", then_grows)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None, protocol="tcp"
    ) as cluster:
        argv = ["evaluate", files["qrels"], files["run"], "-m", "P@5", "--dask"]
        result = invoke(*argv, cluster.scheduler_address)
    assert_one_line_error(*result, "run.txt", "changed while it was being evaluated")


def test_a_parquet_dataset_changed_after_planning_is_refused(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    planned = planning._planned

    def then_touched(runs: object) -> object:
        found = planned(runs)
        part = files["dataset"] / "part-1.parquet"
        st = part.stat()
        os.utime(part, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        return found

    monkeypatch.setattr(planning, "_planned", then_touched)
    qrels = assay.Qrels.read(files["qrels"])
    with pytest.raises(assay.errors.InputError, match=r"part-1\.parquet.*changed while"):
        assay.dist.evaluate(qrels, {"b": files["dataset"]}, ["P@5"])


def test_unchanged_files_evaluate_as_before(files: dict[str, Path]) -> None:
    qrels = assay.Qrels.read(files["qrels"])
    runs = {"a": assay.dist.read_trec_run(files["run"], partition_bytes=500), "b": files["dataset"]}
    res = assay.dist.evaluate(qrels, runs, ["P@5"], timeout=30)
    local = assay.evaluate(qrels, {"a": assay.Run.read(files["run"])}, ["P@5"])
    assert res.aggregate("a", "P@5") == pytest.approx(local.aggregate("a", "P@5"))


def test_a_task_that_kills_its_workers_is_one_line(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def killed(self: object, *args: object, **kwargs: object) -> object:
        worker = types.SimpleNamespace(address="tcp://127.0.0.1:1")
        raise distributed.KilledWorker("('range', 0)", worker, 3)

    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None, protocol="tcp"
    ) as cluster:
        monkeypatch.setattr(distributed.Client, "gather", killed)
        argv = ["evaluate", files["qrels"], files["run"], "-m", "P@5", "--dask"]
        result = invoke(*argv, cluster.scheduler_address)
        monkeypatch.undo()
    assert_one_line_error(
        *result, "Dask workers died running the task ('range', 0)", "tcp://127.0.0.1:1"
    )
