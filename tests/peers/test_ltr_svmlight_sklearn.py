"""The LETOR reader against scikit-learn's ``load_svmlight_file(query_id=True)`` on random
files: same labels, query ids, feature values (as float32), index base and feature count."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

from assay.ltr.letor import read_letor
from strategies.ltr import letor_texts

sk = pytest.importorskip("sklearn.datasets")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=letor_texts())
def test_reader_matches_load_svmlight_file(tmp_path: Path, text: str) -> None:
    assume(_indices(text))  # a file without any feature has no feature count to compare
    path = tmp_path / "f.txt"
    path.write_text(text)
    x, y, qid = sk.load_svmlight_file(str(path), query_id=True)
    ours = read_letor(path, features="sparse")
    assert ours.n_features == x.shape[1]
    # scikit-learn's zero_based="auto": 0-based when some index is 0.
    assert ours.index_base == (0 if "0" in _indices(text) else 1)
    np.testing.assert_array_equal(ours.labels, y)
    rows_q = np.repeat(
        np.asarray(ours.query_ids.to_pylist(), dtype=np.int64), np.diff(ours.offsets)
    )
    np.testing.assert_array_equal(rows_q, qid)
    np.testing.assert_array_equal(ours.features.toarray(), x.toarray().astype(np.float32))
    dense = read_letor(path, features="dense")
    np.testing.assert_array_equal(dense.features, x.toarray().astype(np.float32))


def _indices(text: str) -> set[str]:
    """The feature indices written in the file (plain Python: the test's own reading)."""
    body = [line.split("#")[0].split()[2:] for line in text.splitlines()]
    return {tok.split(":")[0] for fields in body for tok in fields}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=letor_texts())
def test_fast_and_careful_paths_agree(tmp_path: Path, text: str, monkeypatch) -> None:
    """Blocks without comments go through Arrow's split and casts; the careful parser must
    read every file the same way (ids, lines, features)."""
    import assay.ltr.letor as letor

    path = tmp_path / "f.txt"
    path.write_text(_no_comments(text))
    fast = read_letor(path, features="dense")
    monkeypatch.setattr(letor, "FAST", False)
    careful = read_letor(path, features="dense")
    np.testing.assert_array_equal(fast.features, careful.features)
    np.testing.assert_array_equal(fast.labels, careful.labels)
    np.testing.assert_array_equal(fast.lines, careful.lines)
    np.testing.assert_array_equal(fast.offsets, careful.offsets)
    assert fast.query_ids.equals(careful.query_ids) and fast.doc_ids.equals(careful.doc_ids)


def _no_comments(text: str) -> str:
    lines = [line.split("#")[0] for line in text.splitlines()]
    body = "\n".join(line for line in lines if line.strip())
    return body + "\n" if body else "0 qid:1 1:1\n"
