"""The ``assay`` command line, in process with typer's CliRunner (plus start-up checks in
subprocesses; start-up time is measured in benchmarks/bench_startup.py)."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app
from assay.metrics import FAMILIES, REGISTRY, load_families, parse

runner = CliRunner()


def cli(*args: str | Path, input: bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def label(name: str) -> str:
    """assay's label for a metric name (in any accepted syntax)."""
    (metric,) = parse(name)
    return str(metric)


def tsv_rows(text: str) -> list[tuple[str, str, str, str]]:
    rows = []
    for line in text.splitlines():
        fields = line.split("\t")
        assert len(fields) == 4, line
        rows.append((fields[0], fields[1], fields[2], fields[3]))
    return rows


def trec_eval_output(path: Path) -> dict[tuple[str, str], str]:
    """``{(measure, query): value}`` from a trec_eval output file."""
    out = {}
    for line in path.read_text().splitlines():
        measure, query, value = line.split()
        out[(measure, query)] = value
    return out


def assert_one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2
    assert out == ""
    assert err.startswith("assay: error: ")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture
def qrels_test(trec_dir: Path) -> Path:
    return trec_dir / "qrels.test"


@pytest.fixture
def results_test(trec_dir: Path) -> Path:
    return trec_dir / "results.test"


# ---------------------------------------------------------------- help, version, metrics


def test_help() -> None:
    for flag in ("--help", "-h"):
        code, out, _ = cli(flag)
        assert code == 0
        for command in ("evaluate", "metrics", "demo"):
            assert command in out
    code, out, _ = cli("evaluate", "--help")
    assert code == 0
    for option in (
        "--metric",
        "--per-query",
        "--format",
        "--ties",
        "--missing",
        "--no-relevant",
        "--judged-only",
        "--output",
    ):
        assert option in out


def test_version() -> None:
    code, out, _ = cli("--version")
    assert code == 0
    assert out == f"assay {assay.__version__}\n"


def test_metrics_table_lists_every_metric() -> None:
    code, out, _ = cli("metrics")
    assert code == 0
    # Names are never folded across lines: each is a whole cell of the first column.
    first_cells = {line.split("│")[1].strip() for line in out.splitlines() if "│" in line}
    assert set(REGISTRY) <= first_cells


def all_specs() -> list[tuple[str, str]]:
    """(family, name) of every declaration of every family, in listing order."""
    load_families()
    return [(s.family, s.name) for family in FAMILIES for s in REGISTRY.specs(family)]


def test_metrics_json() -> None:
    code, out, _ = cli("metrics", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [(r["family"], r["name"]) for r in rows] == all_specs()
    assert {r["family"] for r in rows} == set(FAMILIES)
    for r in rows:
        assert {"name", "params", "cutoff", "range", "higher_is_better", "summary"} <= set(r)
    # One family: exactly its declarations (the ranking family is REGISTRY as a mapping).
    code, out, _ = cli("metrics", "--format", "json", "--family", "ranking")
    assert code == 0
    assert [r["name"] for r in json.loads(out)] == list(REGISTRY)


def test_metrics_markdown() -> None:
    code, out, _ = cli("metrics", "-f", "markdown", "--family", "ranking")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("| metric |") and lines[1].startswith("|---")
    names = [line.split("|")[1].strip().strip("`") for line in lines[2:]]
    assert names == list(REGISTRY)
    # Every family: a table under a heading each.
    code, out, _ = cli("metrics", "-f", "markdown")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert [line.split("|")[1].strip().strip("`") for line in rows] == [n for _, n in all_specs()]
    assert [line[3:] for line in out.splitlines() if line.startswith("## ")] == [
        f.capitalize() for f in FAMILIES
    ]


def test_metrics_family_filter() -> None:
    code, out, _ = cli("metrics", "--family", "classification", "-f", "table")
    assert code == 0
    first_cells = {line.split("│")[1].strip() for line in out.splitlines() if "│" in line}
    load_families()
    assert {s.name for s in REGISTRY.specs("classification")} <= first_cells
    assert "ndcg" not in first_cells
    assert_one_line_error(*cli("metrics", "--family", "nope"), "unknown metric family 'nope'")


def test_metrics_bad_format() -> None:
    assert_one_line_error(*cli("metrics", "-f", "yaml"), "unknown format 'yaml'")


# ---------------------------------------------------------------- evaluate


TREC_MEASURES = [
    "map",
    "P_5",
    "P_10",
    "ndcg_cut_10",
    "recip_rank",
    "num_ret",
    "num_rel_ret",
    "bpref",
]


def test_evaluate_matches_trec_eval(qrels_test: Path, results_test: Path, trec_dir: Path) -> None:
    # trec_eval syntax (P.5,10 expands) next to assay syntax.
    code, out, err = cli(
        "evaluate",
        qrels_test,
        results_test,
        "-m",
        "P.5,10",
        "-m",
        "ndcg_cut.10",
        "-m",
        "map",
        "-m",
        "recip_rank",
        "-m",
        "num_ret",
        "-m",
        "num_rel_ret",
        "-m",
        "bpref",
        "-f",
        "tsv",
    )
    assert code == 0 and err == ""
    rows = tsv_rows(out)
    assert {r[0] for r in rows} == {"results.test"}
    assert {r[2] for r in rows} == {"all"}
    values = {metric: value for _, metric, _, value in rows}
    assert list(values) == [
        label(m) for m in ("P@5", "P@10", "ndcg@10", "map", "RR", "num_ret", "num_rel_ret", "bpref")
    ]
    expected = trec_eval_output(trec_dir / "out.test.a")
    for measure in TREC_MEASURES:
        got = float(values[label(measure)])
        want = expected[(measure, "all")]
        if "." in want:
            assert f"{got:6.4f}" == want, measure
        else:
            assert values[label(measure)] == want, measure  # counts print as integers


def test_assay_and_trec_syntax_agree(qrels_test: Path, results_test: Path) -> None:
    _, a, _ = cli(
        "evaluate",
        qrels_test,
        results_test,
        "-m",
        "P@5",
        "-m",
        "P@10",
        "-m",
        "ndcg@10",
        "-f",
        "tsv",
    )
    _, b, _ = cli(
        "evaluate", qrels_test, results_test, "-m", "P.5,10", "-m", "ndcg_cut.10", "-f", "tsv"
    )
    _, c, _ = cli(
        "evaluate",
        qrels_test,
        results_test,
        "-m",
        "P_5",
        "-m",
        "P_10",
        "-m",
        "ndcg_cut_10",
        "-f",
        "tsv",
    )
    assert a == b == c != ""


def test_default_metrics(qrels_test: Path, results_test: Path) -> None:
    code, out, _ = cli("evaluate", qrels_test, results_test, "-f", "tsv")
    assert code == 0
    from assay.cli import DEFAULT_METRICS

    assert [r[1] for r in tsv_rows(out)] == [label(m) for m in DEFAULT_METRICS]


def test_per_query_tsv(qrels_test: Path, results_test: Path, trec_dir: Path) -> None:
    code, out, _ = cli(
        "evaluate", qrels_test, results_test, "-m", "P@5", "-m", "map", "--per-query", "-f", "tsv"
    )
    assert code == 0
    rows = tsv_rows(out)
    assert [(r[1], r[2]) for r in rows] == [
        (label("P@5"), "301"),
        (label("P@5"), "302"),
        (label("P@5"), "303"),
        (label("P@5"), "all"),
        (label("map"), "301"),
        (label("map"), "302"),
        (label("map"), "303"),
        (label("map"), "all"),
    ]
    expected = trec_eval_output(trec_dir / "out.test.aq")
    for _, metric, query, value in rows:
        measure = "P_5" if metric == label("P@5") else "map"
        assert f"{float(value):6.4f}" == expected[(measure, query)]


def test_csv_format(qrels_test: Path, results_test: Path) -> None:
    code, out, _ = cli(
        "evaluate", qrels_test, results_test, "-m", "P@5", "-m", "num_ret", "-q", "-f", "csv"
    )
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["run", "metric", "query", "value"]
    assert len(rows) == 1 + 2 * 4
    assert rows[4] == ["results.test", label("P@5"), "all", repr(0.8 / 3)]
    assert rows[8] == ["results.test", "num_ret", "all", "1500"]


def test_jsonl_format(qrels_test: Path, results_test: Path) -> None:
    code, out, _ = cli(
        "evaluate",
        qrels_test,
        results_test,
        "-m",
        "P@5",
        "-m",
        "num_ret",
        "--per-query",
        "--format",
        "jsonl",
    )
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert len(objs) == 8
    for obj in objs:
        assert set(obj) == {"run", "metric", "query", "value"}
        assert obj["run"] == "results.test"
    aggregates = [o for o in objs if o["query"] == "all"]
    assert [(o["metric"], o["value"]) for o in aggregates] == [
        (label("P@5"), 0.8 / 3),
        ("num_ret", 1500),
    ]
    assert isinstance(aggregates[1]["value"], int)
    assert {o["query"] for o in objs} == {"301", "302", "303", "all"}


def test_json_format(qrels_test: Path, trec_dir: Path) -> None:
    code, out, err = cli(
        "evaluate", qrels_test, trec_dir / "results.trunc", "-m", "P@5", "-f", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"results", "warnings", "provenance"}
    assert doc["results"] == [
        {
            "run": "results.trunc",
            "metric": label("P@5"),
            "query": "all",
            "value": doc["results"][0]["value"],
        }
    ]
    assert f"{doc['results'][0]['value']:6.4f}" == "0.2000"
    assert len(doc["warnings"]) == 1 and "'302'" in doc["warnings"][0]
    assert doc["warnings"][0] in err  # also on stderr
    assert doc["provenance"]["conventions"]["missing"] == "zero"
    assert doc["provenance"]["assay_version"] == assay.__version__


def test_markdown_format(qrels_test: Path, results_test: Path, trec_dir: Path) -> None:
    code, out, _ = cli(
        "evaluate",
        qrels_test,
        results_test,
        trec_dir / "results.trunc",
        "-m",
        "P@5",
        "-m",
        "num_ret",
        "-f",
        "markdown",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"| run | {label('P@5')} | num_ret |"
    assert lines[1] == "|---|---:|---:|"
    # The best aggregate is bold (not for counts).
    assert lines[2] == "| results.test | **0.2667** | 1500 |"
    assert lines[3] == "| results.trunc | 0.2000 | 584 |"
    assert len(lines) == 4


def test_latex_format(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    run = tmp_path / "my_run&co"
    shutil.copy(results_test, run)
    code, out, _ = cli(
        "evaluate",
        qrels_test,
        run,
        results_test,
        "-m",
        "P@5",
        "-m",
        "ndcg_cut.10",
        "-q",
        "-f",
        "latex",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "\\begin{tabular}{llrr}"
    assert lines[-1] == "\\end{tabular}"
    assert "\\toprule" in lines and "\\midrule" in lines and "\\bottomrule" in lines
    assert lines[2] == f"Run & Query & {label('P@5')} & {label('ndcg@10')} \\\\"
    assert "my\\_run\\&co & 302 & 0.8000 & 0.7530 \\\\" in lines
    assert all(line.endswith("\\\\") for line in lines[2:-2] if line != "\\midrule")


def test_table_format(qrels_test: Path, results_test: Path, trec_dir: Path, tmp_path: Path) -> None:
    odd = tmp_path / "bm25[bold]"
    shutil.copy(results_test, odd)
    code, out, _ = cli(
        "evaluate",
        qrels_test,
        odd,
        trec_dir / "results.trunc",
        "-m",
        "P@5",
        "-m",
        "ndcg@10",
        "-f",
        "table",
    )
    assert code == 0
    assert "bm25[bold]" in out  # not taken for rich markup
    assert "results.trunc" in out
    for text in (
        label("P@5"),
        label("ndcg@10"),
        "0.2667",
        "0.3016",
        "0.2000",
        "0.1717",
        "ties=docno",
    ):
        assert text in out
    code, out, _ = cli("evaluate", qrels_test, results_test, "-m", "P@5", "-q", "-f", "table")
    assert code == 0
    for text in ("301", "302", "303", "all", "0.8000"):
        assert text in out


def test_default_format_off_a_terminal_is_tsv(qrels_test: Path, results_test: Path) -> None:
    _, a, _ = cli("evaluate", qrels_test, results_test, "-m", "P@5")
    _, b, _ = cli("evaluate", qrels_test, results_test, "-m", "P@5", "-f", "tsv")
    assert a == b


def test_output_file(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    _, expected, _ = cli("evaluate", qrels_test, results_test, "-m", "P@5", "-q", "-f", "csv")
    target = tmp_path / "out.csv"
    code, out, _ = cli(
        "evaluate", qrels_test, results_test, "-m", "P@5", "-q", "-f", "csv", "-o", target
    )
    assert code == 0 and out == ""
    assert target.read_text() == expected
    # Without --format, a file gets TSV; --format table writes the table.
    code, out, _ = cli("evaluate", qrels_test, results_test, "-m", "P@5", "--output", target)
    assert out == "" and tsv_rows(target.read_text())[0][1] == label("P@5")
    cli("evaluate", qrels_test, results_test, "-m", "P@5", "-f", "table", "-o", target)
    assert "results.test" in target.read_text() and "0.2667" in target.read_text()


def test_multiple_runs(qrels_test: Path, results_test: Path, trec_dir: Path) -> None:
    code, out, err = cli(
        "evaluate", qrels_test, results_test, trec_dir / "results.trunc", "-m", "P@5", "-f", "tsv"
    )
    assert code == 0
    assert tsv_rows(out) == [
        ("results.test", label("P@5"), "all", repr(0.8 / 3)),
        ("results.trunc", label("P@5"), "all", tsv_rows(out)[1][3]),
    ]
    assert f"{float(tsv_rows(out)[1][3]):6.4f}" == "0.2000"
    assert "results.trunc" in err and "1 qrels query without results" in err


def test_runs_with_the_same_file_name(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(results_test, tmp_path / sub / "run.txt")
    code, out, _ = cli(
        "evaluate",
        qrels_test,
        tmp_path / "a" / "run.txt",
        tmp_path / "b" / "run.txt",
        "-m",
        "P@5",
        "-f",
        "tsv",
    )
    assert code == 0
    assert [r[0] for r in tsv_rows(out)] == [
        str(tmp_path / "a" / "run.txt"),
        str(tmp_path / "b" / "run.txt"),
    ]


def test_qrels_from_stdin(qrels_test: Path, results_test: Path) -> None:
    _, expected, _ = cli("evaluate", qrels_test, results_test, "-m", "P@5", "-f", "tsv")
    code, out, _ = cli(
        "evaluate", "-", results_test, "-m", "P@5", "-f", "tsv", input=qrels_test.read_bytes()
    )
    assert code == 0 and out == expected


def test_forced_formats(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.data"
    qrels.write_text("query\tdoc\trelevance\n1\ta\t1\n1\tb\t0\n")
    run = tmp_path / "run.data"
    run.write_text("query,doc,score\n1,a,0.5\n1,b,0.75\n")
    code, out, _ = cli(
        "evaluate",
        qrels,
        run,
        "--qrels-format",
        "tsv",
        "--run-format",
        "csv",
        "-m",
        "RR",
        "-f",
        "tsv",
    )
    assert code == 0
    assert tsv_rows(out) == [("run.data", label("RR"), "all", "0.5")]
    code, _, err = cli("evaluate", qrels, run, "--qrels-format", "xml")
    assert code == 2 and "Traceback" not in err


# ---------------------------------------------------------------- conventions


def test_missing_convention(qrels_test: Path, trec_dir: Path) -> None:
    trunc = trec_dir / "results.trunc"
    _, zero, _ = cli("evaluate", qrels_test, trunc, "-m", "P@5", "-q", "-f", "tsv")
    _, skip, err = cli(
        "evaluate", qrels_test, trunc, "-m", "P@5", "-q", "-f", "tsv", "--missing", "skip"
    )
    zero_rows, skip_rows = tsv_rows(zero), tsv_rows(skip)
    assert [r[2] for r in zero_rows] == ["301", "302", "303", "all"]
    assert [r[2] for r in skip_rows] == ["301", "303", "all"]
    assert float(zero_rows[1][3]) == 0.0
    per_query = [float(r[3]) for r in skip_rows[:2]]
    assert float(skip_rows[2][3]) == pytest.approx(sum(per_query) / 2)
    assert float(zero_rows[3][3]) == pytest.approx(sum(per_query) / 3)
    assert "skipped" in err
    assert_one_line_error(
        *cli("evaluate", qrels_test, trunc, "-m", "P@5", "--missing", "error"),
        "'302'",
        "missing='error'",
    )


def test_ties_convention(tmp_path: Path) -> None:
    qrels = tmp_path / "q"
    qrels.write_text("1 0 a 1\n1 0 b 0\n")
    run = tmp_path / "r"
    # Tied scores: docno order ranks b (descending docno) first; input order ranks a first.
    run.write_text("1 Q0 a 1 1.0 t\n1 Q0 b 2 1.0 t\n")
    values = {}
    for ties in ("docno", "input", "average"):
        code, out, _ = cli("evaluate", qrels, run, "-m", "P@1", "--ties", ties, "-f", "tsv")
        assert code == 0
        values[ties] = float(tsv_rows(out)[0][3])
    assert values == {"docno": 0.0, "input": 1.0, "average": 0.5}
    code, _, err = cli("evaluate", qrels, run, "--ties", "random")
    assert code == 2 and "Traceback" not in err


def test_no_relevant_and_judged_only(tmp_path: Path) -> None:
    qrels = tmp_path / "q"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 c 0\n")
    run = tmp_path / "r"
    run.write_text("1 Q0 x 1 3.0 t\n1 Q0 a 2 2.0 t\n2 Q0 c 1 1.0 t\n")
    results = {}
    for flag in ("zero", "one", "skip", "nan"):
        # Query 2 has no relevant document: AP is undefined there.
        code, out, _ = cli(
            "evaluate", qrels, run, "-m", "map", "-q", "--no-relevant", flag, "-f", "jsonl"
        )
        assert code == 0
        results[flag] = {o["query"]: o["value"] for o in map(json.loads, out.splitlines())}
    assert results["zero"] == {"1": 0.5, "2": 0.0, "all": 0.25}
    assert results["one"] == {"1": 0.5, "2": 1.0, "all": 0.75}
    assert results["skip"] == {"1": 0.5, "all": 0.5}
    assert results["nan"]["2"] is None and results["nan"]["all"] is None
    code, out, err = cli("evaluate", qrels, run, "-m", "map", "--judged-only", "-f", "tsv")
    assert code == 0
    assert float(tsv_rows(out)[0][3]) == 0.5  # (1 + 0) / 2: x dropped before ranking
    assert "1 unjudged results dropped" in err


# ---------------------------------------------------------------- bad input


def test_missing_run_file(qrels_test: Path, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    assert_one_line_error(*cli("evaluate", qrels_test, missing), str(missing), "no such file")
    assert_one_line_error(*cli("evaluate", missing, qrels_test), str(missing), "no such file")


def test_bad_metric(qrels_test: Path, results_test: Path) -> None:
    assert_one_line_error(
        *cli("evaluate", qrels_test, results_test, "-m", "nDGC@10"),
        "unknown metric 'nDGC'",
        "did you mean 'ndcg'",
    )
    assert_one_line_error(
        *cli("evaluate", qrels_test, results_test, "-m", "rbp(p=1.5)"),
        "p must be a number in (0, 1)",
    )
    assert_one_line_error(
        *cli("evaluate", qrels_test, results_test, "-m", "P@0"), "positive integer"
    )


def test_bad_file(qrels_test: Path, results_test: Path) -> None:
    # A run where the qrels should be: line 1 has 6 fields.
    assert_one_line_error(
        *cli("evaluate", results_test, results_test), f"{results_test}:1:", "expected exactly 4"
    )


def test_duplicate_lines(qrels_test: Path, tmp_path: Path) -> None:
    run = tmp_path / "dup.run"
    run.write_text("301 Q0 a 1 2.0 t\n301 Q0 b 2 1.0 t\n301 Q0 a 3 0.5 t\n")
    assert_one_line_error(
        *cli("evaluate", qrels_test, run), f"{run}:3:", "first at line 1", "duplicate"
    )


def test_bad_bytes(qrels_test: Path, tmp_path: Path) -> None:
    run = tmp_path / "latin1.run"
    run.write_bytes("301 Q0 a 1 2.0 t\n301 Q0 caf\u00e9 2 1.0 t\n".encode("latin-1"))
    assert_one_line_error(*cli("evaluate", qrels_test, run), f"{run}:2:", "UTF-8")


def test_unwritable_output(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "out.tsv"
    assert_one_line_error(
        *cli("evaluate", qrels_test, results_test, "-m", "P@5", "-o", target), str(target)
    )


def test_bad_convention_combination(qrels_test: Path, results_test: Path) -> None:
    assert_one_line_error(
        *cli("evaluate", qrels_test, results_test, "-m", "bpref", "--ties", "average"), "bpref"
    )


# ---------------------------------------------------------------- demo


def test_demo() -> None:
    """The demo is the learning-to-rank job (tests/cli/test_ltr_cli.py has more)."""
    code, out, err = cli("demo", "--queries", "30")
    assert code == 0
    for name in ("linear (baseline)", "lambdamart", "lambdamart − linear", "NDCG@10"):
        assert name in out
    assert "synthetic MSLR-like collection (seed 0): train 18 queries" in err
    code, out, _ = cli("demo", "--queries", "30", "--seed", "3", "-f", "tsv")
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines()]
    kinds = {(r[0], r[1]) for r in rows if r[2] == "ndcg(gain='exp')@10"}
    assert kinds == {("linear", "mean"), ("lambdamart", "mean"), ("lambdamart", "difference")}


# ---------------------------------------------------------------- start-up


def test_help_imports_no_heavy_modules() -> None:
    # The reason --help is fast: NumPy, pyarrow, rich and the data frame libraries stay
    # unimported until a command needs them.
    code = (
        "import sys\n"
        "from assay.cli import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & "
        "{'numpy', 'pyarrow', 'pandas', 'polars', 'scipy', 'rich'})\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in proc.stderr, proc.stderr


def test_evaluate_function_survives_submodule_import() -> None:
    # The implementation lives in assay.evaluation; importing it (as the CLI does) must leave
    # assay.evaluate the function.
    code = (
        "import assay\n"
        "from assay.evaluation import Results\n"
        "from assay.cli import app\n"
        "try:\n    app(['demo', '--queries', '5', '-f', 'tsv'])\nexcept SystemExit:\n    pass\n"
        "qrels, runs = assay.datasets.synthetic(n_queries=3, docs_per_query=5)\n"
        "assert isinstance(assay.evaluate(qrels, runs, 'P@5'), Results)\n"
        "print('OK')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.endswith("OK\n"), proc.stderr


def test_python_m_assay() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "assay", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    for command in ("evaluate", "compare", "metrics", "trec-eval", "classify", "aggregate"):
        assert command in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "assay", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.stdout == f"assay {assay.__version__}\n"


# ---------------------------------------------------------------- the cli package


def _imported_modules(path: Path) -> list[tuple[str, int]]:
    """(absolute module, line) of every import in a module of assay.cli, at any depth."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                parts = ["assay", "cli"][: 2 - (node.level - 1)]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            out.append((base, node.lineno))
            # `from . import x` / `from assay import cli` import the package as a name too
            out += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return out


def test_command_modules_never_import_the_cli_package() -> None:
    import assay.cli as package

    folder = Path(package.__file__).parent
    # Every module but the package itself and __main__ (the entry point, which calls it).
    modules = sorted(p for p in folder.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert {p.stem for p in modules} >= {"_common", *package.COMMANDS}
    for path in modules:
        for module, line in _imported_modules(path):
            assert module not in ("assay.cli", "assay.cli.__init__"), f"{path.name}:{line}"


def test_every_command_module_registers() -> None:
    import importlib

    import typer

    import assay.cli as package

    for name in package.COMMANDS:
        module = importlib.import_module(f"assay.cli.{name}")
        fresh = typer.Typer()
        module.register(fresh)
        assert fresh.registered_commands or fresh.registered_groups, name


def test_aggregate_formats(tmp_path: Path) -> None:
    votes = tmp_path / "votes.txt"
    votes.write_text("A B C\nA C B\nB A C\n")
    code, out, _ = cli("aggregate", votes, "-f", "csv")
    assert code == 0
    assert out.splitlines() == ["rank,candidate,score", "1,A,5.0", "2,B,3.0", "3,C,1.0"]
    code, out, _ = cli("aggregate", votes, "-f", "json")
    doc = json.loads(out)
    assert doc["results"][0] == {"rank": 1, "candidate": "A", "score": 5.0}
    assert doc["settings"]["method"] == "borda" and doc["settings"]["rankings"] == 3
    code, out, _ = cli("aggregate", votes, "-f", "markdown")
    assert out.splitlines()[:3] == [
        "| rank | candidate | score |",
        "|---:|---|---:|",
        "| 1 | A | 5 |",
    ]
