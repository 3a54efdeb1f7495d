"""A ratings file without a header line is never read with its first row as the header
(issue 25: a header-less ``item<TAB>label`` file took ``i1`` for a rater, alpha -0.053):
a first line that looks like data is refused, ``header=False`` reads it, and an id column
is never a rater, in two-column files too."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.agreement import read_ratings
from assay.errors import InputError


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_headerless_item_label_file_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.tsv", "i1\tyes\ni2\tno\ni3\tyes\ni4\tyes\n")
    with pytest.raises(
        InputError,
        match=r"r.tsv:1: the first line looks like data.*'yes'.*"
        r"line 3.*header=False",
    ):
        read_ratings(path)


def test_headerless_wide_file_reads_with_header_false(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.tsv", "i1\tyes\tno\ni2\tno\tno\ni3\tyes\tyes\ni4\tyes\tno\n")
    with pytest.raises(InputError, match="looks like data"):
        read_ratings(path)
    with pytest.raises(InputError, match="column '1' looks like an id column"):
        read_ratings(path, header=False)
    r = read_ratings(path, header=False, id_column="1")
    assert r.units == ["i1", "i2", "i3", "i4"] and r.raters == ["2", "3"]
    assert r.matrix[0] == ["yes", "no"]


def test_headerless_long_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "l.csv", "u1,r1,a\nu1,r2,b\nu2,r1,a\nu2,r2,a\n")
    with pytest.raises(InputError, match=r"looks like data.*'u1'.*line 2"):
        read_ratings(path, layout="long")
    r = read_ratings(path, layout="long", header=False)
    assert r.units == ["u1", "u2"] and r.raters == ["r1", "r2"]
    numeric = _write(tmp_path, "n.tsv", "1\t1\t2\n1\t2\t2\n2\t1\t3\n")
    with pytest.raises(InputError, match=r"named once.*--no-header"):
        read_ratings(numeric)


def test_an_id_column_is_never_a_rater_in_two_columns(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.csv", "doc_name,label\nd1,yes\nd2,no\nd3,yes\n")
    with pytest.raises(InputError, match="'doc_name' looks like an id column"):
        read_ratings(path)
    with pytest.raises(InputError, match="two or more rater columns; this file has 1 besides"):
        read_ratings(path, id_column="doc_name")


def test_real_headers_still_read(tmp_path: Path) -> None:
    # numbers in the first line are not evidence: raters and units are often numbered
    wide = _write(tmp_path, "w.csv", "unit,1,2,3\na,1,2,3\nb,2,2,3\n")
    assert read_ratings(wide).raters == ["1", "2", "3"]
    by_units = _write(tmp_path, "k.csv", "coder,1,2,3\nA,1,2,3\nB,2,2,1\n")
    assert read_ratings(by_units, orientation="raters-by-units").units == ["1", "2", "3"]
    two = _write(tmp_path, "two.csv", "a,b\nx,x\ny,y\nx,y\n")
    assert read_ratings(two).raters == ["a", "b"]


def test_a_named_column_proves_the_header(tmp_path: Path) -> None:
    # a rater named like one of the values: found by its name, the first line is a header
    path = _write(tmp_path, "r.csv", "item,yes,other\ni1,yes,no\ni2,no,no\n")
    with pytest.raises(InputError, match="looks like data"):
        read_ratings(path)
    assert read_ratings(path, id_column="item").raters == ["yes", "other"]
