"""Embedding readers: .npy, .npz, Parquet (list, fixed-size list, one column per dimension),
CSV/TSV with or without a header; bad files give one error naming file and line/row."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from assay import EmptyInputError, InputError, ParseError
from assay.embeddings.reader import read_embeddings

X = np.arange(12, dtype=np.float32).reshape(4, 3) / 4


def _writers(tmp_path):
    np.save(tmp_path / "a.npy", X)
    np.savez(tmp_path / "a.npz", X)
    np.savez(tmp_path / "b.npz", embeddings=X, other=X[:1])
    fixed = pa.FixedSizeListArray.from_arrays(pa.array(X.ravel()), 3)
    pq.write_table(pa.table({"id": list("abcd"), "vec": fixed}), tmp_path / "fixed.parquet")
    pq.write_table(
        pa.table({"vec": pa.array(X.astype(np.float64).tolist())}), tmp_path / "list.parquet"
    )
    pq.write_table(pa.table({f"d{i}": X[:, i] for i in range(3)}), tmp_path / "wide.parquet")
    rows = "\n".join(",".join(repr(float(v)) for v in r) for r in X)
    (tmp_path / "h.csv").write_text("x,y,z\n" + rows + "\n")
    (tmp_path / "n.csv").write_text(rows + "\n")
    (tmp_path / "t.tsv").write_text(rows.replace(",", "\t") + "\n")
    return [
        "a.npy",
        "a.npz",
        "b.npz",
        "fixed.parquet",
        "list.parquet",
        "wide.parquet",
        "h.csv",
        "n.csv",
        "t.tsv",
    ]


def test_every_format_reads_the_same_matrix(tmp_path) -> None:
    for name in _writers(tmp_path):
        got = read_embeddings(tmp_path / name)
        assert got.shape == (4, 3), name
        np.testing.assert_array_equal(got, X.astype(got.dtype), err_msg=name)
    assert read_embeddings(tmp_path / "a.npy").dtype == np.float32


def test_named_array_and_column(tmp_path) -> None:
    np.savez(tmp_path / "c.npz", a=X, b=X * 2)
    np.testing.assert_array_equal(read_embeddings(tmp_path / "c.npz", key="b"), X * 2)
    with pytest.raises(InputError, match=r"several arrays \(a, b\); name one"):
        read_embeddings(tmp_path / "c.npz")
    with pytest.raises(InputError, match="has no array 'z'"):
        read_embeddings(tmp_path / "c.npz", key="z")


@pytest.mark.parametrize(
    ("name", "content", "error", "message"),
    [
        ("bad.csv", "1,2,3\n4,x,6\n", ParseError, r"bad.csv:2: 'x' is not a number"),
        (
            "ragged.csv",
            "1,2,3\n4,5\n",
            ParseError,
            "ragged.csv:2: 2 fields but the first line has 3",
        ),
        ("nan.csv", "a,b\n1,2\n3,nan\n", InputError, "nan.csv:3: column 2 is nan"),
        ("nan1.csv", "nan,1", InputError, "nan1.csv:1: column 1 is nan"),  # Arrow: null
        ("cr.csv", "1,2\r3,4\n", ParseError, r"cr.csv:1: a carriage return inside a line"),
        ("py.csv", "1,2\n1_000,2\n", ParseError, "py.csv:2: '1_000' is not a number"),
        ("blank.csv", "1,2\n\n3,4\n", ParseError, "blank.csv:2: blank line"),
        ("empty.csv", "x,y\n", EmptyInputError, "no embeddings"),
        ("a.txt", "1 2\n", InputError, "unknown embeddings format"),
    ],
)
def test_bad_text_files(tmp_path, name, content, error, message) -> None:
    (tmp_path / name).write_text(content)
    with pytest.raises(error, match=message):
        read_embeddings(tmp_path / name)


def test_one_field_without_a_final_line_end(tmp_path) -> None:
    (tmp_path / "one.csv").write_text("0")  # Arrow alone cannot infer its one column
    assert read_embeddings(tmp_path / "one.csv").tolist() == [[0.0]]


def test_bad_binary_files(tmp_path) -> None:
    np.save(tmp_path / "one.npy", np.arange(3.0))
    with pytest.raises(InputError, match="2-D array"):
        read_embeddings(tmp_path / "one.npy")
    np.save(tmp_path / "inf.npy", np.array([[1.0, np.inf]]))
    with pytest.raises(InputError, match="row 0, column 1 is inf"):
        read_embeddings(tmp_path / "inf.npy")
    pq.write_table(pa.table({"v": pa.array([[1.0, 2.0], [3.0]])}), tmp_path / "ragged.parquet")
    with pytest.raises(InputError, match="row 1 of column 'v' has 1 values but row 0 has 2"):
        read_embeddings(tmp_path / "ragged.parquet")
    pq.write_table(pa.table({"v": pa.array([[1.0], None])}), tmp_path / "null.parquet")
    with pytest.raises(InputError, match="row 1 of column 'v' is null"):
        read_embeddings(tmp_path / "null.parquet")
    pq.write_table(pa.table({"a": ["x"], "b": [1.0]}), tmp_path / "text.parquet")
    with pytest.raises(InputError, match="column 'a' holds string"):
        read_embeddings(tmp_path / "text.parquet")
    pq.write_table(
        pa.table({"u": pa.array([[1.0]]), "v": pa.array([[2.0]])}), tmp_path / "two.parquet"
    )
    with pytest.raises(InputError, match="several list columns"):
        read_embeddings(tmp_path / "two.parquet")
    np.testing.assert_array_equal(read_embeddings(tmp_path / "two.parquet", key="v"), [[2.0]])


def test_a_parquet_directory_is_read_as_one_dataset(tmp_path) -> None:
    # Spark and Dask write a .parquet directory of part files; its rows come in file order.
    folder = tmp_path / "vectors.parquet"
    folder.mkdir()
    pq.write_table(pa.table({"vec": pa.array([[1.0, 2.0]])}), folder / "part-0.parquet")
    pq.write_table(pa.table({"vec": pa.array([[3.0, 4.0]])}), folder / "part-1.parquet")
    np.testing.assert_array_equal(read_embeddings(folder), [[1.0, 2.0], [3.0, 4.0]])
