"""The short_queries convention: a query with fewer than k judged documents has no value for a
metric at cutoff k under "skip" (left out of the values and the mean, as np.nanmean in LTR
notebooks), and is scored as usual under "score"; validated, recorded and on the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app
from assay.conventions import DESCRIPTIONS, Conventions
from assay.errors import ConventionError

QRELS = assay.Qrels.from_columns(
    ["a"] * 5 + ["b"] * 2, ["1", "2", "3", "4", "5", "6", "7"], [1, 0, 2, 0, 0, 1, 0]
)
RUN = assay.Run.from_columns(
    ["a"] * 5 + ["b"] * 2, ["1", "2", "3", "4", "5", "6", "7"], [5, 4, 3, 2, 1, 1, 2]
)


def test_skip_leaves_out_queries_with_fewer_than_k_judged_documents() -> None:
    score = assay.evaluate(QRELS, RUN, ["ndcg@3", "ndcg", "P@2"])
    skip = assay.evaluate(QRELS, RUN, ["ndcg@3", "ndcg", "P@2"], short_queries="skip")
    # Query b has 2 judged documents: out of ndcg@3, in ndcg (no cutoff) and P@2.
    assert skip["run", "ndcg@3"].queries.tolist() == ["a"]
    assert skip["run", "ndcg@3"].skipped == 1
    assert skip["run", "ndcg@3"].aggregate == pytest.approx(score.per_query("run", "ndcg@3")["a"])
    assert skip["run", "ndcg"].queries.tolist() == ["a", "b"]
    assert skip.per_query("run", "P@2") == score.per_query("run", "P@2")
    assert any("fewer than 3 judged documents" in w for w in skip.warnings)
    # The rule of the notebook: np.nanmean over values that are NaN for short queries.
    values = score["run", "ndcg@3"].values.copy()  # queries a (5 judged), b (2 judged)
    values[np.array([5, 2]) < 3] = np.nan
    assert skip["run", "ndcg@3"].aggregate == pytest.approx(np.nanmean(values))


def test_recorded_validated_and_described() -> None:
    res = assay.evaluate(QRELS, RUN, ["ndcg@3"], short_queries="skip")
    assert res.conventions.short_queries == "skip"
    assert res.provenance["conventions"]["short_queries"] == "skip"
    assert Conventions().short_queries == "score"
    assert set(DESCRIPTIONS["short_queries"]) == {"score", "skip"}
    with pytest.raises(ConventionError, match="short_queries"):
        assay.evaluate(QRELS, RUN, ["ndcg@3"], short_queries="nan")  # type: ignore[arg-type]
    with pytest.raises(ConventionError, match="short_queries"):
        Conventions(short_queries="drop")  # type: ignore[arg-type]


def test_compare_pairs_over_the_queries_left() -> None:
    other = assay.Run.from_columns(
        ["a"] * 5 + ["b"] * 2, list("1234567"), [1, 2, 3, 4, 5, 2, 1], name="other"
    )
    cmp = assay.compare(QRELS, [RUN, other], ["ndcg@3"], short_queries="skip", n_resamples=100)
    assert cmp.pair("other", "run", "ndcg@3").n == 1
    assert cmp.provenance["conventions"]["short_queries"] == "skip"


def test_cli_flag(tmp_path: Path) -> None:
    QRELS.to_trec(tmp_path / "q")
    RUN.to_trec(tmp_path / "r")
    out = CliRunner().invoke(
        app, ["evaluate", str(tmp_path / "q"), str(tmp_path / "r"), "-m", "ndcg@3",
              "--short-queries", "skip", "-q", "-f", "jsonl"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert [r["query"] for r in rows] == ["a", None]
    bad = CliRunner().invoke(
        app, ["evaluate", str(tmp_path / "q"), str(tmp_path / "r"), "--short-queries", "x"]
    )
    assert bad.exit_code == 2
