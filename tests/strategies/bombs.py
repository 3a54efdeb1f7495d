"""Size bombs: inputs under a megabyte that claim a huge amount of work, each with the
``assay`` command that reads it. :func:`cases` draws them from a seeded generator; the suite
(tests/properties/test_size_bombs.py) and the census (tests/properties/bomb_census.py) run
them under a memory limit (tests/support/sandbox.py).

Every family writes its files under a folder of its own and returns the command's
arguments. A bomb is built without holding what it expands to: gzip by repeating one
compressed member (a gzip file may hold many), zip members by streaming deflate, Parquet by
writing one small row group many times.
"""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

Rng = np.random.Generator


@dataclass(frozen=True)
class Case:
    family: str
    argv: list[str]
    input_bytes: int


#: The largest input written: every bomb is under a megabyte.
MAX_INPUT = 1 << 20


def _gzip_repeated(path: Path, chunk: bytes, copies: int) -> None:
    member = gzip.compress(chunk, 9)
    path.write_bytes(member * max(1, min(copies, (MAX_INPUT - 100_000) // len(member))))


def _trec_run_chunk(rng: Rng, unique: bool) -> bytes:
    q = int(rng.integers(1, 50))
    docs = [d % 7 for d in range(20_000)] if unique else [0] * 20_000
    return "".join(f"{q} Q0 d{d} 1 1.5 r\n" for d in docs).encode()


def _qrels(path: Path) -> Path:
    path.write_text("".join(f"{q} 0 d{d} {d % 2}\n" for q in range(1, 50) for d in range(20)))
    return path


def gzip_run(rng: Rng, at: Path) -> list[str]:
    run = at / "run.gz"
    copies = int(rng.integers(50, 800))
    _gzip_repeated(run, _trec_run_chunk(rng, bool(rng.integers(2))), copies)
    qrels = _qrels(at / "qrels.txt")
    form = int(rng.integers(4))
    if form == 0:
        return ["evaluate", str(qrels), str(run), "-m", "map"]
    if form == 1:
        return ["trec-eval", str(qrels), str(run)]
    if form == 2:
        return ["fuse", str(run), str(run), "--method", "rrf"]
    return ["evaluate", str(run), str(run), "-m", "P@10"]  # as qrels (a grade in column 4)


def letor_index(rng: Rng, at: Path) -> list[str]:
    index = int(rng.choice([10**6, (1 << 20) + 1, 10**7, 10**8, 999_999_999]))
    rows = int(rng.integers(2, 4000))
    lines = "".join(f"{i % 3} qid:{i // 10} 1:0.5 {index}:{i}\n" for i in range(rows))
    (at / "train.txt").write_text(lines)
    (at / "test.txt").write_text(lines[: len(lines) // 2 + 1].rsplit("\n", 1)[0] + "\n")
    form = int(rng.integers(3))
    if form == 0:
        return ["ltr", "stats", str(at / "train.txt")]
    norm = ["--norm", "zscore"] if form == 2 else []
    return ["ltr", "run", str(at), "--models", "linear,random", "--n-resamples", "100", *norm]


def letor_gzip(rng: Rng, at: Path) -> list[str]:
    chunk = b"".join(b"1 qid:1 1:0.5 2:0.25\n" for _ in range(50_000))
    _gzip_repeated(at / "train.gz", chunk, int(rng.integers(50, 500)))
    return ["ltr", "stats", str(at / "train.gz")]


def _npy_header(shape: tuple[int, ...], dtype: str = "<f8") -> bytes:
    from numpy.lib import format as npy

    out = io.BytesIO()
    npy.write_array_header_1_0(out, {"descr": dtype, "fortran_order": False, "shape": shape})
    return out.getvalue()


def _labels(at: Path, n: int) -> Path:
    p = at / "labels.txt"
    p.write_text("".join(f"c{i % 3}\n" for i in range(n)))
    return p


def npz_bomb(rng: Rng, at: Path) -> list[str]:
    # Beyond EXPANSION_FLOOR (32 MiB): smaller arrays are not bombs but ordinary inputs, whose
    # exact nearest neighbours take their time (all pairs).
    rows = int(rng.integers(40_000, 100_000))
    dims = int(rng.integers(128, 256))
    zeros = bytes(1 << 22)
    left = rows * dims * 8
    with (
        zipfile.ZipFile(at / "e.npz", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z,
        z.open("embeddings.npy", "w", force_zip64=True) as member,
    ):
        member.write(_npy_header((rows, dims)))
        while left > 0:
            member.write(zeros[: min(left, len(zeros))])
            left -= len(zeros)
    n = rows if rng.integers(2) else 3  # a matching label count, or a wrong one
    return ["embed", str(at / "e.npz"), str(_labels(at, n))]


def embed_all_pairs(rng: Rng, at: Path) -> list[str]:
    """A plain .npy under a megabyte whose few classes make r_precision and map@r rank
    every query's R nearest: up to 20,000 x 19,999 pairs."""
    dims = int(rng.integers(4, 24))
    rows = int(rng.integers(2_000, min(20_000, 800_000 // (4 * dims)) + 1))
    x = rng.normal(size=(rows, dims)).astype(np.float32)
    np.save(at / "e.npy", x)
    classes = int(rng.integers(1, 4))
    (at / "labels.txt").write_text("".join(f"c{i % classes}\n" for i in range(rows)))
    return ["embed", str(at / "e.npy"), str(at / "labels.txt")]


def npy_lying(rng: Rng, at: Path) -> list[str]:
    shape = (int(rng.integers(10**4, 10**7)), int(rng.integers(2, 10**4)))
    data = np.ones((3, 4)).tobytes()
    name = "e.npy" if rng.integers(2) else "e.npz"
    if name == "e.npy":
        (at / name).write_bytes(_npy_header(shape) + data)
    else:
        with zipfile.ZipFile(at / name, "w") as z:
            z.writestr("embeddings.npy", _npy_header(shape) + data)
    return ["embed", str(at / name), str(_labels(at, 3))]


def parquet_bomb(rng: Rng, at: Path) -> list[str]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 1 << 20
    codes = pa.array(np.zeros(n, dtype=np.int32))
    role = "qrels" if rng.integers(2) else "run"
    last = ("relevance", pa.array(np.ones(n, dtype=np.int64)))
    if role == "run":
        last = ("score", pa.array(np.ones(n)))
    table = pa.table(
        {
            "query": pa.DictionaryArray.from_arrays(codes, pa.array(["1"])),
            "doc": pa.DictionaryArray.from_arrays(codes, pa.array(["d"])),
            last[0]: last[1],
        }
    )
    path = at / f"{role}.parquet"
    with pq.ParquetWriter(path, table.schema, compression="zstd") as writer:
        for _ in range(int(rng.integers(4, 60))):
            writer.write_table(table)
    qrels = _qrels(at / "qrels.txt")
    if role == "qrels":
        return ["evaluate", str(path), str(qrels), "-m", "map"]
    return ["evaluate", str(qrels), str(path), "-m", "map"]


def parquet_dictionary(rng: Rng, at: Path) -> list[str]:
    """One long id in a dictionary page that every row references: tiny on disk."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = int(rng.integers(100, 5000))
    codes = pa.array(np.zeros(n, dtype=np.int32))
    long_id = pa.array(["q" * int(rng.integers(1 << 16, 1 << 21))])
    table = pa.table(
        {
            "query": pa.DictionaryArray.from_arrays(codes, long_id),
            "doc": pa.array([f"d{i}" for i in range(n)]),
            "score": pa.array(np.ones(n)),
        }
    )
    pq.write_table(table, at / "run.parquet", compression="zstd")
    return ["evaluate", str(_qrels(at / "qrels.txt")), str(at / "run.parquet"), "-m", "map"]


def metric_names(rng: Rng, at: Path) -> list[str]:
    qrels = _qrels(at / "qrels.txt")
    run = at / "run.txt"
    run.write_text("".join(f"{q} Q0 d{d} 1 {-d} r\n" for q in range(1, 50) for d in range(30)))
    n = int(rng.integers(1000, 8000))
    form = int(rng.integers(5))
    if form == 0:
        names = [f"P@{int(k)}" for k in rng.integers(1, 10**6, n)]
    elif form == 1:
        names = [f"ndcg@{int(k)}" for k in rng.integers(1, 100, n)]  # repeats
    elif form == 2:
        names = ["P@1000000000", "ndcg@1e9", "ndcg_cut.1000000000", "R@999999999"]
    elif form == 3:
        names = ["iprec_at_recall." + ",".join(f"{x:.6f}" for x in rng.random(n))]
    else:
        names = ["P." + ",".join(str(int(k)) for k in rng.integers(1, 10**9, n))]
    argv = ["evaluate", str(qrels), str(run), "-o", str(at / "out.tsv")]
    for name in names:
        argv += ["-m", name]
    return argv


def many_classes(rng: Rng, at: Path) -> list[str]:
    n = int(rng.integers(1000, 60_000))
    (at / "gold.txt").write_text("".join(f"c{i}\n" for i in range(n)))
    (at / "pred.txt").write_text("".join(f"c{(i + 1) % n}\n" for i in range(n)))
    return ["classify", str(at / "gold.txt"), str(at / "pred.txt")]


def wide_csv(rng: Rng, at: Path) -> list[str]:
    extra = int(rng.integers(10_000, 90_000))
    header = "query,doc,score," + ",".join(f"x{i}" for i in range(extra))
    row = "1,d1,0.5," + ",".join("0" for _ in range(extra))
    (at / "run.csv").write_text(header + "\n" + row + "\n")
    return ["evaluate", str(_qrels(at / "qrels.txt")), str(at / "run.csv"), "-m", "map"]


def long_sentence(rng: Rng, at: Path) -> list[str]:
    n = int(rng.integers(10_000, 55_000))
    tags = ["B-PER", "I-PER", "O", "B-LOC"]
    pred = ["B-PER", "B-PER", "I-LOC", "O"]
    text = "".join(f"w{i} {tags[i % 4]} {pred[i % 3]}\n" for i in range(n))
    (at / "tagged.conll").write_text(text)  # one sentence of n tokens
    return ["tagging", str(at / "tagged.conll"), "--mode", str(rng.choice(["conlleval", "strict"]))]


def many_raters(rng: Rng, at: Path) -> list[str]:
    n = int(rng.integers(5_000, 60_000))
    units = int(rng.integers(2, 500))
    rows = "".join(f"u{i % units}\t{10**9 + i}\t{i % 5}\n" for i in range(n))
    (at / "r.tsv").write_text("unit\trater\tvalue\n" + rows)
    return ["agree", "--long", str(at / "r.tsv")]


def many_clusters(rng: Rng, at: Path) -> list[str]:
    n = int(rng.integers(5_000, 40_000))
    (at / "gold.txt").write_text("".join(f"i{k}\tc{k}\n" for k in range(n)))
    (at / "pred.txt").write_text("".join(f"i{k}\tp{k // 2}\n" for k in range(n)))
    return ["cluster", str(at / "gold.txt"), str(at / "pred.txt")]


def huge_options(rng: Rng, at: Path) -> list[str]:
    qrels = _qrels(at / "qrels.txt")
    run = at / "run.txt"
    run.write_text("".join(f"{q} Q0 d{d} 1 {-d} r\n" for q in range(1, 50) for d in range(30)))
    other = at / "other.txt"
    other.write_text(run.read_text().replace(" r\n", " s\n"))
    value = str(int(rng.choice([10**9, 10**12, 2**62])))
    if rng.integers(2):
        return ["compare", str(qrels), str(run), str(other), "--n-resamples", value]
    return ["evaluate", str(qrels), str(run), "-m", f"P@{value}"]


def jsonl_deep(rng: Rng, at: Path) -> list[str]:
    depth = int(rng.choice([600, 6_000, 20_000, 200_000]))
    form = int(rng.integers(3))
    if form == 0:
        value = "[" * depth + "]" * depth
    elif form == 1:
        value = '{"a":' * depth + "1" + "}" * depth
    else:  # brackets inside a string are text: read
        value = '"' + "[" * depth + '"'
    row = f'{{"query": "1", "doc": "d1", "score": 0.5, "x": {value}}}\n'
    (at / "run.jsonl").write_text(row)
    return ["evaluate", str(_qrels(at / "qrels.txt")), str(at / "run.jsonl"), "-m", "map"]


def jsonl_wide(rng: Rng, at: Path) -> list[str]:
    keys = int(rng.integers(1_000, 38_000))
    extra = ", ".join(f'"k{i}": {i}' for i in range(keys))
    row = f'{{"query": "1", "doc": "d1", "score": 0.5, {extra}}}\n'
    (at / "run.jsonl").write_text(row * int(rng.integers(1, 3)))
    return ["evaluate", str(_qrels(at / "qrels.txt")), str(at / "run.jsonl"), "-m", "map"]


FAMILIES: dict[str, Callable[[Rng, Path], list[str]]] = {
    "gzip-run": gzip_run,
    "letor-index": letor_index,
    "letor-gzip": letor_gzip,
    "npz-bomb": npz_bomb,
    "npy-lying": npy_lying,
    "embed-all-pairs": embed_all_pairs,
    "parquet-bomb": parquet_bomb,
    "parquet-dictionary": parquet_dictionary,
    "metric-names": metric_names,
    "many-classes": many_classes,
    "wide-csv": wide_csv,
    "long-sentence": long_sentence,
    "many-raters": many_raters,
    "many-clusters": many_clusters,
    "huge-options": huge_options,
    "jsonl-deep": jsonl_deep,
    "jsonl-wide": jsonl_wide,
}


def cases(seed: int, examples: int, root: Path, families: list[str] | None = None) -> list[Case]:
    """``examples`` cases, the families taken in turn, their files written under ``root``."""
    rng = np.random.default_rng(seed)
    names = families or list(FAMILIES)
    out = []
    for i in range(examples):
        family = names[i % len(names)]
        at = root / f"{i:05d}-{family}"
        at.mkdir(parents=True)
        argv = FAMILIES[family](rng, at)
        size = sum(p.stat().st_size for p in at.iterdir() if p.is_file())
        out.append(Case(family, argv, size))
    return out
