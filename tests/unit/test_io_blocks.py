"""assay.io.blocks: blocks of whole queries, errors at the file's own line, formats without
blocks refused."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay import Qrels, Run
from assay.io.blocks import iter_run_blocks


def test_blocks_hold_whole_queries_and_every_line(trec_dir):
    path = trec_dir / "results.test"
    whole = Run.read(path)
    parts = list(iter_run_blocks(path, block_bytes=3000))
    seen: list[str] = []
    for p in parts:
        ids = p.query.unique().to_pylist()
        assert not set(ids) & set(seen)
        seen += ids
    assert sum(len(p.query) for p in parts) == len(whole)
    assert np.concatenate([p.lines for p in parts]).tolist() == list(range(1, len(whole) + 1))


def test_parse_errors_name_the_line_of_the_file(tmp_path):
    path = tmp_path / "run.txt"
    lines = [f"q{i // 10} Q0 d{i} {i} {100 - i} t" for i in range(50)]
    lines[37] = "q3 Q0 d37 1 notanumber t"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(assay.ParseError) as exc:
        list(iter_run_blocks(path, block_bytes=100))
    assert exc.value.line == 38 and exc.value.source == str(path)


def test_stream_true_refuses_formats_without_blocks(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("query,doc,score\nq1,a,1\n")
    with pytest.raises(assay.OptionError, match="stream"):
        assay.evaluate(Qrels.from_dict({"q1": {"a": 1}}), path, ["map"], stream=True)


def test_line_numbers_with_comments_and_blank_lines_at_block_ends(tmp_path):
    """Blocks ending on a record, a comment, a blank line or a CRLF line all keep counting
    the file's own lines: every block size gives read_run's line numbers."""
    rows = []
    for i in range(60):
        rows.append(f"q{i // 7} Q0 d{i} {i} {100 - i} t")
        if i % 5 == 0:
            rows.append("# a comment")
        if i % 9 == 0:
            rows.append("")
    path = tmp_path / "run.txt"
    path.write_bytes(("\r\n".join(rows) + "\r\n# trailing comment\n").encode())
    from assay.io.trec import read_run

    expected = read_run(path).lines.tolist()
    for block_bytes in (1, 17, 40, 64, 100, 333, 1 << 20):
        parts = list(iter_run_blocks(path, block_bytes=block_bytes))
        assert np.concatenate([p.lines for p in parts]).tolist() == expected, block_bytes
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join([*rows[:50], "q9 Q0 dx 1 oops t", *rows[50:]]) + "\n")
    with pytest.raises(assay.ParseError) as exc:
        list(iter_run_blocks(bad, block_bytes=64))
    assert exc.value.line == 51


def test_a_line_without_end_is_refused_at_its_line(tmp_path, monkeypatch):
    import assay.io.streams

    monkeypatch.setattr(assay.io.streams, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 a 1 1 t\n# c\nq1 Q0 b 2 0.5 t\n" + b"\0" * 5000)
    with pytest.raises(assay.ParseError, match="without a line end") as exc:
        list(iter_run_blocks(path, block_bytes=64))
    assert exc.value.line == 4


def test_a_query_longer_than_many_blocks_is_one_block(tmp_path):
    """The carried query grows until it ends, and is yielded whole, once."""
    rows = [f"q1 Q0 a{i} {i} {1000 - i} t" for i in range(400)]
    rows += [f"q2 Q0 b{i} {i} {10 - i} t" for i in range(3)]
    path = tmp_path / "run.txt"
    path.write_text("\n".join(rows) + "\n")
    parts = list(iter_run_blocks(path, block_bytes=64))
    assert [p.query.unique().to_pylist() for p in parts] == [["q1"], ["q2"]]
    assert [len(p.query) for p in parts] == [400, 3]
    assert np.concatenate([p.lines for p in parts]).tolist() == list(range(1, 404))


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_blocks_are_the_same_on_any_number_of_threads(trec_dir, workers):
    path = trec_dir / "results.test"
    one = list(iter_run_blocks(path, block_bytes=2000, workers=1))
    many = list(iter_run_blocks(path, block_bytes=2000, workers=workers))
    assert [p.query.to_pylist() for p in one] == [p.query.to_pylist() for p in many]
    assert [p.doc.to_pylist() for p in one] == [p.doc.to_pylist() for p in many]
    assert all(np.array_equal(a.lines, b.lines) for a, b in zip(one, many, strict=True))


def test_tail_start_finds_where_the_last_query_begins():
    from assay.io.blocks import _tail_start

    text = b"".join([b"# head\n", b"q1 Q0 a 1 1 t\n" * 5, b"\n", b"q2 Q0 a 1 1 t\n" * 7, b"# c\n"])
    start = _tail_start(text, len(text))
    assert text[start:].startswith(b"q2") or text[start:].startswith(b"\n")
    assert b"q1" not in text[start:] and text[:start].count(b"q2") == 0
    one_query = b"q1 Q0 a 1 1 t\n" * 9
    assert _tail_start(one_query, len(one_query)) == 0
    assert _tail_start(b"# only\n\n", 8) == 8
