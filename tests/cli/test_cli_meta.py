"""``assay meta ...`` in-process: every subcommand in every output format, and bad input as
one error line with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app

FORMATS = ["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("meta")
    qrels, runs = assay.datasets.synthetic(n_queries=12, docs_per_query=15, seed=5)
    runs = list(runs.values()) if isinstance(runs, dict) else list(runs)
    out = {"qrels": str(root / "qrels.txt")}
    qrels.to_trec(out["qrels"])
    for r in runs:
        out[r.name] = str(root / f"{r.name}.run")
        r.to_trec(out[r.name])
    # a second assessor: every third judgment flipped between relevant and not
    lines = Path(out["qrels"]).read_text().splitlines()
    flipped = []
    for k, line in enumerate(lines):
        q, it, d, g = line.split()
        flipped.append(" ".join([q, it, d, str(int(g == "0")) if k % 3 == 0 else g]))
    out["qrels_b"] = str(root / "qrels_b.txt")
    Path(out["qrels_b"]).write_text("\n".join(flipped) + "\n")
    out["pvalues"] = str(root / "pvalues.csv")
    Path(out["pvalues"]).write_text(
        "dataset,system,baseline,p_value\n"
        + "".join(
            f"d{i},new,old,{p}\n" for i, p in enumerate([0.168, 0.297, 0.357, 0.019, 0.218, 0.001])
        )
        + "d1,other,old,0.5\n"
    )
    return out


def _commands(f: dict[str, str]) -> dict[str, list[str]]:
    r1, r2, r3 = f["run1"], f["run2"], f["run3"]
    return {
        "discpower": ["discpower", f["qrels"], r1, r2, r3, "-m", "map", "-m", "P@5",
                      "--n-resamples", "200"],
        "discpower-pairs": ["discpower", f["qrels"], r1, r2, r3, "-m", "map", "--pairs",
                            "--test", "bootstrap", "--n-resamples", "100"],
        "topicsize": ["topicsize", f["qrels"], r1, r2, r3, "-m", "map", "--min-diff", "0.05",
                      "--min-diff", "0.1"],
        "topicsize-variance": ["topicsize", "--variance", "0.05", "--n-topics", "50",
                               "--power-method", "normal"],
        "rbo": ["rbo", r1, r2, "--per-query", "-p", "0.8"],
        "repro": ["repro", f["qrels"], r1, r2, r2, r3, "-m", "map", "-m", "P@5"],
        "replicability": ["repro", f["qrels"], r1, r2, r2, r3, "-m", "map",
                          "--rep-qrels", f["qrels_b"]],
        "assessors": ["assessors", f["qrels"], f["qrels_b"], r1, r2, r3, "-m", "map"],
        "anova": ["anova", f["qrels"], r1, r2, r3, "-m", "map", "-m", "P@5"],
        "across-datasets": ["replicability", f["pvalues"], "--system", "new", "--method",
                            "fisher"],
    }  # fmt: skip


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "name",
    ["discpower", "discpower-pairs", "topicsize", "topicsize-variance", "rbo", "repro",
     "replicability", "assessors", "anova", "across-datasets"],
)  # fmt: skip
def test_every_subcommand_in_every_format(files, name, fmt):
    args = ["meta", *_commands(files)[name], "-f", fmt]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.strip()
    if fmt == "json":
        doc = json.loads(out)
        assert doc["records"] and "provenance" in doc
    elif fmt == "jsonl":
        assert all(json.loads(line) for line in out.splitlines())
    elif fmt == "latex":
        assert "\\begin{tabular}" in out


def test_discpower_figures_match_the_library(files):
    result = CliRunner().invoke(
        app,
        ["meta", "discpower", files["qrels"], files["run1"], files["run2"], files["run3"],
         "-m", "map", "--n-resamples", "200", "--seed", "3", "-f", "json"],
    )  # fmt: skip
    rows = json.loads(result.stdout)["records"]
    qrels = assay.Qrels.from_trec(files["qrels"])
    runs = [assay.Run.from_trec(files[n], name=f"{n}.run") for n in ("run1", "run2", "run3")]
    expect = assay.meta.discriminative_power(
        assay.evaluate(qrels, runs, ["map"]), n_resamples=200, seed=3
    ).records()
    assert [r["discriminative_power"] for r in rows] == [e["discriminative_power"] for e in expect]
    assert [r["diff_required"] for r in rows] == pytest.approx([e["diff_required"] for e in expect])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["discpower", "QRELS", "nope.run", "nope2.run"], "nope.run"),
        (["discpower", "QRELS", "RUN1", "RUN2", "--alpha", "1.5"], "alpha"),
        (["discpower", "QRELS", "RUN1", "RUN2", "--test", "bogus"], "test"),
        (["topicsize"], "QRELS"),
        (["topicsize", "--variance", "-1"], "variance"),
        (["topicsize", "QRELS", "RUN1", "RUN2", "--beta", "0"], "beta"),
        (["rbo", "RUN1", "RUN2", "-p", "1"], "p must"),
        (["rbo", "RUN1", "RUN2", "--ties", "average"], "--ties"),
        (["repro", "QRELS", "RUN1", "RUN2", "RUN1", "RUN2", "--rbo-depth", "0"], "rbo_depth"),
        (["assessors", "QRELS", "QRELS", "--rel", "0"], "rel"),
        (["anova", "QRELS", "RUN1"], "two or more"),
        (["anova", "QRELS", "RUN1", "RUN2", "--confidence", "1"], "confidence"),
        (["replicability", "PVALUES"], "second p-value"),
        (["replicability", "PVALUES", "--system", "nobody"], "no row"),
        (["replicability", "PVALUES", "--system", "new", "--method", "stouffer"], "method"),
        (["replicability", "PVALUES", "--system", "new", "--alpha", "0"], "alpha"),
        (["replicability", "PVALUES", "--p-value-column", "pv"], "no column"),
        (["replicability", "QRELS"], "header"),
    ],
)
def test_bad_input_is_one_error_line(files, args, needle):
    subst = {
        "QRELS": files["qrels"],
        "RUN1": files["run1"],
        "RUN2": files["run2"],
        "PVALUES": files["pvalues"],
    }
    result = CliRunner().invoke(app, ["meta", *[subst.get(a, a) for a in args]])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("assay: error:"), result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.output


def test_anova_and_replicability_figures_match_the_library(files):
    runs = [files[n] for n in ("run1", "run2", "run3")]
    result = CliRunner().invoke(
        app, ["meta", "anova", files["qrels"], *runs, "-m", "map", "-f", "json"]
    )
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["records"]
    qrels = assay.Qrels.from_trec(files["qrels"])
    loaded = [assay.Run.from_trec(files[n], name=f"{n}.run") for n in ("run1", "run2", "run3")]
    expect = assay.meta.anova(assay.evaluate(qrels, loaded, ["map"])).records()
    assert [r.get("f") for r in rows] == pytest.approx([e.get("f") for e in expect])
    assert [r.get("run") for r in rows] == [e.get("run") for e in expect]
    result = CliRunner().invoke(
        app, ["meta", "replicability", files["pvalues"], "--system", "new", "-f", "json"]
    )
    rows = json.loads(result.stdout)["records"]
    named = [r["dataset"] for r in rows if r["kind"] == "dataset" and r["identified"]]
    holds = [r["u"] for r in rows if r["kind"] == "u" and r["holds"]]
    assert (named, holds) == (["d5"], [1])
