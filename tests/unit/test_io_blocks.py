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
