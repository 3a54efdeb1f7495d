"""Readers of the task files (labels, scores, clusterings, ratings, votes): good files, and
malformed lines named by file and line."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest

from assay.agreement import read_ratings
from assay.classification import read_labels, read_scores
from assay.clustering import Clustering, read_clustering
from assay.errors import DuplicateError, EmptyInputError, InputError, OptionError, ParseError
from assay.fusion import read_votes
from support.io import write


def raises_at(error: type[Exception], path: Path, line: int | None) -> Any:
    """pytest.raises(error) whose message starts with ``path:line: `` (or ``path: ``)."""
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    return pytest.raises(error, match="^" + re.escape(where))


# ---------------------------------------------------------------- labels and scores


def test_labels_one_per_line(tmp_path: Path) -> None:
    path = write(tmp_path, "gold.txt", "pos\n neg \npos\n")
    assert read_labels(path) == ["pos", "neg", "pos"]
    assert read_labels(str(path)) == ["pos", "neg", "pos"]


def test_labels_gzip(tmp_path: Path) -> None:
    path = tmp_path / "gold.txt.gz"
    path.write_bytes(gzip.compress(b"a\nb\n"))
    assert read_labels(path) == ["a", "b"]


def test_labels_and_scores_from_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "both.tsv", "id\tgold\tscore\n1\tpos\t0.5\n2\tneg\t-1e-3\n")
    assert read_labels(path, column="gold") == ["pos", "neg"]
    assert read_scores(path, column="score") == [0.5, -0.001]
    one = write(tmp_path, "one.csv", "label\nx\ny\n")
    assert read_labels(one) == ["x", "y"]  # a single column needs no name


def test_scores_one_per_line(tmp_path: Path) -> None:
    assert read_scores(write(tmp_path, "s.txt", "0.9\n1\n-2.5e1\n")) == [0.9, 1.0, -25.0]


def test_blank_line_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "pred.txt", "a\nb\n\nc\n")
    with raises_at(ParseError, path, 3) as info:
        read_labels(path, name="pred")
    assert "pred files hold one value per line" in str(info.value)
    assert info.value.line == 3 and info.value.source == str(path)


def test_bad_score_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "s.txt", "0.1\nx\n")
    with raises_at(ParseError, path, 2):
        read_scores(path)
    path = write(tmp_path, "inf.txt", "0.1\n0.2\ninf\n")
    with raises_at(ParseError, path, 3) as info:
        read_scores(path)
    assert "not a finite number" in str(info.value)
    path = write(tmp_path, "s.csv", "score\n0.1\nnan\n")
    with raises_at(ParseError, path, 3):
        read_scores(path)


def test_column_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "both.csv", "id,gold\n1,a\n2,b,extra\n")
    with raises_at(InputError, path, 1) as info:
        read_labels(path)
    assert "2 columns (id, gold)" in str(info.value) and "the column argument" in str(info.value)
    with pytest.raises(InputError, match="--gold-column or --column"):
        read_labels(path, name="gold", column_hint="--gold-column or --column")
    with pytest.raises(InputError, match="no column 'nope'"):
        read_labels(path, column="nope")
    with raises_at(ParseError, path, 3) as info:
        read_labels(path, column="gold")
    assert "3 fields, the header has 2" in str(info.value)
    blank = write(tmp_path, "blank.tsv", "gold\na\n\nb\n")
    with raises_at(ParseError, blank, 3):
        read_labels(blank)


def test_empty_files(tmp_path: Path) -> None:
    with pytest.raises(EmptyInputError, match="no labels values"):
        read_labels(write(tmp_path, "e.txt", ""))
    with pytest.raises(EmptyInputError, match="a header line is expected"):
        read_labels(write(tmp_path, "e.csv", ""))
    with pytest.raises(EmptyInputError, match="no scores values"):
        read_scores(write(tmp_path, "h.csv", "score\n"))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_labels(tmp_path / "missing.txt")


def test_bad_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("a\ncaf\u00e9\n".encode("latin-1"))
    with raises_at(ParseError, path, 2):
        read_labels(path)


# ---------------------------------------------------------------- clusterings


def test_clustering_labels_layout(tmp_path: Path) -> None:
    path = write(tmp_path, "g.tsv", "a\t1\nb\t1\n\nc\t2\n")
    c = read_clustering(path)
    assert isinstance(c, Clustering)
    assert c.layout == "labels" and c.hard and not c.weighted
    assert c.clusters == [{"a": 1.0, "b": 1.0}, {"c": 1.0}]
    assert c.labels() == {"a": 0, "b": 0, "c": 1}
    assert c.items == {"a", "b", "c"} and c.memberships == 3


def test_clustering_clusters_layout_with_weights(tmp_path: Path) -> None:
    path = write(tmp_path, "p.txt", "bank:0.7 river 12:30:1\nbank:0.3 money\n")
    c = read_clustering(path)
    assert c.layout == "clusters" and c.weighted and not c.hard
    assert c.clusters == [{"bank": 0.7, "river": 1.0, "12:30": 1.0}, {"bank": 0.3, "money": 1.0}]
    overlapping = read_clustering(write(tmp_path, "o.txt", "a b\nb c\n"))
    assert not overlapping.weighted and not overlapping.hard  # b is in two clusters


def test_clustering_errors(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.tsv", "a\t1\nb\t1\t3\n")
    with raises_at(ParseError, bad, 2):
        read_clustering(bad)
    dup = write(tmp_path, "dup.tsv", "a\t1\nb\t2\na\t1\n")
    with raises_at(DuplicateError, dup, 3):
        read_clustering(dup)
    twice = write(tmp_path, "twice.txt", "a b\nc d c\n")
    with raises_at(DuplicateError, twice, 2):
        read_clustering(twice)
    weight = write(tmp_path, "w.txt", "a:1\nb:0\n")
    with raises_at(InputError, weight, 2) as info:
        read_clustering(weight)
    assert "weights must be > 0" in str(info.value)
    with pytest.raises(EmptyInputError):
        read_clustering(write(tmp_path, "empty.txt", "\n  \n"))


# ---------------------------------------------------------------- ratings


def test_ratings_wide(tmp_path: Path) -> None:
    path = write(tmp_path, "wide.csv", "unit,r1,r2,r3\nu1,1,1,2\nu2,2,,NA\n\nu3,3,3,3\n")
    r = read_ratings(path)
    assert r.layout == "wide" and r.long is None
    assert r.units == ["u1", "u2", "u3"] and r.raters == ["r1", "r2", "r3"]
    assert r.matrix == [[1.0, 1.0, 2.0], [2.0, None, None], [3.0, 3.0, 3.0]]
    assert not r.complete and r.data is r.matrix
    names = read_ratings(write(tmp_path, "names.tsv", "a\tb\nx\ty\n*\tx\n"))
    assert names.matrix == [["x", "y"], [None, "x"]] and names.units == ["1", "2"]
    assert names.raters == ["a", "b"]


def test_ratings_long(tmp_path: Path) -> None:
    path = write(tmp_path, "long.tsv", "Unit\tCoder\tValue\n1\tA\tx\n1\tB\tx\n2\tA\ty\n3\tC\tx\n")
    r = read_ratings(path)
    assert r.layout == "long"
    assert r.units == ["1", "2", "3"] and r.raters == ["A", "B", "C"]
    assert r.matrix == [["x", "x", None], ["y", None, None], [None, None, "x"]]
    assert r.data == {
        "unit": ["1", "1", "2", "3"],
        "rater": ["A", "B", "A", "C"],
        "value": ["x", "x", "y", "x"],
    }
    # Three columns with other names are not read as long unless the long layout is asked
    # for; read as wide, the text column of distinct values is taken for an id and refused.
    other = write(tmp_path, "other.csv", "s,c,v\n1,A,3\n1,B,4\n")
    with pytest.raises(InputError, match="'c' looks like an id column"):
        read_ratings(other)
    forced = read_ratings(other, layout="long")
    assert forced.layout == "long" and forced.matrix == [[3.0, 4.0]]


def test_ratings_errors(tmp_path: Path) -> None:
    ragged = write(tmp_path, "ragged.csv", "a,b\n1,2\n1\n")
    with raises_at(ParseError, ragged, 3):
        read_ratings(ragged)
    with pytest.raises(InputError, match="two or more rater columns"):
        read_ratings(write(tmp_path, "one.csv", "id,a\n1,2\n"))
    with pytest.raises(InputError, match="long layout needs three columns"):
        read_ratings(write(tmp_path, "four.csv", "a,b,c,d\n1,2,3,4\n"), layout="long")
    with pytest.raises(EmptyInputError, match="no data rows"):
        read_ratings(write(tmp_path, "header.csv", "a,b\n"))
    with pytest.raises(EmptyInputError, match="no header line"):
        read_ratings(write(tmp_path, "empty.csv", ""))
    with pytest.raises(OptionError, match="layout"):
        read_ratings(ragged, layout="tall")  # type: ignore[arg-type]


# ---------------------------------------------------------------- votes


def test_votes(tmp_path: Path) -> None:
    path = write(tmp_path, "votes.txt", "# ballots\nA B C\nA, C , B\n\nB\tA C\n")
    assert read_votes(path) == [["A", "B", "C"], ["A", "C", "B"], ["B", "A", "C"]]


def test_vote_errors(tmp_path: Path) -> None:
    twice = write(tmp_path, "twice.txt", "A B\n# c\nA B A\n")
    with raises_at(ParseError, twice, 3):
        read_votes(twice)
    empty_candidate = write(tmp_path, "comma.txt", "A,,B\n")
    with raises_at(ParseError, empty_candidate, 1) as info:
        read_votes(empty_candidate)
    assert "empty candidate" in str(info.value)
    with pytest.raises(EmptyInputError, match="no rankings"):
        read_votes(write(tmp_path, "none.txt", "# nothing\n\n"))
