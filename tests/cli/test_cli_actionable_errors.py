"""Errors a person can act on: running out of memory or stack, a Dask address that cannot be
used, and the common mistakes of each command end in one line that says what to do (exit 2),
never an internal error (exit 70) or advice the command line cannot follow."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from assay.cli import evaluate as cli_evaluate
from conftest import shared_file
from support.cli import assert_one_line_error, invoke


@pytest.fixture(scope="module")
def trec(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("actionable")
    qrels, runs = assay.datasets.synthetic(n_queries=6, docs_per_query=8, seed=3)
    out = {"qrels": d / "qrels.txt"}
    qrels.to_trec(out["qrels"])
    for name, run in runs.items():
        out[name] = d / f"{name}.txt"
        run.to_trec(out[name])
    return out


# ---------------------------------------------------------------- out of memory, of stack


@pytest.mark.parametrize(
    "exc",
    [
        MemoryError(),
        RecursionError("maximum recursion depth exceeded"),
        ValueError(
            "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
            "possible size."
        ),
    ],
    ids=["memory", "recursion", "numpy-too-big"],
)
def test_running_out_of_memory_or_stack_is_one_line(
    trec: dict[str, Path], monkeypatch: pytest.MonkeyPatch, exc: Exception
) -> None:
    def exhausted(*args: object, **kwargs: object) -> None:
        raise exc

    monkeypatch.setattr(cli_evaluate, "load_collection", exhausted)
    code, out, err = invoke("evaluate", trec["qrels"], trec["run1"], "-m", "P@5")
    assert_one_line_error(code, out, err, "while running 'assay evaluate'", "try ")
    assert ("nested too deeply" if isinstance(exc, RecursionError) else "out of memory") in err


def test_running_out_of_memory_outside_a_command_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the command line is parsed (before a command's own error handling)."""
    from assay.cli import _group

    def exhausted(command: object) -> None:
        raise MemoryError

    monkeypatch.setattr(_group, "_name_what_is_typed", exhausted)
    code, out, err = invoke("metrics")
    assert_one_line_error(code, out, err, "out of memory", "try ")


def test_another_value_error_is_still_a_bug(
    trec: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only NumPy's "too big" refusals are read as out of memory."""

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("something else")

    monkeypatch.setattr(cli_evaluate, "load_collection", broken)
    with pytest.raises(ValueError, match="something else"):
        invoke("evaluate", trec["qrels"], trec["run1"], "-m", "P@5")


# ---------------------------------------------------------------- --dask addresses


@pytest.mark.parametrize(
    ("address", "needles"),
    [
        ("tls://127.0.0.1:1", ("certificates", "distributed.comm.tls.ca-file")),
        ("wss://127.0.0.1:1", ("certificates",)),
        ("ucx://127.0.0.1:1", ("UCX-Py",)),
        ("inproc://x", ("tcp://host:port",)),
        ("foo://x", ("unknown address scheme 'foo'", "tcp://host:8786")),
        ("tcp://", ("no host",)),
        ("", ("no host",)),
    ],
)
def test_a_dask_address_that_cannot_be_used_says_what_to_do(
    trec: dict[str, Path], address: str, needles: tuple[str, ...]
) -> None:
    pytest.importorskip("distributed")
    code, out, err = invoke("evaluate", trec["qrels"], trec["run1"], "-m", "P@5", "--dask", address)
    assert_one_line_error(code, out, err, "--dask", *needles)


# ---------------------------------------------------------------- assay ltr run


@pytest.fixture(scope="module")
def letor() -> Path:
    return shared_file("lightgbm_lambdarank", "rank.train").parent


def test_ltr_run_does_not_compare_mse_by_default(letor: Path) -> None:
    """A ranker's scores are on no label scale: their MSE marked LambdaMART significantly
    worse. It is asked for with -m mse only."""
    argv = ["ltr", "run", letor, "--models", "linear,ridge", "--n-resamples", "50", "-f", "tsv"]
    code, out, err = invoke(*argv)
    assert code == 0, err
    assert "\tmse\t" not in out
    assert "\tpairwise_accuracy\t" in out
    code, out, err = invoke(*argv, "-m", "mse")
    assert code == 0, err
    assert "\tmse\t" in out


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--alpha", "2"), ("--n-resamples", "99999999999999999999999"), ("--seeds", "5000")],
)
def test_ltr_run_checks_its_options_before_training(
    letor: Path, monkeypatch: pytest.MonkeyPatch, flag: str, value: str
) -> None:
    from assay.ltr import experiment

    def no_training(*args: object, **kwargs: object) -> None:
        raise AssertionError("a model was made before the options were checked")

    monkeypatch.setattr(experiment, "make_model", no_training)
    code, out, err = invoke("ltr", "run", letor, "--models", "linear,ridge", flag, value)
    assert_one_line_error(code, out, err, flag.lstrip("-").replace("-", "_"))
