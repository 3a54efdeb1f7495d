"""CSV/TSV, Parquet and JSON Lines files, pandas and polars data frames, nested dicts."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from assay import Qrels, Run
from strategies.io import hard_doubles
from support.io import assert_same_qrels, assert_same_run, expected_qrels, expected_run, write


def test_csv_with_column_mapping(tmp_path: Path) -> None:
    path = write(
        tmp_path, "run.csv", "qid,docno,sim,other\n007,1e5,1.5,x\n007,0042,2,y\n8,d,-0.25,z\n"
    )
    run = Run.from_csv(path, query="qid", doc="docno", score="sim")
    # Ids are read as text: no "7" for "007", no 100000.0 for "1e5".
    assert run.to_dict() == {"007": {"1e5": 1.5, "0042": 2.0}, "8": {"d": -0.25}}
    assert run.name == "run.csv" and run.source == str(path)
    qpath = write(tmp_path, "qrels.csv", "topic,doc_id,label\n007,1e5,2\n007,0042,0\n")
    qrels = Qrels.from_csv(qpath, query="topic", doc="doc_id", relevance="label")
    assert qrels.to_dict() == {"007": {"1e5": 2, "0042": 0}}


def test_tsv_and_read_dispatch(tmp_path: Path) -> None:
    tsv = write(tmp_path, "run.tsv", "query\tdoc\tscore\n1\ta,b\t0.5\n")
    assert Run.from_csv(tsv).to_dict() == {"1": {"a,b": 0.5}}
    assert Run.read(tsv).to_dict() == {"1": {"a,b": 0.5}}
    # A forced format overrides the extension, delimiter included.
    txt = write(tmp_path, "run.txt", "query\tdoc\tscore\n1\ta,b\t0.5\n")
    assert Run.read(txt, format="tsv").to_dict() == {"1": {"a,b": 0.5}}
    csv = write(tmp_path, "qrels.data", "q,d,r\n1,a,1\n")
    assert Qrels.read(csv, format="csv", query="q", doc="d", relevance="r").to_dict() == {
        "1": {"a": 1}
    }
    gz = tmp_path / "run.csv.gz"
    gz.write_bytes(gzip.compress(b"query,doc,score\n1,a,0.5\n"))
    assert Run.read(gz).to_dict() == {"1": {"a": 0.5}}


def test_csv_round_trip(tmp_path: Path) -> None:
    run = Run.from_columns(
        ["q1"] * 1000 + ["q2"] * 1000,
        [f"d{i}" for i in range(2000)],
        hard_doubles(3000, seed=3)[:2000],
        name="r",
    )
    run.to_csv(tmp_path / "r.csv")
    back = Run.from_csv(tmp_path / "r.csv")
    assert back.to_arrow().equals(run.to_arrow())
    run.to_csv(tmp_path / "r.tsv", delimiter="\t")
    assert Run.read(tmp_path / "r.tsv").to_arrow().equals(run.to_arrow())
    qrels = expected_qrels()
    qrels.to_csv(tmp_path / "q.csv")
    assert_same_qrels(Qrels.read(tmp_path / "q.csv"), qrels)


def test_parquet(tmp_path: Path) -> None:
    run = expected_run()
    run.to_parquet(tmp_path / "r.parquet")
    assert Run.read(tmp_path / "r.parquet").to_arrow().equals(run.to_arrow())
    qrels = expected_qrels()
    qrels.to_parquet(tmp_path / "q.parquet")
    assert_same_qrels(Qrels.from_parquet(tmp_path / "q.parquet"), qrels)
    # Mapped names and integer ids.
    pq.write_table(pa.table({"qid": [1, 1], "pid": [10, 11], "s": [0.5, 0.25]}), tmp_path / "m.pq")
    mapped = Run.from_parquet(tmp_path / "m.pq", query="qid", doc="pid", score="s")
    assert mapped.to_dict() == {"1": {"10": 0.5, "11": 0.25}}
    assert mapped.name == "m.pq"


def test_jsonl(tmp_path: Path) -> None:
    rows = [
        {"qid": "001", "docid": 5, "sim": 1},
        {"qid": "001", "docid": 6, "sim": 0.5},
        {"qid": "002", "docid": 5, "sim": -2.5, "extra": [1, 2]},
    ]
    path = write(tmp_path, "r.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    run = Run.from_jsonl(path, query="qid", doc="docid", score="sim")
    assert run.to_dict() == {"001": {"5": 1.0, "6": 0.5}, "002": {"5": -2.5}}
    assert Run.read(path, query="qid", doc="docid", score="sim") == run
    q = write(tmp_path, "q.ndjson", '{"query": "1", "doc": "a", "relevance": 2}\n')
    assert Qrels.read(q).to_dict() == {"1": {"a": 2}}


def test_pandas_both_directions() -> None:
    pd = pytest.importorskip("pandas")
    run = expected_run()
    df = run.to_pandas()
    assert list(df.columns) == ["query", "doc", "score", "rank"]
    assert df["score"].tolist() == run.to_arrow()["score"].to_pylist()
    assert_same_run(Run.from_pandas(df), run, same_input=False)
    qrels = expected_qrels()
    assert_same_qrels(Qrels.from_pandas(qrels.to_pandas()), qrels)
    # Mapping, integer and categorical ids.
    df = pd.DataFrame(
        {"qid": [3, 3, 4], "docno": pd.Categorical(["x", "y", "x"]), "sim": [0.5, 0.75, 1.0]}
    )
    run = Run.from_pandas(df, query="qid", doc="docno", score="sim", name="pd")
    assert run.to_dict() == {"3": {"x": 0.5, "y": 0.75}, "4": {"x": 1.0}}
    assert run.name == "pd"
    # An index is not data.
    indexed = pd.DataFrame({"query": ["a"], "doc": ["b"], "relevance": [1]}, index=[99])
    assert Qrels.from_pandas(indexed).to_dict() == {"a": {"b": 1}}


def test_polars_both_directions() -> None:
    pl = pytest.importorskip("polars")
    run = expected_run()
    df = run.to_polars()
    assert df.columns == ["query", "doc", "score", "rank"]
    assert_same_run(Run.from_polars(df), run, same_input=False)
    qrels = expected_qrels()
    assert_same_qrels(Qrels.from_polars(qrels.to_polars()), qrels)
    df = pl.DataFrame({"q": [1, 1], "d": ["a", "b"], "g": [2, 0]}).with_columns(
        pl.col("d").cast(pl.Categorical)
    )
    assert Qrels.from_polars(df, query="q", doc="d", relevance="g").to_dict() == {
        "1": {"a": 2, "b": 0}
    }
    assert Qrels.from_polars(df.lazy(), query="q", doc="d", relevance="g").to_dict() == {
        "1": {"a": 2, "b": 0}
    }


def test_dict_both_directions() -> None:
    data = {"q1": {"d1": 1.5, "d2": -0.5}, "q2": {"d1": 3.0}}
    run = Run.from_dict(data, name="dict")
    assert run.to_dict() == data
    assert run.name == "dict"
    qdata = {"q1": {"d1": 2, "d2": 0}, "q2": {"d9": -1}}
    qrels = Qrels.from_dict(qdata)
    assert qrels.to_dict() == qdata
    assert all(type(v) is int for inner in qrels.to_dict().values() for v in inner.values())
    # Integral floats and bools are grades; numpy scalars are numbers.
    assert Qrels.from_dict({"q": {"a": 2.0, "b": True}}).to_dict() == {"q": {"a": 2, "b": 1}}
    assert Run.from_dict({"q": {"a": np.float32(0.5), "b": np.int64(2)}}).to_dict() == {
        "q": {"a": 0.5, "b": 2.0}
    }


def test_dict_round_trip_through_trec(tmp_path: Path) -> None:
    data = {
        str(q): {f"d{q}-{i}": float(np.float64(q) / (i + 1)) for i in range(7)}
        for q in range(1, 40)
    }
    Run.from_dict(data).to_trec(tmp_path / "r")
    assert Run.from_trec(tmp_path / "r").to_dict() == data
