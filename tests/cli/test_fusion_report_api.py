"""``assay aggregate --report`` is the library's page (read the votes, aggregate, render:
the same bytes with the CLI's title), and ``assay fuse`` leaves the stream-or-memory decision
to :func:`assay.fusion.fuse_files` (``stream=None``), with the ranking core's one threshold."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import assay
import assay.evaluation
import assay.fusion.streaming as streaming
from assay import Run
from assay.errors import InputWarning
from assay.fusion import aggregate, fuse_files, optimize_fusion, read_votes
from conftest import shared_file
from support.cli import invoke

VOTES = "A B C\nA C B\nB A C\n# a comment\nC,B,A\n"


@pytest.mark.parametrize("options", [[], ["-m", "mc4", "-w", "1,2,1,1"]])
def test_aggregate_report_is_the_consensus_html(tmp_path: Path, options: list[str]) -> None:
    votes = tmp_path / "votes.txt"
    votes.write_text(VOTES, encoding="utf-8")
    page = tmp_path / "page.html"
    code, out, err = invoke("aggregate", votes, *options, "--report", page, "--quiet", "-f", "tsv")
    assert code == 0, err
    method = "mc4" if options else "borda"
    weights = [1.0, 2.0, 1.0, 1.0] if options else None
    res = aggregate(read_votes(str(votes)), method=method, weights=weights, source=str(votes))
    assert res.html(title="assay aggregate") == page.read_text(encoding="utf-8")
    assert res.report().render("tsv") == out


def _runs() -> list[str]:
    return [
        str(shared_file("trec_eval", "results.test")),
        str(shared_file("trec_eval", "results.trunc")),
    ]


def test_fuse_files_decides_with_the_ranking_cores_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []
    blocks = streaming._fuse_blocks

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args[0])
        return blocks(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(streaming, "_fuse_blocks", counting)
    # assay writes runs with their queries in byte order, which block fusion needs.
    runs = []
    for i, path in enumerate(_runs()):
        runs.append(str(tmp_path / f"sorted{i}.run"))
        Run.read(path).to_trec(runs[-1])
    memory, streamed, forced = tmp_path / "m.run", tmp_path / "s.run", tmp_path / "f.run"
    small = fuse_files(runs, memory, stream=None, method="combmnz")
    assert calls == [] and small.blocks == 0
    fuse_files(runs, forced, stream=True, method="combmnz")
    assert len(calls) == 1
    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1)
    large = fuse_files(runs, streamed, stream=None, method="combmnz")
    assert len(calls) == 2 and large.blocks > 0
    assert memory.read_bytes() == streamed.read_bytes() == forced.read_bytes()
    assert (small.queries, small.rows_written) == (large.queries, large.rows_written)


def test_fuse_files_falls_back_to_memory_when_queries_are_out_of_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = tmp_path / "reversed.run"
    lines = Path(_runs()[0]).read_text().splitlines(keepends=True)
    first.write_text("".join(reversed(lines)))
    runs = [str(first), _runs()[1]]
    expected = tmp_path / "memory.run"
    fuse_files(runs, expected, stream=False)
    with pytest.raises(streaming.QueryOrderError):
        fuse_files(runs, tmp_path / "forced.run", stream=True)
    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1)
    out = tmp_path / "decided.run"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fuse_files(runs, out, stream=None)
    assert [w.category for w in caught] == [InputWarning]
    assert "fusing in memory instead" in str(caught[0].message)
    assert out.read_bytes() == expected.read_bytes()


def test_fusion_results_read_well_in_a_notebook() -> None:
    qrels = assay.Qrels.read(shared_file("trec_eval", "qrels.test"))
    runs = [Run.read(p, name=f"r{i}") for i, p in enumerate(_runs())]
    for result in (
        aggregate([["A", "B", "C"], ["B", "A", "C"]]),
        optimize_fusion(qrels, runs, metric="map"),
    ):
        text = repr(result)
        assert text.startswith(type(result).__name__ + "(") and len(text) < 2000, text
        assert result._repr_html_().startswith("<")
