"""Every command refuses every bad option value with exit code 2 and one line on stderr.

For each command a working invocation is built on small files (:func:`_argv`); each option
whose annotation rules a value out (a choice outside its ``Literal``, a negative count, seed
or level) is then given that value. The command must exit 2, print nothing on stdout and
exactly one line ``assay: error: ...`` on stderr, never a traceback. A command without a
working invocation here fails the coverage test.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import numpy as np
import pytest
from typer.testing import CliRunner

from assay.cli import COMMANDS, app
from conftest import shared_file
from support.cli import commands
from support.io import synthetic_trec_files

runner = CliRunner()

#: Options whose every value of their type is acceptable (free text, names, file paths).
FREE = {"baseline", "output", "name", "column", "gold_column", "pred_column", "scores_column",
        "positive", "metric", "ref", "weights", "qrels_format", "run_format", "family",
        "fmt", "per_query", "left", "right", "winner", "weight", "judged_only", "long", "lowercase", "stem", "scores"}  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cli-options")
    out = synthetic_trec_files(d)
    gold, pred = ["a", "b", "a", "b", "a", "b"], ["a", "b", "b", "b", "a", "a"]
    texts = {
        "gold": "\n".join(gold),
        "pred": "\n".join(pred),
        "ratings": "r1,r2,r3\n1,1,2\n2,2,2\n1,2,1\n3,3,3\n",
        "rankings": "a b c\nb a c\na c b\n",
        "ref": "the cat is on the mat\nthe dog barked\nit rains\n",
        "hyp1": "the cat sat on the mat\na dog barked\nit rains\n",
        "hyp2": "the cat\nthe dog barked loudly\nit is raining\n",
        "y": "\n".join(str(v) for v in np.linspace(0, 1, 8)),
        "p1": "\n".join(str(v) for v in np.linspace(0, 1, 8) ** 2),
        "p2": "\n".join(str(v) for v in np.linspace(0.1, 0.9, 8)),
        "crowd": "task,worker,label\nt1,w1,a\nt1,w2,a\nt1,w3,b\nt2,w1,b\nt2,w2,b\nt2,w3,b\n",
        "seed_scores": "system,seed,score\na,1,0.3\na,2,0.32\na,3,0.31\nb,1,0.35\nb,2,0.33\nb,3,0.36\n",
        "conll": "Paris B-LOC B-LOC B-LOC\nis O O O\nnice O B-MISC O\n\nAnn B-PER B-PER O\nran O O O\n",
    }
    out["emb"] = d / "emb.npy"
    np.save(out["emb"], np.random.default_rng(0).normal(size=(12, 4)))
    out["emb_labels"] = d / "emb_labels.txt"
    out["emb_labels"].write_text("".join(f"c{i % 3}\n" for i in range(12)), encoding="utf-8")
    out["letor"] = shared_file("lightgbm_lambdarank", "rank.train").parent
    out["ltr_out"] = d / "ltr"
    assert runner.invoke(app, ["ltr", "train", str(out["letor"]), "--model", "linear",
                               "--out", str(out["ltr_out"])]).exit_code == 0  # fmt: skip
    out["ltr_run"] = out["ltr_out"] / "test.linear.run"
    out["crowd_judgments"] = d / "crowd_judgments.csv"
    out["crowd_judgments"].write_text(
        "query,doc,worker,grade\n"
        + "".join(f"{q},d{i},w{j},{(i + j + (q == 'q2')) % 3}\n"
                  for q in ("q1", "q2") for i in range(4) for j in range(3)),
        encoding="utf-8",
    )  # fmt: skip
    out["saved"] = d / "saved.json"
    assert runner.invoke(app, ["evaluate", str(out["qrels"]), str(out["run1"]), "-m", "P@5",
                               "--save", str(out["saved"])]).exit_code == 0  # fmt: skip
    out["comparisons"] = d / "comparisons.csv"
    out["comparisons"].write_text(
        "left,right,winner\na,b,left\nb,c,tie\nc,a,right\na,b,right\nb,c,left\n", encoding="utf-8"
    )
    out["pvalues"] = d / "pvalues.csv"
    out["pvalues"].write_text("dataset,p_value\nd1,0.01\nd2,0.2\nd3,0.03\n", encoding="utf-8")
    for key, text in texts.items():
        out[key] = d / f"{key}.txt"
        out[key].write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
    return out


#: Commands that parse their own tool's argument syntax (every argument passes through to
#: trec_eval's, gdeval's or ndeval's parser).
OWN_SYNTAX = {"trec-eval", "gdeval", "ndeval"}


def _argv(command: str, f: dict[str, Path]) -> list[str]:
    """A working invocation of ``command`` on the fixture files."""
    runs = [str(f["run1"]), str(f["run2"])]
    letor = str(f["letor"])
    table = {
        "ltr run": ["ltr", "run", letor, "--models", "linear,ridge", "--n-resamples", "50"],
        "ltr stats": ["ltr", "stats", letor],
        "ltr train": ["ltr", "train", letor, "--model", "linear", "--out", str(f["ltr_out"])],
        "ltr evaluate": ["ltr", "evaluate", letor, str(f["ltr_run"])],
        "ltr analyze": ["ltr", "analyze", letor, "queries", "--models", "linear"],
        "meta discpower": [
            "meta",
            "discpower",
            str(f["qrels"]),
            *runs,
            "-m",
            "P@5",
            "--n-resamples",
            "50",
        ],
        "meta topicsize": [
            "meta",
            "topicsize",
            str(f["qrels"]),
            *runs,
            "-m",
            "P@5",
            "--min-diff",
            "0.1",
        ],
        "meta rbo": ["meta", "rbo", *runs],
        "meta anova": ["meta", "anova", str(f["qrels"]), *runs, "-m", "P@5"],
        "meta replicability": ["meta", "replicability", str(f["pvalues"])],
        "meta repro": ["meta", "repro", str(f["qrels"]), *runs, *runs, "-m", "P@5"],
        "meta assessors": [
            "meta",
            "assessors",
            str(f["qrels"]),
            str(f["qrels"]),
            *runs,
            str(f["run3"]),
            "-m",
            "P@5",
        ],
        "evaluate": ["evaluate", str(f["qrels"]), *runs, "-m", "P@5"],
        "embed": ["embed", str(f["emb"]), str(f["emb_labels"])],
        "compare": ["compare", str(f["qrels"]), *runs, "-m", "P@5", "--n-resamples", "50"],
        "metrics": ["metrics"],
        "report": ["report", str(f["saved"]), "-f", "markdown"],
        "plot": ["plot", str(f["saved"]), "-o", str(f["saved"].with_suffix(".svg"))],
        "tagging": [
            "tagging",
            str(f["conll"]),
            "--pred-column",
            "-1",
            "--pred-column",
            "1",
            "--n-resamples",
            "20",
        ],
        "demo": ["demo", "--queries", "5"],
        "classify": ["classify", str(f["gold"]), str(f["pred"])],
        "cluster": ["cluster", str(f["gold"]), str(f["pred"])],
        "agree": ["agree", str(f["ratings"]), "--bootstrap", "20"],
        "fuse": ["fuse", *runs],
        "aggregate": ["aggregate", str(f["rankings"])],
        "crowd-qrels": ["crowd-qrels", str(f["crowd_judgments"]), *runs, str(f["run3"])],
        "aggregate-labels": [
            "aggregate-labels",
            str(f["crowd"]),
            "--input-format",
            "csv",
        ],
        "generation": [
            "generation",
            str(f["ref"]),
            str(f["hyp1"]),
            str(f["hyp2"]),
            "-m",
            "chrf",
            "--n-resamples",
            "20",
        ],
        "leaderboard": ["leaderboard", str(f["comparisons"]), "--n-resamples", "20"],
        "seeds": [
            "seeds",
            str(f["seed_scores"]),
            "--input-format",
            "csv",
            "--n-bootstrap",
            "20",
        ],
        "regression": [
            "regression",
            str(f["y"]),
            str(f["p1"]),
            str(f["p2"]),
            "--n-resamples",
            "20",
            "--zero-target",  # y holds a 0: MAPE's own default refuses it
            "nan",
        ],
    }
    return table[command]


def _bad(annotation: Any) -> str | None:
    """A command-line value the option's type rules out, or None."""
    if get_origin(annotation) is typing.Annotated:
        annotation = get_args(annotation)[0]
    union = get_origin(annotation) in (typing.Union, types.UnionType)
    kinds = [k for k in (get_args(annotation) if union else (annotation,)) if k is not type(None)]
    if any(get_origin(k) is Literal for k in kinds):
        return "no-such-choice"
    if int in kinds or float in kinds:
        return "-1"
    return None


#: Numeric options a value of any size suits: a seed, a cutoff or depth past every list, more
#: threads than cores, a fold or column that is then not found (each has its own test).
ANY_SIZE = {
    "seed",
    "depth",
    "k",
    "top",
    "step",
    "rel",
    "threads",
    "fold",
    "block_size",
    "ktu_depth",
    "number",
    "gold_column",
}
#: Past a 64-bit integer: an internal OverflowError or a days-long run until it was refused.
HUGE = "99999999999999999999999"
#: Not a finite number (``1e400`` is read as inf).
NOT_FINITE = ("nan", "inf", "-inf", "1e400")


def _extremes(annotation: Any) -> tuple[str, ...]:
    """Values of a numeric option that no command can honour."""
    if get_origin(annotation) is typing.Annotated:
        annotation = get_args(annotation)[0]
    union = get_origin(annotation) in (typing.Union, types.UnionType)
    kinds = [k for k in (get_args(annotation) if union else (annotation,)) if k is not type(None)]
    if float in kinds:
        return NOT_FINITE
    if int in kinds:
        return (HUGE,)
    return ()


def _extreme_cases() -> Iterator[tuple[str, str, str]]:
    for command, func in commands():
        if command in OWN_SYNTAX:
            continue
        hints = typing.get_type_hints(func, include_extras=True)
        for name, param in inspect.signature(func).parameters.items():
            if name in FREE or name in ANY_SIZE or param.default is inspect.Parameter.empty:
                continue
            for value in _extremes(hints[name]):
                yield command, _flag(func, name), value
    # --seeds is text: a count, bounded like every count (its listed seeds are seeds, any size).
    yield "ltr run", "--seeds", HUGE


def _flag(func: Any, name: str) -> str:
    """The option's spelling on the command line (its first declared flag, else --name)."""
    hint = typing.get_type_hints(func, include_extras=True)[name]
    for extra in get_args(hint)[1:]:
        decls = [d for d in getattr(extra, "param_decls", ()) or () if d.startswith("--")]
        if decls:
            return decls[0]
    return "--" + name.replace("_", "-")


def _cases() -> Iterator[tuple[str, str, str]]:
    for command, func in commands():
        if command in OWN_SYNTAX:
            continue  # their own argument syntax: test_cli_trec_eval*.py, test_cli_gdeval.py, test_cli_ndeval.py
        hints = typing.get_type_hints(func, include_extras=True)
        for name, param in inspect.signature(func).parameters.items():
            if name in FREE or param.default is inspect.Parameter.empty:
                continue
            bad = _bad(hints[name])
            if bad is not None:
                yield command, _flag(func, name), bad


@pytest.mark.parametrize("name", [n for n, _ in commands() if n not in OWN_SYNTAX])
def test_every_command_has_a_working_invocation(files: dict[str, Path], name: str) -> None:
    result = runner.invoke(app, _argv(name, files))
    assert result.exit_code == 0, (name, result.stderr)


def test_every_command_module_is_covered() -> None:
    names = {n.split()[0] for n, _ in commands()}
    # modules whose commands have other names: fusion (fuse, aggregate), crowd (aggregate-labels)
    modules = {c.replace("_", "-") for c in COMMANDS} - {"fusion", "crowd"}
    assert modules <= names | OWN_SYNTAX
    assert {"fuse", "aggregate", "aggregate-labels"} <= names


@pytest.mark.parametrize(("command", "flag", "bad"), list(_cases()))
def test_a_bad_option_is_one_line_and_exit_2(
    files: dict[str, Path], command: str, flag: str, bad: str
) -> None:
    argv = _argv(command, files)
    result = runner.invoke(app, [*argv, flag, bad])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("assay: error: "), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("command", "flag", "value"), list(_extreme_cases()))
def test_an_extreme_number_is_one_line_and_exit_2(
    files: dict[str, Path], command: str, flag: str, value: str
) -> None:
    """A count past 64 bits (``--n-resamples``, ``--queries``, ``--seeds``, ``--rbo-depth``,
    ``--n-topics``: internal errors or runs of days) and a non-finite real are refused."""
    result = runner.invoke(app, [*_argv(command, files), flag, value])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("assay: error: "), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


def test_the_extreme_numbers_reach_every_kind_of_count() -> None:
    cases = {(c, f) for c, f, _ in _extreme_cases()}
    for case in [
        ("compare", "--n-resamples"),
        ("agree", "--bootstrap"),
        ("demo", "--queries"),
        ("ltr run", "--seeds"),
        ("meta repro", "--rbo-depth"),
        ("meta topicsize", "--n-topics"),
    ]:
        assert case in cases, case
