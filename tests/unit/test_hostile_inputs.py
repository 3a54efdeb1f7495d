"""Named regression cases for inputs that once ended in a traceback or a silent wrong
answer: each is refused with one AssayError naming the file, or read correctly."""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from assay import AssayError, InputError, InputWarning, ParseError, Qrels, Run


def test_duplicate_header_names_are_refused(tmp_path):
    path = tmp_path / "qrels.csv"
    path.write_text("query,query,relevance\nq1,d1,1\n")
    with pytest.raises(InputError, match="'query' 2 times") as exc:
        Qrels.read(path)
    assert str(path) in str(exc.value)


def test_deeply_nested_jsonl_names_the_line(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text('{"query": "q1", "doc": "d1", "score": 1}\n' + "[" * 50_000 + "]" * 50_000)
    with pytest.raises(ParseError, match="nested too deeply") as exc:
        Run.read(path)
    assert exc.value.line == 2


def test_invalid_utf8_field_name_in_jsonl_is_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_bytes(b'{"\xffuery": "q1", "doc": "d1", "score": 1}\n')
    with pytest.raises(ParseError, match="UTF-8"):
        Run.read(path)


def test_invalid_utf8_id_in_parquet_is_refused_with_its_row(tmp_path):
    path = tmp_path / "run.parquet"
    ids = pa.array([b"q1", b"\xff\xfe"], pa.binary()).cast(pa.string(), safe=False)
    pq.write_table(pa.table({"query": ids, "doc": ["a", "b"], "score": [1.0, 2.0]}), path)
    with pytest.raises(ParseError, match="not valid UTF-8 at row 2"):
        Run.read(path)


def test_half_float_and_dictionary_parquet_columns_are_read(tmp_path):
    path = tmp_path / "run.parquet"
    table = pa.table(
        {
            "query": pa.array(["q1", "q1", "q2"]).dictionary_encode(),
            "doc": pa.array(["a", "b", "a"]).dictionary_encode(),
            "score": pa.array(np.array([1.5, 0.5, 2.0], dtype=np.float16)),
        }
    )
    pq.write_table(table, path)
    run = Run.read(path)
    assert run.queries == ["q1", "q2"]
    np.testing.assert_array_equal(np.sort(run.scores), [0.5, 1.5, 2.0])


def test_doc_id_with_a_double_quote_round_trips_through_trec_text(tmp_path):
    run = Run.from_dict({"q1": {'say"hi"': 2.0, "b": 1.0}}, name="r")
    sink = io.BytesIO()
    run.to_trec(sink)
    assert sink.getvalue() == b'q1 Q0 say"hi" 1 2 r\nq1 Q0 b 2 1 r\n'
    path = tmp_path / "run.txt"
    path.write_bytes(sink.getvalue())
    again = Run.read(path)
    assert again.to_dict() == run.to_dict()


@pytest.mark.parametrize(
    "text", ["query,doc,score\nq1,d1,[1]\n", 'query,doc,score\nq1,d1,"1,2"\n', "query,doc,score\n"]
)
def test_malformed_csv_runs_give_one_assay_error(tmp_path, text):
    path = tmp_path / "run.csv"
    path.write_text(text)
    with pytest.raises(AssayError) as exc:
        Run.read(path)
    assert str(path) in str(exc.value)


def test_lone_carriage_returns_in_a_trec_run_are_warned_about(tmp_path):
    # trec_eval's rule (lines end at line feeds) is kept, but the loss is not silent.
    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 d1 1 2 r\rq1 Q0 d2 2 1 r\rq2 Q0 d3 1 1 r\r")
    with pytest.warns(InputWarning, match="3 carriage returns"):
        run = Run.read(path)
    assert len(run) == 1
