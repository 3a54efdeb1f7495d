"""``assay seeds``: a table of scores per system and seed (per unit too), or ranking runs
evaluated per seed (``--qrels`` with ``--run NAME=PATH`` repeated); the printed records are
compare_seeds' on the same inputs; bad inputs are one line and exit 2."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

import assay
from support.cli import assert_one_line_error, invoke
from support.io import synthetic_trec_files


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cli-seeds")
    out = synthetic_trec_files(d)
    rng = np.random.default_rng(0)
    rows = [
        (s, k, q, float(np.round(rng.uniform(0.2, 0.6) + (0.1 if s == "dense" else 0), 4)))
        for s in ("bm25", "dense", "splade")
        for k in (1, 2, 3)
        for q in ("q1", "q2", "q3", "q4", "q5")
    ]
    per_unit = d / "units.csv"
    per_unit.write_text(
        "system,seed,query,ndcg\n" + "".join(f"{s},{k},{q},{v}\n" for s, k, q, v in rows),
        encoding="utf-8",
    )
    per_seed = d / "seeds.tsv"
    per_seed.write_text(
        "model\trun\tscore\n"
        + "".join(
            f"{s}\t{k}\t{0.3 + 0.01 * k + (0.05 if s == 'b' else 0)}\n"
            for s in "ab"
            for k in (1, 2, 3, 4)
        ),
        encoding="utf-8",
    )
    out["units"], out["seeds"] = per_unit, per_seed
    return out


def _records(out: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(out)))


def test_per_unit_table_matches_the_library(files: dict[str, Path]) -> None:
    code, out, err = invoke(
        "seeds",
        files["units"],
        "--unit-column",
        "query",
        "--score-column",
        "ndcg",
        "--test",
        "randomization",
        "--n-bootstrap",
        "100",
        "--n-resamples",
        "500",
        "--seed",
        "3",
        "--baseline",
        "splade",
        "-f",
        "csv",
    )
    assert code == 0, err
    from assay.ranking import read_seed_scores

    scores = read_seed_scores(files["units"], unit_column="query", score_column="ndcg")
    expected = assay.compare_seeds(
        scores,
        baseline="splade",
        metric="ndcg",
        test="randomization",
        n_bootstrap=100,
        n_resamples=500,
        seed=3,
    ).records()
    got = _records(out)
    assert [r["system"] for r in got] == ["bm25", "dense", "splade"]
    for row, want in zip(got, expected, strict=True):
        assert float(row["mean"]) == pytest.approx(want["mean"])
        if not want["baseline"]:
            assert float(row["p_adjusted"]) == pytest.approx(want["p_adjusted"])
            assert float(row["eps_min"]) == pytest.approx(want["eps_min"])


def test_per_seed_table_with_its_own_columns(files: dict[str, Path], tmp_path: Path) -> None:
    report, save = tmp_path / "r.html", tmp_path / "d.json"
    code, out, err = invoke(
        "seeds",
        files["seeds"],
        "--system-column",
        "model",
        "--seed-column",
        "run",
        "--n-bootstrap",
        "100",
        "-f",
        "json",
        "--report",
        report,
        "--save",
        save,
    )
    assert code == 0, err
    records = json.loads(out)["records"]
    assert [r["system"] for r in records] == ["a", "b"]
    assert records[1]["eps_min"] == 0.0 and records[1]["significant"] is True
    assert "<svg" in report.read_text(encoding="utf-8")
    code, out, err = invoke("report", save, "-f", "markdown")
    assert code == 0 and "over seeds" in out, err


def test_runs_per_seed(files: dict[str, Path]) -> None:
    q, r1, r2, r3 = files["qrels"], files["run1"], files["run2"], files["run3"]
    code, out, err = invoke(
        "seeds",
        "--qrels",
        q,
        "--run",
        f"a={r1}",
        "--run",
        f"b={r2}",
        "--run",
        f"a={r3}",
        "--run",
        f"b={r1}",
        "-m",
        "P@5",
        "--n-bootstrap",
        "50",
        "--n-resamples",
        "100",
        "-f",
        "csv",
    )
    assert code == 0, err
    rows = _records(out)
    assert [(r["system"], r["n"], r["metric"]) for r in rows] == [
        ("a", "2", "P@5"),
        ("b", "2", "P@5"),
    ]
    expected = assay.compare_seeds_runs(
        str(q),
        {"a": [str(r1), str(r3)], "b": [str(r2), str(r1)]},
        "P@5",
        n_bootstrap=50,
        n_resamples=100,
    )
    assert float(rows[1]["p_adjusted"]) == pytest.approx(expected.pair("b").p_adjusted)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--run", "a=x"], ["--qrels"]),
        (["--qrels", "QRELS", "--run", "a=RUN1"], ["-m"]),
        (["--qrels", "QRELS", "--run", "aRUN1", "-m", "P@5"], ["NAME=PATH"]),
        (["SEEDS", "--qrels", "QRELS"], ["not both"]),
        (["SEEDS", "--test", "wilcoxon"], ["Welch"]),
        (["SEEDS", "--baseline", "zzz"], ["zzz"]),
        (["SEEDS", "--system-column", "nope"], ["nope"]),
        (["SEEDS", "--n-bootstrap", "0"], ["n_bootstrap"]),
    ],
)
def test_bad_invocations(files: dict[str, Path], args: list[str], needles: list[str]) -> None:
    names = {"QRELS": files["qrels"], "RUN1": files["run1"], "SEEDS": files["seeds"]}
    argv = [str(names.get(a, a)).replace("RUN1", str(files["run1"])) for a in args]
    argv = [a.replace("aRUN1", f"a{files['run1']}") for a in argv]
    if "SEEDS" in args:
        argv += (
            ["--system-column", "model", "--seed-column", "run"]
            if "--system-column" not in args
            else ["--seed-column", "run"]
        )
    code, out, err = invoke("seeds", *argv)
    assert_one_line_error(code, out, err, *needles)


def test_duplicate_row_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "dup.csv"
    path.write_text("system,seed,score\na,1,0.2\nb,1,0.3\na,1,0.25\n", encoding="utf-8")
    assert_one_line_error(*invoke("seeds", path), "dup.csv:4", "twice")
