"""assay.compare_seeds and compare_seeds_runs: distributions, ASO with Bonferroni over the
pairs, the classical tests (paired over units of the seed-averaged scores, or Welch on seed
scores) corrected across pairs, the rendered result, and bad inputs; read_seed_scores."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.stats as st

import assay
from assay import stats as S
from assay.errors import InputError, OptionError
from assay.ranking import SeedComparison, read_seed_scores


def _per_seed() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {
        "bm25": rng.normal(0.30, 0.01, 5),
        "dense": rng.normal(0.34, 0.01, 4),
        "hybrid": rng.normal(0.305, 0.02, 6),
    }


def _per_unit() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(1)
    base = rng.uniform(0.1, 0.6, 25)
    return {
        "bm25": base + rng.normal(0, 0.05, (3, 25)),
        "dense": base + 0.08 + rng.normal(0, 0.05, (4, 25)),
        "hybrid": base + 0.01 + rng.normal(0, 0.05, (3, 25)),
    }


def test_per_seed_scores_welch_and_aso_with_bonferroni() -> None:
    scores = _per_seed()
    cmp = assay.compare_seeds(scores, n_bootstrap=200, seed=4, correction="bonferroni")
    assert isinstance(cmp, SeedComparison)
    assert (cmp.baseline, cmp.design, cmp.test, cmp.systems) == (
        "bm25",
        "per-seed",
        "t",
        ["bm25", "dense", "hybrid"],
    )
    raw = []
    for name in ("dense", "hybrid"):
        pair = cmp.pair(name)
        welch = st.ttest_ind(scores[name], scores["bm25"], equal_var=False)
        assert pair.p_value == pytest.approx(welch.pvalue, rel=1e-10)
        assert pair.diff == pytest.approx(scores[name].mean() - scores["bm25"].mean())
        ci = welch.confidence_interval(0.95)
        assert (pair.ci_low, pair.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-10)
        assert (pair.wins, pair.ties, pair.losses, pair.n) == (0, 0, 0, 0)
        raw.append(welch.pvalue)
        # ASO with the level adjusted for the 2 pairs, the same seed and iterations
        expected = S.aso(
            scores[name], scores["bm25"], num_comparisons=2, num_bootstrap_iterations=200, seed=4
        )
        assert cmp.eps_min(name) == expected.statistic
        assert cmp.aso[name].details["confidence_level"] == pytest.approx(0.975)
        reverse = S.aso(
            scores["bm25"], scores[name], num_comparisons=2, num_bootstrap_iterations=200, seed=4
        )
        assert cmp.aso_reverse[name].statistic == reverse.statistic
    adjusted = S.correct(raw, correction="bonferroni")
    assert [cmp.pair(n).p_adjusted for n in ("dense", "hybrid")] == adjusted.tolist()
    assert cmp.pair("dense").significant and cmp.eps_min("dense") < 0.5
    for name, values in scores.items():
        d = cmp.distributions[name]
        assert (d.n, d.mean) == (len(values), pytest.approx(values.mean()))
        assert d.sd == pytest.approx(values.std(ddof=1))


@pytest.mark.parametrize("test", ["randomization", "t", "wilcoxon", "sign", "bootstrap"])
def test_per_unit_scores_paired_over_units_of_the_seed_means(test: str) -> None:
    scores = _per_unit()
    cmp = assay.compare_seeds(
        scores, baseline="hybrid", test=test, n_bootstrap=100, n_resamples=500, seed=2
    )
    assert cmp.design == "per-unit" and cmp.baseline == "hybrid"
    means = {n: v.mean(axis=0) for n, v in scores.items()}
    others = ["bm25", "dense"]
    diffs = np.vstack([means[n] - means["hybrid"] for n in others])
    pvalues = S.paired_pvalues(diffs, test=test, n_resamples=500, seed=2)
    adjusted = S.correct(pvalues, correction="holm")
    for i, name in enumerate(others):
        pair = cmp.pair(name)
        assert pair.p_value == pvalues[i] and pair.p_adjusted == adjusted[i]
        assert pair.n == 25 and pair.wins + pair.ties + pair.losses == 25
        assert pair.wins == int((diffs[i] > 0).sum())
        assert pair.diff == pytest.approx(diffs[i].mean(), abs=1e-15)
        assert pair.effect_size == pytest.approx(S.cohens_d_paired(means[name], means["hybrid"]))
        assert pair.ci_low <= pair.diff <= pair.ci_high
        # ASO on the per-seed scores (the mean over units of each seed)
        expected = S.aso(
            scores[name].mean(axis=1),
            scores["hybrid"].mean(axis=1),
            num_comparisons=2,
            num_bootstrap_iterations=100,
            seed=2,
        )
        assert cmp.eps_min(name) == expected.statistic
    assert cmp.scores["dense"].shape == (4,)
    assert cmp.pair("dense").direction == 1


def test_result_views_and_document() -> None:
    cmp = assay.compare_seeds(_per_seed(), metric="ndcg@10", n_bootstrap=50)
    rows = cmp.records()
    assert [r["system"] for r in rows] == ["bm25", "dense", "hybrid"]
    assert rows[0]["baseline"] is True and math.isnan(rows[0]["eps_min"])
    assert rows[1]["eps_min"] == cmp.eps_min("dense") and rows[1]["metric"] == "ndcg@10"
    text = cmp.report().render("table")
    assert "ndcg@10 over seeds" in text and "bm25 (baseline)" in text and "Welch" in text
    assert json.loads(cmp.report().render("json"))["records"][2]["system"] == "hybrid"
    doc = cmp.document()
    plots = [i["plot"] for s in doc["sections"] for i in s["items"] if "plot" in i]
    assert plots[0]["kind"] == "box"
    assert plots[0]["panels"][0]["groups"] == ["bm25", "dense", "hybrid"]
    assert len(plots[0]["panels"][0]["values"][2]) == 6
    assert "SeedComparison(" in repr(cmp) and cmp.provenance["seeds"]["hybrid"] == 6
    with pytest.raises(KeyError):
        cmp.pair("bm25")
    assert cmp.to_pandas().shape[0] == 3


def test_reproducible_for_a_seed() -> None:
    one = assay.compare_seeds(_per_unit(), test="randomization", n_bootstrap=80, seed=9)
    two = assay.compare_seeds(_per_unit(), test="randomization", n_bootstrap=80, seed=9)
    assert one.records() == two.records() or all(
        str(a) == str(b) for a, b in zip(one.records(), two.records(), strict=True)
    )


@pytest.mark.parametrize(
    ("scores", "options", "error", "match"),
    [
        ({"a": [0.1, 0.2]}, {}, InputError, "at least two systems"),
        ({"a": [0.1, 0.2], "b": [[0.1, 0.2]]}, {}, InputError, "not a mix"),
        ({"a": [[0.1, 0.2]], "b": [[0.1, 0.2, 0.3]]}, {}, InputError, "units"),
        ({"a": [0.1, 0.2], "b": [0.3, math.nan]}, {}, InputError, "finite"),
        ({"a": [0.1, 0.2], "b": [0.3]}, {}, InputError, "at least 2 seeds"),
        ({"a": [0.1, 0.2], "b": [0.3, 0.2]}, {"baseline": "c"}, InputError, "baseline"),
        ({"a": [0.1, 0.2], "b": [0.3, 0.2]}, {"test": "wilcoxon"}, OptionError, "Welch"),
        ({"a": [0.1, 0.2], "b": [0.3, 0.2]}, {"test": "tukey"}, OptionError, "test"),
        ({"a": [0.1, 0.2], "b": [0.3, 0.2]}, {"n_bootstrap": 0}, OptionError, "n_bootstrap"),
        ({"a": [0.1, 0.2], "b": [0.3, 0.2]}, {"confidence_level": 1}, OptionError, "confidence"),
        ({"a": [0.1, 0.2], "b": [0.3, 0.2]}, {"correction": "x"}, OptionError, "correction"),
        ({"a": [[[0.1]]], "b": [[[0.2]]]}, {}, InputError, "dimensions"),
        ({"a": [], "b": [0.2]}, {}, InputError, "empty"),
    ],
)
def test_bad_inputs(scores: dict, options: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        assay.compare_seeds(scores, **{"n_bootstrap": 10, **options})


def test_compare_seeds_runs_evaluates_every_run() -> None:
    qrels, runs = assay.datasets.synthetic(n_queries=12, docs_per_query=8, seed=3)
    r = list(runs.values())
    cmp = assay.compare_seeds_runs(
        qrels, {"a": r[:2], "b": [r[2], r[0], r[1]]}, "ndcg_cut.10", n_bootstrap=50, n_resamples=200
    )
    res = assay.evaluate(qrels, r, ["ndcg@10"])
    names = res.runs
    per_query = [res[n, "ndcg@10"].values for n in names]
    expected_b = np.vstack([per_query[2], per_query[0], per_query[1]]).mean(axis=1)
    assert cmp.metric == "ndcg_cut.10" and cmp.design == "per-unit"  # as the user spelled it
    assert cmp.scores["b"] == pytest.approx(expected_b)
    assert cmp.pair("b").n == 12
    with pytest.raises(InputError, match="runs"):
        assay.compare_seeds_runs(qrels, {"a": []}, "map")


# ----------------------------------------------------------------------------- files


def _write(tmp_path: Path, text: str, name: str = "s.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_read_seed_scores_per_seed_and_per_unit(tmp_path: Path) -> None:
    path = _write(
        tmp_path, "sys\tseed\tval\nb\t1\t0.2\na\t1\t0.3\nb\t2\t0.25\na\t2\t0.35\n", "s.tsv"
    )
    got = read_seed_scores(path, system_column="sys", score_column="val")
    assert list(got) == ["b", "a"] and got["a"].tolist() == [0.3, 0.35]
    text = "system,seed,q,score\n" + "".join(
        f"{s},{k},q{u},{0.1 * u + k / 100}\n" for s in ("x", "y") for k in (1, 2) for u in (1, 2, 3)
    )
    units = read_seed_scores(_write(tmp_path, text), unit_column="q")
    assert units["y"].shape == (2, 3)
    assert units["y"][1].tolist() == pytest.approx([0.12, 0.22, 0.32])
    jsonl = _write(
        tmp_path,
        "".join(
            json.dumps({"system": s, "seed": k, "score": 0.1 * k}) + "\n"
            for s in "ab"
            for k in (1, 2)
        ),
        "s.jsonl",
    )
    assert read_seed_scores(jsonl)["b"].tolist() == [0.1, 0.2]


@pytest.mark.parametrize(
    ("text", "unit", "needles"),
    [
        ("system,seed,score\na,1,0.2\na,1,0.3\n", None, ["s.csv:3", "twice", "line 2"]),
        ("system,seed,score\na,1,0.2\na,2,nan\n", None, ["s.csv:3", "number"]),
        ("system,seed,score\na,1,0.2\na,2,x\n", None, ["s.csv:3", "not a number"]),
        ("system,seed,score\na,1,0.2\n,2,0.3\n", None, ["s.csv:3", "system"]),
        ("system,seed,score\na,1,0.2\na,2,\n", None, ["s.csv:3", "missing score"]),
        ("system,seed,q,score\na,1,q1,0.2\na,1,q2,0.3\na,2,q1,0.4\n", "q", ["s.csv:4", "q2"]),
        ("system,seed,q,score\na,1,q1,0.2\na,1,q1,0.3\n", "q", ["s.csv:3", "unit 'q1'"]),
        ("system,run,score\na,1,0.2\n", None, ["seed"]),
    ],
)
def test_read_seed_scores_errors_name_file_and_line(
    tmp_path: Path, text: str, unit: str | None, needles: list[str]
) -> None:
    with pytest.raises(InputError) as info:
        read_seed_scores(_write(tmp_path, text), unit_column=unit)
    for needle in needles:
        assert needle in str(info.value), (needle, str(info.value))
