"""Named regression cases of issue 11's input list: each hostile input is refused with one
AssayError naming the file and the line (at the CLI: exit 2 and one stderr line), or read
exactly; nothing is dropped or misaligned without a word."""

from __future__ import annotations

import gzip
import io
import math
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from assay import AssayError, InputError, MetricError, ParseError, Qrels, Run
from assay.agreement import read_ratings
from assay.classification import read_labels
from assay.cli import app
from assay.clustering import read_clustering
from assay.errors import DuplicateError, InputWarning
from assay.fusion import read_votes
from assay.io import streams
from assay.io.segments import read_segments
from assay.metrics.names import parse


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def one_error_line(code: int, err: str, *needles: str) -> None:
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("assay: error: "), lines
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def located(exc: pytest.ExceptionInfo[AssayError], path: Path, line: int | None) -> None:
    assert getattr(exc.value, "source", None) == str(path)
    assert getattr(exc.value, "line", None) == line, str(exc.value)


QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n"
RUN = "q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\nq2 Q0 d1 1 1 r\n"


# ---------------------------------------------------------------- CSV/TSV headers and lines


@pytest.mark.parametrize(("name", "sep"), [("run.csv", ","), ("run.tsv", "\t")])
def test_duplicate_header_names_name_the_header_line(tmp_path: Path, name: str, sep: str) -> None:
    path = write(tmp_path, name, f"\nquery{sep}doc{sep}doc{sep}score\nq{sep}d{sep}e{sep}1\n")
    with pytest.raises(InputError, match="'doc' 2 times") as exc:
        Run.read(path)
    located(exc, path, 2)


def test_a_second_byte_order_mark_is_refused_at_line_1(tmp_path: Path) -> None:
    path = write(tmp_path, "run.csv", b'\xef\xbb\xbf\xef\xbb\xbf"query",doc,score\nq,d,1\n')
    with pytest.raises(ParseError, match="byte order mark") as exc:
        Run.read(path)
    located(exc, path, 1)


def test_undecodable_header_names_name_the_header_line(tmp_path: Path) -> None:
    path = write(tmp_path, "qrels.csv", b"query,d\xffoc,relevance\nq,d,1\n")
    with pytest.raises(ParseError, match="not valid UTF-8") as exc:
        Qrels.read(path)
    located(exc, path, 1)


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("query,doc,score\nq,a,1\nq,b\n", 3, "2 fields, the header has 3"),
        ("query,doc,score\nq,a,1\n\nq,b,x\n", 4, "'x' is not a number"),
        ('query,doc,score\nq,"a\nb",1\nq,c,inf\n', 4, "not finite"),
        ("query,doc,score\r\nq,a,1\r\nq,a,2\r\n", 3, "first at line 2"),
        ("query,doc,score\nq,a,1\n,b,1\n", 3, "query id is missing"),
        ("query,doc,score\nq,a,1\nq,b,1\n\xff,c,1\n", 4, "not valid UTF-8"),
        ('query,doc,score\nq,a,1\n"q,b,1\n', 3, "1 field"),
    ],
)
def test_csv_errors_carry_file_and_line(tmp_path: Path, text: str, line: int, needle: str) -> None:
    path = write(tmp_path, "run.csv", text.encode("utf-8", "surrogateescape"))
    if "\xff" in text:
        path.write_bytes(text.encode("latin-1"))
    with pytest.raises(AssayError) as exc:
        Run.read(path)
    assert needle in str(exc.value)
    located(exc, path, line)
    code, _, err = cli("evaluate", str(write(tmp_path, "q.txt", QRELS)), str(path))
    one_error_line(code, err, f"{path}:{line}:")


def test_jsonl_errors_carry_file_and_line(tmp_path: Path) -> None:
    good = '{"query": "q", "doc": "a", "score": 1}\n'
    path = write(
        tmp_path, "run.jsonl", good.encode() + b'\n{"query": "q", "doc": "\xff", "score": 1}\n'
    )
    with pytest.raises(ParseError, match="not valid UTF-8") as exc:
        Run.read(path)
    located(exc, path, 3)
    path = write(
        tmp_path, "names.jsonl", good.encode() + b'{"\xffquery": "q", "doc": "b", "score": 1}\n'
    )
    with pytest.raises(ParseError) as exc:
        Run.read(path)
    located(exc, path, 2)
    path = write(tmp_path, "null.jsonl", good + '{"query": null, "doc": "b", "score": 1}\n')
    with pytest.raises(InputError, match="missing") as exc:
        Run.read(path)
    located(exc, path, 2)
    path = write(tmp_path, "big.jsonl", good + '{"query": "q", "doc": "b", "score": 1e400}\n')
    with pytest.raises(ParseError, match="too large") as exc:
        Run.read(path)
    located(exc, path, 2)
    with pytest.raises(AssayError, match="empty"):
        Run.read(write(tmp_path, "empty.jsonl", "\n  \n"))


def test_invalid_utf8_parquet_ids_name_the_row(tmp_path: Path) -> None:
    path = tmp_path / "qrels.parquet"
    ids = pa.array([b"q1", b"\xc3"], pa.binary()).cast(pa.string(), safe=False)
    pq.write_table(pa.table({"query": ids, "doc": ["a", "b"], "relevance": [1, 0]}), path)
    with pytest.raises(ParseError, match="row 2"):
        Qrels.read(path)


def test_dictionary_grades_and_half_float_scores_are_read(tmp_path: Path) -> None:
    path = tmp_path / "qrels.parquet"
    grades = pa.array([1, 0, 2], pa.int8()).dictionary_encode()
    pq.write_table(
        pa.table({"query": ["q", "q", "r"], "doc": ["a", "b", "a"], "relevance": grades}), path
    )
    assert Qrels.read(path).to_dict() == {"q": {"a": 1, "b": 0}, "r": {"a": 2}}


def test_hexadecimal_grades_are_refused_everywhere(tmp_path: Path) -> None:
    trec = write(tmp_path, "qrels.txt", "q 0 a 1\nq 0 b 0x10\n")
    with pytest.raises(ParseError, match="hexadecimal") as exc:
        Qrels.read(trec)
    located(exc, trec, 2)
    table = write(tmp_path, "qrels.csv", "query,doc,relevance\nq,a,0xFFFFFFFFFFFFFFFF\n")
    with pytest.raises(InputError, match="hexadecimal") as exc:
        Qrels.read(table)
    located(exc, table, 2)
    # A leading '+' is C's atol's (trec_eval's) and is read the same in every format.
    assert Qrels.read(write(tmp_path, "plus.csv", "query,doc,relevance\nq,a,+2\n")).to_dict() == {
        "q": {"a": 2}
    }


# ---------------------------------------------------------------- bounded reading


@pytest.fixture
def small_lines(monkeypatch: pytest.MonkeyPatch) -> int:
    """A 64 KiB line limit, so that endless inputs are refused quickly."""
    monkeypatch.setattr(streams, "MAX_LINE_BYTES", 1 << 16)
    return 1 << 16


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize(
    "read",
    [
        lambda p: Run.read(p),
        lambda p: Qrels.read(p, format="csv"),
        lambda p: Run.read(p, format="jsonl"),
        read_labels,
        read_clustering,
        read_votes,
        read_ratings,
        read_segments,
    ],
)
def test_dev_zero_is_refused_not_read_until_memory_runs_out(small_lines: int, read: object) -> None:
    with pytest.raises(ParseError, match="without a line end") as exc:
        read("/dev/zero")  # type: ignore[operator]
    assert exc.value.source == "/dev/zero" and exc.value.line == 1


def test_dev_zero_as_parquet_is_refused() -> None:
    with pytest.raises(ParseError, match="not a Parquet file"):
        Run.read("/dev/zero", format="parquet")


def test_a_gzip_bomb_without_line_ends_is_refused(tmp_path: Path, small_lines: int) -> None:
    bomb = write(tmp_path, "run.txt", gzip.compress(b"q Q0 d 1 1 r\n" + b"\0" * (4 * small_lines)))
    with pytest.raises(ParseError, match="without a line end") as exc:
        Run.read(bomb)
    located(exc, bomb, 2)


def test_truncated_gzip_is_refused_by_every_reader(tmp_path: Path) -> None:
    cut = gzip.compress(RUN.encode() * 50, mtime=0)[:-12]
    for name, read in [("run.txt", Run.read), ("run.csv", Run.read), ("l.txt", read_labels)]:
        with pytest.raises(ParseError, match="gzip"):
            read(write(tmp_path, name, cut))


def test_closed_standard_input_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(ParseError, match="standard input is closed"):
        Run.read("-")


def test_csv_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"query,doc,score\nq,a,1\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert Run.read("-", format="csv").to_dict() == {"q": {"a": 1.0}}


# ---------------------------------------------------------------- metric names


@pytest.mark.parametrize(
    "name", ["P@1e400", "P@nan", "P@inf", "P.1e400", "P_1e400", "P@1_000", "P@\u0967", "ndcg@1e30"]
)
def test_cutoffs_that_are_not_decimal_integers_are_metric_errors(tmp_path: Path, name: str) -> None:
    with pytest.raises(MetricError):
        parse(name)
    code, _, err = cli(
        "evaluate", str(write(tmp_path, "q", QRELS)), str(write(tmp_path, "r", RUN)), "-m", name
    )
    one_error_line(code, err)


def test_large_cutoffs_are_exact_and_names_parse_in_linear_time() -> None:
    assert str(parse("R@99999999999999999999")[0]) == "R@99999999999999999999"
    assert parse(" " * 20_000 + "map" + " " * 20_000) == parse("map")
    with pytest.raises(MetricError, match="longer than"):
        parse("ndcg(gain=" + "[" * 50_000 + ")")
    with pytest.raises(MetricError, match="given twice"):
        parse("P(rel=1, rel=2)")


# ---------------------------------------------------------------- ids and dicts


def test_a_double_quote_in_a_doc_id_goes_through_fuse(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", 'q Q0 say"hi" 1 2 a\nq Q0 b 2 1 a\n')
    b = write(tmp_path, "b.txt", 'q Q0 b 1 2 b\nq Q0 say"hi" 2 1 b\n')
    code, out, err = cli("fuse", str(a), str(b), "-m", "combsum", "-n", "none")
    assert code == 0, err
    assert sorted(line.split()[2] for line in out.splitlines()) == ["b", 'say"hi"']


@pytest.mark.parametrize("value", [[1, 2], [1], {"x": 1}, None, "1", b"1"])
def test_nested_and_odd_dict_values_are_refused(value: object) -> None:
    with pytest.raises(InputError, match=r"\['q'\]\['d'\]"):
        Run.from_dict({"q": {"d": value, "e": [2]}})
    with pytest.raises(InputError, match=r"\['q'\]\['d'\]"):
        Qrels.from_dict({"q": {"d": value}})


@pytest.mark.parametrize("key", [None, b"d", ("a", "b"), True, 1.5, "bad\ud800"])
def test_dict_keys_that_are_not_ids_are_refused(key: object) -> None:
    with pytest.raises(InputError, match="id"):
        Run.from_dict({"q": {key: 1.0}})
    with pytest.raises(InputError, match="id"):
        Qrels.from_dict({key: {"d": 1}})


@pytest.mark.parametrize("args", [["--queries", "-3"], ["--seed", "-1"], ["--queries", "0"]])
def test_demo_refuses_bad_sizes_and_seeds(args: list[str]) -> None:
    code, _, err = cli("demo", *args)
    one_error_line(code, err)


# ---------------------------------------------------------------- one value per line


@pytest.mark.parametrize("sep", ["\x0b", "\x0c", "\x1c", "\u0085", "\u2028", "\u2029"])
def test_one_value_per_line_files_split_only_at_line_feeds(tmp_path: Path, sep: str) -> None:
    gold = write(tmp_path, "gold.txt", "a\nb\n")
    pred = write(tmp_path, "pred.txt", f"b{sep}a\nb\n")
    assert read_labels(pred) == [f"b{sep}a", "b"]
    code, out, err = cli("classify", str(gold), str(pred), "-f", "json")
    assert code == 0, err
    assert '"accuracy"' in out and '"value": 0.5' in out.split('"accuracy"')[1][:80]
    # Within a line, ASCII white space (\v and \f too) separates candidates and items;
    # other characters belong to them.
    words = ["x", "y", "z"] if sep in "\x0b\x0c" else [f"x{sep}y", "z"]
    assert read_votes(write(tmp_path, "v.txt", f"x{sep}y z\n")) == [words]
    clusters = read_clustering(write(tmp_path, "c.txt", f"x{sep}y z\n")).clusters
    assert clusters == [dict.fromkeys(words, 1.0)]


def test_a_lone_carriage_return_is_refused_in_line_files_and_warned_in_trec(tmp_path: Path) -> None:
    for read in (read_labels, read_votes, read_clustering):
        path = write(tmp_path, "x.txt", "a\nb\rc\n")
        with pytest.raises(ParseError, match="carriage return") as exc:
            read(path)
        located(exc, path, 2)
    run = write(tmp_path, "run.txt", "q Q0 a 1 1 r\rq Q0 b 2 0 r\r")
    with pytest.warns(InputWarning, match="2 carriage returns"):
        assert len(Run.read(run)) == 1


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("label\na\rb\n", 2, "carriage return"),
        ("label\na\n" + "x" * 200_000 + "\n", 3, "longer than"),
        ('label\na\n"b\nc\n', 3, "never closed"),
        ("label,label\na,b\n", 1, "2 times"),
    ],
)
def test_classify_and_agree_csv_cells(tmp_path: Path, text: str, line: int, needle: str) -> None:
    path = write(tmp_path, "gold.csv", text)
    code, _, err = cli("classify", str(path), str(path), "-c", "label")
    one_error_line(code, err, f"{path}:{line}:", needle)
    ratings = write(
        tmp_path, "r.csv", text.replace("label", "a,b", 1).replace("\na\n", "\n1,2\n", 1)
    )
    code, _, err = cli("agree", str(ratings))
    assert code == 2 and err.startswith("assay: error: "), err


def test_multi_word_items_in_cluster_files(tmp_path: Path) -> None:
    clusters = write(tmp_path, "c.txt", '"new york" boston\n"los angeles":0.5 "say ""hi"""\n')
    assert read_clustering(clusters).clusters == [
        {"new york": 1.0, "boston": 1.0},
        {"los angeles": 0.5, 'say "hi"': 1.0},
    ]
    labels = write(tmp_path, "l.txt", 'new york\tc1\nboston\tc1\nlos angeles\tc2\nsay "hi"\tc2\n')
    code, out, err = cli("cluster", str(clusters), str(labels), "-f", "json")
    assert code == 0 and '"items"' in out, err
    with pytest.raises(ParseError, match="closing quote") as exc:
        read_clustering(write(tmp_path, "bad.txt", 'a b\n"new york\n'))
    assert exc.value.line == 2


# ---------------------------------------------------------------- assay agree


@pytest.mark.parametrize("id_name", ["task", "doc", "sentence", "HITId", "item_id", "", "id"])
def test_agree_takes_a_named_id_column_for_ids_not_a_rater(tmp_path: Path, id_name: str) -> None:
    text = f"{id_name},a,b,c\nt1,1,2,1\nt2,2,2,2\nt3,1,1,1\nt4,3,3,1\n"
    ratings = read_ratings(write(tmp_path, "r.csv", text))
    assert ratings.raters == ["a", "b", "c"] and ratings.id_column == id_name
    assert ratings.units == ["t1", "t2", "t3", "t4"]
    code, out, err = cli("agree", str(tmp_path / "r.csv"), "-f", "json")
    assert code == 0, err
    assert f"unit ids from column '{id_name}'" in out


def test_agree_refuses_a_column_that_only_looks_like_ids(tmp_path: Path) -> None:
    path = write(tmp_path, "r.csv", "x,a,b\nfoo,pos,neg\nbar,neg,neg\nbaz,pos,pos\n")
    code, _, err = cli("agree", str(path))
    one_error_line(code, err, "'x' looks like an id column", "--id-column", "--no-id-column")
    assert read_ratings(path, id_column="x").raters == ["a", "b"]
    assert read_ratings(path, id_column=False).raters == ["x", "a", "b"]


def test_agree_orientation_matches_krippendorff_reliability_data(tmp_path: Path) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    import numpy as np

    data = [[1, 2, 3, 3, 2, 1], [1, 2, 3, 3, 2, 2], [np.nan, 3, 3, 3, 2, 1]]  # raters x units
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    text = "rater," + ",".join(f"u{j}" for j in range(6)) + "\n"
    text += "".join(
        f"c{i}," + ",".join("" if math.isnan(v) else f"{v:g}" for v in row) + "\n"
        for i, row in enumerate(data)
    )
    path = write(tmp_path, "rel.csv", text)
    code, out, err = cli("agree", str(path), "--orientation", "raters-by-units", "-f", "json")
    assert code == 0, err
    assert (
        "raters × units" in out.encode().decode("unicode_escape") or "raters \\u00d7 units" in out
    )
    import json

    alpha = next(r["value"] for r in json.loads(out)["results"] if r["metric"] == "alpha")
    assert alpha == pytest.approx(expected, abs=1e-12)
    # Read the default way, the rater column is named as such: refused, with the remedy.
    code, _, err = cli("agree", str(path))
    one_error_line(code, err, "orientation raters-by-units")


def test_agree_long_files_name_their_columns_and_refuse_repeats(tmp_path: Path) -> None:
    path = write(
        tmp_path, "mturk.csv", "HITId,WorkerId,Answer,Extra\nh1,w1,yes,x\nh1,w2,no,y\nh2,w1,yes,z\n"
    )
    code, _, err = cli("agree", str(path))
    one_error_line(code, err, "'WorkerId' holds rater ids")
    ratings = read_ratings(
        path, unit_column="HITId", rater_column="WorkerId", value_column="Answer"
    )
    assert (
        ratings.layout == "long"
        and ratings.units == ["h1", "h2"]
        and ratings.raters == ["w1", "w2"]
    )
    dup = write(tmp_path, "dup.csv", "unit,rater,value\nu1,A,1\nu2,A,1\nu1,A,2\n")
    with pytest.raises(DuplicateError, match="first on line 2") as exc:
        read_ratings(dup)
    located(exc, dup, 4)


def test_agree_warns_which_way_a_square_table_was_read(tmp_path: Path) -> None:
    path = write(tmp_path, "sq.csv", "id,a,b\nu1,1,2\nu2,2,2\n")
    code, _, err = cli("agree", str(path), "-f", "tsv")
    assert code == 0 and "units × raters" in err and "--orientation" in err


def test_a_long_csv_field_is_refused_whatever_the_csv_module_allows(tmp_path: Path) -> None:
    # csv.field_size_limit is process-wide: code around assay may raise it.
    import csv

    path = write(tmp_path, "gold.csv", "label\na\n" + "x" * 200_000 + "\n")
    old = csv.field_size_limit(2**31 - 1)
    try:
        code, _, err = cli("classify", str(path), str(path), "-c", "label")
    finally:
        csv.field_size_limit(old)
    one_error_line(code, err, f"{path}:3:", "longer than 131072")
