"""Every code block of README.md, CONTRIBUTING.md and docs/*.md runs, so the docs cannot drift
from the code; so do the ``>>>`` examples of src/assay's docstrings.

One test per block, named by file and line. The blocks of a Markdown file run in order in one
folder (``support.docs_files.populate``: the files the docs name) and one Python namespace;
run alone, a block first runs the blocks before it in its file. The marker rule (```text,
``<!-- not-run: reason -->``) is in ``support.docs`` and CONTRIBUTING.md. The ``text``
synopses are checked against the CLI's options, and the ``assay.x.y`` names of the prose
against the package.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from assay.cli import app
from support.docs import (
    Block,
    all_blocks,
    blocks,
    commands,
    docstring_examples,
    documents,
    run_pycon,
    run_python,
    run_shell,
    synopsis_flags,
)
from support.docs_files import givens, populate

BLOCKS = all_blocks()
RUN = ("python", "pycon", "shell")
#: Blocks marked not-run: each costs a reader an example that is never checked.
MAX_NOT_RUN = 6
IMPORT = re.compile(r"from assay(?:\.(\w+))? import ([\w ,]+)|import assay\.(\w+)")


class Notebook:
    """The state the blocks of the docs share: the folder, one namespace per Markdown file,
    the names each file's own code bound, the command lines already run."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.namespaces: dict[Path, dict[str, Any]] = {}
        self.own: dict[Path, set[str]] = {}
        self.started: set[tuple[Path, int]] = set()
        self.done: set[tuple[str, ...]] = set()
        self._givens: dict[str, dict[str, Any]] | None = None

    def run_through(self, block: Block) -> None:
        """Run the blocks of ``block``'s file up to it, each once."""
        for earlier in blocks(block.path):
            if earlier.kind in RUN and (block.path, earlier.line) not in self.started:
                self.started.add((block.path, earlier.line))
                self._run_for(earlier, block)
            if earlier.line == block.line:
                return

    def _run_for(self, earlier: Block, block: Block) -> None:
        """Run ``earlier`` on the way to ``block``, naming it if it fails."""
        if earlier.line == block.line:
            self._run(block)
            return
        try:
            self._run(earlier)
        except Exception as exc:
            pytest.fail(f"{earlier.where}, run before {block.where}, failed: {exc!r}")

    def _run(self, block: Block) -> None:
        if block.kind == "shell":
            run_shell(block, self.folder, self.done)
            return
        ns = self.namespaces.setdefault(block.path, {"__name__": "__docs__"})
        own = self.own.setdefault(block.path, set())
        self._bind(block, ns, own)
        before = dict(ns)
        (run_python if block.kind == "python" else run_pycon)(block, ns)
        own.update(k for k, v in ns.items() if k not in before or before[k] is not v)

    def _bind(self, block: Block, ns: dict[str, Any], own: set[str]) -> None:
        """Bind the names standing for the reader's data that the file's code has not bound:
        the common ones, then those of the families the block imports."""
        if self._givens is None:
            self._givens = givens(self.folder)
        for family in ["", *families(block.text)]:
            ns.update((k, v) for k, v in self._givens.get(family, {}).items() if k not in own)


def families(text: str) -> Iterator[str]:
    """The assay modules a block imports (``from assay import tagging as T`` gives tagging)."""
    for m in IMPORT.finditer(text):
        if m[3]:
            yield m[3]
        elif m[1]:
            yield m[1]
        else:
            yield from (part.split()[0] for part in m[2].split(",") if part.strip())


@pytest.fixture(scope="module")
def notebook(tmp_path_factory: pytest.TempPathFactory) -> Notebook:
    folder = tmp_path_factory.mktemp("docs")
    populate(folder)
    return Notebook(folder)


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind in RUN], ids=lambda b: b.where)
def test_code_block_runs(block: Block, notebook: Notebook, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(notebook.folder)
    notebook.run_through(block)


@pytest.mark.parametrize("block", docstring_examples(), ids=lambda b: b.where)
def test_docstring_examples_run(
    block: Block, notebook: Notebook, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # A function's or class's example runs in a folder of its own: it writes the files it
    # reads (a docstring is read alone), and what it writes cannot clobber the docs' shared
    # files (a gold.txt of clusters once broke a later block reading gold.txt as labels). A
    # package's narrative (line 0) reads the user's files, as the docs' pages do.
    monkeypatch.chdir(notebook.folder if block.where.endswith(":0") else tmp_path)
    run_pycon(block, {"__name__": "__doctest__"})


def test_every_block_runs_or_is_marked():
    unmarked = [f"{b.where} (```{b.info})" for b in BLOCKS if b.kind == "unmarked"]
    assert not unmarked, f"blocks that cannot run and are not marked: {unmarked}"
    assert sum(b.kind in RUN for b in BLOCKS) >= 30  # the blocks are found at all


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind == "shown"], ids=lambda b: b.where)
def test_synopsis_options_exist(block: Block):
    wrong = []
    for line, path, flag, values in synopsis_flags(block):
        known = options(path)
        if flag not in known:
            wrong.append(f"{block.path.name}:{line}: assay {' '.join(path)} has no {flag}")
        elif set(values) - set(known[flag]):
            wrong.append(f"{block.path.name}:{line}: {flag} takes {known[flag]}, not {values}")
    assert not wrong, wrong


@functools.cache
def _click_app() -> Any:  # Any: typer's own click group (no isinstance with click's)
    """The click command tree of the app, built once: typer builds a new one on each call
    (~70 ms), and a synopsis of N flags asked for it N times."""
    return typer.main.get_command(app)


@functools.cache
def options(path: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Every option name of the command ``assay PATH`` (``a|b``: of any of them), with the
    values of a choice."""
    targets: list[Any] = [_click_app()]
    for word in path:
        if not hasattr(targets[0], "commands"):
            break  # an argument, not a subcommand
        targets = [t.commands[w] for t in targets for w in word.split("|") if w in t.commands]
        assert targets, f"no command assay {' '.join(path)}"
    return {
        o: tuple(getattr(p.type, "choices", ()))
        for t in targets
        for p in t.params
        for o in (*p.opts, *p.secondary_opts)
    }


INLINE_NAME = re.compile(r"`(assay\.[A-Za-z_][\w.]*\w)")


def test_inline_assay_names_exist():
    """A name the prose spells out (`assay.io.streams.MAX_LINE_BYTES`) is importable."""
    missing = [
        f"{path.name}:{n}: {m[1]}"
        for path in documents()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        for m in INLINE_NAME.finditer(line)
        if not resolves(m[1])
    ]
    assert not missing, missing


def resolves(name: str) -> bool:
    """Whether ``a.b.c`` is a module or an attribute of one."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        return all((obj := getattr(obj, p, None)) is not None for p in parts[i:])
    return False


def test_not_run_markers_are_few():
    marked = [f"{b.where}: {b.reason}" for b in BLOCKS if b.kind == "not-run"]
    assert len(marked) <= MAX_NOT_RUN, marked


# ---------------------------------------------------------------- the runner itself


def _markdown(tmp_path: Path, text: str) -> list[Block]:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    return blocks(path)


def test_blocks_are_classified_by_info_string_and_marker(tmp_path: Path):
    found = _markdown(
        tmp_path,
        "```python\nx = 1\n```\n\n```\nplain\n```\n<!-- not-run: needs a cluster -->\n\n"
        "```sh\nmake demo\n```\n```text\nout\n```\n````console\n>>> 1\n````\n",
    )
    assert [(b.line, b.kind) for b in found] == [
        (1, "python"),
        (5, "unmarked"),
        (10, "not-run"),
        (13, "shown"),
        (16, "pycon"),
    ]
    assert found[2].reason == "needs a cluster"


def test_a_failing_python_block_fails_at_its_markdown_line(tmp_path: Path):
    (block,) = _markdown(tmp_path, "text\n\n```python\nx = 1\nlen(x)\n```\n")
    with pytest.raises(TypeError) as info:
        run_python(block, {})
    assert info.traceback[-1].lineno + 1 == 5


def test_a_pycon_block_checks_its_output(tmp_path: Path):
    good, bad = _markdown(tmp_path, "```pycon\n>>> 1 + 1\n2\n```\n```pycon\n>>> 2\n3\n```\n")
    run_pycon(good, {})
    with pytest.raises(AssertionError, match="expected"):
        run_pycon(bad, {})


def test_shell_lines_split_into_assay_commands(tmp_path: Path):
    (block,) = _markdown(
        tmp_path, '```sh\nassay metrics  # all\nassay a "P(rel=2)@5"; assay b x  # c; d\n```\n'
    )
    assert [(c.line, c.argv) for c in commands(block)] == [
        (2, ("assay", "metrics")),
        (3, ("assay", "a", "P(rel=2)@5")),
        (3, ("assay", "b", "x")),
    ]


def test_console_prompts_and_continued_lines(tmp_path: Path):
    (block,) = _markdown(
        tmp_path, "```console\n$ assay metrics \\\n    -f json\nshown output\n$ assay x\n```\n"
    )
    assert [(c.line, c.argv) for c in commands(block)] == [
        (2, ("assay", "metrics", "-f", "json")),
        (5, ("assay", "x")),
    ]


@pytest.mark.parametrize(
    "line", ["make test", "assay metrics | head", "assay evaluate no-such-qrels.txt run.txt"]
)
def test_a_shell_line_that_does_not_run_fails(tmp_path: Path, line: str):
    (block,) = _markdown(tmp_path, f"```sh\n{line}\n```\n")
    with pytest.raises(AssertionError):
        run_shell(block, tmp_path, set())


def test_a_misspelt_inline_name_does_not_resolve():
    assert resolves("assay.io.streams.MAX_LINE_BYTES") and resolves("assay.stats.ttest")
    assert not resolves("assay.stats.t_test") and not resolves("assay.nosuch.module")


def test_a_synopsis_with_a_wrong_option_or_value_fails(tmp_path: Path):
    (block,) = _markdown(
        tmp_path,
        "```text\nassay evaluate QRELS RUN [--ties docno|random]\n"
        "              [--no-such X]\n      (a note: --not-checked)\n```\n",
    )
    with pytest.raises(AssertionError) as info:
        test_synopsis_options_exist(block)
    assert "not ('docno', 'random')" in str(info.value)
    assert "has no --no-such" in str(info.value) and "--not-checked" not in str(info.value)


def test_a_files_own_names_win_over_the_givens(tmp_path: Path, notebook: Notebook):
    own = Notebook(notebook.folder)
    path = tmp_path / "doc.md"
    path.write_text(
        "```python\ny_true = [1, 0]\nfrom assay import clustering as K\nk_gold = gold\n```\n"
        "```python\nfrom assay import classification as C, tagging as T\n"
        "assert y_true == [1, 0] and isinstance(k_gold, list) and not isinstance(gold, list)\n"
        "```\n",
        encoding="utf-8",
    )
    for block in blocks(path):
        own.run_through(block)
    assert own.own[path] >= {"y_true", "k_gold", "K", "C", "T"} and "gold" not in own.own[path]


def test_a_console_block_checks_the_output_it_shows(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    good, bad = _markdown(
        tmp_path,
        "```console\n$ assay metrics --family regression -f tsv\nname\tfamily\tinput...\n```\n"
        "```console\n$ assay metrics --family regression -f tsv\nno such output\n```\n",
    )
    run_shell(good, tmp_path, set())
    with pytest.raises(AssertionError, match="expected"):
        run_shell(bad, tmp_path, set())
