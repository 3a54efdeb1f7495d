"""assay.io.segments: plain-text segment and number files (sacrebleu's line rules), and
count mismatches named by file and line."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from assay.errors import EmptyInputError, InputError, ParseError
from assay.generation.reader import read_reference_streams
from assay.io.segments import (
    check_same_count,
    read_numbers,
    read_segments,
    split_segments,
)


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_final_newline_bom_and_gzip(tmp_path: Path) -> None:
    assert split_segments("x\ny\n") == ["x", "y"]
    assert split_segments("x\ny\n\n") == ["x", "y", ""]
    bom = _write(tmp_path / "bom.txt", b"\xef\xbb\xbfhello\n")
    assert read_segments(bom) == ["hello"]
    gz = _write(tmp_path / "h.txt.gz", gzip.compress("één\ntwee\n".encode()))
    assert read_segments(gz) == ["één", "twee"]


def test_empty_and_undecodable_files(tmp_path: Path) -> None:
    empty = _write(tmp_path / "empty.txt", b"")
    with pytest.raises(EmptyInputError, match=r"empty\.txt: empty file"):
        read_segments(empty)
    bad = _write(tmp_path / "bad.txt", b"ok\nfine\n\xff\xfe\n")
    with pytest.raises(ParseError, match=r"bad.txt:3: not valid UTF-8"):
        read_segments(bad)
    with pytest.raises(ParseError, match="no such file"):
        read_segments(str(tmp_path / "missing.txt"))


def test_reference_streams_must_align(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.txt", b"1\n2\n3\n")
    b = _write(tmp_path / "b.txt", b"1\n2\n3\n4\n")
    c = _write(tmp_path / "c.txt", b"1\n2\n")
    assert read_reference_streams([a]) == [["1", "2", "3"]]
    with pytest.raises(InputError, match=r"b.txt:4: 4 segments, but .*a.txt has 3") as err:
        read_reference_streams([a, b])
    assert err.value.line == 4 and err.value.source == b
    with pytest.raises(InputError, match=r"c.txt:2: ends after 2 segments, but .*a.txt has 3"):
        read_reference_streams([a, c])
    with pytest.raises(InputError, match="twice"):
        read_reference_streams([a, a])
    with pytest.raises(InputError, match="list of reference files"):
        read_reference_streams(a)  # type: ignore[arg-type]
    assert check_same_count({"x": ["a"], "y": ["b"]}) == 1


def test_numbers(tmp_path: Path) -> None:
    good = _write(tmp_path / "g.txt", b"1\n2.5\n-3e2 \n")
    assert read_numbers(good) == [1.0, 2.5, -300.0]
    for name, data, message in (
        ("blank.txt", b"1\n\n2\n", r"blank.txt:2: blank line"),
        ("word.txt", b"1\nabc\n", r"word.txt:2: not a number: 'abc'"),
        ("nan.txt", b"1\n2\nnan\n", r"nan.txt:3: not a finite number: 'nan'"),
        ("inf.txt", b"inf\n", r"inf.txt:1: not a finite number"),
    ):
        with pytest.raises(ParseError, match=message):
            read_numbers(_write(tmp_path / name, data))
