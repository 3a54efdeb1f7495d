"""Every ``>>>`` example in assay's docstrings runs and prints what it shows (doctest).

Examples run in a temporary directory (they may write files) with ``ELLIPSIS`` and
``NORMALIZE_WHITESPACE``; ``# doctest: +SKIP`` marks the few that need files a reader
supplies (``Qrels.from_trec("qrels.txt")``).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import assay

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    names = ["assay"]
    for info in pkgutil.walk_packages(assay.__path__, "assay."):
        if ".cli" not in info.name and not info.name.endswith("__main__"):
            names.append(info.name)
    return sorted(names)


def _tests(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [t for t in finder.find(module, name) if t.examples]


MODULES = [name for name in _modules() if _tests(name)]


def test_there_are_examples_to_run() -> None:
    assert len(MODULES) >= 10, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in _tests(name):
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, (
        f"{failed} of {attempted} examples in {name} failed (run pytest -s to see them)"
    )
