"""Progress on stderr (issue 16): a spinner or a bar while long work runs when stderr is a
terminal, nothing when it is not (a pipe, a file, CliRunner's capture) or with --quiet."""

from __future__ import annotations

import pytest

import assay
from assay.cli import _common
from support.cli import invoke


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    d = tmp_path_factory.mktemp("progress")
    qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=6, seed=2)
    qrels.to_trec(d / "qrels.txt")
    paths = [str(d / "qrels.txt")]
    for name, run in list(runs.items())[:2]:
        run.to_trec(d / f"{name}.txt")
        paths.append(str(d / f"{name}.txt"))
    return paths


def _compare(paths: list[str], *extra: str) -> tuple[int, str, str]:
    return invoke("compare", *paths, "-m", "P@5", "--n-resamples", "100", "-f", "tsv", *extra)


def test_no_progress_when_stderr_is_not_a_terminal(collection: list[str]) -> None:
    code, out, err = _compare(collection)
    assert code == 0 and out.startswith("kind\t")
    assert err == ""


def test_a_spinner_on_a_terminal_and_none_with_quiet(
    collection: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_common, "interactive", lambda quiet=False: not quiet)
    code, out, err = _compare(collection)
    assert code == 0
    assert "comparing 2 runs: randomization test, 100 resamples" in err
    assert out.startswith("kind\t")  # stdout keeps only the result
    code, _, err = _compare(collection, "--quiet")
    assert code == 0 and err == ""


def test_training_shows_a_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("lightgbm")
    monkeypatch.setattr(_common, "interactive", lambda quiet=False: not quiet)
    code, _, err = invoke("demo", "--queries", "10", "-f", "tsv")
    assert code == 0
    assert "training lambdamart" in err
    code, _, err = invoke("demo", "--queries", "10", "-f", "tsv", "--quiet")
    assert code == 0
    assert "training" not in err and "synthetic" not in err  # no bar, no note
    lines = err.splitlines()
    assert lines and all(line.startswith("assay: warning: ") for line in lines)  # kept
