"""The LETOR reader against scikit-learn's ``load_svmlight_file(query_id=True)`` on random
files: same labels, query ids, feature values (as float32), index base and feature count."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

from assay.io.letor import read_letor
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
