"""Bad input files and frames: every case raises a typed error under ``assay.AssayError``
whose message says where (file and 1-based line, or row) and what was expected."""

from __future__ import annotations

import gzip
import io
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from assay import (
    AssayError,
    DuplicateError,
    EmptyInputError,
    InputError,
    InputWarning,
    OptionError,
    ParseError,
    Qrels,
    Run,
)
from support.io import write


def check(
    exc: pytest.ExceptionInfo[InputError], path: Path | str, line: int | None, *needles: str
) -> str:
    """The message starts with ``path:line:`` and contains every needle."""
    message = str(exc.value)
    assert isinstance(exc.value, AssayError)
    assert exc.value.source == str(path)
    assert exc.value.line == line
    prefix = f"{path}:{line}: " if line is not None else f"{path}: "
    assert message.startswith(prefix), message
    for needle in needles:
        assert needle in message, (needle, message)
    assert "\n" not in message
    return message


GOOD_QRELS = "1 0 a 1\n1 0 b 0\n2 0 a 2\n"


GOOD_RUN = "1 Q0 a 1 2.5 t\n1 Q0 b 2 1.5 t\n2 Q0 a 1 0.5 t\n"


# (reader, file text, error type, line, fragments of the message)
TEXT_CASES = {
    "qrels-3-fields": (
        Qrels,
        GOOD_QRELS + "3 0 c\n",
        ParseError,
        4,
        ["expected exactly 4", "found 3", "'3 0 c'"],
    ),
    "qrels-5-fields": (
        Qrels,
        "1 0 a 1 extra\n" + GOOD_QRELS,
        ParseError,
        1,
        ["expected exactly 4", "found 5"],
    ),
    "qrels-5-fields-later": (
        Qrels,
        GOOD_QRELS + "3 0 c 1 extra\n",
        ParseError,
        4,
        ["expected exactly 4", "found 5"],
    ),
    "qrels-run-given": (Qrels, GOOD_RUN, ParseError, 1, ["expected exactly 4", "found 6"]),
    "run-5-fields": (
        Run,
        GOOD_RUN + "3 Q0 c 1 0.5\n",
        ParseError,
        4,
        ["expected at least 6", "found 5"],
    ),
    "run-qrels-given": (Run, GOOD_QRELS, ParseError, 1, ["expected at least 6", "found 4"]),
    "score-text": (
        Run,
        GOOD_RUN + "3 Q0 c 1 high t\n",
        ParseError,
        4,
        ["score 'high' is not a number"],
    ),
    "score-comma": (
        Run,
        "# c\n" + GOOD_RUN + "3 Q0 c 1 0,5 t\n",
        ParseError,
        5,
        ["score '0,5' is not a number"],
    ),
    "score-nan": (Run, GOOD_RUN + "3 Q0 c 1 nan t\n", ParseError, 4, ["'nan'", "not finite"]),
    "score-inf": (Run, GOOD_RUN + "3 Q0 c 1 inf t\n", ParseError, 4, ["'inf'", "not finite"]),
    "score-minus-inf": (Run, "3 Q0 c 1 -Infinity t\n" + GOOD_RUN, ParseError, 1, ["not finite"]),
    "score-overflow": (
        Run,
        GOOD_RUN + "3 Q0 c 1 1e400 t\n",
        ParseError,
        4,
        ["'1e400'", "not finite"],
    ),
    "grade-fraction": (
        Qrels,
        GOOD_QRELS + "3 0 c 1.5\n",
        ParseError,
        4,
        ["relevance grade '1.5' is not an integer"],
    ),
    "grade-text": (
        Qrels,
        GOOD_QRELS + "\n3 0 c yes\n",
        ParseError,
        5,
        ["relevance grade 'yes' is not an integer"],
    ),
    "grade-too-big": (
        Qrels,
        GOOD_QRELS + "3 0 c 3000000000\n",
        InputError,
        4,
        ["3000000000", "out of range"],
    ),
    "qrels-duplicate": (
        Qrels,
        GOOD_QRELS + "2 0 b 0\n1 0 a 0\n",
        DuplicateError,
        5,
        ["query '1', document 'a'", "first at line 1"],
    ),
    "run-duplicate": (
        Run,
        GOOD_RUN + "1 Q0 b 9 0.1 t\n",
        DuplicateError,
        4,
        ["query '1', document 'b'", "first at line 2"],
    ),
    "empty-qrels": (Qrels, "", EmptyInputError, None, ["no qrels lines"]),
    "empty-run": (Run, "", EmptyInputError, None, ["no run lines"]),
    "only-comments": (
        Run,
        "# one\n# two\n",
        EmptyInputError,
        None,
        ["no run lines", "only comments"],
    ),
    "only-blank": (Qrels, "\n  \n\t\r\n", EmptyInputError, None, ["no qrels lines"]),
    "bad-utf8": (Qrels, b"1 0 a 1\n1 0 b 0\n1 0 \xff\xfe 1\n", ParseError, 3, ["not valid UTF-8"]),
    "bad-utf8-after-comments": (
        Run,
        b"# c\r\n\r\n" + GOOD_RUN.encode() + b"2 Q0 \xc3( 1 1 t\n",
        ParseError,
        6,
        ["not valid UTF-8"],
    ),
    # trec_eval ends lines at "\n" only: a bare "\r" is white space inside a line.
    "bare-cr": (Qrels, "1 0 a 1\r1 0 b 0\n", ParseError, 1, ["found 8"]),
    "vertical-tab": (Qrels, "1 0 a\x0bb 1\n", ParseError, 1, ["found 5"]),
}


@pytest.mark.parametrize("case", list(TEXT_CASES))
def test_text_errors(case: str, tmp_path: Path) -> None:
    reader, text, error, line, needles = TEXT_CASES[case]
    path = write(tmp_path, f"{case}.txt", text)
    lone_cr = "\r" in text.replace("\r\n", "") if isinstance(text, str) else False
    with pytest.raises(error) as exc, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader.from_trec(path)
    check(exc, path, line, *needles)
    assert any(issubclass(w.category, InputWarning) for w in caught) == lone_cr


@pytest.mark.parametrize(
    "case",
    ["qrels-3-fields", "qrels-duplicate", "grade-text", "score-nan", "run-duplicate", "bad-utf8"],
)
def test_text_errors_same_through_gzip_and_stdin(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, text, error, line, needles = TEXT_CASES[case]
    data = text.encode() if isinstance(text, str) else text
    path = write(tmp_path, "in.gz", gzip.compress(data))
    with pytest.raises(error) as exc:
        reader.from_trec(path)
    check(exc, path, line, *needles)

    class Stdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr("sys.stdin", Stdin())
    with pytest.raises(error) as exc:
        reader.from_trec("-")
    check(exc, "<stdin>", line, *needles)


def test_error_line_is_the_files_own_line_on_the_fast_path(tmp_path: Path) -> None:
    # Nothing in the first 5,000 lines sends the reader to the exact path; the error is at
    # the very end, and is reported at the file's own line.
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {1 / (i + 1)!r} t" for i in range(5000)]
    path = write(tmp_path, "run", "\n".join([*lines, "q9 Q0 x 1 oops t"]) + "\n")
    with pytest.raises(ParseError) as exc:
        Run.from_trec(path)
    check(exc, path, 5001, "score 'oops' is not a number")
    path = write(tmp_path, "run2", "\n".join([*lines, "q0 Q0 d5 1 1.0 t"]) + "\n")
    with pytest.raises(DuplicateError) as exc2:
        Run.from_trec(path)
    check(exc2, path, 5001, "first at line 6")


def test_duplicate_reports_the_earliest_repeat(tmp_path: Path) -> None:
    # Query 'b' repeats at line 3; query 'a' (which sorts first) repeats at line 6.
    text = "b 0 x 1\nc 0 y 1\nb 0 x 0\na 0 z 1\nc 0 w 1\na 0 z 1\nb 0 x 2\n"
    path = write(tmp_path, "qrels", text)
    with pytest.raises(DuplicateError) as exc:
        Qrels.from_trec(path)
    check(exc, path, 3, "query 'b', document 'x'", "first at line 1", "3 repeated row(s)")


def test_missing_file_and_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    for reader in (
        Qrels.from_trec,
        Run.from_trec,
        Qrels.read,
        Run.read,
        Run.from_csv,
        Run.from_parquet,
        Qrels.from_jsonl,
    ):
        with pytest.raises(InputError) as exc:
            reader(missing)
        check(exc, missing, None, "no such file")
    for reader in (Qrels.from_trec, Run.from_csv):
        with pytest.raises(InputError) as exc:
            reader(tmp_path)
        check(exc, tmp_path, None, "is a directory")


def test_corrupt_gzip(tmp_path: Path) -> None:
    path = write(tmp_path, "run.gz", gzip.compress(GOOD_RUN.encode())[:20])
    with pytest.raises(ParseError) as exc:
        Run.from_trec(path)
    check(exc, path, None, "not a valid gzip file")


def test_unknown_format(tmp_path: Path) -> None:
    path = write(tmp_path, "q.txt", GOOD_QRELS)
    with pytest.raises(OptionError) as exc:
        Qrels.read(path, format="xml")
    message = str(exc.value)
    assert message.startswith(f"{path}: format must be one of trec, csv, tsv, parquet, jsonl")
    assert "got 'xml'" in message


def test_text_stream_is_refused() -> None:
    with pytest.raises(InputError, match="binary stream"):
        Run.from_trec(io.StringIO(GOOD_RUN))  # type: ignore[arg-type]


def test_csv_missing_column_names_the_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "run.csv", "qid,docno,sim\n1,a,0.5\n")
    with pytest.raises(InputError) as exc:
        Run.from_csv(path, query="qid", doc="doc", score="sim")
    check(
        exc,
        path,
        1,
        "no column 'doc' for the doc",
        "columns: 'qid', 'docno', 'sim'",
        "doc='<column>'",
    )
    with pytest.raises(InputError) as exc:
        Qrels.from_csv(path)
    check(exc, path, 1, "no column 'query'")


@pytest.mark.parametrize(
    ("text", "line", "needles"),
    [
        ("query,doc,score\n1,a,0.5\n,b,0.25\n", 3, ["query id is missing", "line 3"]),
        ("query,doc,score\n1,a,0.5\n1,,0.25\n", 3, ["document id is missing", "line 3"]),
        ("query,doc,score\n1,a,0.5\n1,b,\n", 3, ["score is missing", "line 3"]),
        ("query,doc,score\n1,a,0.5\n1,b,n/a\n1,c,1\n", 3, ["score 'n/a' is not a number"]),
        ("query,doc,score\n1,a,0.5\n1,b,nan\n", 3, ["not finite", "line 3"]),
        (
            "query,doc,score\n1,a,0.5\n1,b,0.25\n1,a,1\n",
            4,
            ["duplicate", "first at line 2"],
        ),
        ("query,doc,score\n", 2, ["no data rows"]),
        ("query,doc,score", 2, ["no data rows"]),  # no line end: Arrow cannot infer columns
        ("", None, ["empty"]),
    ],
)
def test_csv_run_errors(text: str, line: int | None, needles: list[str], tmp_path: Path) -> None:
    path = write(tmp_path, "run.csv", text)
    with pytest.raises(InputError) as exc:
        Run.from_csv(path)
    check(exc, path, line, *needles)


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        (
            "query,doc,relevance\n1,a,1\n1,b,0.5\n",
            ["relevance grade '0.5' is not an integer", "line 3"],
        ),
        (
            "query,doc,relevance\n1,a,1\n1,b,high\n",
            ["relevance grade 'high' is not an integer", "line 3"],
        ),
        ("query,doc,relevance\n1,a,1\n1,b,\n", ["relevance grade is missing", "line 3"]),
    ],
)
def test_csv_qrels_errors(text: str, needles: list[str], tmp_path: Path) -> None:
    path = write(tmp_path, "qrels.csv", text)
    with pytest.raises(InputError) as exc:
        Qrels.from_csv(path)
    check(exc, path, 3, *needles)


def test_jsonl_errors_name_the_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "r.jsonl",
        '{"query": "1", "doc": "a", "score": 1}\n{"query": "1", "doc": 7, "score": 2}\n',
    )
    with pytest.raises(ParseError) as exc:
        Run.from_jsonl(path)
    check(exc, path, 2, "field 'doc' is a number here but a string on line 1")
    path = write(tmp_path, "r2.jsonl", '{"query": "1", "doc": "a", "score": 1}\n\n{"query": \n')
    with pytest.raises(ParseError) as exc:
        Run.from_jsonl(path)
    check(exc, path, 3, "invalid JSON")
    lone = '{"query": "1", "doc": "a", "score": 1}\n{"query": "1", "doc": "b\\ud800", "score": 2}\n'
    path = write(tmp_path, "r3.jsonl", lone)  # Python's json accepts it, Arrow refuses
    with pytest.raises(ParseError) as exc:
        Run.from_jsonl(path)
    check(exc, path, 2, "lone surrogate")


def test_parquet_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "r.parquet", b"not parquet at all")
    with pytest.raises(ParseError) as exc:
        Run.from_parquet(path)
    check(exc, path, None, "cannot read as Parquet")


def test_pandas_null_and_bad_values() -> None:
    pd = pytest.importorskip("pandas")
    cases = [
        ({"query": ["a", None], "doc": ["x", "y"], "score": [1.0, 2.0]}, "query id is missing"),
        ({"query": [1, None], "doc": ["x", "y"], "score": [1.0, 2.0]}, "query id is missing"),
        ({"query": ["a", "a"], "doc": ["x", None], "score": [1.0, 2.0]}, "document id is missing"),
        ({"query": ["a", "a"], "doc": ["x", "y"], "score": [1.0, np.nan]}, "score is missing"),
        ({"query": ["a", "a"], "doc": ["x", "y"], "score": [1.0, np.inf]}, "not finite"),
        ({"query": ["a", "a"], "doc": ["x", ""], "score": [1.0, 2.0]}, "document id is empty"),
        (
            {"query": ["a", "a"], "doc": ["x", "y"], "score": ["1", "many"]},
            "score 'many' is not a number",
        ),
        ({"query": ["a", "a"], "doc": ["x", "x"], "score": [1.0, 2.0]}, "duplicate"),
    ]
    for data, needle in cases:
        with pytest.raises(InputError) as exc:
            Run.from_pandas(pd.DataFrame(data))
        check(exc, "<pandas>", None, needle, "row 2")
    with pytest.raises(InputError) as exc:
        Run.from_pandas(pd.DataFrame({"query": [1, "a"], "doc": ["x", "y"], "score": [1, 2]}))
    check(exc, "<pandas>", None, "column query")
    with pytest.raises(InputError) as exc:
        Run.from_pandas(pd.DataFrame({"query": [1.5], "doc": ["x"], "score": [1.0]}))
    check(exc, "<pandas>", None, "query ids must be strings or integers")
    with pytest.raises(InputError, match=re.escape("expected a pandas.DataFrame")):
        Run.from_pandas({"query": ["a"]})  # type: ignore[arg-type]


def test_polars_null_ids() -> None:
    pl = pytest.importorskip("polars")
    with pytest.raises(InputError) as exc:
        Qrels.from_polars(
            pl.DataFrame(
                {"query": ["a", None, "b"], "doc": ["x", "y", "z"], "relevance": [1, 0, 2]}
            )
        )
    check(exc, "<polars>", None, "query id is missing (null) at row 2")
    with pytest.raises(InputError) as exc:
        Qrels.from_polars(
            pl.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "relevance": [1, None]})
        )
    check(exc, "<polars>", None, "relevance grade is missing (null) at row 2")


def test_dict_errors() -> None:
    with pytest.raises(InputError) as exc:
        Run.from_dict({"q": {"a": 1.0, "b": "high"}})
    check(exc, "<dict>", None, "run['q']['b'] = 'high' is not a number")
    with pytest.raises(InputError) as exc:
        Run.from_dict({"q": {"a": None}})
    check(exc, "<dict>", None, "run['q']['a'] = None is not a number")
    with pytest.raises(InputError) as exc:
        Run.from_dict({"q": {"a": float("nan")}})
    check(exc, "<dict>", None, "not finite")
    with pytest.raises(InputError) as exc:
        Qrels.from_dict({"q": {"a": 1, "b": 0.5}})
    check(exc, "<dict>", None, "qrels['q']['b'] = 0.5 is not an integer grade")
    with pytest.raises(InputError) as exc:
        Qrels.from_dict({"q": {"a": 2**40}})
    check(exc, "<dict>", None, "out of range")
    with pytest.raises(InputError) as exc:
        Qrels.from_dict({"q": [("a", 1)]})  # type: ignore[dict-item]
    check(exc, "<dict>", None, "qrels['q'] must be a mapping")
    with pytest.raises(EmptyInputError) as exc2:
        Run.from_dict({})
    check(exc2, "<dict>", None, "no results")
    with pytest.raises(InputError) as exc:
        Qrels.from_dict({"": {"a": 1}})
    check(exc, "<dict>", None, "query id is empty")


def test_columns_length_mismatch() -> None:
    with pytest.raises(InputError, match="differ in length"):
        Run.from_columns(["q", "q"], ["a"], [1.0, 2.0])


def test_unwritable_ids_are_refused_not_mangled(tmp_path: Path) -> None:
    # Written as TREC text, these would read back as other ids, or as a comment line.
    for data, needle in [
        ({"q 1": {"d": 1.0}}, "query id 'q 1'"),
        ({"q": {"d\t1": 1.0}}, "document id 'd\\t1'"),
        ({"#q": {"d": 1.0}}, "query id '#q'"),
    ]:
        with pytest.raises(InputError, match=re.escape(needle)):
            Run.from_dict(data).to_trec(tmp_path / "out")
    with pytest.raises(InputError, match="white space"):
        Qrels.from_dict({"q": {"a b": 1}}).to_trec(tmp_path / "out")
    # A '#' inside a docno is fine.
    Qrels.from_dict({"q": {"#a": 1}}).to_trec(tmp_path / "ok")
    assert Qrels.from_trec(tmp_path / "ok").to_dict() == {"q": {"#a": 1}}


@pytest.mark.parametrize("grade", ["0x10", "0XFFFFFFFFFFFFFFFF"])
@pytest.mark.parametrize("fmt", ["trec", "csv"])
def test_hexadecimal_grades_are_refused(tmp_path, grade, fmt):
    # Arrow would read 0x10 as 16 where trec_eval's atol reads 0: neither is taken silently.
    if fmt == "trec":
        path = tmp_path / "qrels.txt"
        path.write_text(f"q1 0 d1 1\nq1 0 d2 {grade}\n")
    else:
        path = tmp_path / "qrels.csv"
        path.write_text(f"query,doc,relevance\nq1,d1,1\nq1,d2,{grade}\n")
    with pytest.raises(ParseError if fmt == "trec" else InputError, match="hexadecimal") as exc:
        Qrels.read(path)
    assert str(path) in str(exc.value)
