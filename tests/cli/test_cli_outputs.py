"""What a command writes never destroys what it reads, and is in the format its name says.

Every command with ``-o``, ``--report`` or ``--save`` refuses, in one line and before any
work, an output that is one of its inputs (however spelled: ``./x``, a symbolic or a hard
link) or another of its outputs, and an extension no format of the option has; the input is
left as it was. A command with an output option and no case here fails the coverage test.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import numpy as np
import pytest

from conftest import shared_file
from support.cli import assert_one_line_error, commands, invoke
from support.io import synthetic_trec_files

FLAGS = {"output": "-o", "report": "--report", "save": "--save"}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cli-outputs")
    out = synthetic_trec_files(d)
    texts = {
        "gold": "a\nb\na\nb\na\nb\n",
        "pred": "a\nb\nb\nb\na\na\n",
        "ratings": "r1,r2,r3\n1,1,2\n2,2,2\n1,2,1\n3,3,3\n",
        "rankings": "a b c\nb a c\na c b\n",
        "ref": "the cat is on the mat\nthe dog barked\n",
        "hyp": "the cat sat on the mat\na dog barked\n",
        "y": "0.1\n0.5\n0.9\n0.3\n",
        "p": "0.2\n0.4\n0.8\n0.3\n",
        "conll": "Paris B-LOC B-LOC\nis O O\n\nAnn B-PER O\nran O O\n",
        "labels": "".join(f"c{i % 3}\n" for i in range(12)),
    }
    for key, text in texts.items():
        out[key] = d / f"{key}.txt"
        out[key].write_text(text, encoding="utf-8")
    tables = {
        "votes": "left,right,winner\na,b,left\nb,c,tie\nc,a,right\na,c,left\n",
        "crowd": "task,worker,label\nt1,w1,x\nt1,w2,x\nt2,w1,y\nt2,w2,x\n",
        "judgments": "query,doc,worker,grade\nq1,d1,w1,1\nq1,d1,w2,0\nq1,d2,w1,0\nq1,d2,w2,0\n",
        "seed_scores": "system,seed,score\na,1,0.3\na,2,0.32\nb,1,0.35\nb,2,0.33\n",
        "pvalues": "dataset,p_value\nd1,0.01\nd2,0.2\nd3,0.03\n",
    }
    for key, text in tables.items():
        out[key] = d / f"{key}.csv"
        out[key].write_text(text, encoding="utf-8")
    out["emb"] = d / "emb.npy"
    np.save(out["emb"], np.random.default_rng(0).normal(size=(12, 4)))
    letor = d / "letor"
    letor.mkdir()
    for f in shared_file("lightgbm_lambdarank", "rank.train").parent.iterdir():
        if f.is_file() and f.name.startswith("rank."):
            (letor / f.name).write_bytes(f.read_bytes())
    out["letor"] = letor
    out["letor_train"] = letor / "rank.train"
    out["saved"] = d / "saved.json"
    code, _, err = invoke(
        "evaluate", out["qrels"], out["run1"], "-m", "P@5", "--save", out["saved"]
    )
    assert code == 0, err
    return out


def _cases(f: dict[str, Path]) -> dict[str, tuple[list[str | Path], Path]]:
    """A working invocation of each command, and the input file an output must not be."""
    q, r1, r2 = f["qrels"], f["run1"], f["run2"]
    ranking = [q, r1, r2, "-m", "P@5"]
    return {
        "evaluate": (["evaluate", *ranking], r1),
        "compare": (["compare", *ranking, "--n-resamples", "20"], r2),
        "classify": (["classify", f["gold"], f["pred"]], f["pred"]),
        "cluster": (["cluster", f["gold"], f["pred"]], f["gold"]),
        "agree": (["agree", f["ratings"]], f["ratings"]),
        "fuse": (["fuse", r1, r2], r2),
        "aggregate": (["aggregate", f["rankings"]], f["rankings"]),
        "generation": (["generation", f["ref"], f["hyp"], "-m", "chrf"], f["hyp"]),
        "regression": (["regression", f["y"], f["p"]], f["y"]),
        "leaderboard": (["leaderboard", f["votes"], "--n-resamples", "10"], f["votes"]),
        "seeds": (["seeds", f["seed_scores"], "--n-bootstrap", "10"], f["seed_scores"]),
        "aggregate-labels": (["aggregate-labels", f["crowd"]], f["crowd"]),
        "crowd-qrels": (["crowd-qrels", f["judgments"]], f["judgments"]),
        "tagging": (["tagging", f["conll"], "--pred-column", "-1"], f["conll"]),
        "embed": (["embed", f["emb"], f["labels"]], f["labels"]),
        "report": (["report", f["saved"]], f["saved"]),
        "plot": (["plot", f["saved"]], f["saved"]),
        "ltr run": (["ltr", "run", f["letor"], "--models", "linear"], f["letor_train"]),
        "ltr stats": (["ltr", "stats", f["letor"]], f["letor_train"]),
        "ltr train": (
            ["ltr", "train", f["letor"], "--out", f["letor"].parent / "m"],
            f["letor_train"],
        ),
        "ltr evaluate": (["ltr", "evaluate", f["letor"], r1], r1),
        "ltr analyze": (
            ["ltr", "analyze", f["letor"], "queries", "--models", "linear"],
            f["letor_train"],
        ),
        "meta discpower": (["meta", "discpower", *ranking, "--n-resamples", "20"], q),
        "meta topicsize": (["meta", "topicsize", *ranking, "--min-diff", "0.1"], r2),
        "meta rbo": (["meta", "rbo", r1, r2], r1),
        "meta anova": (["meta", "anova", *ranking], r2),
        "meta replicability": (["meta", "replicability", f["pvalues"]], f["pvalues"]),
        "meta repro": (["meta", "repro", q, r1, r2, r1, r2, "-m", "P@5"], q),
        "meta assessors": (["meta", "assessors", q, q, r1, r2, f["run3"], "-m", "P@5"], f["run3"]),
    }


def _outputs(func: object) -> list[str]:
    return [p for p in inspect.signature(func).parameters if p in FLAGS]  # type: ignore[arg-type]


#: Commands that read no file: nothing of theirs to overwrite (outputs clash among
#: themselves: see test_two_outputs_of_one_command_are_refused).
NO_INPUTS = {"metrics", "demo"}


def test_every_command_with_an_output_has_a_case(files: dict[str, Path]) -> None:
    cases = _cases(files)
    for name, func in commands():
        if _outputs(func) and name not in NO_INPUTS:
            assert name in cases, f"assay {name} writes files: add it to _cases"


@pytest.mark.parametrize("name", sorted({n for n, f in commands() if _outputs(f)} - NO_INPUTS))
def test_no_output_overwrites_an_input(files: dict[str, Path], name: str) -> None:
    argv, victim = _cases(files)[name]
    func = dict(commands())[name]
    before = victim.read_bytes()
    for param in _outputs(func):
        result = invoke(*argv, FLAGS[param], victim)
        assert_one_line_error(*result, "refusing to write over it", str(victim))
        assert victim.read_bytes() == before, (name, param)


def test_any_spelling_of_an_input_is_refused(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(files["run1"].parent)
    os.link(files["run1"], tmp_path / "hard.txt")
    (tmp_path / "sym.txt").symlink_to(files["run1"])
    before = files["run1"].read_bytes()
    for spelling in (
        "run1.txt",
        "./run1.txt",
        f"../{files['run1'].parent.name}/run1.txt",
        tmp_path / "hard.txt",
        tmp_path / "sym.txt",
    ):
        result = invoke("evaluate", "qrels.txt", "run1.txt", "-m", "P@5", "-o", spelling)
        assert_one_line_error(*result, "refusing to write over it")
        result = invoke("evaluate", "qrels.txt", spelling, "-m", "P@5", "-o", "run1.txt")
        assert_one_line_error(*result, "refusing to write over it")
    assert files["run1"].read_bytes() == before


def test_two_outputs_of_one_command_are_refused(files: dict[str, Path], tmp_path: Path) -> None:
    page = tmp_path / "x.html"
    for argv in (["demo", "--queries", "3"], ["evaluate", files["qrels"], files["run1"]]):
        result = invoke(*argv, "--report", page, "--save", f"{tmp_path}/./x.html")
        assert_one_line_error(*result, "name the same file")
    result = invoke(
        "evaluate",
        files["qrels"],
        files["run1"],
        "-o",
        tmp_path / "x.json",
        "--save",
        tmp_path / "x.json",
    )
    assert_one_line_error(*result, "name the same file")
    assert not list(tmp_path.iterdir())


def test_standard_output_is_never_a_clash(files: dict[str, Path]) -> None:
    code, out, err = invoke("fuse", files["run1"], files["run2"], "-o", "-")
    assert code == 0, err
    assert out.count("\n") > 10


def test_a_label_spelled_like_the_output_is_no_input(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second time, fused.run exists
        code, _, err = invoke(
            "fuse", files["run1"], files["run2"], "--name", "fused.run", "-o", "fused.run"
        )
        assert code == 0, err
    assert Path("fused.run").read_text().split("\n")[0].endswith(" fused.run")


def test_extensions_no_format_has_are_refused(files: dict[str, Path], tmp_path: Path) -> None:
    ranking = ["evaluate", files["qrels"], files["run1"], "-m", "P@5"]
    cases = [
        ([*ranking, "-o", tmp_path / "x.parquet"], ".tsv", "--save FILE.parquet"),
        ([*ranking, "--report", tmp_path / "out.pdf"], ".html", "assay plot"),
        ([*ranking, "--save", tmp_path / "x.csv"], ".parquet"),
        ([*ranking, "-f", "csv", "-o", tmp_path / "x.tsv"], "names tsv"),
        (["report", files["saved"], "-o", tmp_path / "x.pdf"], ".html"),
        (["report", files["saved"], "-f", "latex", "-o", tmp_path / "x.md"], "names markdown"),
        (["plot", files["saved"], "-o", tmp_path / "x.jpg"], ".png, .svg, .pdf"),
        (["plot", files["saved"], "--plot-format", "png", "-o", tmp_path / "x.svg"], "names svg"),
        (["fuse", files["run1"], files["run2"], "-o", tmp_path / "x.parquet"], "TREC text"),
        ([*ranking, "-o", tmp_path / "x.tsv.gz"], "not compressed"),
        ([*ranking, "--save", tmp_path / "x.json.gz"], "not compressed"),
    ]
    for argv, *needles in cases:
        assert_one_line_error(*invoke(*argv), *needles)
    assert not list(tmp_path.iterdir())


def test_the_extension_names_the_format_written(files: dict[str, Path], tmp_path: Path) -> None:
    md = tmp_path / "saved.md"
    assert invoke("report", files["saved"], "-o", md)[0] == 0
    assert md.read_text().startswith("|")  # Markdown, not the HTML page
    html = tmp_path / "saved.htm"
    assert invoke("report", files["saved"], "-o", html)[0] == 0
    assert html.read_text().startswith("<!DOCTYPE html>")
    plain = tmp_path / "results"  # no extension: the option's default format
    ranking = ["evaluate", files["qrels"], files["run1"], "-m", "P@5"]
    assert invoke(*ranking, "-o", plain)[0] == 0
    assert plain.read_text().startswith("run\tmetric")
    text = tmp_path / "results.txt"  # .txt is text of any format asked for
    assert invoke(*ranking, "-f", "json", "-o", text)[0] == 0
    assert text.read_text().lstrip().startswith(("[", "{"))
    saved = tmp_path / "again.parquet"
    assert invoke(*ranking, "--save", saved)[0] == 0
    assert saved.read_bytes()[:4] == b"PAR1"


@pytest.mark.parametrize("streamed", [False, True])
def test_fuse_keeps_the_mode_of_the_file_it_replaces(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, streamed: bool
) -> None:
    import assay.evaluation

    if streamed:  # every run is "large": fused block by block
        monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1)
    target = tmp_path / "fused.run"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    code, _, err = invoke("fuse", files["run1"], files["run2"], "-o", target)
    assert code == 0, err
    assert target.read_text().count("\n") > 10
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["fused.run"]


def test_a_gz_fused_run_is_compressed_in_memory_and_streamed(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gzip

    import assay.evaluation

    runs = [files["run1"], files["run2"]]
    assert invoke("fuse", *runs, "-o", tmp_path / "memory.txt.gz")[0] == 0
    monkeypatch.setattr(assay.evaluation, "STREAM_BYTES", 1)  # fused block by block
    assert invoke("fuse", *runs, "-o", tmp_path / "streamed.txt.gz")[0] == 0
    memory = (tmp_path / "memory.txt.gz").read_bytes()
    assert memory[:2] == b"\x1f\x8b" and gzip.decompress(memory).count(b"\n") > 10
    assert (tmp_path / "streamed.txt.gz").read_bytes() == memory
