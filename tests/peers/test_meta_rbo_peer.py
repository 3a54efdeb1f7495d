"""RBO against the ``rbo`` package (changyaochen/rbo) on random rankings.

``rbo`` pins numpy<2, so it cannot join the dev extra; it runs in a separate interpreter
named by ``ASSAY_RBO_PYTHON`` (see CONTRIBUTING.md: ``python -m venv /tmp/rbo-venv &&
/tmp/rbo-venv/bin/pip install rbo``). Without it this test is skipped; the equations
themselves are always checked in tests/references/test_meta_rbo_reference.py.

Compared: ``RankingSimilarity(S, T).rbo_ext(p)`` (eq. 32, uneven lengths) with RBO_ext, and
for equal lengths ``rbo(p=p, ext=True)`` with RBO_ext. The package has no ties, so the
rankings here have none.
"""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

from assay.meta import rbo

PYTHON = os.environ.get("ASSAY_RBO_PYTHON")

_IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# Under CI the peer must be there (make test builds it): a skip would hide a missing check.
pytestmark = pytest.mark.skipif(
    not PYTHON and not _IN_CI,
    reason="ASSAY_RBO_PYTHON is not set (an interpreter with the rbo package)",
)

_PEER = """
import json, sys
from rbo import RankingSimilarity
out = []
for a, b, p in json.load(sys.stdin):
    r = RankingSimilarity(a, b)
    even = r.rbo(p=p, ext=True) if len(a) == len(b) else None
    out.append([r.rbo_ext(p=p), even])
print(json.dumps(out))
"""


def _cases(seed: int, n: int) -> list[tuple[list[str], list[str], float]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        universe = [f"d{i}" for i in range(int(rng.integers(2, 40)))]
        a = list(rng.permutation(universe)[: rng.integers(1, len(universe) + 1)])
        b = list(rng.permutation(universe)[: rng.integers(1, len(universe) + 1)])
        if rng.random() < 0.3:
            b = list(rng.permutation(universe)[: len(a)])  # equal lengths
        out.append((a, b, float(rng.choice([0.5, 0.8, 0.9, 0.95, 0.98]))))
    return out


def test_rbo_ext_matches_the_rbo_package():
    cases = _cases(seed=2024, n=300)
    done = subprocess.run(
        [str(PYTHON), "-c", _PEER], input=json.dumps(cases), capture_output=True, text=True,
        check=True, timeout=120,
    )  # fmt: skip
    peer = json.loads(done.stdout)
    evens = 0
    for (a, b, p), (ext, even) in zip(cases, peer, strict=True):
        got = rbo(a, b, p=p)
        assert got.ext == pytest.approx(ext, abs=1e-12), (a, b, p)
        if even is not None:
            evens += 1
            assert got.ext == pytest.approx(even, abs=1e-12), (a, b, p)
    assert evens > 30
