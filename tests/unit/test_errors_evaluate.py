"""Bad metrics, conventions and arguments raise typed errors; queries that do not match are
counted, never dropped silently."""

from __future__ import annotations

import pytest

import assay
from assay import (
    AssayError,
    ConventionError,
    DuplicateError,
    EmptyInputError,
    InputError,
    MetricError,
    MissingQueryError,
    ParseError,
    Qrels,
    Run,
)
from assay.metrics import REGISTRY, make


@pytest.fixture
def data() -> tuple[Qrels, Run]:
    qrels = Qrels.from_dict({"1": {"a": 1, "b": 0}, "2": {"a": 2}})
    run = Run.from_dict({"1": {"a": 1.0, "b": 0.5}, "2": {"a": 1.0}}, name="r")
    return qrels, run


def test_unknown_metric_suggests(data: tuple[Qrels, Run]) -> None:
    with pytest.raises(MetricError) as exc:
        assay.evaluate(*data, ["ndcg@10", "nDGC@10"])
    assert "unknown metric 'nDGC'" in str(exc.value)
    assert "did you mean 'ndcg'" in str(exc.value)
    with pytest.raises(MetricError, match="did you mean"):
        assay.evaluate(*data, "precison@5")


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("P@0", "positive integer"),
        ("ndcg@-3", "positive integer"),
        ("P@2.5", "positive integer"),
        ("P.0", "positive integer"),
        ("rbp(p=1.5)", "p must be a number in (0, 1), got 1.5"),
        ("rbp(p=0)", "p must be a number in (0, 1), got 0"),
        ("rbp(p=1)", "p must be a number in (0, 1), got 1"),
        ("ndcg(foo=1)@10", "ndcg has no parameter foo"),
        ("ndcg(gain={1: -1})@10", "non-negative"),
        ("ndcg(gain={'a': 1})@10", "integer grades"),
        ("ndcg(gain={})@10", "empty"),
        ("ndcg(gain='cubic')@10", "gain must be"),
        ("P(rel=-1)@5", "rel must be a non-negative integer, got -1"),
        ("num_ret@5", "takes no cutoff"),
        ("P(1)@5", "name=value"),
        ("", "non-empty"),
    ],
)
def test_bad_metric_parameters(name: str, needle: str, data: tuple[Qrels, Run]) -> None:
    with pytest.raises(MetricError) as exc:
        assay.evaluate(*data, name)
    assert needle in str(exc.value)
    assert isinstance(exc.value, AssayError) and isinstance(exc.value, ValueError)


def test_bad_cutoff_programmatic() -> None:
    for k in (0, -1):
        with pytest.raises(MetricError, match="positive integer"):
            make(REGISTRY["P"], k)


def test_bad_conventions(data: tuple[Qrels, Run]) -> None:
    for kwargs, needle in [
        ({"ties": "random"}, "ties must be one of docno, input, average; got 'random'"),
        ({"missing": "ignore"}, "zero, skip, error"),
        ({"no_relevant": "half"}, "zero, one, skip, nan"),
        ({"judged_only": "yes"}, "judged_only must be True or False"),
    ]:
        with pytest.raises(ConventionError) as exc:
            assay.evaluate(*data, "P@5", **kwargs)
        assert needle in str(exc.value)
    with pytest.raises(TypeError, match="tie"):  # a misspelt keyword, as any Python function
        assay.evaluate(*data, "P@5", tie="docno")
    with pytest.raises(ConventionError, match="bpref"):
        assay.evaluate(*data, ["P@5", "bpref"], ties="average")


def test_missing_error_convention(data: tuple[Qrels, Run]) -> None:
    qrels, _ = data
    run = Run.from_dict({"1": {"a": 1.0}}, name="partial")
    with pytest.raises(MissingQueryError) as exc:
        assay.evaluate(qrels, run, "P@5", missing="error")
    assert "'2'" in str(exc.value) and "partial" in str(exc.value)


def test_bad_evaluate_arguments(data: tuple[Qrels, Run]) -> None:
    qrels, run = data
    with pytest.raises(InputError, match="unique"):
        assay.evaluate(qrels, [run, run], "P@5")
    with pytest.raises(InputError, match="Qrels"):
        assay.evaluate(run, run, "P@5")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        assay.evaluate(qrels, ["not a run"], "P@5")  # type: ignore[list-item]


def test_run_queries_absent_from_qrels_are_counted(data: tuple[Qrels, Run]) -> None:
    qrels, _ = data
    run = Run.from_dict(
        {"1": {"a": 1.0}, "2": {"a": 1.0}, "x": {"a": 1.0, "b": 2.0}, "y": {"c": 0.5}}, name="extra"
    )
    res = assay.evaluate(qrels, run, "P@5")
    warnings = [w for w in res.warnings if "not in the qrels" in w]
    assert len(warnings) == 1
    assert "2 queries" in warnings[0] and "3 results" in warnings[0]
    assert "'extra'" in warnings[0]
    # The unknown queries are not evaluated.
    assert set(res.per_query("extra", "P@5")) == {"1", "2"}


def test_qrels_queries_missing_from_run_are_counted(data: tuple[Qrels, Run]) -> None:
    qrels, _ = data
    run = Run.from_dict({"1": {"a": 1.0}}, name="partial")
    res = assay.evaluate(qrels, run, "P@5")
    assert any("1 qrels query without results" in w and "'2'" in w for w in res.warnings)
    assert res.per_query("partial", "P@5")["2"] == 0.0
    skipped = assay.evaluate(qrels, run, "P@5", missing="skip")
    assert set(skipped.per_query("partial", "P@5")) == {"1"}
    assert any("skipped" in w for w in skipped.warnings)


def test_no_warnings_when_all_match(data: tuple[Qrels, Run]) -> None:
    assert assay.evaluate(*data, ["P@5", "ndcg@10"]).warnings == []


def test_error_hierarchy() -> None:
    for cls in (
        InputError,
        ParseError,
        DuplicateError,
        EmptyInputError,
        MetricError,
        ConventionError,
        MissingQueryError,
        assay.MissingExtraError,
    ):
        assert issubclass(cls, AssayError)
    for cls in (ParseError, DuplicateError, EmptyInputError):
        assert issubclass(cls, InputError) and issubclass(cls, ValueError)
    err = ParseError("bad", source="f.txt", line=7)
    assert (str(err), err.source, err.line, err.detail) == ("f.txt:7: bad", "f.txt", 7, "bad")


@pytest.mark.parametrize(
    "name", ["map " + " " * 20_000 + "x", "ndcg@10" + " " * 20_000 + "@", " " * 20_000 + "(x"]
)
def test_padded_metric_names_fail_in_linear_time(name):
    # The name pattern once backtracked cubically over runs of spaces (4,000 spaces: 360 s);
    # 20,000 would never finish there.
    with pytest.raises(
        MetricError, match=r"cannot parse|non-empty|parameters|holds 2 metric names"
    ):
        assay.metrics.names.parse(name)
