"""Every file assay writes is whole or not at all (``assay._files``): a write that fails
part-way (a file-size limit, a full disk, an exception, Ctrl-C) leaves the previous file as it
was and no temporary file behind, and a file gets the mode a plain write would give it.

The failures are real: each writer runs in a fresh interpreter under ``RLIMIT_FSIZE``, so
the operating system refuses the write part-way through, whatever library does the writing
(Arrow, matplotlib, LightGBM, assay's own).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import assay
from assay._files import atomic_open, atomic_path, same_file

#: Bytes a write may reach in the limited interpreter: less than every new file below.
LIMIT = 2048

_LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
import assay, assay.cli, assay.report.document, assay.ltr.letor, assay.fusion, numpy, pyarrow.parquet
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
d = {folder!r}
{code}
"""


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("atomic-data")
    qrels, runs = assay.datasets.synthetic(n_queries=30, docs_per_query=20, seed=5)
    qrels.to_trec(d / "qrels.txt")
    runs["run1"].to_trec(d / "run1.txt")
    runs["run2"].to_trec(d / "run2.txt")
    return d


def _cli(*args: object) -> str:
    return (
        "import sys\n"
        "from assay.cli import app\n"
        f"try:\n    app({[str(a) for a in args]!r})\n"
        "except SystemExit as e:\n    sys.exit(e.code)\n"
    )


RUN = "from assay import Run\nr = Run.read(d + '/run1.txt')\n"
#: (file name, code writing it in the limited interpreter; ``d`` is the data folder).
WRITERS = {
    "trec": ("out.txt", RUN + "r.to_trec(d + '/out/out.txt')"),
    "trec.gz": ("out.txt.gz", RUN + "r.to_trec(d + '/out/out.txt.gz')"),
    "qrels": (
        "out.qrels",
        "from assay import Qrels\nQrels.read(d + '/qrels.txt').to_trec(d + '/out/out.qrels')",
    ),
    "parquet": ("out.parquet", RUN + "r.to_parquet(d + '/out/out.parquet')"),
    "csv": ("out.csv", RUN + "r.to_csv(d + '/out/out.csv')"),
    "letor": (
        "out.letor",
        "import numpy as np\n"
        "x = np.arange(3000.0).reshape(300, 10)\n"
        "assay.ltr.letor.write_letor(d + '/out/out.letor', np.zeros(300), "
        "np.array([0, 150, 300]), ['1', '2'], x)",
    ),
    "fuse_files": (
        "out.run",
        "assay.fusion.fuse_files([d + '/run1.txt', d + '/run2.txt'], d + '/out/out.run')",
    ),
    "cli -o": (
        "out.tsv",
        _cli(
            "evaluate",
            "{d}/qrels.txt",
            "{d}/run1.txt",
            "-q",
            "--per-query",
            "-o",
            "{d}/out/out.tsv",
        ),
    ),
    "cli --save json": (
        "out.json",
        _cli("evaluate", "{d}/qrels.txt", "{d}/run1.txt", "-q", "--save", "{d}/out/out.json"),
    ),
    "cli --save parquet": (
        "out.parquet",
        _cli("evaluate", "{d}/qrels.txt", "{d}/run1.txt", "-q", "--save", "{d}/out/out.parquet"),
    ),
    "cli --report": (
        "out.html",
        _cli("evaluate", "{d}/qrels.txt", "{d}/run1.txt", "-q", "--report", "{d}/out/out.html"),
    ),
    "cli fuse -o": (
        "out.run",
        _cli("fuse", "{d}/run1.txt", "{d}/run2.txt", "-o", "{d}/out/out.run"),
    ),
    "cli plot -o": ("out.svg", _cli("plot", "{d}/saved.json", "-o", "{d}/out/out.svg")),
    "cli report -o": ("out.html", _cli("report", "{d}/saved.json", "-o", "{d}/out/out.html")),
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_write_cut_short_leaves_the_previous_file(
    data: Path, tmp_path: Path, writer: str
) -> None:
    name, code = WRITERS[writer]
    d = tmp_path / "d"
    d.mkdir()
    for f in data.iterdir():
        (d / f.name).write_bytes(f.read_bytes())
    if "saved.json" in code:
        from support.cli import invoke

        assert (
            invoke("evaluate", d / "qrels.txt", d / "run1.txt", "--save", d / "saved.json")[0] == 0
        )
    (d / "out").mkdir()
    target = d / "out" / name
    target.write_bytes(b"the previous good file\n")
    os.chmod(target, 0o640)
    script = _LIMITED.format(limit=LIMIT, folder=str(d), code=code.replace("{d}", str(d)))
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ASSAY_DEBUG": ""},
    )
    assert done.returncode != 0, f"{writer}: the write was not cut short\n{done.stderr}"
    if writer.startswith("cli"):  # one line naming the file, not the temporary one
        assert done.stderr.startswith("assay: error: ") and done.stderr.count("\n") == 1
        assert f"{target}: " in done.stderr and ".part" not in done.stderr, done.stderr
    assert target.read_bytes() == b"the previous good file\n", writer
    assert sorted(p.name for p in (d / "out").iterdir()) == [name], "a temporary file is left"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_an_exception_mid_write_leaves_the_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "x.txt"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt), atomic_open(target) as fh:
        fh.write(b"new, half")
        raise KeyboardInterrupt
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["x.txt"]
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "y.parquet") as tmp:
        Path(tmp).write_bytes(b"partial")
        raise RuntimeError("disk full")
    assert [p.name for p in tmp_path.iterdir()] == ["x.txt"]


def test_the_mode_is_what_a_plain_write_gives(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        with atomic_open(tmp_path / "new.txt") as fh:
            fh.write(b"x")
        plain = tmp_path / "plain.txt"
        with open(plain, "wb") as fh:
            fh.write(b"x")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "new.txt").stat().st_mode)
    assert mode == stat.S_IMODE(plain.stat().st_mode) == 0o640
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    os.chmod(kept, 0o604)
    with atomic_open(kept, "w", encoding="utf-8") as fh:
        fh.write("new")
    assert kept.read_text() == "new"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o604


def test_a_read_only_file_is_refused_as_a_plain_write_would(tmp_path: Path) -> None:
    # Whatever a plain open() does to a read-only file (refuse it; as root, write it and keep
    # its mode), the atomic write does the same.
    plain, target = tmp_path / "plain.txt", tmp_path / "ro.txt"
    for path in (plain, target):
        path.write_text("old")
        os.chmod(path, 0o444)
    try:
        with open(plain, "wb") as fh:
            fh.write(b"new")
        refused = False
    except PermissionError:
        refused = True
    if refused:
        with pytest.raises(PermissionError), atomic_open(target) as fh:
            fh.write(b"new")
    else:
        with atomic_open(target) as fh:
            fh.write(b"new")
    assert target.read_text() == plain.read_text() == ("old" if refused else "new")
    assert stat.S_IMODE(target.stat().st_mode) == stat.S_IMODE(plain.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt", "ro.txt"]


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    with atomic_open(link) as fh:
        fh.write(b"new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_named_pipe_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with atomic_open(fifo) as fh:
        fh.write(b"through the pipe")
    reader.join(timeout=30)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_same_file_sees_links_and_spellings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.txt").write_text("a")
    os.link("a.txt", "hard.txt")
    Path("sym.txt").symlink_to("a.txt")
    Path("sub").mkdir()
    for other in (
        "a.txt",
        "./a.txt",
        "sub/../a.txt",
        str(tmp_path / "a.txt"),
        "hard.txt",
        "sym.txt",
    ):
        assert same_file("a.txt", other), other
    assert not same_file("a.txt", "b.txt")
    assert same_file("new.txt", "./sub/../new.txt")  # neither exists yet


def test_a_gz_letor_file_is_compressed(tmp_path: Path) -> None:
    import numpy as np

    from assay.ltr.letor import read_letor, write_letor

    x = np.arange(12.0).reshape(4, 3)
    write_letor(tmp_path / "d.txt.gz", np.array([0, 1, 2, 0]), np.array([0, 2, 4]), ["1", "2"], x)
    assert (tmp_path / "d.txt.gz").read_bytes()[:2] == b"\x1f\x8b"
    back = read_letor(tmp_path / "d.txt.gz")
    assert np.array_equal(np.asarray(back.features), x)
