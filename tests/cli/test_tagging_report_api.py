"""``assay tagging --report`` is the Python API's page: the CLI's HTML page, byte for byte,
is what ``assay.tagging.evaluate(...).html(title=...)`` gives for the same inputs (one tagger,
and several with paired tests), on the CoNLL-2000 sample of ../shared/data/ner. Also the
results' notebook outputs (a one-screen ``repr()``, ``_repr_html_``) and the deprecated
names ``assay.report.tagging_report`` and ``conlleval_text``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app
from assay.tagging import read_conll
from conftest import shared_file

pytest.importorskip("matplotlib")

SAMPLE = "conll2000_sample_output.txt"
TITLE = "assay tagging"


def _cli_page(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "page.html"
    result = CliRunner().invoke(app, ["tagging", *args, "--report", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr
    return out.read_text(encoding="utf-8")


def test_one_tagger_page_is_the_api_page(tmp_path: Path) -> None:
    path = shared_file("ner", SAMPLE)
    page = _cli_page(tmp_path, str(path))
    data = read_conll(path)
    result = assay.tagging.evaluate(data.gold, {SAMPLE: data.predictions[0]})
    assert result.html(title=TITLE) == page


def test_several_taggers_page_is_the_api_page(tmp_path: Path) -> None:
    path = shared_file("ner", SAMPLE)
    options = ("--n-resamples", "200", "--seed", "3", "--test", "randomization")
    page = _cli_page(tmp_path, str(path), "--pred-column", "-1", "--pred-column", "-2", *options)
    data = read_conll(path, pred=[-1, -2])
    named = {f"{SAMPLE}:-1": data.predictions[0], f"{SAMPLE}:-2": data.predictions[1]}
    result = assay.tagging.evaluate(data.gold, named, n_resamples=200, seed=3, test="randomization")
    assert result.html(title=TITLE) == page


def test_results_read_well_in_a_notebook() -> None:
    data = read_conll(shared_file("ner", SAMPLE))
    one = assay.tagging.tagging_report(data.gold, data.predictions[0])
    several = assay.tagging.compare_taggers(
        data.gold, {"a": data.predictions[0], "gold": data.gold}, n_resamples=100
    )
    for result in (one, several):
        text = repr(result)
        assert len(text) < 2000 and "f1" in text
        assert "<table" in result._repr_html_()
    assert "p_adjusted=" in repr(several) and "diff=+" in repr(several)
    pair = several.pair("gold")
    assert isinstance(pair, assay.stats.PairResult) and pair.system == "gold"
    assert assay.tagging.TaggerPair is assay.stats.PairResult
    # the data and the counts behind a report also fit on one screen
    for part in (data, data.gold, one.counts, one.gold_spans, one.partial["strict"]):
        assert len(repr(part)) < 2000, type(part).__name__


def test_moved_report_names_warn_and_still_work() -> None:
    data = read_conll(shared_file("ner", SAMPLE))
    result = assay.tagging.tagging_report(data.gold, data.predictions[0], name="x")
    with pytest.warns(DeprecationWarning, match="assay.report.tagging_report"):
        from assay.report import tagging_report
    assert tagging_report(result).render("tsv") == result.report().render("tsv")
    with pytest.warns(DeprecationWarning, match="assay.tagging.conlleval_text"):
        from assay.report import conlleval_text
    assert conlleval_text(result) == result.conlleval()
    assert "tagging_report" not in assay.report.__all__
