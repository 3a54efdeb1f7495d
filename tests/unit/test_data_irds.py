"""Qrels from ir_datasets (``Qrels.from_ir_datasets``, ``irds:<id>`` wherever a qrels path is
read): the same judgments as the TREC file they come from, the same errors, offline (every
dataset is registered from local files by ``support.irds``)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

import assay
from assay import Qrels, Run
from assay.compat.trec_eval import evaluate_trec
from assay.data.irds import is_irds_id
from assay.errors import DuplicateError, EmptyInputError, InputError, MissingExtraError, OptionError
from support.irds import register

ir_datasets = pytest.importorskip("ir_datasets")


@pytest.fixture
def qrels_test(trec_dir: Path) -> Path:
    return trec_dir / "qrels.test"


def test_the_home_of_ir_datasets_is_the_suites_own() -> None:
    # conftest points ir_datasets at a folder of its own: no test reads a real cache (or
    # finds a dataset there that would otherwise be downloaded).
    home = os.environ["IR_DATASETS_HOME"]
    assert Path(home).name.startswith("assay-irds-home-")
    assert str(ir_datasets.util.home_path()) == home


def test_from_ir_datasets_equals_the_file(qrels_test: Path) -> None:
    name = register(qrels_test)
    expect = Qrels.from_trec(qrels_test)
    got = Qrels.from_ir_datasets(name)
    assert got == expect and got.max_grade == expect.max_grade
    assert list(got) == list(expect)
    # the prefix is optional in from_ir_datasets; read and coerce take the irds: id
    assert Qrels.from_ir_datasets("irds:" + name) == expect
    assert Qrels.read("irds:" + name) == expect
    assert Qrels.coerce("irds:" + name, where="test") == expect


def test_source_names_the_id_and_the_version(qrels_test: Path) -> None:
    name = register(qrels_test)
    qrels = Qrels.read(f"irds:{name}")
    assert qrels.source == f"irds:{name} (ir_datasets {ir_datasets.__version__})"
    run = Run.from_trec(qrels_test.with_name("results.test"))
    res = assay.evaluate(f"irds:{name}", run, ["map"])
    assert res.provenance["qrels"]["source"] == qrels.source
    assert res.provenance["qrels"]["judgments"] == len(qrels)


def test_evaluate_and_evaluate_trec_take_an_irds_id(qrels_test: Path) -> None:
    name = register(qrels_test)
    run = Run.from_trec(qrels_test.with_name("results.test"))
    metrics = ["map", "ndcg@10", "P@5", "bpref", "recip_rank"]
    by_id = assay.evaluate(f"irds:{name}", run, metrics)
    by_file = assay.evaluate(str(qrels_test), run, metrics)
    assert by_id.records() == by_file.records()
    te_id = evaluate_trec(f"irds:{name}", run)
    te_file = evaluate_trec(str(qrels_test), run)
    assert te_id.per_query == te_file.per_query and te_id.summary == te_file.summary


def test_grades_and_iterations_read_as_in_a_file(tmp_path: Path) -> None:
    # The iteration field is ignored and negative grades (pooled, not judged) are kept, as
    # the TREC reader does; ids are text as written (007 stays 007).
    path = tmp_path / "qrels"
    path.write_text("q1 0 d1 3\nq1 Q0 007 -1\nq2 7 d1 0\n10 x d9 2\n")
    got = Qrels.from_ir_datasets(register(path))
    assert got == Qrels.from_trec(path)
    assert got.to_dict() == {"10": {"d9": 2}, "q1": {"d1": 3, "007": -1}, "q2": {"d1": 0}}
    assert got.max_grade == 3


@pytest.mark.parametrize("seed", range(25))
def test_random_qrels_read_as_the_file_does(tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    pairs = {(f"q{rng.integers(0, 12)}", f"d{rng.integers(0, 400)}") for _ in range(n)}
    lines = [
        f"{q} {rng.choice(['0', 'Q0', '1'])} {d} {int(rng.integers(-1, 5))}\n"
        for q, d in sorted(pairs, key=lambda _: rng.random())
    ]
    path = tmp_path / "qrels"
    path.write_text("".join(lines))
    got = Qrels.read(f"irds:{register(path)}")
    expect = Qrels.from_trec(path)
    assert got == expect and got.max_grade == expect.max_grade


def test_a_repeated_pair_is_an_error_naming_the_record(tmp_path: Path) -> None:
    path = tmp_path / "qrels"
    path.write_text("q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 1\n")
    name = register(path)
    with pytest.raises(DuplicateError) as caught:
        Qrels.read(f"irds:{name}")
    message = str(caught.value)
    assert message.startswith(f"irds:{name} (ir_datasets ")
    assert "'q1'" in message and "'d1'" in message and "row 3 (first at row 1)" in message
    with pytest.raises(DuplicateError, match="first at line 1"):  # the file: by line
        Qrels.from_trec(path)


def test_subtopic_qrels_repeat_pairs_and_say_why(tmp_path: Path) -> None:
    path = tmp_path / "qrels"
    path.write_text("q1 1 d1 1\nq1 2 d1 0\n")
    with pytest.raises(DuplicateError, match="per subtopic"):
        Qrels.from_ir_datasets(register(path, subtopics=True))
    path.write_text("q1 1 d1 1\nq1 2 d2 0\n")  # no pair repeated: read
    assert Qrels.from_ir_datasets(register(path, subtopics=True)).to_dict() == {
        "q1": {"d1": 1, "d2": 0}
    }


def test_an_unknown_id_names_it_and_the_nearest() -> None:
    with pytest.raises(InputError) as caught:
        Qrels.read("irds:msmarco-pasage/dev/small")
    message = str(caught.value)
    assert message.startswith("irds:msmarco-pasage/dev/small: ")
    assert "has no dataset 'msmarco-pasage/dev/small'" in message
    assert "did you mean msmarco-passage/dev/small" in message
    assert "ir_datasets list" in message and "\n" not in message
    with pytest.raises(InputError, match="has no dataset 'zzz'; the ids are listed"):
        Qrels.from_ir_datasets("zzz")
    with pytest.raises(InputError, match="give an ir_datasets id after 'irds:'"):
        Qrels.read("irds:")


def test_a_dataset_without_qrels_says_what_it_has(tmp_path: Path) -> None:
    queries = tmp_path / "queries.tsv"
    queries.write_text("q1\tsome text\n")
    name = f"assay-test/no-qrels/{tmp_path.name}"
    ir_datasets.registry.register(name, ir_datasets.create_dataset(queries_tsv=str(queries)))
    with pytest.raises(InputError, match=r"no relevance judgments \(it provides queries\)"):
        Qrels.from_ir_datasets(name)


def test_what_ir_datasets_cannot_provide_is_one_error(tmp_path: Path) -> None:
    missing = tmp_path / "absent" / "qrels"
    with pytest.raises(InputError, match=r"could not provide the qrels: no such file: .*absent"):
        Qrels.from_ir_datasets(register(missing))
    bad = tmp_path / "bad"
    bad.write_text("q1 0 d1 1\nq1 0 d2\n")
    with pytest.raises(InputError, match="could not provide the qrels: expected 4 columns, got 3"):
        Qrels.from_ir_datasets(register(bad))
    bad.write_text("q1 0 d1 high\n")
    with pytest.raises(InputError, match="could not provide the qrels: invalid literal"):
        Qrels.from_ir_datasets(register(bad))
    empty = tmp_path / "empty"
    empty.write_text("\n")
    with pytest.raises(EmptyInputError, match=r"irds:.* the qrels hold no judgments"):
        Qrels.from_ir_datasets(register(empty))


class _Judgment(NamedTuple):
    query_id: Any
    doc_id: Any
    relevance: Any


def _fake(monkeypatch: pytest.MonkeyPatch, name: str, records: list[_Judgment]) -> None:
    """``name``'s qrels replaced by ``records`` (nothing downloaded)."""
    dataset = ir_datasets.load(name)
    monkeypatch.setattr(dataset, "qrels_iter", lambda: iter(records))


def test_a_builtin_id_reads_its_records_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    # The id the issue names resolves without a download; its records (replaced here, so
    # nothing is fetched) are read as the TREC reader reads text: ids kept, grades parsed.
    name = "msmarco-passage/dev/small"
    _fake(monkeypatch, name, [_Judgment("1048585", "7187158", 1), _Judgment("2", "03", 0)])
    qrels = Qrels.from_ir_datasets(name)
    assert qrels.to_dict() == {"1048585": {"7187158": 1}, "2": {"03": 0}}
    assert qrels.source == f"irds:{name} (ir_datasets {ir_datasets.__version__})"
    # integer ids and grades given as text (as some datasets type them) are read too
    _fake(monkeypatch, name, [_Judgment(1, 7, "2"), _Judgment(1, 8, "+1")])
    assert Qrels.from_ir_datasets(name).to_dict() == {"1": {"7": 2, "8": 1}}


def test_bad_records_are_errors_naming_the_row(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "msmarco-passage/dev/small"
    _fake(monkeypatch, name, [_Judgment("q1", "d1", 1), _Judgment("q1", "d2", 0.5)])
    with pytest.raises(InputError, match=r"relevance grade 0.5 is not an integer at row 2"):
        Qrels.from_ir_datasets(name)
    _fake(monkeypatch, name, [_Judgment("q1", "d1", 1), _Judgment("q1", "", 1)])
    with pytest.raises(InputError, match=r"document id is empty at row 2"):
        Qrels.from_ir_datasets(name)
    _fake(monkeypatch, name, [_Judgment("q1", "d1", 1), _Judgment(5, "d2", 1)])
    with pytest.raises(InputError, match=r"irds:msmarco-passage/dev/small .*mixed types"):
        Qrels.from_ir_datasets(name)


def test_a_run_is_not_read_from_ir_datasets(qrels_test: Path) -> None:
    name = register(qrels_test)
    with pytest.raises(InputError, match="ir_datasets ids give qrels; read runs from files"):
        Run.read(f"irds:{name}")
    with pytest.raises(InputError, match="ir_datasets ids give qrels"):
        assay.evaluate(str(qrels_test), f"irds:{name}", ["map"])


def test_file_options_are_refused_for_an_id(qrels_test: Path) -> None:
    name = f"irds:{register(qrels_test)}"
    with pytest.raises(OptionError, match="format='trec' apply to qrels files") as caught:
        Qrels.read(name, format="trec")
    assert caught.value.option == "format"
    with pytest.raises(OptionError, match="relevance apply to qrels files") as caught:
        Qrels.read(name, relevance="grade")
    assert caught.value.option == "relevance"


def test_a_file_named_like_an_id_is_read_by_its_path(tmp_path: Path, qrels_test: Path) -> None:
    # Only the text "irds:..." is an id: a path object, or ./irds:..., is a file.
    odd = tmp_path / "irds:local"
    odd.write_bytes(qrels_test.read_bytes())
    assert not is_irds_id(odd) and is_irds_id("irds:x") and not is_irds_id("./irds:x")
    assert Qrels.read(odd) == Qrels.from_trec(qrels_test)


def test_missing_ir_datasets_is_an_install_hint(
    monkeypatch: pytest.MonkeyPatch, qrels_test: Path
) -> None:
    real = importlib.import_module

    def without(name: str, *args: object) -> object:
        if name.split(".")[0] == "ir_datasets":
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr("assay._optional.importlib.import_module", without)
    for read in (Qrels.from_ir_datasets, Qrels.read):
        with pytest.raises(MissingExtraError, match=r"pip install 'assay\[irds\]'"):
            read("irds:msmarco-passage/dev/small")
    with pytest.raises(MissingExtraError, match="ir_datasets"):
        assay.evaluate("irds:msmarco-passage/dev/small", {"q": {"d": 1.0}}, ["map"])
    assert Qrels.read(str(qrels_test)) == Qrels.from_trec(qrels_test)  # files need nothing
