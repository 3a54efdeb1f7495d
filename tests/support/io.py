"""Writing test files and comparing what the readers return: a small qrels and run known row
by row, written in any separator and line ending, and exact comparisons of Qrels and Run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assay import Qrels, Run


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    """``tmp_path / name`` holding ``data`` (text is written as UTF-8, line endings as given)."""
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def assert_same_run(a: Run, b: Run, *, same_input: bool = True) -> None:
    """Identical content, trec_eval order and ranks; with ``same_input`` (both read from
    rows in the same order) also the input order of tied rows and the tag."""
    assert a.to_arrow().equals(b.to_arrow())
    assert a == b
    if same_input:
        np.testing.assert_array_equal(a.order("input"), b.order("input"))
        assert a.tag == b.tag


def assert_same_qrels(a: Qrels, b: Qrels) -> None:
    assert a.to_arrow().equals(b.to_arrow())
    assert a == b


QRELS_ROWS = [("1", "d1", 1), ("1", "d2", 0), ("1", "#d3", 2), ("2", "d1", -1), ("10", "x#y", 3)]
RUN_ROWS = [
    ("1", "d1", 2.5),
    ("1", "d2", 2.5),
    ("1", "d3", -1.25),
    ("2", "d9", 1e-7),
    ("10", "a#b", 3.0),
]


def qrels_text(sep: str = " ", eol: str = "\n") -> str:
    return "".join(sep.join([q, "0", d, str(g)]) + eol for q, d, g in QRELS_ROWS)


def run_text(sep: str = " ", eol: str = "\n", extra: str = "") -> str:
    return "".join(
        sep.join([q, "Q0", d, str(i + 1), repr(s), "tagA"]) + extra + eol
        for i, (q, d, s) in enumerate(RUN_ROWS)
    )


def expected_qrels() -> Qrels:
    q, d, g = zip(*QRELS_ROWS, strict=True)
    return Qrels.from_columns(list(q), list(d), list(g))


def expected_run() -> Run:
    q, d, s = zip(*RUN_ROWS, strict=True)
    return Run.from_columns(list(q), list(d), list(s), tag="tagA")


def synthetic_trec_files(folder: Path) -> dict[str, Path]:
    """A small seeded collection written as TREC files in ``folder``: ``{"qrels": path,
    run name: path, ...}`` (6 queries, 8 documents each, the runs of
    :func:`assay.datasets.synthetic`)."""
    import assay

    qrels, runs = assay.datasets.synthetic(n_queries=6, docs_per_query=8, seed=3)
    out = {"qrels": folder / "qrels.txt"}
    qrels.to_trec(out["qrels"])
    for name, run in runs.items():
        out[name] = folder / f"{name}.txt"
        run.to_trec(out[name])
    return out
