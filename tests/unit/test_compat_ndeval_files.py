"""``assay ndeval``'s two file readers agree: the columnar one (Arrow split, ndeval's number
parsing once per distinct text, NumPy sorting and checks) gives the per-line reader's columns
and errors on seeded random files with ndeval's edge cases (task prefixes, leading zeros,
numbers at ndeval's size limit, extra fields, tabs and carriage returns, repeated ranks and
docnos, tied and unparsable scores, malformed lines), with and without ``-traditional`` and
``-M``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assay.compat import _ndeval_files as files
from assay.compat.ndeval import evaluate_ndeval, format_ndeval
from assay.errors import AssayError


def _topic(rng: np.random.Generator, t: int) -> str:
    kind = rng.integers(0, 8)
    if kind == 0:
        return f"wt09-{t}"
    if kind == 1:
        return f"00{t}"
    return str(t)


def _run_text(rng: np.random.Generator) -> str:
    lines = []
    bad = rng.random() < 0.15
    for t in rng.choice([1, 2, 3, 17, 1000009], size=int(rng.integers(1, 4)), replace=False):
        n = int(rng.integers(1, 25))
        ranks = rng.permutation(n) + 1
        if rng.random() < 0.1:
            ranks[0] = ranks[-1]  # a repeated rank
        docs = [f"d{int(d)}" for d in rng.integers(0, 3 * n, n)]  # may repeat
        if rng.random() < 0.5:
            docs = [f"d{i}" for i in rng.permutation(n)]
        for d, r in zip(docs, ranks.tolist(), strict=True):
            score = ["1.5", "2", "0.25", "abc", "-1e3", "nan"][int(rng.integers(0, 6))]
            sep = "\t" if rng.random() < 0.1 else " "
            extra = " x y" if rng.random() < 0.1 else ""
            end = "\r" if rng.random() < 0.1 else ""
            lines.append(
                sep.join([_topic(rng, int(t)), "Q0", d, str(r), score, "tag"]) + extra + end
            )
    if bad:
        at = int(rng.integers(0, len(lines)))
        lines[at] = ["1 Q0 d1 x 1 tag", "1 Q0 d1", "", "1000010 Q0 d 1 1 tag"][
            int(rng.integers(0, 4))
        ]
    rng.shuffle(lines)
    return "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")


def _qrels_text(rng: np.random.Generator) -> str:
    lines = []
    for _ in range(int(rng.integers(1, 40))):
        t = ["1", "2", "017", "1000009"][int(rng.integers(0, 4))]
        s = str(int(rng.integers(1, 5)))
        g = str(int(rng.integers(0, 4)))
        lines.append(
            f"{t} {s} d{int(rng.integers(0, 30))} {g}" + (" z" if rng.random() < 0.1 else "")
        )
    if rng.random() < 0.15:
        lines[0] = ["1 1 d1 -1", "1 1 d1", "wt09-1 1 d1 1", "1 1000010 d 1"][
            int(rng.integers(0, 4))
        ]
    return "\n".join(lines) + "\n"


def _outcome(read, *args):  # type: ignore[no-untyped-def]
    try:
        return read(*args)
    except AssayError as exc:
        return ("error", type(exc).__name__, str(exc))


def _same(a: object, b: object) -> None:
    if isinstance(a, tuple) and a and a[0] == "error":
        assert a == b
        return
    assert not (isinstance(b, tuple) and b and b[0] == "error"), b
    for x, y in zip(vars(a).values(), vars(b).values(), strict=True):
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y)
        else:
            assert x.to_pylist() == y.to_pylist()


@pytest.mark.parametrize("seed", range(60))
def test_run_readers_agree(tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    path = tmp_path / "run"
    path.write_text(_run_text(rng))
    data = path.read_bytes()
    for traditional in (False, True):
        for depth in (0, 3):
            fast = _outcome(files.read_run, str(path), traditional, depth)
            slow = _outcome(
                files._read_run_lines, files._lines(data), str(path), traditional, depth
            )
            if isinstance(fast, tuple) and fast[0] != "error":
                assert fast[1] == slow[1]  # the run tag
                fast, slow = fast[0], slow[0]
            _same(fast, slow)


@pytest.mark.parametrize("seed", range(60))
def test_qrels_readers_agree(tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    path = tmp_path / "qrels"
    path.write_text(_qrels_text(rng))
    fast = _outcome(files.read_qrels, str(path))
    slow = _outcome(files._read_qrels_lines, files._lines(path.read_bytes()), str(path))
    _same(fast, slow)


def test_the_columnar_path_reads_ordinary_files(tmp_path: Path) -> None:
    # the comparisons above would pass if the columnar reader always declined
    data = b"1 Q0 d1 1 2.0 r\nwt09-2\tQ0 d2 1 1.0 r x\r\n"
    assert files._fields(data, 6) is not None
    assert files._fields(b"1 Q0 d1 1 2.0 r\n1 Q0 d2\n", 6) is None
    assert files._fields("1 Q0 dé 1 2.0 r\n".encode(), 6) is None
    assert files._fields(b"1 Q0 d\x1c1 1 2.0 r\n", 6) is None


def test_docnos_that_are_not_ascii_are_read_line_by_line(tmp_path: Path) -> None:
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_bytes("1 1 dé 1\n1 2 d\xff 1\n".encode("utf-8", "surrogateescape"))
    run.write_bytes("1 Q0 d\xff 1 2.0 r\n1 Q0 dé 2 1.0 r\n".encode("utf-8", "surrogateescape"))
    res = evaluate_ndeval(str(qrels), str(run))
    assert format_ndeval(res).splitlines()[1].startswith("r,1,")
    assert res.values[0][18] == 1.0  # strec@5: both subtopics covered
    with pytest.raises(AssayError, match="duplicate docno"):
        run.write_bytes(b"1 Q0 d\xff 1 2.0 r\n1 Q0 d\xff 2 1.0 r\n")
        evaluate_ndeval(str(qrels), str(run))
