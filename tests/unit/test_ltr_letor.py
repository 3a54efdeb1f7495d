"""The LETOR/SVMlight reader: forms, comments and document ids, index base, layouts, block
boundaries, the writer, folders, and every malformed line named by file and line."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

import assay.ltr.letor as letor
from assay.errors import EmptyInputError, InputError, OptionError, ParseError
from assay.ltr.letor import find_letor_splits, read_letor, read_letor_files, write_letor
from conftest import shared_file

TEXT = """\
# header comment
2 qid:10 1:0.5 3:1.5 # docid = A1 inc = 1
0 qid:10 2:-1e-3

1 qid:7 1:2 2:3 3:4 #docid=B2
"""


def write(tmp_path: Path, text: str, name: str = "f.txt") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_reads_labels_queries_doc_ids_and_lines(tmp_path: Path) -> None:
    f = read_letor(write(tmp_path, TEXT), features="dense")
    np.testing.assert_array_equal(f.labels, [2, 0, 1])
    assert f.query_ids.to_pylist() == ["10", "7"]
    np.testing.assert_array_equal(f.offsets, [0, 2, 3])
    assert f.doc_ids.to_pylist() == ["A1", "3", "B2"]  # no docid: the line number
    np.testing.assert_array_equal(f.lines, [2, 3, 5])
    assert f.index_base == 1 and f.n_features == 3
    np.testing.assert_array_equal(
        f.features, np.array([[0.5, 0, 1.5], [0, -1e-3, 0], [2, 3, 4]], dtype=np.float32)
    )


def test_zero_based_detected_and_forced(tmp_path: Path) -> None:
    p = write(tmp_path, "1 qid:1 0:1 4:2\n0 qid:1 2:3\n")
    f = read_letor(p, features="dense")
    assert f.index_base == 0 and f.n_features == 5
    with pytest.raises(ParseError, match="index_base=1"):
        read_letor(p, index_base=1)
    one = read_letor(write(tmp_path, "1 qid:1 1:1 4:2\n", "g"), index_base=0, features="dense")
    assert one.n_features == 5 and one.features[0, 0] == 0


def test_index_base_is_decided_over_all_files(tmp_path: Path) -> None:
    a = write(tmp_path, "1 qid:1 1:1 2:2\n", "a")
    b = write(tmp_path, "1 qid:1 0:1 3:2\n", "b")
    fa, fb = read_letor_files([a, b], features="dense")
    assert fa.index_base == fb.index_base == 0
    assert fa.n_features == fb.n_features == 4
    np.testing.assert_array_equal(fa.features, [[0, 1, 2, 0]])


def test_layouts(tmp_path: Path) -> None:
    p = write(tmp_path, "1 qid:1 1:1 9:2\n0 qid:1 5:3\n")
    assert hasattr(read_letor(p).features, "tocsr")  # 3 of 18 stored: sparse
    assert isinstance(read_letor(p, features="dense").features, np.ndarray)
    dense_file = write(tmp_path, "1 qid:1 1:1 2:2\n0 qid:1 1:3 2:4\n", "d")
    assert isinstance(read_letor(dense_file).features, np.ndarray)
    assert hasattr(read_letor(dense_file, features="sparse").features, "tocsr")
    assert read_letor(dense_file, dtype="float64").features.dtype == np.float64
    with pytest.raises(OptionError, match="features"):
        read_letor(p, features="csr")  # type: ignore[arg-type]


def test_float32_overflow_is_counted_and_warned(tmp_path: Path) -> None:
    p = write(tmp_path, "1 qid:1 1:1.79e308 2:1\n")
    with pytest.warns(UserWarning, match="beyond the range"):
        f = read_letor(p, features="dense")
    assert f.overflow == 1 and np.isinf(f.features[0, 0])
    assert read_letor(p, dtype="float64", features="dense").features[0, 0] == 1.79e308


@pytest.mark.parametrize("block", [7, 16, 31, 64, 1 << 20])
def test_block_boundaries_do_not_matter(tmp_path: Path, monkeypatch, block: int) -> None:
    rng = np.random.default_rng(block)
    lines = []
    for q in range(1, 9):
        for _ in range(int(rng.integers(1, 5))):
            dense = rng.random() < 0.7
            idx = range(1, 5) if dense else sorted(rng.choice(np.arange(1, 9), 3, replace=False))
            feats = " ".join(f"{i}:{rng.integers(-9, 9)}.{rng.integers(0, 99)}" for i in idx)
            lines.append(f"{rng.integers(0, 5)} qid:{q} {feats} # docid = d{len(lines)}")
    p = write(tmp_path, "\n".join(lines))  # no final newline
    whole = read_letor(p, features="dense")
    monkeypatch.setattr(letor, "BLOCK_BYTES", block)
    parts = read_letor(p, features="dense")
    np.testing.assert_array_equal(parts.features, whole.features)
    np.testing.assert_array_equal(parts.lines, whole.lines)
    np.testing.assert_array_equal(parts.offsets, whole.offsets)
    assert parts.doc_ids.equals(whole.doc_ids)


def test_gzip_and_crlf(tmp_path: Path) -> None:
    gz = tmp_path / "f.txt.gz"
    gz.write_bytes(gzip.compress(TEXT.replace("\n", "\r\n").encode()))
    a = read_letor(gz, features="dense")
    b = read_letor(write(tmp_path, TEXT), features="dense")
    np.testing.assert_array_equal(a.features, b.features)
    assert a.doc_ids.equals(b.doc_ids)


def test_group_file_form(tmp_path: Path) -> None:
    p = write(tmp_path, "1 1:1\n0 2:1\n2 1:3\n")
    (tmp_path / "f.txt.query").write_text("2\n1\n")
    f = read_letor(p)
    assert f.query_ids.to_pylist() == ["1", "2"] and f.group_file.endswith(".query")
    (tmp_path / "f.txt.query").write_text("2\n2\n")
    with pytest.raises(ParseError, match="add up to 4 lines, but the data file has 3"):
        read_letor(p)
    (tmp_path / "f.txt.query").write_text("3\n0\n")
    with pytest.raises(ParseError, match=r"f.txt.query:2: query sizes must be positive"):
        read_letor(p)
    (tmp_path / "f.txt.query").unlink()
    with pytest.raises(InputError, match="no qid: fields and no group file"):
        read_letor(p)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("1 qid:1 1:1\nx qid:1 1:2\n", 2, "label is not a number: 'x'"),
        ("1 qid:1 1:1\nnan qid:1 1:2\n", 2, "label must be finite"),
        ("1 qid:1 1:1 2\n", 1, "expected index:value, got '2'"),
        ("1 qid:1 :1\n", 1, "expected index:value, got ':1'"),
        ("1 qid:1 1:\n", 1, "expected index:value, got '1:'"),
        ("1 qid:1 a:1\n", 1, "feature index must be a non-negative integer, got 'a'"),
        ("1 qid:1 -1:1\n", 1, "feature index must be a non-negative integer, got '-1'"),
        ("1 qid:1 1:1\n1 qid:1 1:abc\n", 2, "feature value is not a number: 'abc'"),
        (
            "1 qid:1 1:1\n1 qid:1 3:1 2:1\n",
            2,
            "feature indices must increase along a line: 2 after 3",
        ),
        ("1 qid:1 1:1\n1 qid:1 2:1 2:1\n", 2, "must increase"),
        (
            "1 qid:1 1:1\n1 qid:2 1:1\n1 qid:1 1:1\n",
            3,
            "query '1' starts again here (first seen at line 1)",
        ),
        ("1 qid:1 1:1\n1 1:1\n", 2, "no qid: on this line"),
        ("1 qid:1 1234567890:1\n", 1, "more than 9 digits"),
    ],
)
def test_malformed_lines_name_file_and_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    p = write(tmp_path, text)
    with pytest.raises(ParseError) as info:
        read_letor(p)
    assert info.value.source == str(p) and info.value.line == line
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"\xff0 qid:1 1:0.5\n", 1),  # in a label: Arrow strings trusted these bytes
        (b"0 qid:1 1:0.5\n1 qid:1 1:1 # docid = d\xe9\n", 2),  # in a kept document id
        (b"0 qid:1 1:0.5 2:0.5\n1 qid:1 1:0.5 \xff2:0.5\n", 2),  # in an index (fast path)
    ],
)
def test_undecodable_bytes_name_the_line(tmp_path: Path, data: bytes, line: int) -> None:
    p = tmp_path / "bad.txt"
    p.write_bytes(data)
    with pytest.raises(ParseError, match="not valid UTF-8") as info:
        read_letor(p)
    assert info.value.line == line


def test_empty_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(EmptyInputError):
        read_letor(write(tmp_path, "# nothing\n\n"))
    with pytest.raises(ParseError, match="no such file"):
        read_letor(tmp_path / "absent")


def test_writer_round_trip(tmp_path: Path) -> None:
    f = read_letor(write(tmp_path, TEXT), features="sparse")
    out = tmp_path / "out.txt"
    write_letor(out, f.labels, f.offsets, f.query_ids, f.features, doc_ids=f.doc_ids)
    g = read_letor(out, features="sparse")
    np.testing.assert_array_equal(g.features.toarray(), f.features.toarray())
    np.testing.assert_array_equal(g.labels, f.labels)
    assert g.query_ids.equals(f.query_ids) and g.doc_ids.equals(f.doc_ids)


def test_folders_and_folds(tmp_path: Path) -> None:
    for name in ("train.txt", "vali.txt", "test.txt"):
        write(tmp_path, "1 qid:1 1:1\n", name)
    assert set(find_letor_splits(tmp_path)) == {"train", "vali", "test"}
    folded = tmp_path / "mslr"
    for fold in ("Fold1", "Fold2"):
        (folded / fold).mkdir(parents=True)
        for name in ("train.txt", "vali.txt", "test.txt"):
            write(folded / fold, "1 qid:1 1:1\n", name)
    assert find_letor_splits(folded)["test"].endswith("Fold1/test.txt")
    assert find_letor_splits(folded, fold=2)["test"].endswith("Fold2/test.txt")
    with pytest.raises(InputError, match="no Fold3"):
        find_letor_splits(folded, fold=3)
    with pytest.raises(OptionError, match="fold"):
        find_letor_splits(tmp_path, fold=1)


def test_both_forms_of_the_lightgbm_example_load_identically() -> None:
    folder = shared_file("lightgbm_lambdarank", "rank.train").parent
    for split in ("train", "test"):
        a, b = read_letor_files([folder / f"rank.{split}.letor", folder / f"rank.{split}"])
        assert a.index_base == b.index_base == 1 and a.n_features == b.n_features == 300
        assert (a.features != b.features).nnz == 0
        np.testing.assert_array_equal(a.labels, b.labels)
        np.testing.assert_array_equal(a.offsets, b.offsets)
        assert a.query_ids.equals(b.query_ids) and a.doc_ids.equals(b.doc_ids)
    splits = find_letor_splits(folder)
    assert sorted(splits) == ["test", "train"] and splits["train"].endswith("rank.train")


def test_fast_path_takes_clean_blocks_and_leaves_the_rest() -> None:
    from assay.ltr._letor_fast import parse_block_fast

    block = parse_block_fast(b"1 qid:3 1:0.5 7:2\n\n0\tqid:3 2:1e-3\r\n", 10, "f")
    assert block is not None
    np.testing.assert_array_equal(block.lines, [11, 13])
    np.testing.assert_array_equal(block.indices, [1, 7, 2])
    np.testing.assert_array_equal(block.values, [0.5, 2, 1e-3])
    assert block.qids is not None and block.qids.to_pylist() == ["3", "3"]
    for other in (
        b"1 qid:1 1:1 # docid = x\n",  # comment
        b"1 qid:1 1: 2\n",  # a colon next to white space
        b"1:2 qid:1 1:1\n",  # a colon in the label
        b"1 qid:1 +1:1\n",  # a sign on an index
        b" 1 qid:1 1:1\n",  # leading white space
        b"1 qid:1 1:1:1\n",  # two colons in a field
    ):
        assert parse_block_fast(other, 0, "f") is None, other
    with pytest.raises(ParseError, match="must increase"):
        parse_block_fast(b"1 qid:1 2:1 1:1\n", 0, "f")
