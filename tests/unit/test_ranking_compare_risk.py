"""assay.compare(..., risk_alpha=...): URisk and TRisk of every run against the baseline,
equal to assay.stats on the per-query values, oriented by the metric's direction, equal to
gdeval's risk mode on its measures, and in the report and records."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import assay
from assay.compat.gdeval import evaluate_gdeval
from assay.stats import trisk, urisk
from strategies.ranking import gdeval_case

QRELS = {f"q{i}": {"a": 2, "b": 1, "c": 0} for i in range(6)}
RNG = np.random.default_rng(7)
RUNS = {
    name: {q: {d: float(RNG.integers(0, 4)) for d in ("a", "b", "c", "x")} for q in QRELS}
    for name in ("base", "new", "other")
}


def _compare(metrics: list[str], **options: object) -> assay.Comparison:
    return assay.compare(QRELS, RUNS, metrics, baseline="base", test="t", ci_method="t", **options)


def test_risks_are_the_statistics_of_the_paired_values() -> None:
    cmp = _compare(["ndcg@3", "RR"], risk_alpha=2.0)
    assert [(r.run, r.metric) for r in cmp.risks] == [(p.run, p.metric) for p in cmp.pairs]
    for r in cmp.risks:
        a = np.array(list(cmp.results.per_query(r.run, r.metric).values()))
        b = np.array(list(cmp.results.per_query("base", r.metric).values()))
        want = trisk(a, b, risk_alpha=2.0)
        assert r.trisk == pytest.approx(want.statistic, rel=1e-12)
        assert r.p_value == pytest.approx(want.pvalue, rel=1e-12)
        assert r.urisk == pytest.approx(float(urisk(a, b, risk_alpha=2.0)), abs=1e-15)
        assert (r.ci_low, r.ci_high) == pytest.approx(want.ci, rel=1e-12)
        assert r.wins + r.ties + r.losses == r.n == len(a)


def test_a_loss_follows_the_metric_direction() -> None:
    """For a lower-is-better metric a loss is a query where the run scores higher."""
    cmp = _compare(["discordant_pairs"], risk_alpha=1.0)
    for r in cmp.risks:
        a = np.array(list(cmp.results.per_query(r.run, r.metric).values()))
        b = np.array(list(cmp.results.per_query("base", r.metric).values()))
        assert r.urisk == pytest.approx(float(urisk(b, a, risk_alpha=1.0)), abs=1e-15)
        assert r.losses == int((a > b).sum())


def test_equal_to_gdevals_risk_mode(tmp_path: Path) -> None:
    """On gdeval's measures and its topic set (missing='skip', no_relevant='skip'), URisk is
    gdeval's risk-mode amean whenever the baseline retrieves for the run's topics."""
    checked = 0
    for seed in range(40):
        qrels_lines, run_lines = gdeval_case(seed)
        rng = np.random.default_rng(seed)
        base_lines = [
            " ".join([*line.split()[:4], str(float(rng.integers(0, 6))), "base"])
            for line in run_lines
        ]
        paths = {}
        for name, lines in (("qrels", qrels_lines), ("run", run_lines), ("base", base_lines)):
            paths[name] = tmp_path / f"{name}{seed}"
            paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
        alpha = float(seed % 4)
        gd = evaluate_gdeval(paths["qrels"], paths["run"], baseline=paths["base"], risk_alpha=alpha)
        if not gd.rows:
            continue
        cmp = assay.compare(
            assay.Qrels.from_trec(paths["qrels"]),
            {"run": assay.Run.from_trec(paths["run"]), "base": assay.Run.from_trec(paths["base"])},
            ["gdeval_ndcg@20", "gdeval_err@20"],
            baseline="base",
            test="t",
            ci_method="t",
            missing="skip",
            no_relevant="skip",
            risk_alpha=alpha,
        )
        ndcg, err = cmp.risks
        assert ndcg.urisk == pytest.approx(gd.ndcg, abs=1e-12), seed
        assert err.urisk == pytest.approx(gd.err, abs=1e-12), seed
        checked += 1
    assert checked > 20


def test_report_and_records() -> None:
    cmp = _compare(["P@2"], risk_alpha=1.0)
    kinds = [row["kind"] for row in cmp.records()]
    assert kinds.count("risk") == 2
    assert all({"risk_alpha", "trisk"} <= set(row) for row in cmp.records())
    report = cmp.report()
    assert "trisk" in report.columns
    assert any(t.title == "Risk against the baseline" for t in report.more)
    plain = _compare(["P@2"])
    assert plain.risks == [] and "trisk" not in plain.report().columns
    assert cmp.settings["risk_alpha"] == 1.0


@pytest.mark.parametrize("bad", [-1.0, math.inf, "x"])
def test_bad_risk_alpha(bad: object) -> None:
    with pytest.raises(assay.OptionError, match="risk_alpha"):
        _compare(["P@2"], risk_alpha=bad)


def test_risk_needs_a_baseline() -> None:
    with pytest.raises(assay.ConventionError, match="baseline"):
        assay.compare(QRELS, RUNS, "P@2", risk_alpha=1.0, test="t", ci_method="t")
