"""Rank aggregation and run fusion (assay.fusion): worked cases, semantics, options and
results."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from assay import Qrels, Run, evaluate
from assay.errors import AssayError, EmptyInputError, InputError, OptionError
from assay.fusion import aggregate, fuse, optimize_fusion
from strategies.fusion import random_run_dicts

VOTES = [list("ABC"), list("ACB"), list("BAC")]


def test_seed_borda_example() -> None:
    order, scores = aggregate(VOTES, method="borda")
    assert order == ["A", "B", "C"]
    assert scores == [5.0, 3.0, 1.0]


def test_partial_lists() -> None:
    # N = 3. List 1 omits C (unused points {0}); list 2 omits A and B (unused {1, 0}).
    assert aggregate([["A", "B"], ["C"]], partial="zero") == (["A", "C", "B"], [2.0, 2.0, 1.0])
    assert aggregate([["A", "B"], ["C"]], partial="average") == (
        ["A", "C", "B"],
        [2.5, 2.0, 1.5],
    )
    with pytest.raises(OptionError) as err:
        aggregate(VOTES, partial="bogus")
    assert err.value.option == "partial"


def test_weighted_borda_and_dowdall() -> None:
    order, scores = aggregate(VOTES, method="weighted_borda", weights=[1, 1, 10])
    assert order[0] == "B" and scores[0] == 1 + 0 + 20
    order, scores = aggregate(VOTES, method="dowdall")
    assert order == ["A", "B", "C"]
    assert scores[0] == pytest.approx(1 + 1 + 0.5)


def test_ties_broken_by_candidate() -> None:
    assert aggregate([["b", "a"], ["a", "b"]], method="borda").order == ["a", "b"]
    assert aggregate([["b", "a"], ["a", "b"]], method="copeland").order == ["a", "b"]
    assert aggregate([["b", "a"], ["a", "b"]], method="kemeny").order == ["a", "b"]


def test_condorcet_paradox_and_methods_run() -> None:
    cycle = [list("ABC"), list("BCA"), list("CAB")]
    assert aggregate(cycle, method="copeland").scores == [0.0, 0.0, 0.0]
    for m in ("kemeny", "mc4"):
        assert sorted(aggregate(cycle, method=m).order) == ["A", "B", "C"]
    order, pi = aggregate(VOTES, method="mc4", damping=0.1)
    assert order[0] == "A" and sum(pi) == pytest.approx(1.0)


def test_kemeny_local_search_beyond_exact_limit() -> None:
    base = [f"c{i:02d}" for i in range(12)]
    votes = [base, base[1:2] + base[:1] + base[2:], base]
    assert aggregate(votes, method="kemeny").order == base


def test_aggregate_errors() -> None:
    with pytest.raises(EmptyInputError):
        aggregate([])
    with pytest.raises(InputError, match="more than once"):
        aggregate([["a", "a"]])
    with pytest.raises(OptionError, match="3 rankings but 2 weights"):
        aggregate(VOTES, weights=[1, 2])
    with pytest.raises(OptionError, match="method must be one of borda, weighted_borda"):
        aggregate(VOTES, method="plurality")
    with pytest.raises(OptionError, match="damping"):
        aggregate(VOTES, method="mc4", damping=1.0)


def _two() -> list[Run]:
    a = Run.from_dict({"q1": {"x": 3.0, "y": 2.0, "z": 1.0}, "q2": {"x": 1.0}}, name="a")
    b = Run.from_dict({"q1": {"y": 10.0, "w": 5.0}, "q3": {"u": 2.0}}, name="b")
    return [a, b]


def test_rrf_by_hand_and_union_of_queries() -> None:
    fused = fuse(_two(), method="rrf")
    got = fused.to_dict()
    assert set(got) == {"q1", "q2", "q3"}
    assert got["q1"]["y"] == pytest.approx(1 / 62 + 1 / 61)
    assert got["q1"]["x"] == pytest.approx(1 / 61)
    # x and w tie on 1/61: assay's tie rule orders them by docno descending.
    assert list(got["q1"]) == ["y", "x", "w", "z"]
    assert fused.name == "rrf"


def test_combmnz_and_missing_documents() -> None:
    got = fuse(_two(), method="combmnz", norm="none").to_dict()
    assert got["q1"]["y"] == (2.0 + 10.0) * 2
    assert got["q1"]["z"] == 1.0
    got = fuse(_two(), method="combsum", norm="min-max").to_dict()
    assert got["q1"]["y"] == pytest.approx(0.5 + 1.0)
    assert got["q2"]["x"] == 0.0  # a one-document segment normalises to 0


def test_condorcet_and_depth_and_weights() -> None:
    got = fuse(_two(), method="condorcet").to_dict()
    # y beats z and w (2-0), x beats z (1-0: b ranks neither), other pairs tie 1-1.
    assert got["q1"] == {"y": 2.0, "x": 1.0, "w": -1.0, "z": -2.0}
    top1 = fuse(_two(), method="rrf", depth=1, name="top")
    assert len(top1) == 3 and top1.name == "top"
    heavy_b = fuse(_two(), method="wsum", norm="none", weights=[1.0, 0.0]).to_dict()
    assert heavy_b["q1"]["w"] == 0.0


def test_fuse_errors() -> None:
    runs = _two()
    with pytest.raises(OptionError, match="method must be one of combsum, combmnz"):
        fuse(runs, method="magic")
    with pytest.raises(OptionError, match="norm must be one of none, min-max"):
        fuse(runs, method="combsum", norm="l2")
    with pytest.raises(OptionError, match="2 runs but 1 weights"):
        fuse(runs, method="wsum", weights=[1.0])
    with pytest.raises(OptionError, match="rrf_k must be a number >= 0"):
        fuse(runs, method="rrf", rrf_k=-1)
    with pytest.raises(OptionError, match="depth must be a positive integer"):
        fuse(runs, method="rrf", depth=0)
    with pytest.raises(TypeError):
        fuse(runs, "rrf")  # type: ignore[misc]  # options are keyword-only
    with pytest.raises(EmptyInputError):
        fuse([], method="rrf")
    with pytest.raises(AssayError, match=r"Run\.from_dict"):
        fuse([42], method="rrf")  # type: ignore[list-item]
    # A pytrec_eval/ranx dict is a run (issue 25): taken as Run.from_dict takes it.
    assert fuse([{"q": {"d": 1.0}}], method="rrf").n_queries == 1  # type: ignore[list-item]


def test_fused_run_round_trips_trec(tmp_path) -> None:  # type: ignore[no-untyped-def]
    fused = fuse([Run.from_dict(r) for r in random_run_dicts(2)], method="combmnz")
    path = tmp_path / "fused.txt"
    fused.to_trec(path)
    assert Run.from_trec(path) == fused


def test_optimize_fusion_picks_the_good_run() -> None:
    qrels = Qrels.from_dict({f"q{i}": {"good": 1} for i in range(4)})
    good = Run.from_dict({f"q{i}": {"good": 2.0, "bad": 1.0} for i in range(4)}, name="g")
    bad = Run.from_dict({f"q{i}": {"good": 1.0, "bad": 5.0} for i in range(4)}, name="b")
    opt = optimize_fusion(qrels, [good, bad], method="wsum", metric="ndcg@10", step=0.25)
    assert opt.score == 1.0
    assert opt.weights is not None and opt.weights[0] >= opt.weights[1]
    assert opt.trials[0]["weights"] == [0.0, 1.0] and opt.trials[0]["score"] < 1.0
    assert len(opt.trials) == 5
    again = optimize_fusion(
        qrels, [good, bad], method="wsum", metric="RR", search="random", n_iter=8, seed=1
    )
    same = optimize_fusion(
        qrels, [good, bad], method="wsum", metric="RR", search="random", n_iter=8, seed=1
    )
    assert again.weights == same.weights and again.run == same.run
    rrf = optimize_fusion(qrels, [good, bad], method="rrf", metric="RR", train_queries=["q0", "q1"])
    assert rrf.rrf_k in (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)
    with pytest.raises(OptionError):
        optimize_fusion(qrels, [good, bad], method="wsum", metric="RR", search="bayes")


def _qrels_and_runs() -> tuple[Qrels, list[Run]]:
    qrels = Qrels.from_dict({"q1": {"y": 1, "w": 1}, "q2": {"x": 1}, "q3": {"u": 1}})
    return qrels, _two()


BAD_OPTIONS: list[tuple[str, dict[str, object]]] = [
    ("aggregate", {"method": "plurality"}),
    ("aggregate", {"method": None}),
    ("aggregate", {"partial": "bogus"}),
    ("aggregate", {"weights": [1, 2]}),
    ("aggregate", {"weights": [1, -1, 1]}),
    ("aggregate", {"weights": [1, float("nan"), 1]}),
    ("aggregate", {"weights": ["a", "b", "c"]}),
    ("aggregate", {"method": "mc4", "damping": 1.0}),
    ("aggregate", {"method": "mc4", "damping": -0.1}),
    ("aggregate", {"method": "mc4", "damping": "x"}),
    ("fuse", {"method": "magic"}),
    ("fuse", {"method": 3}),
    ("fuse", {"norm": "l2"}),
    ("fuse", {"weights": [1.0]}),
    ("fuse", {"weights": [1.0, float("inf")]}),
    ("fuse", {"rrf_k": -1}),
    ("fuse", {"rrf_k": float("nan")}),
    ("fuse", {"rrf_k": True}),
    ("fuse", {"rrf_k": "60"}),
    ("fuse", {"depth": 0}),
    ("fuse", {"depth": 2.5}),
    ("fuse", {"gamma": float("inf")}),
    ("optimize_fusion", {"method": "magic"}),
    ("optimize_fusion", {"norm": "l2"}),
    ("optimize_fusion", {"search": "bayes"}),
    ("optimize_fusion", {"n_iter": 0}),
    ("optimize_fusion", {"seed": -1}),
    ("optimize_fusion", {"step": 0}),
    ("optimize_fusion", {"step": 1.5}),
    ("optimize_fusion", {"rrf_ks": [10, -1]}),
    ("optimize_fusion", {"rrf_ks": []}),
    ("optimize_fusion", {"depth": 0}),
]


@pytest.mark.parametrize(
    ("func", "bad"),
    BAD_OPTIONS,
    ids=[f"{f}-{'-'.join(map(str, b.values()))}" for f, b in BAD_OPTIONS],
)
def test_bad_fusion_options_raise_option_error(func: str, bad: dict[str, object]) -> None:
    qrels, runs = _qrels_and_runs()
    call = {
        "aggregate": lambda **kw: aggregate(VOTES, **kw),
        "fuse": lambda **kw: fuse(runs, **kw),
        "optimize_fusion": lambda **kw: optimize_fusion(qrels, runs, metric="RR", **kw),
    }[func]
    option = [k for k in bad if k != "method"][-1] if len(bad) > 1 else next(iter(bad))
    valid = {k: v for k, v in bad.items() if k != option}
    call(**valid)  # everything but the bad option is valid
    with pytest.raises(OptionError) as err:
        call(**bad)
    assert err.value.option == option


def test_option_spellings() -> None:
    runs = _two()
    base = fuse(runs, method="combsum", norm="min-max")
    for method in ("sum", "SUM", "CombSUM"):
        for norm in ("min_max", "minmax", "MinMax", "MIN-MAX"):
            assert fuse(runs, method=method, norm=norm) == base
    assert fuse(runs, method="combsum", norm=None) == fuse(runs, method="combsum", norm="none")
    assert fuse(runs, method="rrf", rrf_k=np.float64(30)) == fuse(runs, method="rrf", rrf_k=30)
    rrf0 = fuse(runs, method="rrf", rrf_k=0).to_dict()
    assert rrf0["q1"]["y"] == pytest.approx(1 / 2 + 1 / 1)  # rrf_k = 0 is 1 / rank


def test_results_follow_the_protocol() -> None:
    import dataclasses
    import json

    qrels, runs = _qrels_and_runs()
    consensus = aggregate(VOTES, method="copeland")
    optimum = optimize_fusion(qrels, runs, method="wsum", metric="RR", step=0.5)
    for result in (consensus, optimum):
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.provenance = {}  # type: ignore[misc]
        assert result.provenance["assay_version"] and result.provenance["method"]
        json.dumps(result.records())
    assert consensus.records()[0] == {"rank": 1, "candidate": "A", "score": 2.0}
    assert tuple(consensus) == (consensus.order, consensus.scores) and len(consensus) == 2
    assert [r["trial"] for r in optimum.records()] == [1, 2, 3]
    assert optimum.records()[0] == {
        "trial": 1,
        "rrf_k": 60.0,
        "weight_1": 0.0,
        "weight_2": 1.0,
        "score": optimum.trials[0]["score"],
    }
    assert optimum.provenance["rrf_ks"] == [
        1.0,
        5.0,
        10.0,
        20.0,
        30.0,
        40.0,
        50.0,
        60.0,
        70.0,
        80.0,
        90.0,
        100.0,
    ]


def test_optimize_fusion_scores_training_queries_without_warning_about_the_others() -> None:
    # The held-out queries are left out of the trials on purpose: no "not in the qrels"
    # warning, and each trial's score is the fused run's mean over the training queries.
    qrels = Qrels.from_dict({f"q{i}": {"good": 1} for i in range(4)})
    good = Run.from_dict({f"q{i}": {"good": 2.0, "bad": 1.0} for i in range(4)}, name="g")
    bad = Run.from_dict({f"q{i}": {"good": 1.0, "bad": 5.0 - i} for i in range(4)}, name="b")
    train = ["q0", "q3"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt = optimize_fusion(qrels, [good, bad], method="wsum", metric="RR", train_queries=train)
    for trial in opt.trials:
        fused = fuse([good, bad], method="wsum", weights=trial["weights"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # q1 and q2: not in the training qrels
            expected = evaluate(qrels.restrict(train), fused, "RR")
        assert trial["score"] == expected.aggregate(fused.name, "RR")
