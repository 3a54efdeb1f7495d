"""Readers and writers: TREC text (fast and exact paths), CSV/TSV, Parquet, JSON Lines,
pandas and polars data frames, nested dicts, and exact round trips."""

from __future__ import annotations

import gzip
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay import Qrels, Run
from assay.io import text as _text
from conftest import shared_file
from strategies.io import hard_doubles, trec_ids, trec_scores
from support.io import (
    assert_same_qrels,
    assert_same_run,
    expected_qrels,
    expected_run,
    qrels_text,
    run_text,
    write,
)

# ---------------------------------------------------------------- helpers


class PathSpy:
    """Counts which reader path ran, so that a "fast vs exact" test cannot silently compare
    the exact path with itself."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fast = 0  # fast path returned columns
        self.exact = 0
        real_fast, real_exact = _text._fast, _text._exact

        def fast(*args, **kwargs):  # type: ignore[no-untyped-def]
            out = real_fast(*args, **kwargs)
            self.fast += out is not None
            return out

        def exact(*args, **kwargs):  # type: ignore[no-untyped-def]
            self.exact += 1
            return real_exact(*args, **kwargs)

        monkeypatch.setattr(_text, "_fast", fast)
        monkeypatch.setattr(_text, "_exact", exact)

    def reset(self) -> None:
        self.fast = self.exact = 0

    @property
    def path(self) -> str:
        assert self.fast + self.exact == 1, (self.fast, self.exact)
        return "fast" if self.fast else "exact"


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> PathSpy:
    return PathSpy(monkeypatch)


# ---------------------------------------------------------------- trec_eval's own files


def test_qrels_test(trec_dir: Path) -> None:
    qrels = Qrels.from_trec(trec_dir / "qrels.test")
    assert qrels.queries == ["301", "302", "303"]
    assert len(qrels) == 3681
    assert qrels.max_grade == 1
    assert qrels.source == str(trec_dir / "qrels.test")
    first = next(iter(qrels))
    assert first[0] == "301"


def test_qrels_with_comments_keeps_hash_inside_docno(trec_dir: Path) -> None:
    plain = Qrels.from_trec(trec_dir / "qrels.test")
    commented = Qrels.from_trec(trec_dir / "qrels.test.with-comments")
    # Three '#' lines are comments; 'CR#93E-1860' (a '#' inside a docno) is data.
    expected = {(q, "CR#93E-1860" if d == "CR93E-1860" else d, g) for q, d, g in plain}
    assert set(commented) == expected
    assert len(commented) == len(plain) == 3681


def test_results_test_tab_separated_with_padded_scores(trec_dir: Path) -> None:
    # "301\tQ0\tFR940202-2-00150\t104\t  2.129133\tSTANDARD": spaces inside a tab field.
    run = Run.from_trec(trec_dir / "results.test")
    assert run.name == "results.test"
    assert run.tag == "STANDARD"
    assert len(run) == 1500 and run.queries == ["301", "302", "303"]
    scores = run.to_dict()
    assert scores["301"]["FR940202-2-00150"] == 2.129133
    assert scores["301"]["FR940202-2-00151"] == 1.724760


def test_results_trunc_ignores_junk_after_sixth_column(trec_dir: Path) -> None:
    # "301\tQ0\tFBIS3-27619\t99\t  2.138276\tSTANDARD more junk at"
    run = Run.from_trec(trec_dir / "results.trunc")
    assert len(run) == 584
    assert run.queries == ["301", "303"]
    assert run.tag == "STANDARD"
    scores = run.to_dict()
    assert scores["301"]["FBIS3-27619"] == 2.138276
    assert scores["303"]["FT941-17652"] == 1.857372
    lines = (trec_dir / "results.trunc").read_text().splitlines()
    assert {(ln.split()[0], ln.split()[2]) for ln in lines} == {
        (q, d) for q, docs in scores.items() for d in docs
    }


def test_comment_test_files_with_hash_in_docnos(trec_dir: Path) -> None:
    qrels = Qrels.from_trec(trec_dir / "qrels.comment.test")
    run = Run.from_trec(trec_dir / "results.comment.test")
    assert (qrels.n_queries, len(qrels), qrels.max_grade) == (31, 5890, 3)
    assert (run.n_queries, len(run)) == (301, 30100)
    first = (trec_dir / "results.comment.test").read_text().split("\n", 1)[0].split()
    assert first[2] == "msmarco_v2.1_doc_50_2286987788#13_3087841662"
    assert run.to_dict()[first[0]][first[2]] == float(first[4])
    assert all("#" in d for _, d, _ in qrels)


def test_real_qrels_fast_and_exact_paths_agree(
    trec_dir: Path, tmp_path: Path, spy: PathSpy
) -> None:
    data = (trec_dir / "qrels.test").read_bytes()
    fast = Qrels.from_trec(trec_dir / "qrels.test")
    assert spy.path == "fast"
    spy.reset()
    exact = Qrels.from_trec(write(tmp_path, "commented", b"# a comment\n" + data))
    assert spy.path == "exact"
    assert_same_qrels(fast, exact)


def test_real_run_fast_and_exact_paths_agree(trec_dir: Path, tmp_path: Path, spy: PathSpy) -> None:
    # results.test has padded scores, so it needs the exact path; re-joined with single
    # spaces the same rows take the fast path.
    exact = Run.from_trec(trec_dir / "results.test")
    assert spy.path == "exact"
    spy.reset()
    lines = (trec_dir / "results.test").read_text().splitlines()
    joined = "".join(" ".join(ln.split()) + "\n" for ln in lines)
    fast = Run.from_trec(write(tmp_path, "results.test", joined))
    assert spy.path == "fast"
    assert_same_run(exact, fast)


# ---------------------------------------------------------------- text variants

VARIANTS = {
    # name: (qrels text, run text, path taken for both)
    "space": (qrels_text(), run_text(), "fast"),
    "tab": (qrels_text("\t"), run_text("\t"), "fast"),
    "crlf": (qrels_text(eol="\r\n"), run_text(eol="\r\n"), "fast"),
    "tab-crlf": (qrels_text("\t", "\r\n"), run_text("\t", "\r\n"), "fast"),
    "extra-column": (qrels_text(), run_text(extra=" 7"), "fast"),
    "extra-columns-with-spaces": (
        qrels_text("\t", "\r\n") + "# c\n",
        run_text("\t", extra="\tjunk  after the tag"),
        "exact",
    ),
    "runs-of-spaces": (qrels_text("   "), run_text("  "), "exact"),
    "mixed-tabs-spaces": (qrels_text(" \t "), run_text("\t "), "exact"),
    "leading-trailing": (
        "  " + qrels_text().replace("\n", "  \n  "),
        "\t" + run_text().replace("\n", " \t\n\t"),
        "exact",
    ),
    "comment-first": ("# header\n" + qrels_text(), "#\n" + run_text(), "exact"),
    "comment-middle": (
        qrels_text().replace("\n", "\n# c c c\n", 1),
        run_text().replace("\n", "\n# 1 Q0 d 1 1 t\n", 1),
        "exact",
    ),
    "blank-lines": (
        "\n" + qrels_text().replace("\n", "\n\n"),
        run_text().replace("\n", "\n \t \n") + "\n\n",
        "exact",
    ),
    "no-final-newline": (qrels_text().rstrip("\n"), run_text().rstrip("\n"), "fast"),
    "bom": ("\ufeff" + qrels_text(), "\ufeff" + run_text(), "fast"),
    "bom-comment": ("\ufeff# c\n" + qrels_text(), "\ufeff# c\n" + run_text(), "exact"),
    "vertical-tab-form-feed": (qrels_text("\x0b"), run_text("\x0c"), "exact"),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_text_variants(variant: str, tmp_path: Path, spy: PathSpy) -> None:
    qtext, rtext, path = VARIANTS[variant]
    qrels = Qrels.from_trec(write(tmp_path, "qrels.txt", qtext))
    assert spy.path == path
    spy.reset()
    run = Run.from_trec(write(tmp_path, "run.txt", rtext))
    assert spy.path == path
    assert_same_qrels(qrels, expected_qrels())
    assert_same_run(run, expected_run())
    assert run.name == "run.txt"


def test_hash_inside_fields_is_data(tmp_path: Path) -> None:
    qrels = Qrels.from_trec(write(tmp_path, "q", "1 0 #d3 1\n1 0 x#y 0\n"))
    assert set(qrels) == {("1", "#d3", 1), ("1", "x#y", 0)}
    # A '#' at column 0 makes a line a comment, even when it would parse as data.
    qrels = Qrels.from_trec(write(tmp_path, "q", "1 0 d 1\n#2 0 d 1\n"))
    assert set(qrels) == {("1", "d", 1)}


def test_line_numbers_count_comments_and_blank_lines(tmp_path: Path) -> None:
    text = "# c\n\n1 0 a 1\r\n\n# d\n2 0 b 0\n"
    tc = _text.read_text_table(
        write(tmp_path, "q", text), min_cols=4, max_cols=4, want=[0, 2, 3], what="qrels"
    )
    assert tc.line.tolist() == [3, 6]
    assert [c.to_pylist() for c in tc.columns] == [["1", "2"], ["a", "b"], ["1", "0"]]


def test_non_ascii_white_space_is_not_a_separator(tmp_path: Path, spy: PathSpy) -> None:
    # trec_eval splits on C isspace: NBSP and EM SPACE belong to the id, in both paths.
    text = "1 0 a\u00a0b 1\n1 0 c\u2003d 0\n"
    fast = Qrels.from_trec(write(tmp_path, "q1", text))
    assert spy.path == "fast"
    spy.reset()
    exact = Qrels.from_trec(write(tmp_path, "q2", "#\n" + text))
    assert spy.path == "exact"
    assert_same_qrels(fast, exact)
    assert {d for _, d, _ in fast} == {"a\u00a0b", "c\u2003d"}


def test_gzip(tmp_path: Path) -> None:
    q = tmp_path / "qrels.txt.gz"
    q.write_bytes(gzip.compress(qrels_text().encode()))
    r = tmp_path / "run.txt.gz"
    r.write_bytes(gzip.compress(("# c\n" + run_text("\t", "\r\n")).encode()))
    assert_same_qrels(Qrels.from_trec(q), expected_qrels())
    run = Run.from_trec(r)
    assert_same_run(run, expected_run())
    assert run.name == "run.txt"  # .gz dropped from the default name
    # Detected by content, not by name.
    r2 = tmp_path / "run-no-extension"
    r2.write_bytes(gzip.compress(run_text().encode()))
    assert_same_run(Run.from_trec(r2), expected_run())


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(qrels_text().encode()))
    qrels = Qrels.from_trec("-")
    assert_same_qrels(qrels, expected_qrels())
    assert qrels.source == "<stdin>"
    monkeypatch.setattr(sys, "stdin", _Stdin(gzip.compress(("# x\n" + run_text()).encode())))
    run = Run.from_trec("-", name="piped")
    assert_same_run(run, expected_run())
    assert run.name == "piped" and run.source == "<stdin>"


def test_binary_stream() -> None:
    assert_same_run(Run.from_trec(io.BytesIO(run_text().encode())), expected_run())
    assert_same_qrels(Qrels.from_trec(io.BytesIO(qrels_text("\t").encode())), expected_qrels())


# ---------------------------------------------------------------- property: fast == exact


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.dictionaries(st.tuples(trec_ids, trec_ids), trec_scores, min_size=1, max_size=25),
    sep=st.sampled_from([" ", "\t", "  ", " \t"]),
    eol=st.sampled_from(["\n", "\r\n"]),
    comment_at=st.none() | st.integers(0, 30),
    blank_at=st.none() | st.integers(0, 30),
)
def test_reader_matches_columns(
    rows: dict[tuple[str, str], float],
    sep: str,
    eol: str,
    comment_at: int | None,
    blank_at: int | None,
    tmp_path: Path,
) -> None:
    lines = [
        sep.join([q, "Q0", d, str(i), repr(s), "t"]) for i, ((q, d), s) in enumerate(rows.items())
    ]
    if comment_at is not None:
        lines.insert(min(comment_at, len(lines)), "# " + sep.join(["q", "Q0", "d", "1", "1", "t"]))
    if blank_at is not None:
        lines.insert(min(blank_at, len(lines)), sep)
    path = write(tmp_path, "run", eol.join(lines) + eol)
    got = Run.from_trec(path)
    q, d = zip(*rows, strict=True)
    want = Run.from_columns(list(q), list(d), list(rows.values()), tag="t")
    assert_same_run(got, want)
    # Score bits survive the text (repr is exact).
    np.testing.assert_array_equal(
        got.to_arrow()["score"].to_numpy().view(np.uint64),
        want.to_arrow()["score"].to_numpy().view(np.uint64),
    )


# ---------------------------------------------------------------- TREC round trips


@pytest.mark.parametrize("target", ["path", "gz", "stream"])
def test_run_to_trec_round_trip_is_bit_exact(target: str, tmp_path: Path) -> None:
    scores = hard_doubles(20_000)
    n = len(scores)
    queries = np.where(np.arange(n) % 3 == 0, "q1", np.where(np.arange(n) % 3 == 1, "q2", "q10"))
    run = Run.from_columns(queries, [f"doc-{i}" for i in range(n)], scores, name="exact")
    if target == "stream":
        buf = io.BytesIO()
        run.to_trec(buf)
        back = Run.from_trec(io.BytesIO(buf.getvalue()), name="exact")
        text = buf.getvalue().decode()
    else:
        path = tmp_path / ("run.txt.gz" if target == "gz" else "run.txt")
        run.to_trec(path)
        back = Run.from_trec(path, name="exact")
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if target == "gz" else raw).decode()
    a, b = run.to_arrow(), back.to_arrow()
    np.testing.assert_array_equal(
        a["score"].to_numpy().view(np.uint64), b["score"].to_numpy().view(np.uint64)
    )
    assert a.equals(b)
    # The rank column written is the rank in trec_eval order.
    first = text.splitlines()[:3]
    written = [ln.split() for ln in first]
    assert [w[3] for w in written] == ["1", "2", "3"]
    assert all(w[1] == "Q0" and w[5] == "exact" and len(w) == 6 for w in written)


def test_run_round_trip_keeps_ranks_and_tie_order(tmp_path: Path) -> None:
    # Ties on score are ordered by docno descending (trec_eval); the order survives writing.
    run = Run.from_columns(
        ["q"] * 5, ["a", "c", "b", "e", "d"], [1.0, 2.0, 2.0, 0.5, 2.0], name="r"
    )
    run.to_trec(tmp_path / "r.txt")
    lines = (tmp_path / "r.txt").read_text().splitlines()
    assert [ln.split()[2:4] for ln in lines] == [
        ["d", "1"],
        ["c", "2"],
        ["b", "3"],
        ["a", "4"],
        ["e", "5"],
    ]
    back = Run.from_trec(tmp_path / "r.txt")
    np.testing.assert_array_equal(back.ranks(), run.ranks())
    assert back.to_arrow().equals(run.to_arrow())


def test_run_to_trec_tag(tmp_path: Path) -> None:
    run = Run.from_columns(["q"], ["d"], [1.0], name="my run.txt")
    run.to_trec(tmp_path / "a")
    assert (tmp_path / "a").read_text().split() == ["q", "Q0", "d", "1", "1", "my_run.txt"]
    run.to_trec(tmp_path / "b", tag="bm25")
    assert Run.from_trec(tmp_path / "b").tag == "bm25"


def test_run_to_trec_stdout(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    expected_run().to_trec("-")
    out = capsysbinary.readouterr().out
    assert_same_run(Run.from_trec(io.BytesIO(out)), expected_run(), same_input=False)


def test_qrels_to_trec_round_trip(tmp_path: Path) -> None:
    qrels = expected_qrels()
    for name in ("q.txt", "q.txt.gz"):
        qrels.to_trec(tmp_path / name)
        assert_same_qrels(Qrels.from_trec(tmp_path / name), qrels)
    assert "2 0 d1 -1" in (tmp_path / "q.txt").read_text().splitlines()


def test_real_files_round_trip(trec_dir: Path, tmp_path: Path) -> None:
    run = Run.from_trec(trec_dir / "results.comment.test")
    run.to_trec(tmp_path / "r")
    assert_same_run(Run.from_trec(tmp_path / "r"), run.rename("r"), same_input=False)
    qrels = Qrels.from_trec(trec_dir / "qrels.test.with-comments")
    qrels.to_trec(tmp_path / "q")
    assert_same_qrels(Qrels.from_trec(tmp_path / "q"), qrels)


# ---------------------------------------------------------------- ids


def test_many_distinct_ids_stay_distinct() -> None:
    # 200k doc ids: any small (say 16-bit) hash must collide, exact ids never do.
    n = 200_000
    docs = [f"d{i}" for i in range(n)]
    scores = np.arange(n, dtype=np.float64)
    run = Run.from_columns(["q"] * n, docs, scores)
    got = run.to_dict()["q"]
    assert len(got) == n
    np.testing.assert_array_equal(np.array([got[d] for d in docs]), scores)
    qrels = Qrels.from_columns(["q"] * n, docs, np.arange(n) % 5)
    assert len(qrels) == n and len({d for _, d, _ in qrels}) == n


def test_ids_that_look_alike_stay_distinct() -> None:
    docs = ["1", "01", "1.0", "001", "a", "A", "\u00e9", "e\u0301", "a ", "doc", "doc\u200b"]
    run = Run.from_columns(["q"] * len(docs), docs, np.arange(len(docs), dtype=float))
    assert run.to_dict() == {"q": {d: float(i) for i, d in enumerate(docs)}}


def test_integer_ids_become_strings() -> None:
    run = Run.from_columns(
        np.array([1, 1, 20], dtype=np.int64), np.array([7, 8, 7], dtype=np.int32), [1.0, 2.0, 3.0]
    )
    assert run.to_dict() == {"1": {"7": 1.0, "8": 2.0}, "20": {"7": 3.0}}
    assert run.queries == ["1", "20"]
    qrels = Qrels.from_dict({301: {1: 1, 2: 0}})
    assert qrels.to_dict() == {"301": {"1": 1, "2": 0}}
    # The same collection with string ids compares equal.
    assert qrels == Qrels.from_dict({"301": {"1": 1, "2": 0}})


def test_query_ids_in_byte_order() -> None:
    run = Run.from_columns(["b", "a", "10", "9", "B"], ["d"] * 5, [1.0] * 5)
    assert run.queries == ["10", "9", "B", "a", "b"]


# ---------------------------------------------------------------- CSV / TSV / Parquet / JSONL


def test_csv_with_column_mapping(tmp_path: Path) -> None:
    path = write(
        tmp_path, "run.csv", "qid,docno,sim,other\n007,1e5,1.5,x\n007,0042,2,y\n8,d,-0.25,z\n"
    )
    run = Run.from_csv(path, query="qid", doc="docno", score="sim")
    # Ids are read as text: no "7" for "007", no 100000.0 for "1e5".
    assert run.to_dict() == {"007": {"1e5": 1.5, "0042": 2.0}, "8": {"d": -0.25}}
    assert run.name == "run.csv" and run.source == str(path)
    qpath = write(tmp_path, "qrels.csv", "topic,doc_id,label\n007,1e5,2\n007,0042,0\n")
    qrels = Qrels.from_csv(qpath, query="topic", doc="doc_id", relevance="label")
    assert qrels.to_dict() == {"007": {"1e5": 2, "0042": 0}}


def test_tsv_and_read_dispatch(tmp_path: Path) -> None:
    tsv = write(tmp_path, "run.tsv", "query\tdoc\tscore\n1\ta,b\t0.5\n")
    assert Run.from_csv(tsv).to_dict() == {"1": {"a,b": 0.5}}
    assert Run.read(tsv).to_dict() == {"1": {"a,b": 0.5}}
    # A forced format overrides the extension, delimiter included.
    txt = write(tmp_path, "run.txt", "query\tdoc\tscore\n1\ta,b\t0.5\n")
    assert Run.read(txt, format="tsv").to_dict() == {"1": {"a,b": 0.5}}
    csv = write(tmp_path, "qrels.data", "q,d,r\n1,a,1\n")
    assert Qrels.read(csv, format="csv", query="q", doc="d", relevance="r").to_dict() == {
        "1": {"a": 1}
    }
    gz = tmp_path / "run.csv.gz"
    gz.write_bytes(gzip.compress(b"query,doc,score\n1,a,0.5\n"))
    assert Run.read(gz).to_dict() == {"1": {"a": 0.5}}


def test_csv_round_trip(tmp_path: Path) -> None:
    run = Run.from_columns(
        ["q1"] * 1000 + ["q2"] * 1000,
        [f"d{i}" for i in range(2000)],
        hard_doubles(3000, seed=3)[:2000],
        name="r",
    )
    run.to_csv(tmp_path / "r.csv")
    back = Run.from_csv(tmp_path / "r.csv")
    assert back.to_arrow().equals(run.to_arrow())
    run.to_csv(tmp_path / "r.tsv", delimiter="\t")
    assert Run.read(tmp_path / "r.tsv").to_arrow().equals(run.to_arrow())
    qrels = expected_qrels()
    qrels.to_csv(tmp_path / "q.csv")
    assert_same_qrels(Qrels.read(tmp_path / "q.csv"), qrels)


def test_parquet(tmp_path: Path) -> None:
    run = expected_run()
    run.to_parquet(tmp_path / "r.parquet")
    assert Run.read(tmp_path / "r.parquet").to_arrow().equals(run.to_arrow())
    qrels = expected_qrels()
    qrels.to_parquet(tmp_path / "q.parquet")
    assert_same_qrels(Qrels.from_parquet(tmp_path / "q.parquet"), qrels)
    # Mapped names and integer ids.
    pq.write_table(pa.table({"qid": [1, 1], "pid": [10, 11], "s": [0.5, 0.25]}), tmp_path / "m.pq")
    mapped = Run.from_parquet(tmp_path / "m.pq", query="qid", doc="pid", score="s")
    assert mapped.to_dict() == {"1": {"10": 0.5, "11": 0.25}}
    assert mapped.name == "m.pq"


def test_jsonl(tmp_path: Path) -> None:
    rows = [
        {"qid": "001", "docid": 5, "sim": 1},
        {"qid": "001", "docid": 6, "sim": 0.5},
        {"qid": "002", "docid": 5, "sim": -2.5, "extra": [1, 2]},
    ]
    path = write(tmp_path, "r.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    run = Run.from_jsonl(path, query="qid", doc="docid", score="sim")
    assert run.to_dict() == {"001": {"5": 1.0, "6": 0.5}, "002": {"5": -2.5}}
    assert Run.read(path, query="qid", doc="docid", score="sim") == run
    q = write(tmp_path, "q.ndjson", '{"query": "1", "doc": "a", "relevance": 2}\n')
    assert Qrels.read(q).to_dict() == {"1": {"a": 2}}


# ---------------------------------------------------------------- data frames


def test_pandas_both_directions() -> None:
    pd = pytest.importorskip("pandas")
    run = expected_run()
    df = run.to_pandas()
    assert list(df.columns) == ["query", "doc", "score", "rank"]
    assert df["score"].tolist() == run.to_arrow()["score"].to_pylist()
    assert_same_run(Run.from_pandas(df), run, same_input=False)
    qrels = expected_qrels()
    assert_same_qrels(Qrels.from_pandas(qrels.to_pandas()), qrels)
    # Mapping, integer and categorical ids.
    df = pd.DataFrame(
        {"qid": [3, 3, 4], "docno": pd.Categorical(["x", "y", "x"]), "sim": [0.5, 0.75, 1.0]}
    )
    run = Run.from_pandas(df, query="qid", doc="docno", score="sim", name="pd")
    assert run.to_dict() == {"3": {"x": 0.5, "y": 0.75}, "4": {"x": 1.0}}
    assert run.name == "pd"
    # An index is not data.
    indexed = pd.DataFrame({"query": ["a"], "doc": ["b"], "relevance": [1]}, index=[99])
    assert Qrels.from_pandas(indexed).to_dict() == {"a": {"b": 1}}


def test_polars_both_directions() -> None:
    pl = pytest.importorskip("polars")
    run = expected_run()
    df = run.to_polars()
    assert df.columns == ["query", "doc", "score", "rank"]
    assert_same_run(Run.from_polars(df), run, same_input=False)
    qrels = expected_qrels()
    assert_same_qrels(Qrels.from_polars(qrels.to_polars()), qrels)
    df = pl.DataFrame({"q": [1, 1], "d": ["a", "b"], "g": [2, 0]}).with_columns(
        pl.col("d").cast(pl.Categorical)
    )
    assert Qrels.from_polars(df, query="q", doc="d", relevance="g").to_dict() == {
        "1": {"a": 2, "b": 0}
    }
    assert Qrels.from_polars(df.lazy(), query="q", doc="d", relevance="g").to_dict() == {
        "1": {"a": 2, "b": 0}
    }


# ---------------------------------------------------------------- dicts


def test_dict_both_directions() -> None:
    data = {"q1": {"d1": 1.5, "d2": -0.5}, "q2": {"d1": 3.0}}
    run = Run.from_dict(data, name="dict")
    assert run.to_dict() == data
    assert run.name == "dict"
    qdata = {"q1": {"d1": 2, "d2": 0}, "q2": {"d9": -1}}
    qrels = Qrels.from_dict(qdata)
    assert qrels.to_dict() == qdata
    assert all(type(v) is int for inner in qrels.to_dict().values() for v in inner.values())
    # Integral floats and bools are grades; numpy scalars are numbers.
    assert Qrels.from_dict({"q": {"a": 2.0, "b": True}}).to_dict() == {"q": {"a": 2, "b": 1}}
    assert Run.from_dict({"q": {"a": np.float32(0.5), "b": np.int64(2)}}).to_dict() == {
        "q": {"a": 0.5, "b": 2.0}
    }


def test_dict_round_trip_through_trec(tmp_path: Path) -> None:
    data = {
        str(q): {f"d{q}-{i}": float(np.float64(q) / (i + 1)) for i in range(7)}
        for q in range(1, 40)
    }
    Run.from_dict(data).to_trec(tmp_path / "r")
    assert Run.from_trec(tmp_path / "r").to_dict() == data


def _iter_lines(path: Path) -> Iterator[list[str]]:
    for line in path.read_text().splitlines():
        yield line.split()


def test_written_trec_is_trec_eval_readable(tmp_path: Path) -> None:
    # Exactly 6 (run) and 4 (qrels) white-space separated fields on every line.
    expected_run().to_trec(tmp_path / "r")
    expected_qrels().to_trec(tmp_path / "q")
    assert {len(f) for f in _iter_lines(tmp_path / "r")} == {6}
    assert {len(f) for f in _iter_lines(tmp_path / "q")} == {4}


def test_shared_file_helper_finds_data() -> None:
    assert shared_file("trec_eval", "results.test").name == "results.test"
