"""``irds:<dataset id>`` as the qrels of every command that reads qrels: the output is the one
the TREC file of those judgments gives, byte for byte, and a bad id or a missing ir_datasets is
one error line (exit 2). Datasets are registered from local files (``support.irds``): offline.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

import assay
from support.cli import assert_one_line_error, invoke
from support.irds import register

ir_datasets = pytest.importorskip("ir_datasets")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A synthetic collection (qrels, a second assessor's qrels, three runs), the qrels also
    registered as ir_datasets datasets: ``irds`` and ``irds_b``."""
    root = tmp_path_factory.mktemp("irds")
    qrels, runs = assay.datasets.synthetic(n_queries=12, docs_per_query=15, seed=7)
    out = {"qrels": str(root / "qrels.txt")}
    qrels.to_trec(out["qrels"])
    for name, run in runs.items():
        out[name] = str(root / f"{name}.run")
        run.to_trec(out[name])
    lines = Path(out["qrels"]).read_text().splitlines()
    flipped = [
        " ".join([*line.split()[:3], str(int(line.split()[3] == "0"))]) if k % 3 == 0 else line
        for k, line in enumerate(lines)
    ]
    out["qrels_b"] = str(root / "qrels_b.txt")
    Path(out["qrels_b"]).write_text("\n".join(flipped) + "\n")
    out["irds"] = "irds:" + register(Path(out["qrels"]))
    out["irds_b"] = "irds:" + register(Path(out["qrels_b"]))
    return out


def _commands(f: dict[str, str], q: str, qb: str) -> dict[str, list[str]]:
    """Every command that reads qrels, with ``q`` (and ``qb``, a second qrels) as its qrels."""
    r1, r2, r3 = f["run1"], f["run2"], f["run3"]
    return {
        "evaluate": ["evaluate", q, r1, r2, "-m", "map", "-m", "ndcg@10", "-m", "bpref"],
        "evaluate-per-query": ["evaluate", q, r1, "-m", "P@5", "--per-query", "-f", "tsv"],
        "compare": ["compare", q, r1, r2, r3, "-m", "map", "-m", "P@5"],
        "trec-eval": ["trec-eval", "-q", "-m", "all_trec", q, r1],
        "discpower": ["meta", "discpower", q, r1, r2, r3, "-m", "map", "--n-resamples", "100"],
        "topicsize": ["meta", "topicsize", q, r1, r2, r3, "-m", "map", "--min-diff", "0.1"],
        "repro": ["meta", "repro", q, r1, r2, r2, r3, "-m", "map"],
        "replicability": ["meta", "repro", q, r1, r2, r2, r3, "-m", "map", "--rep-qrels", qb],
        "assessors": ["meta", "assessors", q, qb, r1, r2, r3, "-m", "map"],
    }


COMMANDS = list(_commands({"run1": "", "run2": "", "run3": ""}, "", ""))


@pytest.mark.parametrize("command", COMMANDS)
def test_an_irds_id_gives_the_files_output(files: dict[str, str], command: str) -> None:
    by_file = invoke(*_commands(files, files["qrels"], files["qrels_b"])[command])
    by_id = invoke(*_commands(files, files["irds"], files["irds_b"])[command])
    assert by_file[0] == 0 and by_file[1], by_file
    assert by_id == by_file


def test_trec_evals_own_test_files_through_an_id(trec_dir: Path) -> None:
    # trec_eval 10.0's quicktest outputs, with the qrels given as an id
    name = "irds:" + register(trec_dir / "qrels.test")
    run = trec_dir / "results.test"
    by_id = invoke("trec-eval", "-q", "-m", "all_trec", name, run)
    assert by_id == (0, (trec_dir / "out.test.aq").read_text(), "")
    trunc = invoke("trec-eval", "-q", "-c", "-m", "all_trec", name, trec_dir / "results.trunc")
    assert trunc == (0, (trec_dir / "out.test.aqc").read_text(), "")
    by_file = invoke("evaluate", trec_dir / "qrels.test", run, "-m", "map", "-m", "ndcg_cut.10")
    assert invoke("evaluate", name, run, "-m", "map", "-m", "ndcg_cut.10") == by_file


def test_provenance_records_the_id_and_the_version(files: dict[str, str]) -> None:
    code, out, _ = invoke("evaluate", files["irds"], files["run1"], "-m", "map", "-f", "json")
    assert code == 0
    source = json.loads(out)["provenance"]["qrels"]["source"]
    assert source == f"{files['irds']} (ir_datasets {ir_datasets.__version__})"


@pytest.mark.parametrize("command", ["evaluate", "compare", "trec-eval", "discpower", "repro"])
def test_an_unknown_id_is_one_line(files: dict[str, str], command: str) -> None:
    bad = "irds:msmarco-pasage/dev/small"
    code, out, err = invoke(*_commands(files, bad, files["qrels_b"])[command])
    assert_one_line_error(
        code,
        out,
        err,
        "irds:msmarco-pasage/dev/small: ",
        "has no dataset 'msmarco-pasage/dev/small'",
        "did you mean msmarco-passage/dev/small",
    )


def test_second_qrels_ids_are_checked_too(files: dict[str, str]) -> None:
    for command in ("replicability", "assessors"):
        args = _commands(files, files["qrels"], "irds:no/such/qrels")[command]
        assert_one_line_error(*invoke(*args), "irds:no/such/qrels: ", "has no dataset")


def test_a_run_given_as_an_id_is_one_line(files: dict[str, str]) -> None:
    code, out, err = invoke("evaluate", files["qrels"], files["irds"], "-m", "map")
    assert_one_line_error(code, out, err, "ir_datasets ids give qrels; read runs from files")


def test_a_format_for_an_id_is_one_line(files: dict[str, str]) -> None:
    code, out, err = invoke("evaluate", files["irds"], files["run1"], "--qrels-format", "csv")
    assert_one_line_error(code, out, err, "format='csv' apply to qrels files")


@pytest.mark.parametrize("command", ["evaluate", "trec-eval", "assessors"])
def test_missing_ir_datasets_is_an_install_hint(
    files: dict[str, str], command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.import_module

    def without(name: str, *args: object) -> object:
        if name.split(".")[0] == "ir_datasets":
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr("assay._optional.importlib.import_module", without)
    code, out, err = invoke(*_commands(files, files["irds"], files["irds_b"])[command])
    assert_one_line_error(code, out, err, "pip install 'assay[irds]'", "ir_datasets")
