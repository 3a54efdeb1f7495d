"""A one-column .csv/.tsv labels or scores file without a header line is refused, not read
with its first value as the header (issue 25, a sibling of the ratings header: the first
item was dropped silently and ``assay classify`` reported n - 1 items)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.classification import read_labels, read_scores
from assay.errors import InputError
from support.cli import assert_one_line_error, invoke


def test_labels_without_header_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "gold.tsv"
    path.write_text("pos\nneg\npos\nneg\n")
    with pytest.raises(InputError, match=r"gold.tsv:1: the first line looks like data.*line 3"):
        read_labels(path)
    (tmp_path / "gold.txt").write_text("pos\nneg\npos\nneg\n")
    assert read_labels(tmp_path / "gold.txt") == ["pos", "neg", "pos", "neg"]


def test_scores_without_header_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text("0.9\n0.1\n0.3\n")
    with pytest.raises(InputError, match=r"'0\.9' \(it is a number\)"):
        read_scores(path)
    path.write_text("score\n0.9\n0.1\n0.3\n")
    assert read_scores(path) == [0.9, 0.1, 0.3]


def test_a_named_column_proves_the_header(tmp_path: Path) -> None:
    # class-probability columns named by numeric classes: the name was found, so line 1 is
    # a header, even though "1" is a number above numbers
    path = tmp_path / "proba.csv"
    path.write_text("id,0,1\na,0.2,0.8\nb,0.9,0.1\n")
    assert read_scores(path, column="1") == [0.8, 0.1]
    labels = tmp_path / "both.csv"
    labels.write_text("id,1\na,1\nb,0\n")
    assert read_labels(labels, column="1") == ["1", "0"]


def test_cli_classify_refuses_headerless_tsv(tmp_path: Path) -> None:
    gold, pred = tmp_path / "g.tsv", tmp_path / "p.tsv"
    gold.write_text("pos\nneg\npos\nneg\n")
    pred.write_text("pos\nneg\nneg\nneg\n")
    assert_one_line_error(*invoke("classify", gold, pred), "g.tsv:1", "looks like data")
