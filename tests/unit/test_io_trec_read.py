"""Reading TREC text: trec_eval's own files, fast and exact paths, every text variant, gzip,
stdin and streams, and a property: the reader returns the columns written."""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay import Qrels, Run
from assay.io import text as _text
from conftest import shared_file
from strategies.io import trec_ids, trec_scores
from support.io import (
    assert_same_qrels,
    assert_same_run,
    expected_qrels,
    expected_run,
    qrels_text,
    run_text,
    write,
)


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


def test_shared_file_helper_finds_data(monkeypatch: pytest.MonkeyPatch) -> None:
    path = shared_file("trec_eval", "results.test")
    assert path.is_file() and path.parent.name == "trec_eval"
    # A missing file fails the test under CI=true and skips it elsewhere.
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        shared_file("trec_eval", "no-such-file")
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception, match="no-such-file"):
        shared_file("trec_eval", "no-such-file")
