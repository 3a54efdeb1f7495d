"""The leaderboard's bootstrap against evalica 0.4.2's ``evalica.bootstrap`` (rows resampled by
``scipy.stats.bootstrap``, percentile intervals): the two draw different random resamples, so
the intervals agree in distribution only. With 1,500 resamples each, the interval
ends of every item agree to within a small share of the interval's width (the Monte Carlo
error of a 2.5 % quantile); the observed scores agree exactly as the kernels do."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from assay.judgments import Comparisons, leaderboard

evalica = pytest.importorskip("evalica")

WINNER = {0: evalica.Winner.X, 1: evalica.Winner.Y, 2: evalica.Winner.Draw}
#: evalica's function and its keyword arguments for each comparable method.
METHODS = {
    "counting": (evalica.counting, {}),
    "average_win_rate": (evalica.average_win_rate, {}),
    "bradley_terry": (evalica.bradley_terry, {}),
    "pagerank": (evalica.pagerank, {}),
}


def _votes(seed: int, n: int = 5, rows: int = 300) -> Comparisons:
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=n)
    left = rng.integers(0, n, rows)
    right = (left + rng.integers(1, n, rows)) % n
    p_left = 1 / (1 + np.exp(theta[right] - theta[left]))
    u = rng.random(rows)
    winner = np.where(u < 0.15, 2, np.where(rng.random(rows) < p_left, 0, 1)).astype(np.int8)
    items = tuple(f"m{i}" for i in range(n))
    return Comparisons(items, left.astype(np.int64), right.astype(np.int64), winner)


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("seed", [0, 1])
def test_intervals_agree_with_evalica_bootstrap(method: str, seed: int) -> None:
    c = _votes(seed)
    func, kwargs = METHODS[method]
    names = np.array(c.items, dtype=object)
    index = pd.Index(list(c.items))
    theirs = evalica.bootstrap(
        func,
        names[c.left].tolist(),
        names[c.right].tolist(),
        [WINNER[int(w)] for w in c.winner],
        index=index,
        n_resamples=1500,
        bootstrap_method="percentile",
        random_state=np.random.default_rng(seed),
        **kwargs,
    )
    ours = leaderboard(c, method=method, n_resamples=1500, seed=seed)
    observed = theirs.result.scores.reindex(index).to_numpy()
    low = theirs.low.reindex(index).to_numpy()
    high = theirs.high.reindex(index).to_numpy()
    scale = 1.0
    if method == "bradley_terry":  # evalica does not rescale to geometric mean 1
        scale = float(np.exp(np.mean(np.log(observed))))
    np.testing.assert_allclose(ours.scores * scale, observed, rtol=1e-4)
    width = high - low
    assert (width > 0).all()
    np.testing.assert_allclose(ours.ci_low * scale, low, atol=0.1 * width.max())
    np.testing.assert_allclose(ours.ci_high * scale, high, atol=0.1 * width.max())
