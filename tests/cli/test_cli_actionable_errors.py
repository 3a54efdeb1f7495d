"""Errors a person can act on: running out of memory or stack, a Dask address that cannot be
used, and the common mistakes of each command end in one line that says what to do (exit 2),
never an internal error (exit 70) or advice the command line cannot follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import shared_file
from support.cli import assert_one_line_error, invoke
from support.io import synthetic_trec_files


@pytest.fixture(scope="module")
def trec(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("actionable")
    out = synthetic_trec_files(d)
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

    import assay.ranking.collection

    # What ``assay evaluate`` calls to read and evaluate the runs.
    monkeypatch.setattr(assay.ranking.collection, "evaluate_files", exhausted)
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

    import assay.ranking.collection

    monkeypatch.setattr(assay.ranking.collection, "evaluate_files", broken)
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


# ---------------------------------------------------------------- classify --positive


@pytest.fixture(scope="module")
def labels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("classify")
    texts = {
        "gold": "dog\ncat\nbird\ndog\ncat\nbird\ndog\n",
        "pred": "dog\ncat\ncat\ndog\nbird\nbird\ncat\n",
        "scores": "0.9\n0.1\n0.3\n0.8\n0.2\n0.4\n0.7\n",
    }
    out = {}
    for name, text in texts.items():
        out[name] = d / f"{name}.txt"
        out[name].write_text(text, encoding="utf-8")
    out["dir"] = d
    return out


@pytest.mark.parametrize("option", ["--report", "--save"])
def test_classify_scores_of_one_class_of_three_are_reported_and_saved(
    labels: dict[str, Path], option: str
) -> None:
    """The curves take the positive class against the rest, as the measures do (they refused
    three labels with advice only Python could follow: ``y_true == label``)."""
    target = labels["dir"] / ("out.html" if option == "--report" else "out.json")
    code, _, err = invoke(
        "classify",
        labels["gold"],
        labels["pred"],
        "--scores",
        labels["scores"],
        "--positive",
        "dog",
        option,
        target,
    )
    assert code == 0, err
    assert target.stat().st_size > 0
    if option == "--save":  # the ROC and PR curves of dog against the rest are saved
        assert target.read_text(encoding="utf-8").count('"kind": "line"') == 2


def test_classify_unknown_positive_lists_the_labels_and_the_case_insensitive_match(
    labels: dict[str, Path],
) -> None:
    code, out, err = invoke("classify", labels["gold"], labels["pred"], "--positive", "Dog")
    assert_one_line_error(code, out, err, "'bird', 'cat', 'dog'", "did you mean --pos-label 'dog'")
    code, out, err = invoke("classify", labels["gold"], labels["pred"], "--positive", "fox")
    assert_one_line_error(code, out, err, "'bird', 'cat', 'dog'")
    assert "did you mean" not in err


# ---------------------------------------------------------------- files given twice


def test_compare_and_evaluate_refuse_a_run_given_twice(trec: dict[str, Path]) -> None:
    run = trec["run1"]
    code, out, err = invoke("compare", trec["qrels"], run, run, "-m", "P@5")
    assert_one_line_error(code, out, err, f"{run} is given twice")
    assert "at least two runs" not in err
    other = f"{run.parent}/./{run.name}"  # the same file under another spelling
    code, out, err = invoke("compare", trec["qrels"], run, other, "-m", "P@5")
    assert_one_line_error(code, out, err, "given twice", f"as {run} and {other}")
    # evaluate printed one run's rows for the two (results are keyed by name)
    code, out, err = invoke("evaluate", trec["qrels"], run, trec["run2"], run, "-m", "P@5")
    assert_one_line_error(code, out, err, "given twice")


@pytest.fixture(scope="module")
def numbers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("numbers")
    texts = {"y": "1\n2\n3\n", "p1": "1.5\n2\n", "p2": "1\n2\n2.5\n", "empty": ""}
    out = {}
    for name, text in texts.items():
        out[name] = d / f"{name}.txt"
        out[name].write_text(text, encoding="utf-8")
    return out


def test_regression_mistakes_say_values_files_and_what_to_do(numbers: dict[str, Path]) -> None:
    y, p1, p2 = numbers["y"], numbers["p1"], numbers["p2"]
    code, out, err = invoke("regression", y, p1)
    assert_one_line_error(code, out, err, f"{p1}:2: ends after 2 values, but {y} has 3")
    assert "segment" not in err
    code, out, err = invoke("regression", y, numbers["empty"])
    assert_one_line_error(code, out, err, "one number per line")
    assert "segment" not in err
    code, out, err = invoke("regression", y, p2, p2)
    assert_one_line_error(code, out, err, f"prediction file {p2} is given twice")
    code, out, err = invoke("regression", y, p2, "--baseline", "nope")
    assert_one_line_error(code, out, err, "--baseline 'nope' is neither one of", str(p2))


def test_generation_mistakes_say_what_to_do(tmp_path: Path) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("a b\nc d\n", encoding="utf-8")
    hyp.write_text("a b\nc\n", encoding="utf-8")
    code, out, err = invoke("generation", ref, hyp, hyp, "-m", "chrf")
    assert_one_line_error(code, out, err, f"system output file {hyp} is given twice")
    code, out, err = invoke("generation", ref, hyp, "-m", "chrf", "--baseline", "nope")
    assert_one_line_error(code, out, err, "--baseline 'nope' is neither one of")


# ---------------------------------------------------------------- swapped qrels and run


def test_swapped_qrels_and_run_are_named(trec: dict[str, Path]) -> None:
    code, out, err = invoke("evaluate", trec["run1"], trec["qrels"], "-m", "P@5")
    assert_one_line_error(code, out, err, "looks like a run", "give the qrels file first")
    code, out, err = invoke("trec-eval", trec["run1"], trec["qrels"])
    assert_one_line_error(code, out, err, "looks like a run")
    code, out, err = invoke("fuse", trec["qrels"], trec["run1"])
    assert_one_line_error(code, out, err, "looks like qrels", "not a run")


def test_classify_beta_too_large_to_square_is_refused(labels: dict[str, Path]) -> None:
    """β² overflowed: every F_β was NaN, under a raw NumPy RuntimeWarning."""
    code, out, err = invoke("classify", labels["gold"], labels["pred"], "--beta", "1e308")
    assert_one_line_error(code, out, err, "beta must be a number in")


# ---------------------------------------------------------------- metric names, columns


@pytest.mark.parametrize(
    ("metric", "needles"),
    [
        ("P@5,AP", ("holds 2 metric names", "-m P@5 -m AP")),
        ("ndcg@10 AP", ("-m ndcg@10 -m AP",)),
        ("ndcg(gain='exp', k=3)", ("written after @", "ndcg(gain='exp')@3")),
        ("P(k=3)", ("P@3",)),
    ],
)
def test_a_metric_list_or_a_cutoff_parameter_says_how_to_write_it(
    trec: dict[str, Path], metric: str, needles: tuple[str, ...]
) -> None:
    """``P(k=3)`` was an internal TypeError; ``P@5,AP`` blamed the cutoff '5,AP'."""
    code, out, err = invoke("evaluate", trec["qrels"], trec["run1"], "-m", metric)
    assert_one_line_error(code, out, err, *needles)


def test_column_names_apply_to_the_tabular_run_beside_trec_qrels(
    trec: dict[str, Path], tmp_path: Path
) -> None:
    """--query-column refused a CSV run because the qrels were TREC text."""
    run = tmp_path / "run.csv"
    rows = (line.split() for line in trec["run1"].read_text(encoding="utf-8").splitlines())
    run.write_text("qid,docid,sc\n" + "".join(f"{r[0]},{r[2]},{r[4]}\n" for r in rows))
    cols = ["--query-column", "qid", "--doc-column", "docid", "--score-column", "sc"]
    code, out, err = invoke("evaluate", trec["qrels"], run, *cols, "-m", "P@5", "-f", "tsv")
    assert code == 0, err
    code, expected, _ = invoke("evaluate", trec["qrels"], trec["run1"], "-m", "P@5", "-f", "tsv")
    assert out.split("\t")[-2:] == expected.split("\t")[-2:]
    code, out, err = invoke("evaluate", trec["qrels"], trec["run1"], "--query-column", "qid")
    assert_one_line_error(code, out, err, "read as TREC text")


@pytest.mark.parametrize(
    "argv",
    [
        ("fuse", "{run1}", "{run2}", "-o", "out\x00.txt"),
        ("evaluate", "{qrels}", "{run1}", "-m", "P@5", "-o", "out\x00.tsv"),
        ("evaluate", "{qrels}", "run\x00.txt", "-m", "P@5"),
    ],
    ids=["fuse-output", "evaluate-output", "evaluate-input"],
)
def test_a_file_name_holding_nul_is_one_line(trec: dict[str, Path], argv: tuple[str, ...]) -> None:
    """The streamed fusion's writer and the output checks met Python's "embedded null
    byte" ValueError: an internal error."""
    code, out, err = invoke(*(a.format(**{k: str(v) for k, v in trec.items()}) for a in argv))
    assert_one_line_error(code, out, err, "NUL character")


def test_a_trec_file_with_a_tabular_extension_names_the_format_option(
    trec: dict[str, Path], tmp_path: Path
) -> None:
    run = tmp_path / "run.jsonl"
    run.write_bytes(trec["run1"].read_bytes())
    code, out, err = invoke("evaluate", trec["qrels"], run, "-m", "P@5")
    assert_one_line_error(code, out, err, "because of its extension", "--run-format")
    qrels = tmp_path / "qrels.parquet"
    qrels.write_bytes(trec["qrels"].read_bytes())
    code, out, err = invoke("evaluate", qrels, trec["run1"], "-m", "P@5")
    assert_one_line_error(code, out, err, "--qrels-format")
    code, out, err = invoke("evaluate", trec["qrels"], run, "-m", "P@5", "--run-format", "trec")
    assert code == 0, err


def test_ltr_given_a_trec_file_says_what_a_letor_line_is(trec: dict[str, Path]) -> None:
    code, out, err = invoke("ltr", "stats", trec["qrels"])
    assert_one_line_error(code, out, err, "label is not a number", "label qid:Q 1:v")
