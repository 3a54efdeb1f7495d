"""Fuzzing the task-file readers: labels and scores (one per line, CSV, TSV), clusterings
(both layouts), ratings (wide in both orientations, long), votes, segments and numbers.

As for the ranking readers (test_fuzz_readers.py): valid files written in awkward ways are
read whole, value for value; hostile bytes are read (as many records as an independent count
finds) or refused with one AssayError naming the file and the line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_readers import attempt, check_refusal, logical_text, written

from assay import AssayError
from assay.agreement import read_ratings
from assay.classification import read_labels, read_scores
from assay.clustering import read_clustering
from assay.fusion import read_votes
from assay.io.segments import read_numbers, read_segments
from strategies.fuzz import (
    LABELS,
    PLAIN_IDS,
    fuzz_settings,
    join_lines,
    mutated,
    packaging,
    scores,
)

ENDS = st.sampled_from(["\n", "\r\n"])


def text_lines(text: str) -> list[str]:
    """Lines ending at \\n (a final line end starts no line)."""
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def hostile(data: st.DataObject, clean: bytes) -> bytes:
    return data.draw(packaging(data.draw(mutated(clean)), hostile=True))


def run_hostile(
    data: st.DataObject,
    clean: bytes,
    name: str,
    read: Callable[[Any], Any],
    count: Callable[[str], int],
) -> None:
    """Hostile bytes from ``clean``: refused with a located AssayError, or read with as many
    records as ``count`` finds in the text."""
    stored = hostile(data, clean)
    with written(stored, name) as path:
        got = attempt(lambda: read(path))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=True)
        return
    text = logical_text(stored)
    assert text is not None
    assert len(got) == count(text)


# ---------------------------------------------------------------- labels and scores


@st.composite
def label_file(draw: st.DrawFn) -> tuple[bytes, list[str]]:
    labels = draw(st.lists(LABELS, min_size=1, max_size=12))
    data = join_lines(labels, draw(ENDS), draw(st.booleans()))
    return draw(packaging(data, hostile=False)), [label.strip() for label in labels]


@given(data=st.data())
@fuzz_settings(60)
def test_labels_one_per_line(data: st.DataObject) -> None:
    stored, labels = data.draw(label_file())
    with written(stored, "gold.txt") as path:
        assert read_labels(path) == labels


@given(data=st.data())
@fuzz_settings(60)
def test_labels_one_per_line_hostile(data: st.DataObject) -> None:
    stored, _ = data.draw(label_file())
    run_hostile(data, stored, "gold.txt", read_labels, lambda t: len(text_lines(t)))


@st.composite
def label_table(draw: st.DrawFn, delimiter: str) -> tuple[bytes, list[str]]:
    labels = draw(st.lists(LABELS, min_size=1, max_size=10))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=draw(ENDS))
    writer.writerow(["id", "label", "note"])
    for i, label in enumerate(labels):
        writer.writerow([i, label, draw(st.sampled_from(["", "x", "a,b", '"q"']))])
    return out.getvalue().encode(), [label.strip() for label in labels]


@pytest.mark.parametrize("ext", ["csv", "tsv"])
@given(data=st.data())
@fuzz_settings(40)
def test_labels_tables(ext: str, data: st.DataObject) -> None:
    stored, labels = data.draw(label_table("," if ext == "csv" else "\t"))
    with written(stored, f"gold.{ext}") as path:
        assert read_labels(path, column="label") == labels


@pytest.mark.parametrize("ext", ["csv", "tsv"])
@given(data=st.data())
@fuzz_settings(60)
def test_labels_tables_hostile(ext: str, data: st.DataObject) -> None:
    delimiter = "," if ext == "csv" else "\t"
    stored, _ = data.draw(label_table(delimiter))

    def count(text: str) -> int:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        return len(rows) - 1

    run_hostile(data, stored, f"gold.{ext}", lambda p: read_labels(p, column="label"), count)


@given(data=st.data())
@fuzz_settings(60)
def test_scores_one_per_line(data: st.DataObject) -> None:
    drawn = data.draw(st.lists(scores(), min_size=1, max_size=12))
    clean = join_lines([text for text, _ in drawn], data.draw(ENDS), data.draw(st.booleans()))
    with written(data.draw(packaging(clean, hostile=False)), "s.txt") as path:
        assert read_scores(path) == [value for _, value in drawn]
    run_hostile(data, clean, "s.txt", read_scores, lambda t: len(text_lines(t)))


# ---------------------------------------------------------------- clusterings

# Items of clusterings: spaces, quotes and colons inside (the clusters layout quotes them);
# no tab, no line end, no white space at either end (the labels layout trims fields).
ITEMS = st.text(
    alphabet=st.sampled_from([*"abxyz01 :\"'#,.", "\u00a0", "\u2028", "é"]), min_size=1, max_size=6
).filter(lambda s: s == s.strip() and s.strip(" \t\x0b\x0c\r"))


def _quoted(item: str) -> str:
    plain = not any(c in item for c in ' \t\x0b\x0c\r:"') and item == item.strip()
    return item if plain else '"' + item.replace('"', '""') + '"'


@st.composite
def clustering_file(draw: st.DrawFn) -> tuple[bytes, list[dict[str, float]]]:
    clusters = draw(
        st.lists(st.lists(ITEMS, min_size=1, max_size=4, unique=True), min_size=1, max_size=5)
    )
    end = draw(ENDS)
    if draw(st.booleans()):  # the labels layout: item<TAB>cluster
        # One cluster per item (an item in two clusters is fine; the same line twice is not).
        lines = [f"{item}\tc{k}" for k, members in enumerate(clusters) for item in members]
        expected = [dict.fromkeys(members, 1.0) for members in clusters]
    else:
        lines, expected = [], []
        if all(len(m) == 1 for m in clusters):
            # one token per line, one of them twice, is the one-label-per-line layout
            clusters = [list(m) for m in dict.fromkeys(tuple(m) for m in clusters)]
        for members in clusters:
            weights = [draw(st.sampled_from([None, 0.5, 2.0, 1e-3])) for _ in members]
            tokens = [
                _quoted(m) + ("" if w is None else f":{w!r}")
                for m, w in zip(members, weights, strict=True)
            ]
            lines.append(draw(st.sampled_from([" ", "  ", " \x0b"])).join(tokens))
            expected.append(
                {m: 1.0 if w is None else w for m, w in zip(members, weights, strict=True)}
            )
    return draw(packaging(join_lines(lines, end, True), hostile=False)), expected


@given(data=st.data())
@fuzz_settings(60)
def test_clusterings(data: st.DataObject) -> None:
    stored, expected = data.draw(clustering_file())
    with written(stored, "gold.txt") as path:
        got = read_clustering(path)
    assert got.clusters == expected


@given(data=st.data())
@fuzz_settings(80)
def test_clusterings_hostile(data: st.DataObject) -> None:
    stored, _ = data.draw(clustering_file())
    stored = hostile(data, stored)
    with written(stored, "gold.txt") as path:
        got = attempt(lambda: read_clustering(path))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=True)
        return
    text = logical_text(stored)
    assert text is not None
    filled = [line for line in text_lines(text) if line.strip(" \t\x0b\x0c\r")]
    if got.layout == "labels":
        assert got.memberships == len(filled)
    else:
        assert len(got.clusters) == len(filled)


# ---------------------------------------------------------------- ratings

_VALUES = {
    "numbers": st.one_of(st.none(), st.integers(1, 5).map(float)),
    "labels": st.one_of(st.none(), st.sampled_from(["yes", "no", "maybe", "n o", 'say "x"'])),
}
_MISSING = ["", "NA", "nan", ".", "*", "n/a", "NULL", "None"]


@st.composite
def ratings_file(draw: st.DrawFn) -> tuple[bytes, str, dict[str, Any], list[list[Any]]]:
    """A ratings file, its name, the reader's options and the units x raters matrix."""
    n_units, n_raters = draw(st.integers(1, 6)), draw(st.integers(2, 4))
    kind = draw(st.sampled_from(sorted(_VALUES)))
    matrix = [[draw(_VALUES[kind]) for _ in range(n_raters)] for _ in range(n_units)]
    units = draw(st.lists(PLAIN_IDS, min_size=n_units, max_size=n_units, unique=True))
    raters = [f"r{j}" for j in range(n_raters)]
    ext = draw(st.sampled_from(["csv", "tsv"]))
    out = io.StringIO()
    writer = csv.writer(out, delimiter="," if ext == "csv" else "\t", lineterminator=draw(ENDS))

    def cell(v: Any) -> str:
        return (
            draw(st.sampled_from(_MISSING)) if v is None else f"{v:g}" if kind == "numbers" else v
        )

    layout = draw(st.sampled_from(["wide", "transposed", "long"]))
    options: dict[str, Any] = {}
    if layout == "long":
        writer.writerow(["item", "annotator", "label"])
        for u, row in zip(units, matrix, strict=True):
            for r, v in zip(raters, row, strict=True):
                if v is not None or draw(st.booleans()):
                    writer.writerow([u, r, cell(v)])
        options["unit_column"] = "item"
    elif layout == "wide":
        writer.writerow(["unit_name", *raters])
        writer.writerows([u, *(cell(v) for v in row)] for u, row in zip(units, matrix, strict=True))
        options["id_column"] = "unit_name"
    else:
        writer.writerow(["who", *units])
        writer.writerows([r, *(cell(row[j]) for row in matrix)] for j, r in enumerate(raters))
        options.update(id_column="who", orientation="raters-by-units")
    return out.getvalue().encode(), f"ratings.{ext}", options, matrix


def _present(matrix: list[list[Any]]) -> list[Any]:
    return [v for row in matrix for v in row]


@given(data=st.data())
@fuzz_settings(60)
def test_ratings(data: st.DataObject) -> None:
    stored, name, options, matrix = data.draw(ratings_file())
    with written(data.draw(packaging(stored, hostile=False)), name) as path:
        got = read_ratings(path, **options)
    if got.layout == "long":
        # Units or raters with no rating at all do not appear in a long file.
        assert sorted(map(str, filter(None, _present(got.matrix)))) == sorted(
            map(str, filter(None, _present(matrix)))
        )
    else:
        assert got.matrix == matrix


@given(data=st.data())
@fuzz_settings(80)
def test_ratings_hostile(data: st.DataObject) -> None:
    clean, name, options, _ = data.draw(ratings_file())
    stored = hostile(data, clean)
    with written(stored, name) as path:
        got = attempt(lambda: read_ratings(path, **options))
    if isinstance(got, AssayError):
        check_refusal(got, path, lines=True)
        return
    text = logical_text(stored)
    assert text is not None
    delimiter = "\t" if name.endswith("tsv") or "\t" in text.split("\n", 1)[0] else ","
    records = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) if r]
    if got.layout == "long":
        assert len(got.long["unit"]) == len(records) - 1
    elif got.orientation == "raters-by-units":
        assert len(got.raters) == len(records) - 1
    else:
        assert len(got.units) == len(records) - 1


# ---------------------------------------------------------------- votes, segments, numbers

CANDIDATES = st.text(
    alphabet=st.sampled_from([*"abcxyz01#_-.", "é", "\u00a0", "\u2028"]), min_size=1, max_size=4
)


@st.composite
def votes_file(draw: st.DrawFn) -> tuple[bytes, list[list[str]]]:
    rankings = draw(
        st.lists(st.lists(CANDIDATES, min_size=1, max_size=5, unique=True), min_size=1, max_size=6)
    )
    lines: list[str] = []
    for ranking in rankings:
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(["# ballots", "", "  "])))
        if ranking[0].startswith("#"):
            ranking[0] = "c" + ranking[0]
        lines.append(draw(st.sampled_from([" ", ", ", "\t", ","])).join(ranking))
    return join_lines(lines, draw(ENDS), draw(st.booleans())), rankings


@given(data=st.data())
@fuzz_settings(60)
def test_votes(data: st.DataObject) -> None:
    clean, rankings = data.draw(votes_file())
    with written(data.draw(packaging(clean, hostile=False)), "votes.txt") as path:
        assert read_votes(path) == rankings

    def count(text: str) -> int:
        kept = [line.strip(" \t\x0b\x0c\r") for line in text_lines(text)]
        return sum(1 for line in kept if line and not line.startswith("#"))

    run_hostile(data, clean, "votes.txt", read_votes, count)


SEGMENTS = st.text(
    alphabet=st.sampled_from([*"ab ,.\"'#", "\r", "\t", "\x0b", "\u2028", "é"]), max_size=8
)


@given(data=st.data())
@fuzz_settings(60)
def test_segments(data: st.DataObject) -> None:
    segments = data.draw(st.lists(SEGMENTS, min_size=1, max_size=8))
    clean = ("\n".join(segments) + "\n").encode()
    with written(data.draw(packaging(clean, hostile=False)), "hyp.txt") as path:
        assert read_segments(path) == [s.rstrip() for s in segments]
    run_hostile(data, clean, "hyp.txt", read_segments, lambda t: len(text_lines(t)))


@given(data=st.data())
@fuzz_settings(60)
def test_numbers(data: st.DataObject) -> None:
    drawn = data.draw(st.lists(scores(), min_size=1, max_size=10))
    clean = join_lines([t for t, _ in drawn], data.draw(ENDS), True)
    with written(clean, "y.txt") as path:
        assert read_numbers(path) == [v for _, v in drawn]
    run_hostile(data, clean, "y.txt", read_numbers, lambda t: len(text_lines(t)))
