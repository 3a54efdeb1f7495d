"""What a one-command run of ``assay`` loads and builds (issue 30, "small runs fast"): the
command line builds only the command it runs (``assay.cli.app_for``), with the same output as
the whole app, and ``assay evaluate`` writing TSV to a pipe imports no presentation library
(time measured in benchmarks/bench_small.py, never here)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import COMMAND_MODULES, COMMANDS, app, app_for
from support.process import run_python

runner = CliRunner()

#: Imported only when an output needs them (a terminal's table, --report, --save, plots), or
#: never by `assay evaluate`: none may load while it writes TSV to a pipe.
DEFERRED_PACKAGES = {
    "rich",
    "matplotlib",
    "jinja2",
    "pandas",
    "polars",
    "scipy",
    "sklearn",
    "dask",
    "numba",
}
DEFERRED_MODULES = {
    "assay.report.html",
    "assay.report.document",
    "assay.report.plots",
    "assay.report.saved",
    "assay.report.catalog",
    "assay.report.sections_tasks",
    "assay.stats.bootstrap",
    "concurrent.futures.thread",  # threads only for a run read in blocks
    "assay.cli.ltr",  # other commands' modules: only the one run is imported
    "assay.cli.meta",
    "assay.cli.compare",
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("small")
    qrels, runs = assay.datasets.synthetic(n_queries=5, docs_per_query=20)
    qrels.to_trec(folder / "qrels.txt")
    runs[next(iter(runs))].to_trec(folder / "run.txt")
    return folder / "qrels.txt", folder / "run.txt"


def _loaded_after(argv: list[str]) -> tuple[str, list[str], int]:
    """(stdout, the deferred modules loaded, click commands built) of ``assay ARGV`` run as
    the console script runs it, in a fresh interpreter with stdout a pipe."""
    code = (
        "import sys\n"
        "import typer.main\n"
        "built = []\n"
        "original = typer.main.get_command_from_info\n"
        "def counting(*args, **kwargs):\n"
        "    built.append(1)\n"
        "    return original(*args, **kwargs)\n"
        "typer.main.get_command_from_info = counting\n"
        f"sys.argv = ['assay', *{argv!r}]\n"
        "from assay.cli import main\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
        f"packages, modules = {sorted(DEFERRED_PACKAGES)!r}, {sorted(DEFERRED_MODULES)!r}\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in packages or m in modules)\n"
        "print('LOADED', loaded, 'BUILT', len(built), file=sys.stderr)\n"
    )
    proc = run_python(code)
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("LOADED"), proc.stderr
    loaded, built = last.removeprefix("LOADED ").rsplit(" BUILT ", 1)
    return proc.stdout, ast.literal_eval(loaded), int(built)


def test_evaluate_to_a_pipe_imports_no_presentation_library(files: tuple[Path, Path]) -> None:
    qrels, run = files
    out, loaded, built = _loaded_after(["evaluate", str(qrels), str(run), "-m", "map"])
    assert out.startswith("run\tmetric\tquery\tvalue\taggregate\n")  # TSV: not a terminal
    assert loaded == []
    assert built == 1  # evaluate alone, not every command of the app


def test_the_loading_check_sees_a_deferred_module(files: tuple[Path, Path]) -> None:
    # The check above can fail: --save loads the document writer.
    qrels, run = files
    save = qrels.parent / "saved.json"
    _, loaded, _ = _loaded_after(["evaluate", str(qrels), str(run), "--save", str(save)])
    assert "assay.report.document" in loaded


def test_help_builds_every_command() -> None:
    _, _, built = _loaded_after(["--help"])
    assert built >= len([c for c in app.registered_commands])


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "{q}", "{r}", "-m", "map", "-m", "ndcg@10"],
        ["evaluate", "{q}", "{r}", "-f", "json", "-q"],
        ["evaluate", "{q}", "{r}", "-f", "table"],
        ["evaluate", "-h"],
        ["evaluate", "{q}", "{r}", "--bogus"],
        ["evaluate", "{q}"],
        ["evaluate", "{q}", "{r}", "--ties", "sideways"],
        ["compare", "{q}", "{r}", "{r2}", "-f", "tsv", "--n-resamples", "200"],
        ["trec-eval", "-m", "map", "{q}", "{r}"],
        ["trec-eval", "-h"],
        ["meta", "--help"],
        ["meta", "rbo", "{r}", "{r2}", "-f", "tsv"],
        ["ltr", "nothing-such"],
        ["metrics", "--family", "ranking", "-f", "tsv"],
        ["--help"],
        ["--version"],
        ["evaluat", "{q}", "{r}"],
        [],
    ],
)
def test_the_one_command_app_runs_like_the_whole_app(
    argv: list[str], files: tuple[Path, Path], tmp_path: Path
) -> None:
    qrels, run = files
    run2 = tmp_path / "run2.txt"
    lines = run.read_text().splitlines()
    run2.write_text("".join(line + "\n" for line in reversed(lines)))  # same rows, reordered
    args = [a.format(q=qrels, r=run, r2=run2) for a in argv]
    one = app_for(args)
    if argv and argv[0] in ("evaluate", "compare", "trec-eval", "meta", "ltr", "metrics"):
        assert one is not app
    whole = runner.invoke(app, args)
    alone = runner.invoke(one, args)
    assert (alone.exit_code, alone.stdout, alone.stderr) == (
        whole.exit_code,
        whole.stdout,
        whole.stderr,
    )


def test_command_modules_names_what_each_module_registers() -> None:
    import importlib

    import typer

    registered = {}
    for module in COMMANDS:
        one = typer.Typer()
        importlib.import_module(f"assay.cli.{module}").register(one)
        names = [c.name for c in one.registered_commands] + [g.name for g in one.registered_groups]
        assert None not in names, f"{module}: a command registered without a name"
        registered |= dict.fromkeys(names, module)
    assert registered == COMMAND_MODULES
    assert set(COMMAND_MODULES) == {c.name for c in app.registered_commands} | {
        g.name for g in app.registered_groups
    }


def test_app_for_keeps_the_whole_app_unchanged() -> None:
    names = [c.name for c in app.registered_commands]
    one = app_for(["evaluate"])
    assert [c.name for c in one.registered_commands] == ["evaluate"]
    assert one.registered_groups == []
    assert [c.name for c in app.registered_commands] == names
    assert [g.name for g in app_for(["ltr", "run"]).registered_groups] == ["ltr"]


def _ending(files: tuple[Path, Path], before: str, env: dict[str, str] | None = None) -> str:
    """stderr of ``assay evaluate`` run through the console entry point after ``before``,
    with a hook of the interpreter's own shutdown (threading's, run before it waits for the
    threads and before the atexit handlers: TEARDOWN) and an atexit handler (ATEXIT)."""
    import os
    import subprocess
    import sys

    qrels, run = files
    code = (
        "import atexit, os, sys, threading\n"
        "threading._register_atexit(lambda: os.write(2, b'TEARDOWN\\n'))\n"
        "atexit.register(lambda: os.write(2, b'ATEXIT\\n'))\n"
        f"{before}\n"
        f"sys.argv = ['assay', 'evaluate', {str(qrels)!r}, {str(run)!r}, '-m', 'map']\n"
        "from assay.cli import main\n"
        "main()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("run\tmetric\tquery\tvalue\taggregate\n")
    assert proc.stdout.endswith("\tmean\n")  # the whole output, flushed
    return proc.stderr


def test_a_finished_command_skips_the_teardown_but_not_atexit(files: tuple[Path, Path]) -> None:
    env = {"ASSAY_DEBUG": ""}
    assert _ending(files, "", env).splitlines() == ["ATEXIT"]


def test_the_teardown_runs_when_something_may_need_it(files: tuple[Path, Path]) -> None:
    # A thread still running is waited for (and what it writes arrives); ASSAY_DEBUG keeps
    # the ordinary end.
    thread = (
        "done = threading.Event()\n"
        "threading._register_atexit(done.set)\n"  # released by the shutdown alone
        "threading.Thread(target=lambda: (done.wait(), os.write(2, b'THREAD\\n'))).start()"
    )
    lines = _ending(files, thread, {"ASSAY_DEBUG": ""}).splitlines()
    assert sorted(lines[:2]) == ["TEARDOWN", "THREAD"]  # the two shutdown hooks, either order
    assert lines[2:] == ["ATEXIT"]
    assert _ending(files, "", {"ASSAY_DEBUG": "1"}).splitlines() == ["TEARDOWN", "ATEXIT"]
