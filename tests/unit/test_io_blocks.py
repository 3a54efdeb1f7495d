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
