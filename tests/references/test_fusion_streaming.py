"""Fusing run files block by block (``fusion.fuse_files``) writes the bytes of the in-memory
fusion, for every method and normalisation, whatever the block size; runs whose queries are
not in ascending order are refused."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import assay
from assay import Run
from assay.fusion import FUSION_METHODS, NORMS, QueryOrderError, fuse, fuse_files


@pytest.fixture(scope="module")
def run_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Four runs over overlapping documents: queries missing from some runs, runs of
    different lengths (so their blocks end at different queries), many tied scores."""
    _, runs = assay.datasets.synthetic(
        n_queries=60, docs_per_query=20, noise=(0.3, 0.6, 1.0, 2.0), seed=21
    )
    folder = tmp_path_factory.mktemp("fuse-stream")
    paths = []
    rng = np.random.default_rng(4)
    for i, run in enumerate(runs.values()):
        table = run.to_arrow().select(["query", "doc", "score"])
        queries = sorted(set(table.column("query").to_pylist()))
        drop = set(rng.choice(queries, size=5 + 4 * i, replace=False).tolist())
        keep = pa.array([q not in drop for q in table.column("query").to_pylist()])
        table = table.filter(keep)
        # Round scores to make ties; cut each run at a different length.
        scores = np.round(table.column("score").to_numpy(), 1 if i % 2 else 2)
        table = table.set_column(2, "score", pa.array(scores))
        path = folder / f"run{i}.txt"
        Run.from_arrow(table.slice(0, table.num_rows - 37 * i), name=f"r{i}").to_trec(path)
        paths.append(path)
    return paths


def _in_memory(paths: list[Path], **options: object) -> bytes:
    out = io.BytesIO()
    fuse([Run.read(p) for p in paths], **options).to_trec(out)
    return out.getvalue()


def _streamed(paths: list[Path], block_bytes: int, **options: object) -> tuple[bytes, object]:
    out = io.BytesIO()
    summary = fuse_files(paths, out, block_bytes=block_bytes, **options)
    return out.getvalue(), summary


@pytest.mark.parametrize("method", FUSION_METHODS)
def test_every_method_streams_to_the_same_bytes(run_files, method) -> None:
    options = {"method": method, "weights": [1.0, 0.5, 2.0, 1.5]}
    expected = _in_memory(run_files, **options)
    got, summary = _streamed(run_files, 900, **options)
    assert got == expected
    assert summary.blocks > 4 * 10  # many blocks: queries carried over between them
    assert summary.rows_written == expected.count(b"\n")


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("method", ["combsum", "combmnz", "combmed", "borda"])
def test_every_norm_streams_to_the_same_bytes(run_files, method, norm) -> None:
    options = {"method": method, "norm": norm, "depth": 7, "name": "fused run"}
    assert _streamed(run_files, 2500, **options)[0] == _in_memory(run_files, **options)


def test_one_block_per_run_and_output_to_a_file(run_files, tmp_path) -> None:
    target = tmp_path / "fused.txt"
    summary = fuse_files(run_files, target, method="rrf", rrf_k=10)
    assert target.read_bytes() == _in_memory(run_files, method="rrf", rrf_k=10)
    assert summary.rows_read == sum(len(p.read_bytes().splitlines()) for p in run_files)
    assert summary.queries == len(Run.read(target).queries)


def test_queries_out_of_order_are_refused(tmp_path, run_files) -> None:
    lines = run_files[0].read_bytes().splitlines(keepends=True)
    first = lines[0].split()[0]
    moved = [ln for ln in lines if ln.split()[0] != first] + [
        ln for ln in lines if ln.split()[0] == first
    ]
    unsorted = tmp_path / "unsorted.txt"
    unsorted.write_bytes(b"".join(moved))
    for block_bytes in (300, 1 << 20):  # across blocks and within one block
        with pytest.raises(QueryOrderError, match="ascending byte order"):
            fuse_files([run_files[1], unsorted], io.BytesIO(), block_bytes=block_bytes)


def test_bad_options_are_option_errors(run_files) -> None:
    for bad in ({"method": "nope"}, {"rrf_k": -1}, {"depth": 0}, {"block_bytes": 0}):
        with pytest.raises(assay.OptionError):
            fuse_files(run_files, io.BytesIO(), **bad)
    with pytest.raises(assay.OptionError, match="weights"):
        fuse_files(run_files, io.BytesIO(), weights=[1.0])


@pytest.fixture(scope="module")
def numeric_files(run_files, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The runs with integer query ids, written in numeric query order (as runs over
    numbered topics usually are): q7 becomes 7, and 10 comes after 9."""
    folder = tmp_path_factory.mktemp("fuse-numeric")
    out = []
    for path in run_files:
        lines = path.read_bytes().splitlines(keepends=True)
        lines = [ln[1:] for ln in lines]  # "q12 Q0 ..." -> "12 Q0 ..."
        lines.sort(key=lambda ln: int(ln.split()[0]))  # stable: rows keep their order
        out.append(folder / path.name)
        out[-1].write_bytes(b"".join(lines))
    return out


def _numeric_order(text: bytes) -> bytes:
    lines = text.splitlines(keepends=True)
    return b"".join(sorted(lines, key=lambda ln: int(ln.split()[0])))


@pytest.mark.parametrize("method", ["rrf", "combmnz", "borda", "condorcet"])
def test_numeric_query_order_streams_to_the_same_lines(numeric_files, method) -> None:
    expected = _numeric_order(_in_memory(numeric_files, method=method))
    for block_bytes in (700, 1 << 20):
        got, _ = _streamed(numeric_files, block_bytes, method=method)
        assert got == expected
    got = io.BytesIO()
    fuse_files(numeric_files, got, method=method, query_order="numeric", block_bytes=700)
    assert got.getvalue() == expected


def test_the_wrong_query_order_is_refused(numeric_files, run_files) -> None:
    with pytest.raises(QueryOrderError, match="ascending byte order"):
        fuse_files(numeric_files, io.BytesIO(), query_order="bytes")
    with pytest.raises(QueryOrderError, match="needs integer query ids"):
        fuse_files(run_files, io.BytesIO(), query_order="numeric")
    shuffled = numeric_files[0].with_name("shuffled.txt")
    lines = numeric_files[0].read_bytes().splitlines(keepends=True)
    shuffled.write_bytes(b"".join(lines[len(lines) // 2 :] + lines[: len(lines) // 2]))
    with pytest.raises(QueryOrderError, match="ascending numeric order"):
        fuse_files([numeric_files[1], shuffled], io.BytesIO(), query_order="numeric")
    with pytest.raises(assay.OptionError, match="query_order"):
        fuse_files(run_files, io.BytesIO(), query_order="random")
