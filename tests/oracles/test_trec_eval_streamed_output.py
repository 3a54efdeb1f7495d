"""``assay trec-eval -q`` writes its per-topic blocks as they are formatted (a bounded number
of topics at a time) and stays byte-identical to trec_eval 10.0's expected outputs."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

import assay
from assay.compat import _te_result
from assay.compat.trec_eval import evaluate_trec, format_trec, main
from conftest import shared_file

COMMANDS = [
    ("out.test.aq", "-m all_trec -q qrels.test results.test"),
    ("out.test.aqc", "-m all_trec -q -c qrels.test results.trunc"),
    ("out.test.aql", "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test"),
]


class Recorder(io.StringIO):
    """A text stream remembering the size of every write."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def write(self, text: str) -> int:
        self.sizes.append(len(text))
        return super().write(text)


def _argv(args: str) -> list[str]:
    return [
        str(shared_file("trec_eval", a)) if re.match(r"^(qrels|results)\.", a) else a
        for a in args.split()
    ]


@pytest.mark.parametrize("per_write", [1, 3, 7, 256])
@pytest.mark.parametrize(("out", "args"), COMMANDS)
def test_streamed_output_is_byte_identical(
    monkeypatch: pytest.MonkeyPatch, out: str, args: str, per_write: int
) -> None:
    monkeypatch.setattr(_te_result, "TOPICS_PER_WRITE", per_write)
    stream = Recorder()
    assert main(_argv(args), out=stream) == 0
    want = shared_file("trec_eval", out).read_text(encoding="utf-8")
    assert stream.getvalue() == want
    n_topics = len({line.split("\t")[1] for line in want.splitlines()} - {"all"})
    assert len(stream.sizes) == -(-n_topics // per_write) + 1  # topic chunks, then summary


def test_memory_of_the_text_does_not_grow_with_the_topics() -> None:
    """The largest single write is a bounded number of topic blocks, however many topics."""
    rng = np.random.default_rng(0)
    nq, nd = 2000, 20
    queries = np.repeat([f"q{i}" for i in range(nq)], nd)
    docs = np.tile([f"d{j}" for j in range(nd)], nq)
    qrels = assay.Qrels.from_columns(queries, docs, rng.integers(0, 3, nq * nd))
    run = assay.Run.from_columns(queries, docs, rng.random(nq * nd), name="r")
    res = evaluate_trec(qrels, run, ["P.5,10", "map", "ndcg_cut.10"])
    stream = Recorder()
    _te_result.write_trec(res, stream, per_query=True)
    text = stream.getvalue()
    assert text == format_trec(res, per_query=True)
    per_topic = len(text) / nq
    assert max(stream.sizes) <= 1.2 * per_topic * _te_result.TOPICS_PER_WRITE
    assert len(stream.sizes) == nq // _te_result.TOPICS_PER_WRITE + (nq % 256 > 0) + 1
