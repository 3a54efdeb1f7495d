"""The code blocks of README.md, CONTRIBUTING.md and docs/*.md, found and run as a reader would run them.

Every fenced block is one of:

- ``python``/``py``: executed; the blocks of one Markdown file share one namespace, in order,
  like a notebook;
- ``pycon`` (or any block whose first line starts with ``>>>``): run as a doctest in that
  same namespace, its shown output checked;
- ``sh``/``bash``/``console``/``shell``: run line by line; every command must be ``assay …``
  (run in process by ``support.cli.invoke``), ``;`` separates commands, ``#`` starts a
  comment, an unquoted ``*`` is expanded against the working directory as a shell would;
- ``text``: shown, never run (output samples, synopses with ``[…]`` and ``|``);
- any block right after a line ``<!-- not-run: REASON -->``: shown, never run, for the reason
  given (``make``, ``pip``, a cluster address).

A block with another info string (or none) and no marker cannot be run, and the test fails on
it: the rule is in CONTRIBUTING.md ("Code blocks in the docs").
"""

from __future__ import annotations

import ast
import doctest
import glob
import io
import re
import shlex
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conftest import ROOT

from .cli import invoke

RUN_KINDS = {
    "python": "python",
    "py": "python",
    "pycon": "pycon",
    "sh": "shell",
    "bash": "shell",
    "console": "shell",
    "shell": "shell",
}
SHOWN = "text"
NOT_RUN = re.compile(r"^<!--\s*not-run:\s*(?P<reason>\S.*?)\s*-->$")
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")


def documents() -> list[Path]:
    """README.md, CONTRIBUTING.md and every docs/*.md, in a fixed order."""
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its info string, its text and the not-run reason."""

    path: Path
    line: int  # of the opening fence, 1-based
    info: str
    text: str
    reason: str | None = None

    @property
    def where(self) -> str:
        name = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path.name
        return f"{name}:{self.line}"

    @property
    def kind(self) -> str:
        """``python``, ``pycon``, ``shell``, ``shown``, ``not-run`` or ``unmarked``."""
        if self.reason is not None:
            return "not-run"
        if self.info == SHOWN:
            return "shown"
        if self.text.lstrip().startswith(">>>"):
            return "pycon"
        return RUN_KINDS.get(self.info.lower(), "unmarked")


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, with the not-run marker of the line before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        close = re.compile(rf"^ {{0,3}}{m['fence'][0]}{{{len(m['fence'])},}}\s*$")
        end = next((j for j in range(i + 1, len(lines)) if close.match(lines[j])), len(lines))
        marker = _marker(lines, i)
        text = "\n".join(lines[i + 1 : end]) + "\n"
        found.append(Block(path, i + 1, m["info"], text, marker))
        i = end + 1
    return found


def _marker(lines: list[str], fence: int) -> str | None:
    """The reason of a ``<!-- not-run: … -->`` line just above the fence (blank lines allowed)."""
    j = fence - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    m = NOT_RUN.match(lines[j].strip()) if j >= 0 else None
    return m["reason"] if m else None


def all_blocks() -> list[Block]:
    return [b for path in documents() for b in blocks(path)]


# ---------------------------------------------------------------- Python


def run_python(block: Block, namespace: dict[str, Any]) -> None:
    """Execute a ``python`` block in the file's namespace; line numbers are the Markdown's."""
    source = "\n" * block.line + block.text
    exec(compile(source, str(block.path), "exec"), namespace)


def run_pycon(block: Block, namespace: dict[str, Any]) -> None:
    """Run the ``>>>`` examples of a block; a shown output must be what Python prints."""
    checker = doctest.OutputChecker()
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    for example in doctest.DocTestParser().get_examples(block.text):
        line = block.line + 1 + example.lineno
        code = compile("\n" * (line - 1) + example.source, str(block.path), "single")
        out = io.StringIO()
        with redirect_stdout(out):
            exec(code, namespace)
        if example.want and not checker.check_output(example.want, out.getvalue(), flags):
            raise AssertionError(
                f"{block.path.name}:{line}: expected\n{example.want}got\n{out.getvalue()}"
            )


# ---------------------------------------------------------------- shell


@dataclass(frozen=True)
class Command:
    line: int
    argv: tuple[str, ...]


def commands(block: Block) -> Iterator[Command]:
    """The commands of a shell block: one per line (a trailing ``\\`` continues it) or per
    ``;``, comments dropped; in a ``console`` block only the lines after a ``$`` prompt."""
    for offset, text in _lines(block):
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";|&<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        words: list[str] = []
        for token in [*lexer, ";"]:
            if token != ";":
                words.append(token)
            elif words:
                yield Command(block.line + offset, tuple(words))
                words = []


def _lines(block: Block) -> Iterator[tuple[int, str]]:
    """(line offset, text) of each logical command line of a shell block."""
    pending, start = "", 0
    for offset, text in enumerate(block.text.splitlines(), start=1):
        if block.info == "console" and not pending:
            if not text.startswith("$ "):
                continue  # output shown after the command
            text = text[2:]
        start = start or offset
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        yield start, pending + text
        pending, start = "", 0


def expand(word: str, cwd: Path) -> list[str]:
    """A word with ``*`` as the shell expands it: the sorted matches, or itself if none."""
    if "*" not in word:
        return [word]
    return sorted(glob.glob(word, root_dir=cwd)) or [word]


def run_shell(block: Block, cwd: Path, done: set[tuple[str, ...]]) -> None:
    """Run every command of a shell block in ``cwd`` (the caller's working directory).

    ``done`` holds the command lines already run in this working directory: an identical
    line (``assay demo --report demo.html --save demo.json`` in two documents) is seeded and
    writes the same files, so it is not run a second time."""
    for cmd in commands(block):
        where = f"{block.path.name}:{cmd.line}"
        if cmd.argv[0] != "assay" or any(w in {"|", "&", "<", ">", "&&"} for w in cmd.argv):
            raise AssertionError(
                f"{where}: only `assay ...` commands run here; mark the block "
                f"(```text or <!-- not-run: reason -->): {shlex.join(cmd.argv)}"
            )
        argv = tuple(a for w in cmd.argv[1:] for a in expand(w, cwd))
        want = shown_output(block).get(cmd.line, "")
        if argv in done and not want:
            continue
        code, out, err = invoke(*argv)
        assert code == 0, f"{where}: `{shlex.join(cmd.argv)}` exited {code}: {err}{out[-2000:]}"
        done.add(argv)
        flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
        if want and not doctest.OutputChecker().check_output(want, out, flags):
            raise AssertionError(f"{where}: expected\n{want}got\n{out}")


def shown_output(block: Block) -> dict[int, str]:
    """In a ``console`` block, the output shown under each ``$`` command, by its line
    (``...`` stands for any text, runs of white space match any white space)."""
    if block.info != "console":
        return {}
    shown: dict[int, list[str]] = {}
    current = None
    lines = block.text.splitlines()
    for offset, text in enumerate(lines, start=1):
        if text.startswith("$ "):
            current = offset
            shown[current] = []
        elif current is not None and not lines[offset - 2].endswith("\\"):
            shown[current].append(text)
    return {block.line + k: "\n".join(v) + "\n" for k, v in shown.items() if any(v)}


# ---------------------------------------------------------------- synopses


FLAG = re.compile(r"(?<![\w-])--?[a-zA-Z][a-z0-9-]*")


CHOICES = re.compile(r"(--[a-z][a-z0-9-]*) ([\w.-]+(?:\|[\w.-]+)+)")


def synopsis_flags(block: Block) -> Iterator[tuple[int, tuple[str, ...], str, tuple[str, ...]]]:
    """(line, command words, ``--flag``, values shown ``a|b``) for every option of the
    ``assay …`` synopses of a ``text`` block; indented lines continue the command above, a
    ``(`` starts a note."""
    path: tuple[str, ...] = ()
    for offset, text in enumerate(block.text.splitlines(), start=1):
        if text.startswith("assay "):
            words = text.split()[1:]
            path = tuple(w for w in words[:2] if re.fullmatch(r"[a-z][a-z|-]*", w))
        elif not text[:1].isspace() or text.lstrip().startswith("("):
            path = ()
        shown = {flag: tuple(values.split("|")) for flag, values in CHOICES.findall(text)}
        for flag in FLAG.findall(text) if path else []:
            yield block.line + offset, path, flag, shown.get(flag, ())


# ---------------------------------------------------------------- docstrings


def docstring_examples() -> list[Block]:
    """The docstrings of src/assay holding ``>>>`` examples, as ``pycon`` blocks (a
    ``+SKIP`` directive is not obeyed: in the docs' folder every example can run)."""
    found = []
    for path in sorted((ROOT / "src" / "assay").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if ">>>" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
                doc = ast.get_docstring(node, clean=False)
                if doc and ">>>" in doc:
                    line = node.body[0].lineno - 1  # the docstring's first line is line + 1
                    found.append(Block(path, line, "pycon", doc))
    return found
