"""Runs and qrels given as data frames, Arrow tables or pytrec_eval/ranx dicts are taken by
every public function that takes a run or qrels (evaluate, compare, fuse, evaluate_trec),
with the values of the same Run; anything else is refused with a message naming the
constructor to call (a DataFrame used to be read as file names: "query: no such file")."""

from __future__ import annotations

from typing import Any

import pytest

import assay
from assay.compat.trec_eval import evaluate_trec
from assay.data import Qrels, Run
from assay.errors import InputError
from assay.fusion import fuse

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def data() -> tuple[Qrels, dict[str, Run]]:
    return assay.datasets.synthetic(n_queries=4, docs_per_query=6, seed=5)


def _nested(table: Qrels | Run) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for row in table.to_pandas().itertuples(index=False):
        out.setdefault(str(row[0]), {})[str(row[1])] = row[2]
    return out


def _values(res: Any) -> list[float]:
    return [float(v) for v in res.to_pandas()["value"]]


def _forms(run: Run) -> dict[str, Any]:
    return {
        "pandas": run.to_pandas(),
        "arrow": run.to_arrow(),
        "dict": _nested(run),
    }


@pytest.mark.parametrize("form", ["pandas", "arrow", "dict"])
def test_evaluate_takes_one_run_as_a_frame_or_dict(
    data: tuple[Qrels, dict[str, Run]], form: str
) -> None:
    qrels, runs = data
    expected = _values(assay.evaluate(qrels, runs["run1"].rename("run"), ["P@5", "AP"]))
    got = assay.evaluate(qrels, _forms(runs["run1"])[form], ["P@5", "AP"])
    assert _values(got) == expected


@pytest.mark.parametrize("form", ["pandas", "arrow", "dict"])
def test_evaluate_takes_qrels_as_a_frame_or_dict(
    data: tuple[Qrels, dict[str, Run]], form: str
) -> None:
    qrels, runs = data
    qforms = {"pandas": qrels.to_pandas(), "arrow": qrels.to_arrow(), "dict": _nested(qrels)}
    expected = _values(assay.evaluate(qrels, runs["run1"], ["P@5", "ndcg"]))
    assert _values(assay.evaluate(qforms[form], runs["run1"], ["P@5", "ndcg"])) == expected


def test_a_dict_of_runs_in_ranx_style_is_taken_by_name(
    data: tuple[Qrels, dict[str, Run]],
) -> None:
    qrels, runs = data
    expected = assay.evaluate(qrels, runs, ["P@5"])
    nested = {name: _nested(run) for name, run in runs.items()}
    got = assay.evaluate(qrels, nested, ["P@5"])
    assert got.runs == expected.runs
    assert _values(got) == _values(expected)
    mixed = {"run1": runs["run1"].to_pandas(), "run2": runs["run2"], "run3": nested["run3"]}
    assert _values(assay.evaluate(qrels, mixed, ["P@5"])) == _values(expected)


def test_compare_fuse_and_trec_eval_take_frames(data: tuple[Qrels, dict[str, Run]]) -> None:
    qrels, runs = data
    frames = {name: run.to_pandas() for name, run in runs.items()}
    cmp = assay.compare(qrels.to_pandas(), frames, ["P@5"], n_resamples=50)
    assert {"run1", "run2", "run3"} <= set(cmp.to_pandas()["run"])
    fused = fuse([frames["run1"], runs["run2"]], method="rrf")
    assert fused.n_queries == runs["run1"].n_queries
    res = evaluate_trec(qrels.to_pandas(), frames["run1"], ["P.5"])
    assert res.runid == "run"


@pytest.mark.parametrize(
    ("call", "needles"),
    [
        (lambda q, r: assay.evaluate(q, 42, ["P@5"]), ("a run must be", "Run.from_pandas")),
        (lambda q, r: assay.evaluate(q, [r, 42], ["P@5"]), ("got int", "Run.from_dict")),
        (lambda q, r: assay.evaluate([1, 2], r, ["P@5"]), ("qrels must be", "Qrels.from_dict")),
        (lambda q, r: fuse([r, object()]), ("fuse:", "Run.read")),
        (lambda q, r: evaluate_trec(q, 3.5), ("run must be", "Run.from_pandas")),
        (lambda q, r: Run(r.to_pandas()), ("Run.read(path)", ".from_pandas(df)")),
        (lambda q, r: Qrels({"q": {"d": 1}}), ("Qrels.read(path)", ".from_dict(")),
    ],
)
def test_what_is_not_a_run_names_what_to_call(
    data: tuple[Qrels, dict[str, Run]], call: Any, needles: tuple[str, ...]
) -> None:
    qrels, runs = data
    with pytest.raises(InputError) as info:
        call(qrels, runs["run1"])
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))
    assert "no such file" not in str(info.value)


def test_qrels_given_a_dict_of_runs_shape_says_so(data: tuple[Qrels, dict[str, Run]]) -> None:
    qrels, runs = data
    three = {"a": _nested(qrels)}
    with pytest.raises(InputError, match=r"dict of \{name:"):
        assay.evaluate(three, runs["run1"], ["P@5"])


def test_meta_overlap_functions_take_frames_and_name_what_to_call(
    data: tuple[Qrels, dict[str, Run]],
) -> None:
    """rbo_runs, ktau_union and repro_rbo met a DataFrame with an AttributeError."""
    from assay import meta

    _, runs = data
    a, b = runs["run1"], runs["run2"]
    expected = meta.rbo_runs(a, b)
    got = meta.rbo_runs(a.to_pandas(), _nested(b))
    assert list(got.ext) == list(expected.ext)
    tau = meta.ktau_union(a.to_pandas(), b)
    assert list(tau.values) == list(meta.ktau_union(a, b).values)
    assert list(meta.repro_rbo(a.to_arrow(), b).values) == list(meta.repro_rbo(a, b).values)
    with pytest.raises(InputError, match=r"run_a must be .*Run\.from_pandas"):
        meta.rbo_runs(3, b)
