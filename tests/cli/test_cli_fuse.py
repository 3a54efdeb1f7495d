"""``assay fuse`` and ``assay aggregate`` in process."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from assay import Run
from assay.cli import app
from assay.fusion import fuse
from strategies.fusion import random_run_dicts
from support.cli import invoke


def test_cli_fuse_and_aggregate(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runs = [Run.from_dict(r, name=f"r{i}") for i, r in enumerate(random_run_dicts(4))]
    paths = []
    for i, r in enumerate(runs):
        p = tmp_path / f"r{i}.txt"
        r.to_trec(p)
        paths.append(str(p))
    out = tmp_path / "fused.txt"
    res = CliRunner().invoke(
        app, ["fuse", *paths, "-m", "wsum", "-w", "1,2,3", "-o", str(out), "--name", "F"]
    )
    assert res.exit_code == 0, res.output
    assert Run.from_trec(out) == fuse(runs, method="wsum", weights=[1, 2, 3])
    res = CliRunner().invoke(app, ["fuse", *paths[:2], "-m", "rrf"])
    assert res.exit_code == 0 and res.output.split("\n")[0].endswith("rrf")
    res = CliRunner().invoke(app, ["fuse", paths[0]])
    assert res.exit_code == 2

    votes = tmp_path / "votes.txt"
    votes.write_text("# ballots\nA B C\nA, C, B\n\nB\tA C\n")
    res = CliRunner().invoke(app, ["aggregate", str(votes), "-f", "tsv"])
    assert res.exit_code == 0, res.output
    assert res.output == "rank\tcandidate\tscore\n1\tA\t5.0\n2\tB\t3.0\n3\tC\t1.0\n"
    res = CliRunner().invoke(app, ["aggregate", str(votes), "-m", "kemeny", "-f", "jsonl"])
    assert res.exit_code == 0 and '"candidate": "A"' in res.output.splitlines()[0]
    res = CliRunner().invoke(app, ["aggregate", str(votes), "-f", "table"])
    assert res.exit_code == 0 and "A" in res.output
    bad = tmp_path / "bad.txt"
    bad.write_text("A A\n")
    res = CliRunner().invoke(app, ["aggregate", str(bad)])
    assert res.exit_code == 2


def test_aggregate_formats(tmp_path: Path) -> None:
    votes = tmp_path / "votes.txt"
    votes.write_text("A B C\nA C B\nB A C\n")
    code, out, _ = invoke("aggregate", votes, "-f", "csv")
    assert code == 0
    assert out.splitlines() == ["rank,candidate,score", "1,A,5.0", "2,B,3.0", "3,C,1.0"]
    code, out, _ = invoke("aggregate", votes, "-f", "json")
    doc = json.loads(out)
    assert doc["results"][0] == {"rank": 1, "candidate": "A", "score": 5.0}
    assert doc["settings"]["method"] == "borda" and doc["settings"]["rankings"] == 3
    code, out, _ = invoke("aggregate", votes, "-f", "markdown")
    assert out.splitlines()[:3] == [
        "| rank | candidate | score |",
        "|---:|---|---:|",
        "| 1 | A | 5 |",
    ]


def _files(tmp_path: Path, n: int = 3) -> list[str]:
    runs = [Run.from_dict(r, name=f"r{i}") for i, r in enumerate(random_run_dicts(n))]
    paths = []
    for i, r in enumerate(runs):
        paths.append(str(tmp_path / f"r{i}.txt"))
        r.to_trec(paths[-1])
    return paths


def test_large_runs_are_fused_block_by_block(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import assay.evaluation
    import assay.fusion.streaming as streaming

    paths = _files(tmp_path)
    argv = ["fuse", *paths, "-m", "combmnz", "--depth", "5"]
    calls = []
    blocks = streaming._fuse_blocks

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[0])
        return blocks(*args, **kwargs)

    monkeypatch.setattr(streaming, "_fuse_blocks", counting)
    code, expected, _ = invoke(*argv)
    assert code == 0 and calls == []  # small runs: in memory
    # The ranking core's one threshold decides (assay.evaluation.STREAM_BYTES).
    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1)
    code, streamed, _ = invoke(*argv)
    assert (code, streamed) == (0, expected)
    out = tmp_path / "fused.txt"
    assert invoke(*argv, "-o", out)[0] == 0
    assert out.read_text() == expected
    assert len(calls) == 2


def test_unsorted_large_runs_fall_back_to_memory(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import assay.evaluation

    paths = _files(tmp_path, 2)
    lines = Path(paths[0]).read_text().splitlines(keepends=True)
    Path(paths[0]).write_text("".join(reversed(lines)))
    code, expected, _ = invoke("fuse", *paths)
    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1)
    code, streamed, err = invoke("fuse", *paths)
    assert (code, streamed) == (0, expected)
    assert err.startswith("assay: warning:") and "ascending byte order" in err
    assert list(tmp_path.glob(".assay-fuse-*")) == []
