"""Reading the judgments family's inputs: comparisons and crowd labels from every format, and
one error naming the file and line for each kind of bad row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from assay.errors import EmptyInputError, InputError, OptionError
from assay.judgments import CrowdLabels, read_comparisons, read_crowd_labels
from conftest import shared_file

VOTES = "left,right,winner\nx,y,left\ny,z,tie\nz,x,right\n"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_shared_llmfao_reads_its_pair_and_outcome_columns() -> None:
    c = read_comparisons(shared_file("pairwise", "llmfao.csv"))
    assert len(c) == 8931 and c.n_items == 59
    counts = c.item_counts()
    # every comparison has two sides: the per-item counts add up to twice the rows
    assert counts["comparisons"].sum() == 2 * len(c)
    assert counts["wins"].sum() == counts["losses"].sum() == np.count_nonzero(c.winner != 2)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "parquet", "jsonl", "pandas", "polars", "arrow"])
def test_every_input_form_gives_the_same_comparisons(tmp_path: Path, fmt: str) -> None:
    frame = pd.DataFrame(
        {"left": ["x", "y", "z"], "right": ["y", "z", "x"], "winner": ["left", "tie", "right"]}
    )
    data: object
    if fmt == "csv":
        data = _write(tmp_path, "v.csv", VOTES)
    elif fmt == "tsv":
        data = _write(tmp_path, "v.tsv", VOTES.replace(",", "\t"))
    elif fmt == "parquet":
        data = tmp_path / "v.parquet"
        pq.write_table(pa.Table.from_pandas(frame), data)
    elif fmt == "jsonl":
        data = _write(tmp_path, "v.jsonl", frame.to_json(orient="records", lines=True))
    elif fmt == "pandas":
        data = frame
    elif fmt == "polars":
        data = pl.from_pandas(frame)
    else:
        data = pa.Table.from_pandas(frame)
    c = read_comparisons(data)
    assert c.items == ("x", "y", "z")
    assert c.left.tolist() == [0, 1, 2] and c.right.tolist() == [1, 2, 0]
    assert c.winner.tolist() == [0, 2, 1]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("left,right,winner\nx,y,left\nx,x,tie\n", 3, "item 'x' is compared with itself"),
        (
            "left,right,winner\nx,y,left\nx,z,draw\n",
            3,
            "winner 'draw' is not one of 'left', 'right', 'tie'",
        ),
        ("left,right,winner\nx,y,left\n,z,tie\n", 3, "the left item is missing"),
        ("left,right,winner,w\nx,y,left,1\nx,z,tie,-2\n", 3, "weight -2.0"),
    ],
)
def test_a_bad_row_is_one_error_naming_file_and_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(InputError) as err:
        read_comparisons(path, weight="w" if "winner,w" in text else None)
    assert err.value.source == str(path) and err.value.line == line
    assert message in str(err.value)


def test_rows_of_a_frame_are_named_by_number() -> None:
    with pytest.raises(InputError, match=r"<pandas>: item 'a' is compared with itself at row 2"):
        read_comparisons(
            pd.DataFrame({"left": ["a", "a"], "right": ["b", "a"], "winner": ["left"] * 2})
        )


def test_arena_winner_values_map_onto_left_right_tie() -> None:
    arena = {"model_a": "left", "model_b": "right", "tie": "tie", "tie (bothbad)": "tie"}
    c = read_comparisons(
        {"a": ["m1", "m2"], "b": ["m2", "m3"], "winner": ["model_b", "tie (bothbad)"]},
        left="a",
        right="b",
        winners=arena,  # type: ignore[arg-type]
    )
    assert c.winner.tolist() == [1, 2]
    with pytest.raises(OptionError, match="winners"):
        read_comparisons({"left": ["a"], "right": ["b"], "winner": ["x"]}, winners={"x": "won"})  # type: ignore[dict-item]


def test_weights_and_missing_columns_and_empty_input(tmp_path: Path) -> None:
    c = read_comparisons(
        {"left": ["a", "b"], "right": ["b", "c"], "winner": ["left", "left"], "n": [2, 0.5]},
        weight="n",
    )
    assert c.weights is not None and c.weights.tolist() == [2.0, 0.5]
    assert c.item_counts()["wins"].tolist() == [2.0, 0.5, 0.0]
    with pytest.raises(InputError, match="no column 'winner'"):
        read_comparisons(_write(tmp_path, "v.csv", "left,right,outcome\na,b,left\n"))
    with pytest.raises(EmptyInputError):
        read_comparisons(_write(tmp_path, "e.csv", "left,right,winner\n"))


CROWD = "task,worker,label\nt1,w1,1\nt1,w2,0\nt2,w1,2\nt2,w3,10\n"


def test_crowd_labels_codes_and_class_order(tmp_path: Path) -> None:
    labels = read_crowd_labels(_write(tmp_path, "c.csv", CROWD))
    assert labels.tasks == ("t1", "t2") and labels.workers == ("w1", "w2", "w3")
    assert labels.classes == ("0", "1", "2", "10")  # integers: numeric order
    assert labels.label.tolist() == [1, 0, 2, 3]
    text = read_crowd_labels({"task": [1, 1], "worker": [1, 2], "label": ["b", "a"]})
    assert text.classes == ("a", "b")  # text: byte order
    declared = read_crowd_labels(_write(tmp_path, "c.csv", CROWD), labels=[10, 2, 1, 0])
    assert declared.classes == ("10", "2", "1", "0") and declared.label.tolist() == [2, 3, 1, 0]


def test_crowd_kit_frames_read_as_they_are() -> None:
    frame = pd.DataFrame(
        {"worker": ["a", "b"], "task": ["t", "t"], "label": [0, 1], "extra": [1, 2]}
    )
    labels = CrowdLabels.read(frame)
    assert labels.codes().n_tasks == 1 and labels.codes().n_labels == 2


@pytest.mark.parametrize(
    ("text", "options", "line", "message"),
    [
        (CROWD, {"labels": [0, 1, 2]}, 5, "label '10' is not one of the declared labels"),
        (
            "task,worker,label\nt1,w1,1\nt2,w1,0\nt1,w1,0\n",
            {},
            4,
            "worker 'w1' labels task 't1' again",
        ),
        ("task,worker,label\nt1,w1,1\nt2,,0\n", {}, 3, "the worker is missing"),
    ],
)
def test_a_bad_crowd_row_is_one_error_naming_file_and_line(
    tmp_path: Path, text: str, options: dict[str, object], line: int, message: str
) -> None:
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(InputError) as err:
        read_crowd_labels(path, **options)  # type: ignore[arg-type]
    assert err.value.source == str(path) and err.value.line == line
    assert message in str(err.value)


def test_duplicates_kept_on_request_and_bad_options() -> None:
    rows = {"task": ["t", "t"], "worker": ["w", "w"], "label": [1, 0]}
    assert len(read_crowd_labels(rows, duplicates="keep")) == 2
    with pytest.raises(OptionError, match="duplicates"):
        read_crowd_labels(rows, duplicates="drop")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="labels"):
        read_crowd_labels(rows, labels=[1, 1])


def test_gold_codes_from_mapping_series_and_file(tmp_path: Path) -> None:
    labels = read_crowd_labels(
        {"task": ["a", "b", "c"], "worker": ["u"] * 3, "label": ["x", "y", "x"]}
    )
    assert labels.gold_codes({"c": "y"}).tolist() == [-1, -1, 1]
    assert labels.gold_codes(pd.Series({"a": "y", "b": "x"})).tolist() == [1, 0, -1]
    path = _write(tmp_path, "gold.csv", "task,true_label\nb,y\nz,x\n")
    with pytest.raises(InputError, match="gold task 'z'") as err:
        labels.gold_codes(path)
    assert err.value.line == 3
    with pytest.raises(InputError, match=r"gold label .q. at row 1 is not one of the classes"):
        labels.gold_codes({"a": "q"})
