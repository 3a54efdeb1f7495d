"""The caps of assay.io.limits, one by one: a small input that claims a huge amount of work
is refused in one InputError naming the file and what lifts the cap, and the cap lifts.
(The whole commands, measured under a memory limit, are in
tests/properties/test_size_bombs.py.)"""

from __future__ import annotations

import gzip
import io
import zipfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from numpy.lib import format as npy

import assay
import assay.embeddings.reader as embeddings_io
import assay.io.limits as limits
from assay.embeddings.reader import read_embeddings
from assay.embeddings.result import resolve_metrics
from assay.errors import InputError, OptionError
from assay.io.blocks import iter_parquet_run_blocks, iter_run_blocks
from assay.ltr import LetorDataset
from assay.ltr.letor import read_letor
from assay.metrics import parse_all
from assay.metrics.registry import Metric
from support.cli import assert_one_line_error, invoke


@pytest.fixture
def small_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compressed inputs may expand to 64 KiB whatever their ratio (32 MiB by default), so
    a bomb of a few hundred kilobytes shows the cap."""
    monkeypatch.setattr(limits, "EXPANSION_FLOOR", 64 << 10)


# ---------------------------------------------------------------- LETOR feature indices


def test_a_huge_feature_index_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "bomb.txt"
    p.write_text("1 qid:1 100000000:1\n0 qid:1 1:1\n")
    with pytest.raises(InputError, match="ASSAY_MAX_FEATURES") as info:
        read_letor(p)
    assert str(p) in str(info.value) and "100000000" in str(info.value)


def test_max_features_lifts_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "wide.txt"
    p.write_text("1 qid:1 2000000:1\n0 qid:1 1:1\n")
    assert read_letor(p, max_features=2_000_000).n_features == 2_000_000
    with pytest.raises(InputError, match="raise max_features"):
        read_letor(p, max_features=1000)
    monkeypatch.setenv("ASSAY_MAX_FEATURES", "2000000")
    assert read_letor(p).n_features == 2_000_000


def test_n_features_beyond_the_cap_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "f.txt"
    p.write_text("1 qid:1 1:1\n")
    with pytest.raises(InputError, match="more than the 1048576 allowed"):
        read_letor(p, n_features=10**9)


@pytest.mark.parametrize("bad", [0, -1, 2.5, "many", True])
def test_max_features_is_an_option(tmp_path: Path, bad: object) -> None:
    p = tmp_path / "f.txt"
    p.write_text("1 qid:1 1:1\n")
    with pytest.raises(OptionError, match="max_features"):
        read_letor(p, max_features=bad)  # type: ignore[arg-type]


def test_a_bad_cap_in_the_environment_is_an_option_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = tmp_path / "f.txt"
    p.write_text("1 qid:1 1:1\n")
    monkeypatch.setenv("ASSAY_MAX_FEATURES", "lots")
    with pytest.raises(OptionError, match="ASSAY_MAX_FEATURES must be a positive integer"):
        read_letor(p)


# ---------------------------------------------------------------- dense matrices


def _sparse_wide(tmp_path: Path) -> Path:
    p = tmp_path / "wide.txt"
    p.write_text("".join(f"{i % 2} qid:{i // 5} 1:1 50000:{i}\n" for i in range(40)))
    return p


def test_a_dense_matrix_far_larger_than_its_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "DENSE_BYTES", 1 << 20)  # 40 x 50000 float32 is 7.6 MiB
    p = _sparse_wide(tmp_path)
    with pytest.raises(InputError, match="ASSAY_MAX_DENSE_BYTES") as info:
        read_letor(p, features="dense")
    assert "40 x 50000" in str(info.value)
    assert read_letor(p).features.shape == (40, 50000)  # sparse: no dense matrix
    monkeypatch.setenv("ASSAY_MAX_DENSE_BYTES", str(16 << 20))
    assert read_letor(p, features="dense").features.shape == (40, 50000)


def test_datasets_check_before_densifying(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "DENSE_BYTES", 1 << 20)
    data = LetorDataset.read(_sparse_wide(tmp_path))
    with pytest.raises(InputError, match="ASSAY_MAX_DENSE_BYTES"):
        data.dense(np.float64)
    with pytest.raises(InputError, match="ASSAY_MAX_DENSE_BYTES"):
        data.normalized("zscore")
    # Arrays a caller holds already may become float64: twice their size, within the ratio.
    x = np.ones((2000, 100), dtype=np.float32)  # 0.8 MB, 1.6 MB as float64
    mine = LetorDataset.from_arrays(x, np.zeros(2000), group=[1000, 1000])
    assert mine.dense(np.float64).shape == (2000, 100)


# ---------------------------------------------------------------- gzip


def _gzip_bomb(path: Path, line: bytes = b"1 Q0 d 1 1.0 r\n", size: int = 4 << 20) -> Path:
    path.write_bytes(gzip.compress(line * (size // len(line)), 9))
    return path


def test_a_gzip_bomb_is_refused(tmp_path: Path, small_floor: None) -> None:
    bomb = _gzip_bomb(tmp_path / "run.gz")
    with pytest.raises(InputError, match="ASSAY_MAX_EXPANSION") as info:
        assay.Run.read(bomb)
    assert str(bomb) in str(info.value)
    with pytest.raises(InputError, match="ASSAY_MAX_EXPANSION"):
        list(iter_run_blocks(bomb))
    letor = _gzip_bomb(tmp_path / "train.gz", b"1 qid:1 1:0.5 2:0.25\n")
    with pytest.raises(InputError, match="ASSAY_MAX_EXPANSION"):
        read_letor(letor)


def test_ordinary_gzip_is_read_and_the_cap_lifts(
    tmp_path: Path, small_floor: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(0)
    lines = "".join(
        f"q{i // 100} Q0 d{rng.integers(10**9)} 1 {rng.random()} r\n" for i in range(5000)
    )
    (tmp_path / "run.gz").write_bytes(gzip.compress(lines.encode()))
    assert len(assay.Run.read(tmp_path / "run.gz")) == 5000
    bomb = _gzip_bomb(tmp_path / "bomb.gz", b"1 0 d 1\n")
    monkeypatch.setenv("ASSAY_MAX_EXPANSION", "100000")
    with pytest.raises(
        InputError, match="duplicate"
    ):  # read through, then refused for what it holds
        assay.Qrels.read(bomb)


# ---------------------------------------------------------------- .npy and .npz


def _npy_bytes(shape: tuple[int, ...], data: np.ndarray) -> bytes:
    out = io.BytesIO()
    npy.write_array_header_1_0(
        out, {"descr": data.dtype.str, "fortran_order": False, "shape": shape}
    )
    return out.getvalue() + data.tobytes()


def test_an_npy_header_that_lies_about_its_shape_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "lie.npy"
    p.write_bytes(_npy_bytes((10**6, 10**4), np.ones((3, 4))))
    with pytest.raises(InputError, match=r"claims shape \(1000000, 10000\)"):
        read_embeddings(p)
    z = tmp_path / "lie.npz"
    with zipfile.ZipFile(z, "w") as archive:
        archive.writestr("embeddings.npy", _npy_bytes((10**5, 10**4), np.ones((3, 4))))
    with pytest.raises(InputError, match="claims shape"):
        read_embeddings(z)
    with pytest.raises(InputError, match="claims shape"):
        embeddings_io.embeddings_shape(z)


def test_an_npz_bomb_is_refused_from_its_zip_entry(tmp_path: Path, small_floor: None) -> None:
    p = tmp_path / "bomb.npz"
    np.savez_compressed(p, embeddings=np.zeros((2000, 100)))
    with pytest.raises(InputError, match="ASSAY_MAX_EXPANSION") as info:
        read_embeddings(p)
    assert "bomb.npz:embeddings.npy" in str(info.value)


def test_the_shape_comes_from_the_header(tmp_path: Path) -> None:
    np.save(tmp_path / "e.npy", np.ones((5, 3), dtype=np.float32))
    np.savez(tmp_path / "e.npz", other=np.ones(2), embeddings=np.ones((7, 2)))
    assert embeddings_io.embeddings_shape(tmp_path / "e.npy") == (5, 3)
    assert embeddings_io.embeddings_shape(tmp_path / "e.npz") == (7, 2)
    assert embeddings_io.embeddings_shape(tmp_path / "e.npz", key="embeddings") == (7, 2)
    assert embeddings_io.embeddings_shape(tmp_path / "e.csv") is None


def test_embed_checks_the_label_count_before_reading_the_array(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    np.savez_compressed(tmp_path / "q.npz", embeddings=np.zeros((5000, 8)))
    (tmp_path / "labels.txt").write_text("a\nb\na\n")

    def no_load(*args: object, **kwargs: object) -> None:
        raise AssertionError("the array was loaded")

    monkeypatch.setattr(np, "load", no_load)
    code, out, err = invoke("embed", tmp_path / "q.npz", tmp_path / "labels.txt")
    assert_one_line_error(code, out, err, "has 3 labels but", "has 5000 embeddings")


# ---------------------------------------------------------------- Parquet


def test_a_parquet_bomb_is_refused_from_its_metadata(tmp_path: Path, small_floor: None) -> None:
    n = 400_000
    codes = pa.array(np.zeros(n, dtype=np.int32))
    table = pa.table(
        {
            "query": pa.DictionaryArray.from_arrays(codes, pa.array(["1"])),
            "doc": pa.DictionaryArray.from_arrays(codes, pa.array(["d"])),
            "relevance": pa.array(np.ones(n, dtype=np.int64)),
        }
    )
    p = tmp_path / "qrels.parquet"
    pq.write_table(table, p, compression="zstd")
    assert p.stat().st_size < 20_000
    with pytest.raises(InputError, match="ASSAY_MAX_EXPANSION") as info:
        assay.Qrels.read(p)
    assert "400000 rows" in str(info.value)


def test_a_parquet_dictionary_of_long_text_is_refused_before_decoding(tmp_path: Path) -> None:
    """One 1 MiB id in the dictionary, referenced by 200 rows: 200 MiB once decoded, from a
    file of a few kilobytes (3,000 rows took 30 s and 2.2 GB, then an internal error)."""
    n = 200
    codes = pa.array(np.zeros(n, dtype=np.int32))
    table = pa.table(
        {
            "query": pa.DictionaryArray.from_arrays(codes, pa.array(["q" * (1 << 20)])),
            "doc": pa.array([f"d{i}" for i in range(n)]),
            "score": pa.array(np.ones(n)),
        }
    )
    p = tmp_path / "run.parquet"
    pq.write_table(table, p, compression="zstd")
    assert p.stat().st_size < 20_000
    with pytest.raises(InputError, match="its text would decode to 200 MiB"):
        assay.Run.read(p)
    with pytest.raises(InputError, match="ASSAY_MAX_EXPANSION"):
        list(iter_parquet_run_blocks(p))


def test_parquet_text_columns_read_as_before(tmp_path: Path) -> None:
    table = pa.table(
        {
            "query": pa.array(["1", "1", "2"]).dictionary_encode(),
            "doc": pa.array(["a", "b", "a"]),
            "score": pa.array([0.5, 0.25, 1.0]),
        }
    )
    pq.write_table(table, tmp_path / "run.parquet")
    run = assay.Run.read(tmp_path / "run.parquet")
    assert sorted(run.to_dict()["1"]) == ["a", "b"] and list(run.to_dict()["2"]) == ["a"]


# ---------------------------------------------------------------- lists of names


@pytest.fixture
def comparisons(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the comparisons of Metric objects (de-duplication must not compare every pair)."""
    calls = [0]
    equal = Metric.__eq__

    def counted(self: Metric, other: object) -> bool:
        calls[0] += 1
        return equal(self, other)

    monkeypatch.setattr(Metric, "__eq__", counted)
    return calls


def test_removing_repeated_metric_names_is_linear(comparisons: list[int]) -> None:
    names = [f"P@{k}" for k in range(1, 3001)]
    metrics = parse_all([*names, "map", *names[:10], "map"])
    assert [str(m) for m in metrics] == [*names, "map"]
    assert comparisons[0] < 5 * len(names)  # a pairwise scan makes 4.5 million


def test_embedding_metric_lists_are_deduplicated_linearly(comparisons: list[int]) -> None:
    names = [f"precision@{k}" for k in range(1, 2001)]
    metrics = resolve_metrics([*names, *names], k=10)
    assert len(metrics) == 2000
    assert comparisons[0] < 5 * len(names)  # a pairwise scan makes 2 million


# ---------------------------------------------------------------- classes


def test_more_classes_than_the_cap_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    gold = [f"c{i}" for i in range(60)]
    pred = gold[1:] + gold[:1]
    assert assay.classification.accuracy(gold, pred) == 0.0
    monkeypatch.setenv("ASSAY_MAX_CLASSES", "50")
    with pytest.raises(InputError, match=r"60 distinct labels.*ASSAY_MAX_CLASSES"):
        assay.classification.accuracy(gold, pred)


def test_classify_does_not_print_a_confusion_matrix_of_hundreds_of_classes(
    tmp_path: Path,
) -> None:
    gold = [f"c{i}" for i in range(150)]
    (tmp_path / "gold.txt").write_text("\n".join(gold) + "\n")
    (tmp_path / "pred.txt").write_text("\n".join(gold[1:] + gold[:1]) + "\n")
    code, out, err = invoke(
        "classify", tmp_path / "gold.txt", tmp_path / "pred.txt", "-f", "markdown"
    )
    assert code == 0
    assert "Confusion matrix" not in out and "| c0 | c1 |" not in out
    assert "confusion matrix of 150 classes is not shown" in err
    few = tmp_path / "few.txt"
    few.write_text("a\nb\na\n")
    code, out, err = invoke("classify", few, few, "-f", "markdown")
    assert code == 0 and "Confusion matrix" in out


# ---------------------------------------------------------------- JSON Lines


@pytest.mark.parametrize(
    ("value", "depth"),
    [("[" * 600 + "]" * 600, 601), ('{"a":' * 600 + "1" + "}" * 600, 601)],
)
def test_json_lines_nested_too_deep_are_refused_at_their_line(
    tmp_path: Path, value: str, depth: int
) -> None:
    """Arrow's JSON parser recurses once a level and crashes (SIGSEGV) past about 5,000."""
    p = tmp_path / "run.jsonl"
    good = '{"query": "1", "doc": "d1", "score": 0.5}\n'
    p.write_text(good + f'{{"query": "1", "doc": "d2", "score": 0.5, "x": {value}}}\n')
    with pytest.raises(InputError, match=f"nested too deeply \\({depth} levels deep") as info:
        assay.Run.read(p)
    assert f"{p}:2:" in str(info.value)


def test_brackets_in_json_strings_are_text(tmp_path: Path) -> None:
    p = tmp_path / "run.jsonl"
    text = "[" * 6000
    p.write_text(
        f'{{"query": "1", "doc": "d\\\\\\"{text}", "score": 0.5}}\n'
        f'{{"query": "1", "doc": "{text}", "score": 0.25}}\n'
    )
    run = assay.Run.read(p)
    assert len(run) == 2


def test_neighbour_pairs_are_capped_before_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # One class: r_precision/map@r rank each query's R = n - 1 nearest, n^2 pairs in all.
    x = np.random.default_rng(0).normal(size=(300, 4))
    labels = ["a"] * 300
    monkeypatch.setenv("ASSAY_MAX_NEIGHBOURS", str(300 * 298))
    with pytest.raises(InputError, match=r"300 queries x 299 neighbours.*at a cutoff"):
        assay.embeddings.retrieval_metrics(x, labels)
    with pytest.raises(InputError, match="give a smaller k"):
        assay.embeddings.nearest_neighbours(x, k=299)
    at_cutoff = assay.embeddings.retrieval_metrics(x, labels, metrics=["precision@5"])
    assert at_cutoff.mean("precision@5") == 1.0
    monkeypatch.setenv("ASSAY_MAX_NEIGHBOURS", str(300 * 299))
    assert assay.embeddings.retrieval_metrics(x, labels).mean("map@r") == 1.0
    assert assay.embeddings.nearest_neighbours(x, k=299).shape == (300, 299)
