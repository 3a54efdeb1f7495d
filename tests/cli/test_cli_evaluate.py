"""``assay evaluate`` in process: trec_eval's numbers, both metric syntaxes, every output
format, several runs, stdin, the conventions, and one-line errors for bad input."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

import assay
from support.cli import assert_one_line_error, invoke, label, tsv_rows


def trec_eval_output(path: Path) -> dict[tuple[str, str], str]:
    """``{(measure, query): value}`` from a trec_eval output file."""
    out = {}
    for line in path.read_text().splitlines():
        measure, query, value = line.split()
        out[(measure, query)] = value
    return out


@pytest.fixture
def qrels_test(trec_dir: Path) -> Path:
    return trec_dir / "qrels.test"


@pytest.fixture
def results_test(trec_dir: Path) -> Path:
    return trec_dir / "results.test"


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
    code, out, err = invoke(
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
    assert {r[2] for r in rows} == {""}
    values = {metric: value for _, metric, _, value in rows}
    # Labelled as asked: an expanded trec_eval name by trec_eval's output names.
    assert list(values) == [
        "P_5",
        "P_10",
        "ndcg_cut.10",
        "map",
        "recip_rank",
        "num_ret",
        "num_rel_ret",
        "bpref",
    ]
    expected = trec_eval_output(trec_dir / "out.test.a")
    asked = {"ndcg_cut_10": "ndcg_cut.10"}
    for measure in TREC_MEASURES:
        got = float(values[asked.get(measure, measure)])
        want = expected[(measure, "all")]
        if "." in want:
            assert f"{got:6.4f}" == want, measure
        else:
            assert values[asked.get(measure, measure)] == want, measure  # counts as integers


def test_assay_and_trec_syntax_agree(qrels_test: Path, results_test: Path) -> None:
    _, a, _ = invoke(
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
    _, b, _ = invoke(
        "evaluate", qrels_test, results_test, "-m", "P.5,10", "-m", "ndcg_cut.10", "-f", "tsv"
    )
    _, c, _ = invoke(
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
    # The same values; each labelled as it was asked.
    assert [r[3] for r in tsv_rows(a)] == [r[3] for r in tsv_rows(b)] == [r[3] for r in tsv_rows(c)]
    assert [r[1] for r in tsv_rows(a)] == ["P@5", "P@10", "ndcg@10"]
    assert [r[1] for r in tsv_rows(b)] == ["P_5", "P_10", "ndcg_cut.10"]
    assert [r[1] for r in tsv_rows(c)] == ["P_5", "P_10", "ndcg_cut_10"]
    assert a != ""


def test_default_metrics(qrels_test: Path, results_test: Path) -> None:
    code, out, _ = invoke("evaluate", qrels_test, results_test, "-f", "tsv")
    assert code == 0
    from assay.cli import DEFAULT_METRICS

    assert [r[1] for r in tsv_rows(out)] == [label(m) for m in DEFAULT_METRICS]


def test_per_query_tsv(qrels_test: Path, results_test: Path, trec_dir: Path) -> None:
    code, out, _ = invoke(
        "evaluate", qrels_test, results_test, "-m", "P@5", "-m", "map", "--per-query", "-f", "tsv"
    )
    assert code == 0
    rows = tsv_rows(out)
    assert [(r[1], r[2]) for r in rows] == [
        (label("P@5"), "301"),
        (label("P@5"), "302"),
        (label("P@5"), "303"),
        (label("P@5"), ""),
        (label("map"), "301"),
        (label("map"), "302"),
        (label("map"), "303"),
        (label("map"), ""),
    ]
    expected = trec_eval_output(trec_dir / "out.test.aq")
    for _, metric, query, value in rows:
        measure = "P_5" if metric == label("P@5") else "map"
        assert f"{float(value):6.4f}" == expected[(measure, query or "all")]


def test_csv_format(qrels_test: Path, results_test: Path) -> None:
    code, out, _ = invoke(
        "evaluate", qrels_test, results_test, "-m", "P@5", "-m", "num_ret", "-q", "-f", "csv"
    )
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["run", "metric", "query", "value", "aggregate"]
    assert len(rows) == 1 + 2 * 4
    assert rows[4] == ["results.test", label("P@5"), "", repr(0.8 / 3), "mean"]
    assert rows[8] == ["results.test", "num_ret", "", "1500", "sum"]


def test_jsonl_format(qrels_test: Path, results_test: Path) -> None:
    code, out, _ = invoke(
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
        assert set(obj) == {"run", "metric", "query", "value", "aggregate"}
        assert obj["run"] == "results.test"
        assert (obj["query"] is None) == (obj["aggregate"] is not None)
    aggregates = [o for o in objs if o["query"] is None]
    assert [(o["metric"], o["value"]) for o in aggregates] == [
        (label("P@5"), 0.8 / 3),
        ("num_ret", 1500),
    ]
    assert isinstance(aggregates[1]["value"], int)
    assert {o["query"] for o in objs} == {"301", "302", "303", None}
    assert [o["aggregate"] for o in aggregates] == ["mean", "sum"]


def test_json_format(qrels_test: Path, trec_dir: Path) -> None:
    code, out, err = invoke(
        "evaluate", qrels_test, trec_dir / "results.trunc", "-m", "P@5", "-f", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"results", "warnings", "provenance"}
    assert doc["results"] == [
        {
            "run": "results.trunc",
            "metric": label("P@5"),
            "query": None,
            "value": doc["results"][0]["value"],
            "aggregate": "mean",
        }
    ]
    assert f"{doc['results'][0]['value']:6.4f}" == "0.2000"
    assert len(doc["warnings"]) == 1 and "'302'" in doc["warnings"][0]
    assert doc["warnings"][0] in err  # also on stderr
    assert doc["provenance"]["conventions"]["missing"] == "zero"
    assert doc["provenance"]["assay_version"] == assay.__version__


def test_markdown_format(qrels_test: Path, results_test: Path, trec_dir: Path) -> None:
    code, out, _ = invoke(
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
    assert lines[0] == f"| run | {label('P@5')} | num\\_ret |"
    assert lines[1] == "|---|---:|---:|"
    # The best aggregate is bold (not for counts).
    assert lines[2] == "| results.test | **0.2667** | 1500 |"
    assert lines[3] == "| results.trunc | 0.2000 | 584 |"
    assert lines[4:] == [
        "",
        "ties=docno  missing=zero  no\\_relevant=zero  judged\\_only=False  short\\_queries=score",
    ]


def test_latex_format(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    run = tmp_path / "my_run&co"
    shutil.copy(results_test, run)
    code, out, _ = invoke(
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
    assert lines[-2] == "\\end{tabular}" and lines[-1].startswith("% ties=docno")
    assert "\\toprule" in lines and "\\midrule" in lines and "\\bottomrule" in lines
    assert lines[2] == "Run & Query & P@5 & ndcg\\_cut.10 \\\\"  # labelled as asked
    assert "my\\_run\\&co & 302 & 0.8000 & 0.7530 \\\\" in lines
    assert all(line.endswith("\\\\") for line in lines[2:-3] if line != "\\midrule")


def test_table_format(qrels_test: Path, results_test: Path, trec_dir: Path, tmp_path: Path) -> None:
    odd = tmp_path / "bm25[bold]"
    shutil.copy(results_test, odd)
    code, out, _ = invoke(
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
    code, out, _ = invoke("evaluate", qrels_test, results_test, "-m", "P@5", "-q", "-f", "table")
    assert code == 0
    for text in ("301", "302", "303", "all", "0.8000"):
        assert text in out


def test_default_format_off_a_terminal_is_tsv(qrels_test: Path, results_test: Path) -> None:
    _, a, _ = invoke("evaluate", qrels_test, results_test, "-m", "P@5")
    _, b, _ = invoke("evaluate", qrels_test, results_test, "-m", "P@5", "-f", "tsv")
    assert a == b


def test_output_file(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    _, expected, _ = invoke("evaluate", qrels_test, results_test, "-m", "P@5", "-q", "-f", "csv")
    target = tmp_path / "out.csv"
    code, out, _ = invoke(
        "evaluate", qrels_test, results_test, "-m", "P@5", "-q", "-f", "csv", "-o", target
    )
    assert code == 0 and out == ""
    assert target.read_text() == expected
    # Without --format, the file's extension decides (.csv, .tsv, .json, .md, .tex, ...), no
    # extension gets TSV and an extension no format has is refused; --format table writes the
    # table (to a .txt file: a format that contradicts the extension is refused).
    code, out, _ = invoke(
        "evaluate", qrels_test, results_test, "-m", "P@5", "-q", "--output", target
    )
    assert out == "" and target.read_text() == expected
    other = tmp_path / "out"
    code, out, _ = invoke("evaluate", qrels_test, results_test, "-m", "P@5", "--output", other)
    assert out == "" and tsv_rows(other.read_text())[0][1] == label("P@5")
    unknown = tmp_path / "out.results"
    result = invoke("evaluate", qrels_test, results_test, "-m", "P@5", "--output", unknown)
    assert_one_line_error(*result, ".results", ".tsv, .txt, .csv")
    assert not unknown.exists()
    table = tmp_path / "out.txt"
    invoke("evaluate", qrels_test, results_test, "-m", "P@5", "-f", "table", "-o", table)
    assert "results.test" in table.read_text() and "0.2667" in table.read_text()
    result = invoke("evaluate", qrels_test, results_test, "-f", "table", "-o", target)
    assert_one_line_error(*result, "names csv")


def test_multiple_runs(qrels_test: Path, results_test: Path, trec_dir: Path) -> None:
    code, out, err = invoke(
        "evaluate", qrels_test, results_test, trec_dir / "results.trunc", "-m", "P@5", "-f", "tsv"
    )
    assert code == 0
    assert tsv_rows(out) == [
        ("results.test", label("P@5"), "", repr(0.8 / 3)),
        ("results.trunc", label("P@5"), "", tsv_rows(out)[1][3]),
    ]
    assert f"{float(tsv_rows(out)[1][3]):6.4f}" == "0.2000"
    assert "results.trunc" in err and "1 qrels query without results" in err


def test_runs_with_the_same_file_name(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(results_test, tmp_path / sub / "run.txt")
    code, out, _ = invoke(
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
    _, expected, _ = invoke("evaluate", qrels_test, results_test, "-m", "P@5", "-f", "tsv")
    code, out, _ = invoke(
        "evaluate", "-", results_test, "-m", "P@5", "-f", "tsv", input=qrels_test.read_bytes()
    )
    assert code == 0 and out == expected


def test_forced_formats(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.data"
    qrels.write_text("query\tdoc\trelevance\n1\ta\t1\n1\tb\t0\n")
    run = tmp_path / "run.data"
    run.write_text("query,doc,score\n1,a,0.5\n1,b,0.75\n")
    code, out, _ = invoke(
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
    assert tsv_rows(out) == [("run.data", label("RR"), "", "0.5")]
    code, _, err = invoke("evaluate", qrels, run, "--qrels-format", "xml")
    assert code == 2 and "Traceback" not in err


def test_missing_convention(qrels_test: Path, trec_dir: Path) -> None:
    trunc = trec_dir / "results.trunc"
    _, zero, _ = invoke("evaluate", qrels_test, trunc, "-m", "P@5", "-q", "-f", "tsv")
    _, skip, err = invoke(
        "evaluate", qrels_test, trunc, "-m", "P@5", "-q", "-f", "tsv", "--missing", "skip"
    )
    zero_rows, skip_rows = tsv_rows(zero), tsv_rows(skip)
    assert [r[2] for r in zero_rows] == ["301", "302", "303", ""]
    assert [r[2] for r in skip_rows] == ["301", "303", ""]
    assert float(zero_rows[1][3]) == 0.0
    per_query = [float(r[3]) for r in skip_rows[:2]]
    assert float(skip_rows[2][3]) == pytest.approx(sum(per_query) / 2)
    assert float(zero_rows[3][3]) == pytest.approx(sum(per_query) / 3)
    assert "skipped" in err
    assert_one_line_error(
        *invoke("evaluate", qrels_test, trunc, "-m", "P@5", "--missing", "error"),
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
        code, out, _ = invoke("evaluate", qrels, run, "-m", "P@1", "--ties", ties, "-f", "tsv")
        assert code == 0
        values[ties] = float(tsv_rows(out)[0][3])
    assert values == {"docno": 0.0, "input": 1.0, "average": 0.5}
    code, _, err = invoke("evaluate", qrels, run, "--ties", "random")
    assert code == 2 and "Traceback" not in err


def test_no_relevant_and_judged_only(tmp_path: Path) -> None:
    qrels = tmp_path / "q"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 c 0\n")
    run = tmp_path / "r"
    run.write_text("1 Q0 x 1 3.0 t\n1 Q0 a 2 2.0 t\n2 Q0 c 1 1.0 t\n")
    results = {}
    for flag in ("zero", "one", "skip", "nan"):
        # Query 2 has no relevant document: AP is undefined there.
        code, out, _ = invoke(
            "evaluate", qrels, run, "-m", "map", "-q", "--no-relevant", flag, "-f", "jsonl"
        )
        assert code == 0
        results[flag] = {o["query"]: o["value"] for o in map(json.loads, out.splitlines())}
    assert results["zero"] == {"1": 0.5, "2": 0.0, None: 0.25}
    assert results["one"] == {"1": 0.5, "2": 1.0, None: 0.75}
    assert results["skip"] == {"1": 0.5, None: 0.5}
    assert results["nan"]["2"] is None and results["nan"][None] is None
    code, out, err = invoke("evaluate", qrels, run, "-m", "map", "--judged-only", "-f", "tsv")
    assert code == 0
    assert float(tsv_rows(out)[0][3]) == 0.5  # (1 + 0) / 2: x dropped before ranking
    assert "1 unjudged results dropped" in err


def test_missing_run_file(qrels_test: Path, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    assert_one_line_error(*invoke("evaluate", qrels_test, missing), str(missing), "no such file")
    assert_one_line_error(*invoke("evaluate", missing, qrels_test), str(missing), "no such file")


def test_bad_metric(qrels_test: Path, results_test: Path) -> None:
    assert_one_line_error(
        *invoke("evaluate", qrels_test, results_test, "-m", "nDGC@10"),
        "unknown metric 'nDGC'",
        "did you mean 'ndcg'",
    )
    assert_one_line_error(
        *invoke("evaluate", qrels_test, results_test, "-m", "rbp(p=1.5)"),
        "p must be a number in (0, 1)",
    )
    assert_one_line_error(
        *invoke("evaluate", qrels_test, results_test, "-m", "P@0"), "positive integer"
    )


def test_bad_file(qrels_test: Path, results_test: Path) -> None:
    # A run where the qrels should be: line 1 has 6 fields.
    assert_one_line_error(
        *invoke("evaluate", results_test, results_test), f"{results_test}:1:", "expected exactly 4"
    )


def test_duplicate_lines(qrels_test: Path, tmp_path: Path) -> None:
    run = tmp_path / "dup.run"
    run.write_text("301 Q0 a 1 2.0 t\n301 Q0 b 2 1.0 t\n301 Q0 a 3 0.5 t\n")
    assert_one_line_error(
        *invoke("evaluate", qrels_test, run), f"{run}:3:", "first at line 1", "duplicate"
    )


def test_bad_bytes(qrels_test: Path, tmp_path: Path) -> None:
    run = tmp_path / "latin1.run"
    run.write_bytes("301 Q0 a 1 2.0 t\n301 Q0 caf\u00e9 2 1.0 t\n".encode("latin-1"))
    assert_one_line_error(*invoke("evaluate", qrels_test, run), f"{run}:2:", "UTF-8")


def test_unwritable_output(qrels_test: Path, results_test: Path, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "out.tsv"
    assert_one_line_error(
        *invoke("evaluate", qrels_test, results_test, "-m", "P@5", "-o", target), str(target)
    )


def test_bad_convention_combination(qrels_test: Path, results_test: Path) -> None:
    assert_one_line_error(
        *invoke("evaluate", qrels_test, results_test, "-m", "bpref", "--ties", "average"), "bpref"
    )
