"""The ranking core's results build what ``assay evaluate`` and ``assay compare`` print and
write (issue 26): the ``--report`` page comes out of the Python API in two calls, byte for
byte with the same title; the printed table is ``result.report()``; the reprs fit on one
screen and show the headline numbers; the names that moved out of ``assay.report`` still
resolve, with a DeprecationWarning."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
import assay.ranking
from assay.data import Qrels, Run
from support.cli import invoke

pytest.importorskip("matplotlib")

METRICS = ["map", "ndcg@10", "P@10"]
FLAGS = [part for m in METRICS for part in ("-m", m)]


def test_evaluate_report_page_is_the_api_page(trec_dir: Path, tmp_path: Path) -> None:
    qrels, runs = trec_dir / "qrels.test", [trec_dir / "results.test", trec_dir / "results.trunc"]
    page = tmp_path / "evaluate.html"
    code, out, _ = invoke("evaluate", qrels, *runs, *FLAGS, "-f", "tsv", "--report", page)
    assert code == 0

    res = assay.evaluate(Qrels.read(qrels), [Run.read(p) for p in runs], METRICS)
    assert res.html(title="assay evaluate") == page.read_text(encoding="utf-8")
    assert res.report().render("tsv") == out
    assert "Precision-recall" in page.read_text(encoding="utf-8")


def test_compare_report_page_is_the_api_page(trec_dir: Path, tmp_path: Path) -> None:
    qrels, runs = trec_dir / "qrels.test", [trec_dir / "results.test", trec_dir / "results.trunc"]
    page = tmp_path / "compare.html"
    options = ("--n-resamples", "300", "--baseline", "results.test")
    code, out, _ = invoke("compare", qrels, *runs, *FLAGS, *options, "--report", page, "-f", "tsv")
    assert code == 0

    cmp = assay.compare(
        Qrels.read(qrels),
        [Run.read(p) for p in runs],
        METRICS,
        n_resamples=300,
        baseline="results.test",
    )
    assert cmp.html(title="assay compare") == page.read_text(encoding="utf-8")
    assert cmp.report().render("tsv") == out


def test_the_file_functions_are_what_the_commands_compute(trec_dir: Path) -> None:
    qrels, runs = trec_dir / "qrels.test", [trec_dir / "results.test", trec_dir / "results.trunc"]
    code, out, _ = invoke("evaluate", qrels, *runs, *FLAGS, "-q", "-f", "json")
    assert code == 0
    res = assay.ranking.evaluate_files(str(qrels), [str(p) for p in runs], METRICS)
    assert res.report(per_query=True).render("json") == out


def test_results_and_comparisons_read_well(trec_dir: Path) -> None:
    qrels = Qrels.read(trec_dir / "qrels.test")
    runs = [Run.read(trec_dir / "results.test"), Run.read(trec_dir / "results.trunc")]
    res = assay.evaluate(qrels, runs, METRICS)
    cmp = assay.compare(qrels, runs, METRICS, n_resamples=200)
    assert len(repr(res)) < 2000 and "results.trunc: map=" in repr(res)
    text = repr(cmp)
    assert len(text) < 2000
    pair = cmp.pairs[0]
    assert f"{pair.diff:+.4f}" in text and f"p={pair.p_value:.4g}" in text
    assert f"p_adj={pair.p_adjusted:.4g}" in text
    for result in (res, cmp):
        view = result._repr_html_()
        assert view.startswith("<") and "results.trunc" in view


def test_a_long_comparison_repr_still_fits_on_one_screen() -> None:
    qrels, runs = assay.datasets.synthetic(
        n_queries=10, docs_per_query=5, noise=[0.5 + i / 10 for i in range(8)], seed=1
    )
    cmp = assay.compare(qrels, list(runs.values()), ["P@5", "map", "ndcg@5"], n_resamples=50)
    assert len(repr(cmp)) < 2000 and "more line" in repr(cmp)
    res = cmp.results
    assert len(repr(res)) < 2000


def test_the_system_against_baseline_type_is_the_one_of_stats() -> None:
    from assay.results import PairResult

    qrels, runs = assay.datasets.synthetic(n_queries=6, docs_per_query=5, seed=1)
    cmp = assay.compare(qrels, list(runs.values())[:2], "P@5", n_resamples=50)
    assert PairResult is assay.stats.PairResult
    pair = cmp.pairs[0]
    assert isinstance(pair, PairResult) and pair.run == pair.system


@pytest.mark.parametrize(
    "name",
    [
        "results_report",
        "comparison_report",
        "comparison_legend",
        "results_document",
        "comparison_document",
    ],
)
def test_moved_report_names_still_resolve_with_a_warning(name: str) -> None:
    import assay.ranking
    import assay.report

    with pytest.warns(DeprecationWarning, match=f"assay.ranking.{name}"):
        moved = getattr(assay.report, name)
    assert moved is getattr(assay.ranking, name)
    assert name not in assay.report.__all__
