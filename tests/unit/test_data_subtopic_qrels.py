"""Qrels with subtopic (intent) judgments: every reader, the document-level grade (the largest
over the subtopics), repeats as errors naming both lines, and ordinary qrels unchanged."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest

from assay import DuplicateError, OptionError, Qrels

TEXT = b"1 1 a 1\n1 2 a 3\n1 2 b 0\n2 10 c 2\n2 9 c 0\n"


def test_trec_subtopics_and_document_grades() -> None:
    qrels = Qrels.from_trec(io.BytesIO(TEXT), subtopics=True)
    assert qrels.to_dict() == {"1": {"a": 3, "b": 0}, "2": {"c": 2}}
    assert qrels.subtopic_ids == ["1", "2", "9", "10"]  # natural numbers: numeric order
    assert qrels.intents is not None and len(qrels.intents.sub) == 5
    assert repr(qrels) == "Qrels(2 queries, 3 judgments, max grade 3, 5 subtopic judgments)"


def test_ordinary_reading_is_unchanged() -> None:
    qrels = Qrels.from_trec(io.BytesIO(b"1 0 a 1\n1 0 b 0\n"))
    assert qrels.intents is None and qrels.subtopic_ids == []
    assert repr(qrels) == "Qrels(1 queries, 2 judgments, max grade 1)"
    with pytest.raises(DuplicateError):
        Qrels.from_trec(io.BytesIO(TEXT))  # (1, a) twice without subtopics


def test_a_repeated_subtopic_judgment_names_both_lines() -> None:
    with pytest.raises(DuplicateError, match=r"<stream>:3: .*subtopic '1'.*first at line 1"):
        Qrels.from_trec(io.BytesIO(b"1 1 a 1\n1 2 a 0\n1 1 a 0\n"), subtopics=True)


def test_read_passes_subtopics_to_the_trec_reader(tmp_path: Path) -> None:
    path = tmp_path / "div.qrels"
    path.write_bytes(TEXT)
    assert Qrels.read(path, subtopics=True).subtopic_ids == ["1", "2", "9", "10"]


def test_pandas_iteration_column_as_ir_measures_keeps_it() -> None:
    pd = pytest.importorskip("pandas")
    columns = {"query_id": ["1", "1", "2"], "iteration": [1, 2, 1], "doc_id": ["a", "a", "b"]}
    df = pd.DataFrame({**columns, "relevance": [1, 0, 2]})
    qrels = Qrels.from_pandas(df, query="query_id", doc="doc_id", subtopics=True)
    assert qrels.to_dict() == {"1": {"a": 1}, "2": {"b": 2}}
    assert qrels.subtopic_ids == ["1", "2"]
    with pytest.raises(OptionError, match="subtopics=True"):
        Qrels.from_pandas(df, query="query_id", doc="doc_id", subtopic="iteration")


def test_nested_dict() -> None:
    qrels = Qrels.from_dict({"1": {"x": {"a": 1}, "y": {"a": 0, "b": 2}}}, subtopics=True)
    assert qrels.to_dict() == {"1": {"a": 1, "b": 2}}
    assert qrels.subtopic_ids == ["x", "y"]  # not all numbers: byte order


def test_restrict_and_pickle_keep_the_subtopic_judgments() -> None:
    qrels = Qrels.from_trec(io.BytesIO(TEXT), subtopics=True)
    two = qrels.restrict(["2"])
    assert two.intents is not None and two.intents.grade.tolist() == [0, 2]
    again = pickle.loads(pickle.dumps(qrels))
    assert again.intents is not None
    assert again.intents.grade.tolist() == qrels.intents.grade.tolist()
