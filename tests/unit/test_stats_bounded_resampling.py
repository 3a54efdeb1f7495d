"""Resampling with memory bounded independently of n_resamples: above the in-memory budget a
bootstrap interval selects its order statistics exactly in passes over resamples drawn again
from the seed, and gives the same bits as the in-memory computation."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import stats
from assay.stats import _resampling as rs
from assay.stats import _selection as sel

RNG = np.random.default_rng(7)
SCORES = RNG.beta(2, 5, size=(5, 30))
DISCRETE = RNG.integers(0, 3, size=(4, 12)).astype(float) / 2  # many ties


@pytest.fixture(params=["guessed", "selected"])
def speculate(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the first pass's guess windows (usually one pass), and without them (every
    value found by histogram passes)."""
    if request.param == "selected":
        monkeypatch.setattr(sel, "_SPECULATE", 0)


def _both(monkeypatch: pytest.MonkeyPatch, call):  # type: ignore[no-untyped-def]
    """The result held in memory, and streamed with tiny histograms (several passes)."""
    held = call()
    monkeypatch.setattr(rs, "IN_MEMORY_VALUES", 0)
    monkeypatch.setattr(sel, "_CELLS", 64)
    monkeypatch.setattr(sel, "_GATHER", 40)
    return held, call()


def same_bits(a: object, b: object) -> bool:
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


@pytest.mark.parametrize("method", ["bca", "percentile", "basic"])
@pytest.mark.parametrize("data", [SCORES, DISCRETE], ids=["continuous", "ties"])
def test_bootstrap_mean_ci_streamed_equals_held(
    monkeypatch: pytest.MonkeyPatch, speculate: None, method: str, data: np.ndarray
) -> None:
    held, streamed_ = _both(
        monkeypatch,
        lambda: stats.bootstrap_mean_ci(data, n_resamples=3001, seed=3, ci_method=method),
    )
    assert same_bits(held[0], streamed_[0]) and same_bits(held[1], streamed_[1])


@pytest.mark.parametrize("method", ["bca", "percentile", "basic"])
@pytest.mark.parametrize("statistic", [np.mean, np.median, lambda x: float(np.max(x))])
def test_bootstrap_ci_streamed_equals_held(
    monkeypatch: pytest.MonkeyPatch, speculate: None, method: str, statistic: object
) -> None:
    held, streamed_ = _both(
        monkeypatch,
        lambda: stats.bootstrap_ci(
            SCORES[0], statistic, n_resamples=2000, seed=1, ci_method=method
        ),
    )
    assert held.ci == streamed_.ci and held.statistic == streamed_.statistic
    se_held = held.details["standard_error"]
    assert streamed_.details["standard_error"] == pytest.approx(se_held, rel=1e-12)


def test_paired_bootstrap_test_streamed_equals_held(
    monkeypatch: pytest.MonkeyPatch, speculate: None
) -> None:
    held, streamed_ = _both(
        monkeypatch,
        lambda: stats.paired_bootstrap_test(SCORES[0], SCORES[1], n_resamples=2500, seed=9),
    )
    assert (held.pvalue, held.ci) == (streamed_.pvalue, streamed_.ci)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    b=st.integers(1, 400),
    m=st.integers(1, 4),
    step=st.integers(1, 97),
    kind=st.sampled_from(["normal", "ties", "nonfinite", "wide", "constant"]),
    seed=st.integers(0, 2**16),
    gather=st.integers(1, 30),
    cells=st.integers(16, 300),
    speculate=st.sampled_from([0, 50, 1 << 22]),
)
def test_order_statistics_equal_sorting(
    b: int, m: int, step: int, kind: str, seed: int, gather: int, cells: int, speculate: int
) -> None:
    """Exact selection over blocks returns np.sort's values at any ranks, for any block size,
    with ties, infinities and NaN (sorted last) and values spanning every magnitude."""
    rng = np.random.default_rng(seed)
    matrix = {
        "normal": lambda: rng.normal(size=(b, m)),
        "ties": lambda: rng.integers(0, 3, size=(b, m)).astype(float),
        "nonfinite": lambda: rng.choice([-np.inf, np.inf, np.nan, 1.0, -2.5, 0.5], size=(b, m)),
        "wide": lambda: (
            rng.choice([-1, 1], size=(b, m)) * np.exp(rng.normal(scale=200, size=(b, m)))
        ),
        "constant": lambda: np.full((b, m), 0.25),
    }[kind]()

    def blocks():  # type: ignore[no-untyped-def]
        for start in range(0, b, step):
            yield matrix[start : start + step]

    cols = rng.integers(0, m, size=8)
    ranks = rng.integers(0, b, size=8)
    old = sel._GATHER, sel._CELLS, sel._SPECULATE
    sel._GATHER, sel._CELLS, sel._SPECULATE = gather, cells, speculate
    try:
        got = sel.order_statistics(blocks, m, b, lambda seen: (cols, ranks))
    finally:
        sel._GATHER, sel._CELLS, sel._SPECULATE = old
    assert same_bits(got, np.sort(matrix, axis=0)[ranks, cols])


def test_memory_does_not_grow_with_n_resamples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above the budget, the largest allocation is a block, not the distribution."""
    monkeypatch.setattr(rs, "IN_MEMORY_VALUES", 1 << 16)
    data = RNG.beta(2, 5, size=(3, 20))
    n = 400_000  # 9.6 MB of means if they were held (3 rows x 400k x 8 bytes)
    stats.bootstrap_mean_ci(data, n_resamples=10, seed=0)  # imports happen outside the trace
    tracemalloc.start()
    try:
        stats.bootstrap_mean_ci(data, n_resamples=n, seed=0, ci_method="bca")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * n * 8 / 2, peak


def test_spread_matches_numpy() -> None:
    x = RNG.normal(size=(1000, 1))
    acc = rs.Spread()
    for start in range(0, 1000, 77):
        acc(x[start : start + 77])
    assert acc.std() == pytest.approx(float(np.std(x[:, 0], ddof=1)), rel=1e-13)
    assert math.isnan(rs.Spread().std())
