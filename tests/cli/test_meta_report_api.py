"""The ``--report`` page of every ``assay meta`` command is the library's: the result built
from the Python API (reading the files aside: one call, or two where the measure takes an
evaluation) renders, with the CLI's title, the same bytes the CLI writes. On trec_eval's
own test collection (../shared/data/trec_eval)."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from assay import meta
from assay.report import to_html
from conftest import shared_file
from support.cli import invoke


def _data(name: str) -> Path:
    return shared_file("trec_eval", name)


@pytest.fixture(scope="module")
def qrels() -> assay.Qrels:
    return assay.Qrels.read(_data("qrels.test"))


def _runs() -> list[assay.Run]:
    paths = [_data("results.test"), _data("results.trunc")]
    return [assay.Run.read(p, name=p.name) for p in paths]


def _cli_page(tmp_path: Path, *args: str | Path) -> str:
    page = tmp_path / "page.html"
    code, _, err = invoke("meta", *args, "--report", page, "--quiet")
    assert code == 0, err
    return page.read_text(encoding="utf-8")


def test_discpower(qrels: assay.Qrels, tmp_path: Path) -> None:
    a, b = _data("results.test"), _data("results.trunc")
    page = _cli_page(
        tmp_path,
        "discpower",
        _data("qrels.test"),
        a,
        b,
        "-m",
        "map",
        "-m",
        "P@5",
        "--n-resamples",
        "200",
    )
    dp = meta.discriminative_power(assay.evaluate(qrels, _runs(), ["map", "P@5"]), n_resamples=200)
    assert dp.html(title="assay meta discpower") == page
    pairs = _cli_page(
        tmp_path,
        "discpower",
        _data("qrels.test"),
        a,
        b,
        "-m",
        "map",
        "--pairs",
        "--n-resamples",
        "100",
    )
    dp = meta.discriminative_power(assay.evaluate(qrels, _runs(), ["map"]), n_resamples=100)
    assert to_html([dp.document(pairs=True)], title="assay meta discpower") == pairs


def test_topicsize(qrels: assay.Qrels, tmp_path: Path) -> None:
    a, b = _data("results.test"), _data("results.trunc")
    page = _cli_page(
        tmp_path,
        "topicsize",
        _data("qrels.test"),
        a,
        b,
        "-m",
        "map",
        "--min-diff",
        "0.05",
        "--min-diff",
        "0.1",
    )
    ts = meta.topic_set_size(assay.evaluate(qrels, _runs(), ["map"]), min_diff=[0.05, 0.1])
    assert ts.html(title="assay meta topicsize") == page
    page = _cli_page(tmp_path, "topicsize", "--variance", "0.05", "--n-topics", "50")
    ts = meta.topic_set_size(0.05, min_diff=[0.1], n_topics=50)
    assert ts.html(title="assay meta topicsize") == page


def test_rbo(tmp_path: Path) -> None:
    a, b = _data("results.test"), _data("results.trunc")
    page = _cli_page(tmp_path, "rbo", a, b, "-p", "0.8")
    res = meta.rbo_runs(
        assay.Run.read(a, name="results.test"), assay.Run.read(b, name="results.trunc"), p=0.8
    )
    assert res.html(title="assay meta rbo") == page


def test_repro(qrels: assay.Qrels, tmp_path: Path) -> None:
    a, b = _data("results.test"), _data("results.trunc")
    page = _cli_page(tmp_path, "repro", _data("qrels.test"), a, b, b, a, "-m", "map")
    labels = ["orig-baseline", "orig-advanced", "rep-baseline", "rep-advanced"]
    runs = [
        assay.Run.read(p, name=f"{lab}:{p}") for p, lab in zip((a, b, b, a), labels, strict=True)
    ]
    rep = meta.reproducibility(qrels, *runs, ["map"])
    assert rep.html(title="assay meta repro") == page


def test_assessors(qrels: assay.Qrels, tmp_path: Path) -> None:
    page = _cli_page(tmp_path, "assessors", _data("qrels.test"), _data("qrels.test"))
    agreement = meta.assessor_agreement(qrels, qrels, runs=[], metrics=["map"])
    assert agreement.html(title="assay meta assessors") == page


def test_anova(qrels: assay.Qrels, tmp_path: Path) -> None:
    a, b = _data("results.test"), _data("results.trunc")
    page = _cli_page(tmp_path, "anova", _data("qrels.test"), a, b, "-m", "map", "-m", "P@5")
    res = meta.anova(assay.evaluate(qrels, _runs(), ["map", "P@5"]))
    assert res.html(title="assay meta anova") == page
    assert page.count("<svg") >= 2  # one interval plot of the run means per metric


def test_replicability(tmp_path: Path) -> None:
    table = tmp_path / "pvalues.tsv"
    table.write_text("data\tp\nnews\t0.001\nweb\t0.019\nbio\t0.3\n", encoding="utf-8")
    page = _cli_page(
        tmp_path, "replicability", table, "--dataset-column", "data", "--p-value-column", "p"
    )
    res = meta.replicability(meta.read_pvalues(table, dataset_column="data", p_value_column="p"))
    assert res.html(title="assay meta replicability") == page


def test_meta_results_read_well_in_a_notebook(qrels: assay.Qrels) -> None:
    runs = _runs()
    res = assay.evaluate(qrels, runs, ["map", "P@5"])
    results = [
        meta.discriminative_power(res, n_resamples=100),
        meta.topic_set_size(res, min_diff=[0.1]),
        meta.rbo_runs(*runs),
        meta.rbo(["a", "b", "c"], ["b", "a", "d"]),
        meta.reproducibility(qrels, runs[0], runs[1], runs[1], runs[0], ["map"]),
        meta.assessor_agreement(qrels, qrels),
        meta.anova(res),
        meta.replicability({"a": 0.01, "b": 0.2}),
    ]
    for result in results:
        text = repr(result)
        assert text.startswith(type(result).__name__ + "(") and len(text) < 2000, text
        assert result._repr_html_().startswith("<")
