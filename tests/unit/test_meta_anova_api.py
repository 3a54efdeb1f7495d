"""The ANOVA and the replicability analysis in the API: the input forms they take, what they
refuse (with messages that say what was expected), the degenerate cases and the tables."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import assay
from assay import meta
from assay.errors import DuplicateError, InputError, OptionError, ParseError
from assay.stats import PairResult, anova_two_way, partial_conjunction, replicability

X = np.array([[0.2, 0.6, 0.0], [0.4, 0.8, 0.2], [0.6, 1.0, 0.2], [0.8, 1.0, 0.4]])


def test_every_input_form_gives_the_same_anova() -> None:
    by_run = {"a": X[:, 0], "b": X[:, 1], "c": X[:, 2]}
    forms = [X, by_run, {"score": X}, {"score": by_run}]
    tables = [meta.anova(f).tables["score"] for f in forms]
    assert all(t.f["systems"] == tables[0].f["systems"] for t in tables)
    assert meta.anova(by_run).runs == ("a", "b", "c")
    assert anova_two_way(X, names=["a", "b", "c"]).systems == ("a", "b", "c")


def test_an_evaluation_gives_one_anova_per_metric() -> None:
    qrels, runs = assay.datasets.synthetic(n_queries=10, docs_per_query=6, seed=2)
    res = meta.anova(assay.evaluate(qrels, list(runs.values()), ["P@5", "ndcg@5"]))
    assert res.metrics == ("P@5", "ndcg@5")
    assert all(res.tables[m].n_topics == 10 for m in res.metrics)


@pytest.mark.parametrize(
    ("scores", "needle"),
    [
        ([[0.1, 0.2]], "2 topics"),
        ([[0.1], [0.2]], "2 systems"),
        ([0.1, 0.2, 0.3], "2-d|two-dimensional|shape"),
        ([[0.1, math.nan], [0.2, 0.3]], "finite"),
        ({"a": [0.1, 0.2], "b": [0.1]}, "one score per topic"),
    ],
)
def test_anova_two_way_refuses_bad_scores(scores: object, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        anova_two_way(scores)  # type: ignore[arg-type]


def test_bad_options_and_names() -> None:
    with pytest.raises(OptionError, match="confidence"):
        anova_two_way(X, confidence=1.0)
    with pytest.raises(InputError, match="names"):
        anova_two_way({"a": [1, 2], "b": [2, 3]}, names=["x", "y"])
    with pytest.raises(InputError, match="distinct"):
        anova_two_way(X, names=["a", "a", "b"])
    with pytest.raises(InputError, match="2 names for 3"):
        anova_two_way(X, names=["a", "b"])
    with pytest.raises(InputError, match="same runs and topics"):
        meta.anova({"m1": X, "m2": X[:3]})
    with pytest.raises(InputError, match="Results, a mapping or a matrix"):
        meta.anova("scores.tsv")  # type: ignore[arg-type]


def test_an_exact_additive_fit_has_infinite_f_and_no_rounding_noise() -> None:
    """x_ij = system effect + topic effect: V_E is 0 exactly, F_A = +inf, p_A = 0, and a
    system that equals another has ES_E NaN (0/0)."""
    x = np.array([0.1, 0.3, 0.3])[None, :] + np.array([0.0, 0.2, 0.7, 0.1])[:, None]
    res = anova_two_way(x)
    assert res.residual_variance == 0.0 and res.moe == 0.0
    assert (res.f["systems"], res.p["systems"]) == (math.inf, 0.0)
    assert res.effect_residual[1, 0] == math.inf and math.isnan(res.effect_residual[1, 2])
    constant = anova_two_way(np.full((3, 2), 0.4))
    assert math.isnan(constant.f["systems"]) and math.isnan(constant.p["topics"])


def test_replicability_refuses_bad_p_values_and_options() -> None:
    for bad in ([], [0.1, 1.2], [-0.01], [math.nan], [[0.1, 0.2]]):
        with pytest.raises(InputError):
            replicability(bad)
    with pytest.raises(OptionError, match="method"):
        partial_conjunction([0.1], method="stouffer")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="alpha"):
        replicability([0.1], alpha=0.0)
    with pytest.raises(InputError, match="distinct"):
        replicability([0.1, 0.2], names=["a", "a"])
    with pytest.raises(InputError, match="p-value or a comparison"):
        meta.replicability({"a": "0.1"})
    with pytest.raises(InputError, match="not in"):
        meta.replicability({"a": 1.5})
    with pytest.raises(InputError, match="no datasets"):
        meta.replicability({})


def _pair(system: str, p: float, metric: str = "f1") -> PairResult:
    return PairResult(
        system=system, baseline="old", metric=metric, diff=0.01, ci_low=-0.01, ci_high=0.03,
        p_value=p, p_adjusted=min(1.0, 2 * p), significant=p < 0.025,
    )  # fmt: skip


def test_comparisons_give_the_p_value_of_the_chosen_pair() -> None:
    data = {"en": [_pair("new", 0.001), _pair("alt", 0.9)], "de": [_pair("new", 0.02)]}
    res = meta.replicability(data, system="new")
    assert res.analysis.pvalues.tolist() == [0.001, 0.02]  # p_value, not p_adjusted
    assert [r["system"] for r in res.records() if r["kind"] == "dataset"] == ["new", "new"]
    with pytest.raises(InputError, match="2 pairs match"):
        meta.replicability(data)
    with pytest.raises(InputError, match="no pair matches"):
        meta.replicability(data, system="new", metric="acc")


def test_a_ranking_comparison_per_dataset() -> None:
    per_dataset = {}
    for seed in (1, 2, 3):
        qrels, runs = assay.datasets.synthetic(n_queries=12, docs_per_query=6, seed=seed)
        first, second = list(runs.values())[:2]
        per_dataset[f"set{seed}"] = assay.compare(qrels, [first, second], "P@5", n_resamples=200)
    res = meta.replicability(per_dataset, metric="P@5")
    expected = [per_dataset[k].pairs[0].p_value for k in per_dataset]
    assert res.analysis.pvalues.tolist() == expected


def test_read_pvalues(tmp_path: Path) -> None:
    table = tmp_path / "p.csv"
    table.write_text("dataset,system,p_value\nd1,a,0.1\nd1,b,0.2\nd2,a,0.05\n", encoding="utf-8")
    assert meta.read_pvalues(table, system="a") == {"d1": 0.1, "d2": 0.05}
    with pytest.raises(DuplicateError, match="line 2") as info:
        meta.read_pvalues(table)
    assert info.value.line == 3
    bad = tmp_path / "bad.csv"
    bad.write_text("dataset,p_value\nd1,0.1\nd2,zero\n", encoding="utf-8")
    with pytest.raises(ParseError) as parse:
        meta.read_pvalues(bad)
    assert parse.value.line == 3
    out = tmp_path / "out.csv"
    out.write_text("dataset,p_value\nd1,1.5\n", encoding="utf-8")
    with pytest.raises(ParseError, match=r"not in \[0, 1\]"):
        meta.read_pvalues(out)
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"dataset": 1, "p_value": 0.5}\n{"dataset": 2, "p_value": 0}\n')
    assert meta.read_pvalues(jsonl) == {"1": 0.5, "2": 0.0}
    trec = tmp_path / "p.txt"
    trec.write_text("d1 0.1\n", encoding="utf-8")
    with pytest.raises(InputError, match="header row"):
        meta.read_pvalues(trec)


def test_reports_render_in_every_format() -> None:
    results = [meta.anova(X), meta.replicability([0.01, 0.2, 0.03], method="fisher")]
    for res in results:
        for fmt in ("table", "markdown", "latex", "tsv", "csv", "jsonl", "json"):
            assert res.report().render(fmt).strip()  # type: ignore[arg-type]
        assert len(repr(res)) < 2000
        assert res.to_pandas().shape[0] == len(res.records())
