"""trec_eval names mean trec_eval's measures with trec_eval's defaults (issue 11).

A name written as trec_eval writes it (alone, ``name.params`` or trec_eval's output name) is
evaluated by ``assay.evaluate`` to the numbers ``assay trec-eval`` (trec_eval 10.0, byte for
byte) gives for the same ``-m`` argument, on trec_eval's own test collection; a name in
assay's syntax keeps assay's defaults; labels parse back to their metric.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import assay
from assay.cli import app
from assay.compat._te_measures import MEASURES
from assay.compat.trec_eval import evaluate_trec
from assay.metrics import REGISTRY, make, parse
from assay.metrics.registry import trec_metrics
from conftest import shared_file


@pytest.fixture(scope="module")
def collection() -> tuple[assay.Qrels, assay.Run]:
    return (
        assay.Qrels.from_trec(shared_file("trec_eval", "qrels.rel_level")),
        assay.Run.from_trec(shared_file("trec_eval", "results.test")),
    )


# A trec_eval -m argument, and the trec_eval output names it gives in the order parse()
# returns the metrics (None: one output named like the argument's measure).
ARGUMENTS = [
    # every name alone (trec_eval's defaults) of the measures that read ordinary qrels
    *sorted(n for n in REGISTRY.trec if MEASURES[n].needs == "qrels"),
    "P.5,7,3",
    "recall.20,2000",
    "map_cut.7",
    "ndcg_cut.3,23",
    "success.2",
    "relative_P.4",
    "unj.3,50",
    "iprec_at_recall.0.25,0.75",
    "Rprec_mult.0.35,5.0",
    "rbp.p=0.5",
    "rbp.p=0.95",
    "rbp_resid.p=0.5",
    "utility.2,-1,0.5,0",
    "relstring.20",
    "relstring.0",
    "ndcg.0=0,1=3,2=9,3=2,4=4.5",
    "G.0=0,1=2,2=2,3=3,4=1",
    "ndcg_rel.0=0,1=1,2=5,3=5,4=7",
    "Rndcg.0=0,1=1,2=2,3=3,4=8",
    "dcg.0=0,1=2,2=3,3=4,4=5",
]
# Reproduced by `assay trec-eval` only (docs/conventions.md): trec_eval's rbp_resid is 0 where
# no retrieved document is unjudged. Every topic here retrieves unjudged documents.


def trec_outputs(res: assay.compat.trec_eval.TrecResult, query: str) -> dict[str, object]:
    return res.per_query[query] if query != "all" else res.summary


@pytest.mark.parametrize("argument", ARGUMENTS)
def test_trec_eval_syntax_gives_trec_evals_numbers(
    collection: tuple[assay.Qrels, assay.Run], argument: str
) -> None:
    qrels, run = collection
    metrics = parse(argument)
    trec = evaluate_trec(qrels, run, [argument])
    names = [n for n in trec.measures if n not in ("runid", "num_q")]
    assert len(names) == len(metrics), (argument, names, metrics)
    # trec_eval orders cutoffs increasingly; parse keeps the order written.
    order = (
        np.argsort([m.k if m.k is not None else 0 for m in metrics], kind="stable")
        if all(m.k is not None for m in metrics)
        else np.argsort(
            [dict(m.params).get("recall", dict(m.params).get("mult", 0.0)) for m in metrics],
            kind="stable",
        )
    )
    res = assay.evaluate(qrels, run, metrics, missing="skip")
    for name, i in zip(names, order.tolist(), strict=True):
        mv = res[run.name, metrics[i]]
        for query, value in mv.as_dict().items():
            want = trec.per_query[query].get(name)
            if want is None:  # summary-only measures (gm_map, gm_bpref)
                continue
            if isinstance(value, str):
                assert value == want, (argument, name, query)
            else:
                assert value == pytest.approx(want, rel=1e-12, abs=1e-12), (argument, name, query)
        if name in trec.summary and not isinstance(trec.summary[name], str):
            assert mv.aggregate == pytest.approx(trec.summary[name], rel=1e-12), (argument, name)


PREF_NAMES = sorted(n for n in REGISTRY.trec if MEASURES[n].needs == "prefs")


def test_preference_names_give_trec_evals_numbers(
    collection: tuple[assay.Qrels, assay.Run],
) -> None:
    """trec_eval's prefs_* names read graded qrels as ``-R qrels_prefs`` does. Where the two
    readings agree (grades >= 0: trec_eval reads -1 as a level below 0; no tied scores: its
    preference code breaks ties by docno ascending) they give trec_eval's numbers."""
    from assay.compat.trec_eval import Preferences

    qrels, run = collection
    t = qrels.to_arrow()
    keep = np.asarray(qrels.values) >= 0
    judged = assay.Qrels.from_columns(
        np.asarray(t.column("query").to_pylist())[keep],
        np.asarray(t.column("doc").to_pylist())[keep],
        np.asarray(qrels.values)[keep],
    )
    r = run.to_arrow()
    ranks = np.asarray(r.column("rank").to_pylist(), dtype=np.float64)
    untied = assay.Run.from_columns(
        r.column("query").to_pylist(), r.column("doc").to_pylist(), -ranks, name="untied"
    )
    assert len(PREF_NAMES) == 14
    trec = evaluate_trec(Preferences.from_qrels(judged), untied, PREF_NAMES)
    res = assay.evaluate(judged, untied, PREF_NAMES)
    for name in PREF_NAMES:
        (metric,) = parse(name)
        mv = res["untied", metric]
        assert mv.as_dict() == {q: trec.per_query[q][name] for q in trec.queries}, name
        assert mv.aggregate == pytest.approx(trec.summary[name], rel=1e-12), name
    assert trec.summary["prefs_num_prefs_poss"] > 1000


def test_trec_defaults_are_trec_evals() -> None:
    """The defaults declared on the catalogue are the ones trec_eval's measure table has."""
    for tname, (_spec, binding) in REGISTRY.trec.items():
        if binding.params in ("k", "recall", "mult", "depth", "coefficients"):
            assert tuple(float(v) for v in binding.defaults) == tuple(
                float(v) for v in MEASURES[tname].defaults
            ), tname


def test_rbp_typed_by_a_trec_eval_user(collection: tuple[assay.Qrels, assay.Run]) -> None:
    qrels, run = collection
    (trec_rbp,) = parse("rbp")
    assert trec_rbp.canonical == "rbp(p=0.9, gain='scaled')" and str(trec_rbp) == "rbp"
    # RBP as ir_measures spells it is ir_measures' RBP (p = 0.8), not trec_eval's rbp.
    assert parse("Rbp") == [trec_rbp] and parse("RBP") == parse("rbp()")
    (assay_rbp,) = parse("rbp()")
    assert dict(assay_rbp.params) == {"p": 0.8, "gain": "binary", "rel": 1}
    assert parse("rbp(p=0.8)") == parse("rbp()") and str(parse("rbp@10")[0]) == "rbp@10"
    res = assay.evaluate(qrels, run, ["rbp", "rbp()"], missing="skip")
    want = evaluate_trec(qrels, run, ["rbp"]).summary["rbp"]
    assert res.aggregate(run.name, "rbp") == pytest.approx(want, rel=1e-12)
    assert res.aggregate(run.name, "rbp()") != pytest.approx(want, rel=1e-3)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("unj@3", ["unjudged@3"]),
        ("UNJ@3", ["unjudged@3"]),
        ("unj.3", ["unjudged@3"]),
        ("unj_3", ["unjudged@3"]),
        ("unj.3,10", ["unjudged@3", "unjudged@10"]),
        ("unj", ["unjudged@5", "unjudged@10", "unjudged@20"]),
        ("unjudged@3", ["unjudged@3"]),
        ("map_cut@10", ["AP@10"]),
        ("ndcg_cut@3", ["ndcg@3"]),
        ("P", [f"P@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]),
        ("P()", ["P()"]),
        ("set_P", ["P()"]),
        ("precision", ["P()"]),
        ("success", ["success@1", "success@5", "success@10"]),
        ("recall", [f"R@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]),
        ("R", ["R"]),
        ("map", ["AP"]),
        ("rbp_resid", ["rbp_resid(p=0.9)"]),
        ("rbp_resid()", ["rbp_resid()"]),
        ("relstring.20", ["relstring(depth=20)"]),
        ("utility.2,-1,0,0", ["utility(rel_ret=2.0)"]),
        ("Rprec_mult", [f"Rprec_mult(mult={m})" if m != 1.0 else "Rprec_mult()"
                        for m in (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)]),
    ],
)  # fmt: skip
def test_names(name: str, expected: list[str]) -> None:
    assert [m.canonical for m in parse(name)] == expected


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("set_P@5", "takes no cutoff"),
        ("utility.1,2", "takes 4 coefficients"),
        ("rbp.q=3", "has no parameter 'q'"),
        ("rbp_resid.1=3", "has no parameter '1'"),
        ("P.5x", "cannot parse"),
        ("P.1e400", "cannot parse"),
        ("P_inf", "cannot parse"),
        ("relstring.1e400", "cannot parse"),
        ("P.-5", "positive integer"),
        ("P.", "no parameter"),
    ],
)
def test_bad_trec_names(name: str, message: str) -> None:
    with pytest.raises(assay.MetricError, match=message):
        parse(name)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    name=st.sampled_from(sorted(REGISTRY.trec)),
    sep=st.sampled_from([".", "_"]),
    params=st.text(alphabet="0123456789.,=-+eEinfaxp ", max_size=12),
)
def test_trec_syntax_never_crashes(name: str, sep: str, params: str) -> None:
    """Whatever follows a trec_eval name, parse() gives metrics or a MetricError."""
    try:
        metrics = parse(name + sep + params)
    except assay.MetricError:
        return
    assert metrics and all(isinstance(m, assay.Metric) for m in metrics)


def _every_metric() -> list[assay.Metric]:
    out: list[assay.Metric] = []
    for spec in REGISTRY.values():
        out.append(make(spec))
        if spec.cutoff != "none":
            out.append(make(spec, 7))
    for spec, binding in REGISTRY.trec.values():
        out += trec_metrics(spec, binding, binding.defaults)
    out += [make(REGISTRY["rbp"], gain={0: 0.0, 1: 2.0}), make(REGISTRY["P"], rel=2)]
    return out


@pytest.mark.parametrize("metric", _every_metric(), ids=str)
def test_labels_parse_back(metric: assay.Metric) -> None:
    assert parse(str(metric)) == [metric]


def test_assay_metrics_shows_both_meanings() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["metrics", "--family", "ranking", "-f", "json"]).stdout
    rows = {r["name"]: r for r in json.loads(out)["described"]}
    assert rows["rbp"]["params_text"].startswith("p=0.8, gain='binary'")
    assert {"name": "rbp", "params": "p=x,level=gain,...",
            "means": "rbp(p=0.9, gain='scaled')"} in rows["rbp"]["trec_eval_names"]  # fmt: skip
    unj = rows["unjudged"]["trec_eval_names"]
    assert unj[0]["means"] == "unjudged@5, unjudged@10, unjudged@20"
    table = runner.invoke(
        app, ["metrics", "--family", "ranking", "-f", "table"], env={"COLUMNS": "240"}
    ).stdout  # fmt: skip
    assert "rbp = rbp(p=0.9, gain='scaled')" in table and "p=0.8" in table
    markdown = runner.invoke(app, ["metrics", "--family", "ranking", "-f", "markdown"]).stdout
    assert "rbp = rbp(p=0.9, gain='scaled')" in markdown


def test_relstring_is_text(collection: tuple[assay.Qrels, assay.Run], tmp_path) -> None:
    qrels, run = collection
    res = assay.evaluate(qrels, run, ["relstring.20", "map"], missing="skip")
    mv = res[run.name, "relstring(depth=20)"]
    assert mv.as_dict()["301"] == "0000011000000--10101" and math.isnan(mv.aggregate)
    rows = [r for r in res.records(per_query=True) if r["metric"] == "relstring.20"]
    assert rows[0]["value"] == "0000011000000--10101"
    # Read block by block (a file, stream=True) it is the same.
    path = shared_file("trec_eval", "results.test")
    streamed = assay.evaluate(qrels, str(path), ["relstring.20"], missing="skip", stream=True)
    assert streamed[run.name, "relstring(depth=20)"].as_dict() == mv.as_dict()
    with pytest.raises(assay.MetricError, match="text"):
        assay.compare(qrels, [run, run.rename("b")], ["relstring"])
    out = CliRunner().invoke(
        app, ["evaluate", str(shared_file("trec_eval", "qrels.rel_level")), str(path),
              "-m", "relstring.20", "--per-query", "-f", "tsv"],
    ).stdout  # fmt: skip
    assert "relstring.20\t301\t0000011000000--10101" in out  # labelled as asked
