"""The ``assay`` application in process with typer's CliRunner: help, version, the metric
listing, the demo; plus start-up checks in subprocesses (start-up time is measured in
benchmarks/bench_startup.py) and the shape of the cli package."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import assay
from assay.metrics import FAMILIES, REGISTRY, load_families
from support.cli import assert_one_line_error, commands, invoke
from support.process import run_python


def test_help() -> None:
    for flag in ("--help", "-h"):
        code, out, _ = invoke(flag)
        assert code == 0
        for command in ("evaluate", "metrics", "demo"):
            assert command in out
    code, out, _ = invoke("evaluate", "--help")
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
    code, out, _ = invoke("--version")
    assert code == 0
    assert out == f"assay {assay.__version__}\n"


def _first_cells(out: str) -> list[str]:
    """The first column of a plain-text table (after the header and the rule)."""
    return [line.split()[0] for line in out.splitlines()[2:] if line.strip()]


def test_metrics_table_lists_every_metric() -> None:
    code, out, _ = invoke("metrics", "-f", "table")
    assert code == 0
    # Names are never folded across lines: each is a whole cell of the first column.
    assert set(REGISTRY) <= set(_first_cells(out))


def all_specs() -> list[tuple[str, str]]:
    """(family, name) of every declaration of every family, in listing order."""
    load_families()
    return [(s.family, s.name) for family in FAMILIES for s in REGISTRY.specs(family)]


def test_metrics_json() -> None:
    code, out, _ = invoke("metrics", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert [(r["family"], r["name"]) for r in doc["metrics"]] == all_specs()
    assert {r["family"] for r in doc["metrics"]} == set(FAMILIES)
    for r in doc["described"]:
        assert {"name", "params", "cutoff", "range", "higher_is_better", "summary"} <= set(r)
    # One family: exactly its declarations (the ranking family is REGISTRY as a mapping).
    code, out, _ = invoke("metrics", "--format", "json", "--family", "ranking")
    assert code == 0
    assert [r["name"] for r in json.loads(out)["metrics"]] == list(REGISTRY)


def test_metrics_lists_aliases_and_trec_eval_names_in_every_format() -> None:
    code, out, _ = invoke("metrics", "-f", "csv", "--family", "ranking")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    by_name = {r["name"]: r for r in rows}
    assert "map" in by_name["AP"]["aliases"].split() and "map" in by_name["AP"]["trec_eval"].split()
    assert "recip_rank" in by_name["RR"]["trec_eval"].split()
    code, out, _ = invoke("metrics", "-f", "table", "--family", "ranking")
    assert "recip_rank" in out and "ndcg_cut" in out


def test_metrics_markdown() -> None:
    code, out, _ = invoke("metrics", "-f", "markdown", "--family", "ranking")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("| metric |") and lines[1].startswith("|---")
    rows = [line for line in lines[2:] if line.startswith("| ")]
    names = [line.split(" | ")[0][2:].replace("\\", "") for line in rows]
    assert names == list(REGISTRY)
    code, out, _ = invoke("metrics", "-f", "markdown")
    assert code == 0
    rows = [line for line in out.splitlines()[2:] if line.startswith("| ")]
    assert len(rows) == len(all_specs())


def test_metrics_family_filter() -> None:
    code, out, _ = invoke("metrics", "--family", "classification", "-f", "table")
    assert code == 0
    first_cells = set(_first_cells(out))
    load_families()
    assert {s.name for s in REGISTRY.specs("classification")} <= first_cells
    assert "ndcg" not in first_cells
    assert_one_line_error(*invoke("metrics", "--family", "nope"), "unknown metric family 'nope'")


def test_metrics_bad_format() -> None:
    assert_one_line_error(*invoke("metrics", "-f", "yaml"), "yaml")


def test_demo() -> None:
    """The demo is the learning-to-rank job (tests/cli/test_ltr_cli.py has more)."""
    code, out, err = invoke("demo", "--queries", "30")
    assert code == 0
    for name in ("linear (baseline)", "lambdamart", "lambdamart − linear", "NDCG@10"):
        assert name in out
    assert "synthetic MSLR-like collection (seed 0): train 18 queries" in err
    code, out, _ = invoke("demo", "--queries", "30", "--seed", "3", "-f", "tsv")
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines()]
    kinds = {(r[0], r[1]) for r in rows if r[2] == "ndcg(gain='exp')@10"}
    assert kinds == {("linear", "mean"), ("lambdamart", "mean"), ("lambdamart", "difference")}


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
    proc = run_python(code)
    assert "HEAVY []" in proc.stderr, proc.stderr


def test_evaluating_run_files_imports_no_data_frame_library(tmp_path: Path) -> None:
    # pandas costs 0.16 s of import; pyarrow.parquet.read_table (through pyarrow.dataset)
    # would pull it in for a Parquet run.
    qrels, runs = assay.datasets.synthetic(n_queries=3, docs_per_query=5)
    qrels.to_trec(tmp_path / "qrels.txt")
    run = runs[next(iter(runs))]
    run.to_trec(tmp_path / "run.txt")
    run.to_parquet(tmp_path / "run.parquet")
    code = (
        "import sys, assay\n"
        f"q = assay.Qrels.from_trec({str(tmp_path / 'qrels.txt')!r})\n"
        f"for run in ({str(tmp_path / 'run.txt')!r}, {str(tmp_path / 'run.parquet')!r}):\n"
        "    assay.evaluate(q, {'run': run}, ['map', 'ndcg@10'])\n"
        "print('FRAMES', sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'polars'}))\n"
    )
    proc = run_python(code)
    assert "FRAMES []" in proc.stdout, proc.stdout + proc.stderr


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
    proc = run_python(code)
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


def test_closed_stdout_is_one_line(tmp_path: Path) -> None:
    """``assay ... >&-``: Python sets sys.stdout to None; one error line, exit 2, and -o
    still writes its file."""
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 2.0 r\n")

    def closed(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "assay", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            # Close fd 1 in the child before Python starts: as the shell's >&- does.
            preexec_fn=lambda: __import__("os").close(1),
        )

    for args in (["metrics"], ["evaluate", str(qrels), str(run), "-m", "map"]):
        result = closed(*args)
        assert result.returncode == 2, result.stderr
        assert result.stderr == "assay: error: standard output is closed\n"
    out = tmp_path / "out.tsv"
    result = closed("evaluate", str(qrels), str(run), "-m", "map", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_text().splitlines()[1].split("\t")[3] == "1.0"


def test_help_shows_what_a_person_types() -> None:
    """Metavars name what is typed (FILE, N, <a|b>), never Python types."""
    for name, _ in commands():
        command = name.split(" ")
        code, out, _ = invoke(*command, "-h")
        assert code == 0, command
        for python_type in ("list[", "[str]", "TEXT", "INTEGER", "FLOAT", "<str>", "Path"):
            assert python_type not in out, (command, python_type)


def test_output_format_follows_the_file_extension(tmp_path: Path) -> None:
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 2.0 r\n")
    for name, check in [
        ("out.csv", lambda text: text.splitlines()[0] == "run,metric,query,value,aggregate"),
        ("out.tsv", lambda text: text.splitlines()[0] == "run\tmetric\tquery\tvalue\taggregate"),
        ("out.md", lambda text: text.startswith("|") and "---" in text),
        ("out.tex", lambda text: "\\toprule" in text),
    ]:
        code, _, err = invoke("evaluate", qrels, run, "-m", "map", "-o", tmp_path / name)
        assert code == 0, err
        assert check((tmp_path / name).read_text()), name
    json_out = tmp_path / "out.json"
    assert invoke("evaluate", qrels, run, "-m", "map", "-o", json_out)[0] == 0
    json.loads(json_out.read_text())


def test_python_m_assay_checks_outputs_by_the_command_not_the_program(tmp_path: Path) -> None:
    # Run as a module the root's name is "python -m assay": the output check must still know
    # the command, so that fuse's -o takes a run file's extension (.run), which is not a
    # table format.
    runs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for run in runs:
        run.write_text(f"q1 Q0 d1 1 2.0 {run.stem}\n")
    out = tmp_path / "fused.run"
    proc = subprocess.run(
        [sys.executable, "-m", "assay", "fuse", *map(str, runs), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("q1 Q0 d1 1 ")
