"""Pairwise-comparison kernels against evalica 0.4.2 (every method, its defaults), choix
(Bradley–Terry's maximum-likelihood estimate) and a slow scipy maximum-likelihood fit of
Davidson's tie model, on seeded random inputs.

Tolerances: counting, average win rate and Elo are evalica's operations in its order
(counting adds per item instead of per comparison: exact for whole-number weights, 1e-12
relative for fractional ones). The iterative methods sum in another order (1e-12 relative
per step); where a stopping test ``change < tolerance`` lands on the other side of the
tolerance, the two stop one step apart, so a mismatch is re-checked with evalica limited to
our iteration count (and such cases must stay rare). Bradley–Terry is compared on inputs
where every item has a win (or tie) and a loss (or tie): on the others evalica's geometric
mean collapses every score to the tolerance, a documented deliberate difference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from assay.judgments._pairwise import KERNELS, elo, pair_counts, win_probability

evalica = pytest.importorskip("evalica")
choix = pytest.importorskip("choix")

EVALICA_WINNER = {0: evalica.Winner.X, 1: evalica.Winner.Y, 2: evalica.Winner.Draw}


def _comparisons(
    rng: np.random.Generator,
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    n = int(rng.integers(2, 9))
    m = int(rng.integers(1, 40))
    left = rng.integers(0, n, m)
    right = (left + rng.integers(1, n, m)) % n
    tie_share = rng.choice([0.0, 0.2, 0.6, 1.0])
    strength = np.exp(rng.normal(scale=1.5, size=n))
    u = rng.random(m)
    p_left = strength[left] / (strength[left] + strength[right])
    winner = np.where(u < tie_share, 2, np.where(rng.random(m) < p_left, 0, 1))
    weights = rng.choice([0.5, 1.0, 2.5], m) if rng.random() < 0.3 else None
    return n, left, right, winner, weights


def _evalica(
    method: str, n: int, left: np.ndarray, right: np.ndarray, winner: np.ndarray, weights, **options
):
    result = getattr(evalica, method)(
        left.tolist(),
        right.tolist(),
        [EVALICA_WINNER[int(w)] for w in winner],
        index=pd.Index(range(n)),
        weights=None if weights is None else weights.tolist(),
        **options,
    )
    return result.scores.reindex(range(n)).to_numpy(dtype=np.float64)


SEEDS = {"bradley_terry": 1952, "newman": 2023, "eigen": 1993, "pagerank": 1998}


def _regular(wins: np.ndarray, ties: np.ndarray) -> bool:
    m = wins + 0.5 * ties
    return bool((m.sum(1) > 0).all() and (m.sum(0) > 0).all())


def test_closed_forms_and_elo_match_evalica() -> None:
    rng = np.random.default_rng(2028)
    for case in range(1500):
        n, left, right, winner, weights = _comparisons(rng)
        wins, ties = pair_counts(left, right, winner, n, weights)
        for method in ("counting", "average_win_rate"):
            ours = KERNELS[method](wins, ties).scores
            theirs = _evalica(method, n, left, right, winner, weights)
            if weights is None and method == "counting":
                assert ours.tolist() == theirs.tolist(), (case, method)
            else:
                np.testing.assert_allclose(
                    ours, theirs, rtol=1e-12, atol=1e-300, err_msg=f"{case} {method}"
                )
        ours = elo(left, right, winner, n, weights=weights).scores
        theirs = _evalica("elo", n, left, right, winner, weights)
        assert ours.tolist() == theirs.tolist(), case


@pytest.mark.parametrize("method", ["bradley_terry", "newman", "eigen", "pagerank"])
def test_iterative_methods_match_evalica(method: str) -> None:
    rng = np.random.default_rng(SEEDS[method])
    compared = retried = 0
    for case in range(1000):
        n, left, right, winner, weights = _comparisons(rng)
        wins, ties = pair_counts(left, right, winner, n, weights)
        if method == "bradley_terry" and not _regular(wins, ties):
            continue
        fit = KERNELS[method](wins, ties)
        # Newman: an item without comparisons is NaN here, evalica's NaN replacement there.
        met = ~np.isnan(fit.scores)
        theirs = _evalica(method, n, left, right, winner, weights)
        compared += 1
        if np.allclose(fit.scores[met], theirs[met], rtol=1e-9, atol=1e-12):
            continue
        retried += 1
        theirs = _evalica(method, n, left, right, winner, weights, limit=fit.iterations)
        np.testing.assert_allclose(
            fit.scores[met], theirs[met], rtol=1e-9, atol=1e-12, err_msg=f"{case} {method}"
        )
    assert compared >= 300
    assert retried <= compared // 50


def _ml_exists(m: np.ndarray) -> bool:
    n_components, _ = connected_components(m > 0, directed=True, connection="strong")
    return n_components == 1


def test_bradley_terry_is_choix_maximum_likelihood() -> None:
    """With ties as half wins the model is Bradley–Terry on ``wins + ties / 2``; where the
    estimate exists (a strongly connected win graph) ours, run to tolerance 1e-12, equals
    choix's ILSR and MM estimates (exp of its centred log-strengths, normalised) to 1e-7."""
    rng = np.random.default_rng(52)
    checked = 0
    for _ in range(250):
        n = int(rng.integers(2, 9))
        m = int(rng.integers(n, 12 * n))
        left = rng.integers(0, n, m)
        right = (left + rng.integers(1, n, m)) % n
        strength = np.exp(rng.normal(size=n))
        p = strength[left] / (strength[left] + strength[right])
        winner = np.where(rng.random(m) < 0.15, 2, np.where(rng.random(m) < p, 0, 1))
        wins, ties = pair_counts(left, right, winner, n)
        matrix = wins + 0.5 * ties
        if not _ml_exists(matrix):
            continue
        checked += 1
        fit = KERNELS["bradley_terry"](wins, ties, tolerance=1e-12, max_iter=100_000)
        assert fit.converged
        ours = fit.scores / fit.scores.sum()
        ilsr = np.exp(choix.ilsr_pairwise_dense(matrix, tol=1e-13, max_iter=10_000))
        np.testing.assert_allclose(ours, ilsr / ilsr.sum(), rtol=1e-7)
        # choix's MM takes (winner, loser) pairs: each win twice and each tie once each way
        # is 2 * (wins + ties / 2), which has the same maximum-likelihood estimate.
        doubled = [
            (i, j) for i in range(n) for j in range(n) for _ in range(round(2 * matrix[i, j]))
        ]
        mm = np.exp(choix.mm_pairwise(n, doubled, tol=1e-13, max_iter=100_000))
        np.testing.assert_allclose(ours, mm / mm.sum(), rtol=1e-6)
    assert checked >= 100


def _davidson_ml(wins: np.ndarray, ties: np.ndarray) -> tuple[np.ndarray, float]:
    """Slow reference: maximise Davidson's log-likelihood over (log s_1..s_{n-1}, log nu)
    with s_0 = 1, by BFGS with its exact gradient left to finite differences."""
    n = wins.shape[0]
    upper = np.triu(np.ones((n, n), dtype=bool), 1)

    def negative_log_likelihood(x: np.ndarray) -> float:
        log_s = np.concatenate([[0.0], x[:-1]])
        log_nu = x[-1]
        s = np.exp(log_s)
        d = s[:, None] + s[None, :] + np.exp(log_nu) * np.sqrt(s[:, None] * s[None, :])
        log_d = np.log(d)
        won = (wins * (log_s[:, None] - log_d)).sum()
        tied = (ties * (log_nu + 0.5 * (log_s[:, None] + log_s[None, :]) - log_d))[upper].sum()
        return float(-(won + tied))

    result = minimize(
        negative_log_likelihood,
        np.zeros(n),
        method="BFGS",
        options={"gtol": 1e-10, "maxiter": 10_000},
    )
    s = np.exp(np.concatenate([[0.0], result.x[:-1]]))
    return s / s.sum(), float(np.exp(result.x[-1]))


def test_davidson_is_maximum_likelihood() -> None:
    rng = np.random.default_rng(1970)
    checked = 0
    for _ in range(120):
        n = int(rng.integers(2, 6))
        m = int(rng.integers(6 * n, 20 * n))
        left = rng.integers(0, n, m)
        right = (left + rng.integers(1, n, m)) % n
        winner = rng.choice(3, m, p=[0.4, 0.35, 0.25])
        wins, ties = pair_counts(left, right, winner, n)
        if not _ml_exists(wins + 0.5 * ties) or ties.sum() == 0 or wins.sum() == 0:
            continue
        checked += 1
        fit = KERNELS["bradley_terry"](
            wins, ties, tie_model="davidson", tolerance=1e-12, max_iter=100_000
        )
        assert fit.converged
        expected, nu = _davidson_ml(wins, ties)
        np.testing.assert_allclose(fit.scores / fit.scores.sum(), expected, rtol=1e-4)
        np.testing.assert_allclose(fit.extra["nu"], nu, rtol=1e-4)
    assert checked >= 60


def test_degenerate_bradley_terry_is_evalica_on_the_fitted_items() -> None:
    """The deliberate difference: on input with items that only won or only lost, evalica
    collapses every score to its tolerance; assay removes those items (repeatedly) and fits
    the rest, which is evalica's fit of the comparisons among the remaining items."""
    rng = np.random.default_rng(1929)
    collapsed = refitted = 0
    for case in range(1000):
        n, left, right, winner, weights = _comparisons(rng)
        wins, ties = pair_counts(left, right, winner, n, weights)
        if _regular(wins, ties):
            continue
        scores = KERNELS["bradley_terry"](wins, ties).scores
        theirs = _evalica("bradley_terry", n, left, right, winner, weights)
        if np.all(theirs == 1e-6):
            collapsed += 1
        kept = np.flatnonzero(np.isfinite(scores) & (scores > 0))
        among = np.isin(left, kept) & np.isin(right, kept)
        if kept.size < 2 or not among.any():
            continue
        refitted += 1
        result = evalica.bradley_terry(
            left[among].tolist(),
            right[among].tolist(),
            [EVALICA_WINNER[int(w)] for w in winner[among]],
            index=pd.Index(kept.tolist()),
            weights=None if weights is None else weights[among].tolist(),
        )
        expected = result.scores.reindex(kept.tolist()).to_numpy(dtype=np.float64)
        np.testing.assert_allclose(scores[kept], expected, rtol=1e-9, err_msg=str(case))
    assert collapsed >= 200 and refitted >= 150


def test_bradley_terry_win_probability_is_evalica_pairwise_scores() -> None:
    rng = np.random.default_rng(1952)
    for _ in range(300):
        scores = np.exp(rng.normal(scale=3.0, size=int(rng.integers(1, 12))))
        ours = win_probability(scores, "bradley_terry")
        assert ours.tolist() == evalica.pairwise_scores(scores).tolist()


def test_options_match_evalica() -> None:
    """Non-default weights, damping, starting tie parameter and Elo curve, on regular input."""
    rng = np.random.default_rng(400)
    compared = 0
    for case in range(150):
        n, left, right, winner, weights = _comparisons(rng)
        wins, ties = pair_counts(left, right, winner, n, weights)
        weighting = {
            "win_weight": float(rng.uniform(0.5, 2.0)),
            "tie_weight": float(rng.uniform(0.1, 1.0)),
        }
        checks = [
            ("counting", weighting),
            ("average_win_rate", weighting),
            ("eigen", weighting),
            ("pagerank", {**weighting, "damping": float(rng.uniform(0.5, 0.95))}),
        ]
        if _regular(wins, ties):
            checks += [
                ("bradley_terry", weighting),
                ("newman", {**weighting, "v_init": float(rng.uniform(0.1, 2.0))}),
            ]
        for method, options in checks:
            ours = KERNELS[method](wins, ties, **options).scores
            theirs = _evalica(method, n, left, right, winner, weights, **options)
            np.testing.assert_allclose(
                ours, theirs, rtol=1e-9, atol=1e-12, err_msg=f"{case} {method} {options}"
            )
            compared += 1
        curve = {
            "initial": float(rng.uniform(0, 2000)),
            "base": float(rng.choice([2.0, np.e, 10.0])),
            "scale": float(rng.uniform(100, 800)),
            "k": float(rng.uniform(1, 40)),
            **weighting,
        }
        ours = elo(left, right, winner, n, weights=weights, **curve).scores
        assert (
            ours.tolist() == _evalica("elo", n, left, right, winner, weights, **curve).tolist()
        ), case
    assert compared >= 750
