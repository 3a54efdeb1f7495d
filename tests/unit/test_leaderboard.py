"""assay.judgments.leaderboard (assay/judgments/board.py): the bootstrap (seeded, the same for any block size or thread,
the multinomial draw equal to counting resampled rows, in distribution equal to index
resampling, Elo by index resampling in the drawn order), degenerate items, ranks, the
win-probability matrices and the report."""

from __future__ import annotations

import json
import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from assay.errors import InputError, OptionError
from assay.judgments import Comparisons, leaderboard, pairwise
from assay.judgments import _board_bootstrap as bb
from assay.judgments._pairwise import elo as elo_kernel
from assay.judgments._pairwise import pair_counts
from assay.stats import multinomial_resamples
from conftest import shared_file


def _random(seed: int, n: int = 6, rows: int = 200) -> Comparisons:
    rng = np.random.default_rng(seed)
    strength = rng.normal(size=n)
    left = rng.integers(0, n, rows)
    right = (left + rng.integers(1, n, rows)) % n
    p_left = 1 / (1 + np.exp(strength[right] - strength[left]))
    u = rng.random(rows)
    winner = np.where(u < 0.1, 2, np.where(u < 0.1 + 0.9 * p_left, 0, 1)).astype(np.int8)
    names = [f"m{i}" for i in range(n)]
    return Comparisons.read(
        {
            "left": [names[i] for i in left],
            "right": [names[i] for i in right],
            "winner": [("left", "right", "tie")[w] for w in winner],
        }
    )


def _same(a: object, b: object) -> None:
    for name in ("scores", "ci_low", "ci_high", "rank", "rank_low", "rank_high"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


# ---------------------------------------------------------------- the stats primitive


def test_multinomial_resamples_do_not_depend_on_the_block_size() -> None:
    counts = [5, 0, 3, 12, 1]
    whole = np.concatenate(list(multinomial_resamples(counts, n_resamples=37, seed=4, rows=37)))
    parts = np.concatenate(list(multinomial_resamples(counts, n_resamples=37, seed=4, rows=5)))
    np.testing.assert_array_equal(whole, parts)
    assert (whole.sum(1) == 21).all() and (whole[:, 1] == 0).all()
    other = np.concatenate(list(multinomial_resamples(counts, n_resamples=37, seed=5)))
    assert not np.array_equal(whole, other)


def test_multinomial_resamples_have_the_multinomial_moments() -> None:
    counts = np.array([10, 30, 60])
    draws = np.concatenate(list(multinomial_resamples(counts, n_resamples=20000, seed=0)))
    p = counts / 100
    np.testing.assert_allclose(draws.mean(0), 100 * p, rtol=0.01)
    np.testing.assert_allclose(draws.var(0), 100 * p * (1 - p), rtol=0.05)


@pytest.mark.parametrize("counts", [[], [[1, 2]], [1, -1], [0.5, 1], [0, 0], [1, math.nan]])
def test_multinomial_resamples_refuse_bad_counts(counts: object) -> None:
    with pytest.raises(InputError):
        multinomial_resamples(counts, n_resamples=3)  # type: ignore[arg-type]


def test_multinomial_resamples_refuse_bad_options() -> None:
    for kwargs in ({"seed": -1}, {"rows": 0}):
        with pytest.raises(OptionError):
            multinomial_resamples([1, 2], n_resamples=3, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        multinomial_resamples([1, 2], n_resamples=0)


# ---------------------------------------------------------------- the bootstrap


def test_the_count_matrices_of_a_resample_are_those_of_its_rows() -> None:
    """A resample's cell counts give exactly the matrices pair_counts gives for the rows they
    stand for (each distinct comparison repeated as often as drawn)."""
    c = _random(3)
    cells = bb.cells_of(c)
    counts = next(multinomial_resamples(cells.count, n_resamples=5, seed=2))
    wins, ties = bb._matrices(cells, counts, c.n_items)
    for r in range(5):
        rep = np.repeat(np.arange(cells.count.size), counts[r])
        w, t = pair_counts(cells.left[rep], cells.right[rep], cells.winner[rep], c.n_items)
        np.testing.assert_array_equal(wins[r], w)
        np.testing.assert_array_equal(ties[r], t)
    # the observed counts give the observed matrices
    w, t = bb._matrices(cells, cells.count[None, :], c.n_items)
    ow, ot = pair_counts(c.left, c.right, c.winner, c.n_items)
    np.testing.assert_array_equal(w[0], ow)
    np.testing.assert_array_equal(t[0], ot)


def test_weighted_cells_keep_each_weight() -> None:
    c = Comparisons.read(
        {
            "left": ["a", "a", "a", "b"],
            "right": ["b", "b", "b", "a"],
            "winner": ["left"] * 4,
            "w": [1.0, 2.0, 1.0, 0.5],
        },
        weight="w",
    )
    cells = bb.cells_of(c)
    assert sorted(zip(cells.weight.tolist(), cells.count.tolist(), strict=True)) == [
        (0.5, 1),
        (1.0, 2),
        (2.0, 1),
    ]
    w, _ = bb._matrices(cells, cells.count[None, :], c.n_items)
    np.testing.assert_array_equal(w[0], pair_counts(c.left, c.right, c.winner, 2, c.weights)[0])


def test_the_same_seed_gives_the_same_board_and_another_seed_another() -> None:
    c = _random(1)
    a, b = leaderboard(c, n_resamples=60, seed=3), leaderboard(c, n_resamples=60, seed=3)
    _same(a, b)
    assert not np.array_equal(a.ci_low, leaderboard(c, n_resamples=60, seed=4).ci_low)


def test_the_board_does_not_depend_on_the_block_size(monkeypatch: pytest.MonkeyPatch) -> None:
    c = _random(2)
    a = leaderboard(c, n_resamples=50, seed=9)
    monkeypatch.setattr(bb, "BLOCK_ELEMENTS", 3 * c.n_items * c.n_items)  # blocks of 3 resamples
    _same(a, leaderboard(c, n_resamples=50, seed=9))


def test_the_board_does_not_depend_on_threads() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    c = _random(5)
    # BLAS with a thread per core (the suite's conftest sets one thread for its workers).
    with threadpoolctl.threadpool_limits(max(2, os.cpu_count() or 2)):
        alone = leaderboard(c, n_resamples=40, seed=1)
    with threadpoolctl.threadpool_limits(1):
        _same(alone, leaderboard(c, n_resamples=40, seed=1))
    with ThreadPoolExecutor(4) as pool:
        for board in pool.map(lambda _: leaderboard(c, n_resamples=40, seed=1), range(4)):
            _same(alone, board)


def test_multinomial_and_index_resampling_agree_in_distribution() -> None:
    """The slow reference: draw row indices, count; the percentiles of the counting scores
    agree with the multinomial bootstrap's to within the Monte Carlo error."""
    c = _random(7, n=4, rows=300)
    b = 4000
    fast = leaderboard(c, method="counting", n_resamples=b, seed=0)
    rng = np.random.default_rng(123)
    slow = np.empty((b, c.n_items))
    for r in range(b):
        idx = rng.integers(0, len(c), len(c))
        slow[r] = pairwise.counting(
            Comparisons(c.items, c.left[idx], c.right[idx], c.winner[idx])
        ).scores
    low, high = np.percentile(slow, [2.5, 97.5], axis=0)
    spread = high - low
    np.testing.assert_allclose(fast.ci_low, low, atol=0.06 * spread.max())
    np.testing.assert_allclose(fast.ci_high, high, atol=0.06 * spread.max())


def test_elo_is_resampled_by_rows_in_the_drawn_order() -> None:
    c = _random(4, rows=60)
    board = leaderboard(c, method="elo", n_resamples=30, seed=2)
    scores = np.empty((30, c.n_items))
    for r, child in enumerate(np.random.SeedSequence(2).spawn(30)):
        idx = np.random.default_rng(child).integers(0, len(c), len(c))
        scores[r] = elo_kernel(c.left[idx], c.right[idx], c.winner[idx], c.n_items).scores
    low, high = np.percentile(scores, [2.5, 97.5], axis=0)
    np.testing.assert_allclose(board.ci_low, low, rtol=1e-12)
    np.testing.assert_allclose(board.ci_high, high, rtol=1e-12)
    assert board.provenance["bootstrap"].startswith("row indices")


def test_percentiles_match_numpy_and_handle_infinities() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(101, 4))
    q = np.array([0.025, 0.5, 0.975])
    np.testing.assert_allclose(bb.percentiles(x, q), np.percentile(x, 100 * q, axis=0), rtol=1e-14)
    y = np.array([[1.0, np.nan], [2.0, np.nan], [np.inf, np.nan], [np.inf, np.nan]])
    out = bb.percentiles(y, np.array([0.0, 0.5, 1.0]))
    assert out[:, 0].tolist() == [1.0, np.inf, np.inf]
    assert np.isnan(out[:, 1]).all()


def test_ranks_share_the_best_rank_and_skip_nan() -> None:
    assert bb.ranks(np.array([0.5, 2.0, 0.5, np.inf, np.nan])).tolist()[:4] == [3.0, 2.0, 3.0, 1.0]
    assert np.isnan(bb.ranks(np.array([np.nan, 1.0]))[0])


# ---------------------------------------------------------------- degenerate items


def test_degenerate_items_are_flagged_with_open_or_undefined_values() -> None:
    c = Comparisons.read(
        {
            "left": ["a", "b", "c", "a", "d", "e"],
            "right": ["b", "c", "a", "d", "b", "a"],
            "winner": ["left", "left", "left", "left", "right", "left"],
            "w": [1.0, 1.0, 1.0, 1.0, 1.0, 0.0],
        },
        weight="w",
    )
    board = leaderboard(c, n_resamples=100)
    status = dict(zip(board.items, board.status, strict=True))
    assert status == {"a": "ok", "b": "ok", "c": "ok", "d": "only losses", "e": "no comparisons"}
    i = {item: k for k, item in enumerate(board.items)}
    assert board.scores[i["d"]] == 0.0 and board.ci_high[i["d"]] == 0.0
    assert (
        np.isnan(board.scores[i["e"]])
        and np.isnan(board.ci_low[i["e"]])
        and np.isnan(board.rank[i["e"]])
    )
    rows = {r["item"]: r for r in board.records()}
    assert rows["e"]["rank"] is None and rows["e"]["status"] == "no comparisons"
    assert board.records()[-1]["item"] == "e"  # unscored items last
    only_wins = leaderboard(
        {"left": ["x", "x", "y"], "right": ["y", "z", "z"], "winner": ["left", "left", "tie"]},
        n_resamples=50,
    )
    assert only_wins.status[0] == "only wins"
    assert (
        only_wins.scores[0] == np.inf and only_wins.ci_low[0] == np.inf and only_wins.rank[0] == 1
    )
    assert only_wins.win_probability is not None and only_wins.win_probability[0, 1] == 1.0
    assert "+∞" in only_wins.report().render("table")


def test_an_item_that_can_lose_in_a_resample_gets_an_open_interval() -> None:
    food = shared_file("pairwise", "food.csv")
    board = leaderboard(food, n_resamples=300, seed=1)
    tacos = board.items.index("Tacos")
    assert board.ci_high[tacos] == np.inf  # some resamples leave Tacos without a loss
    assert all(s == "ok" for s in board.status)
    ok = np.isfinite(board.scores)
    assert (board.ci_low[ok] <= board.scores[ok]).all() and (
        board.scores[ok] <= board.ci_high[ok]
    ).all()
    # no resample collapses the strengths to the kernel's floor: in each, the regular items'
    # strengths keep geometric mean 1 (an item that only lost there scores 0, not the rest)
    c = Comparisons.read(food)
    options = dict(pairwise.bradley_terry(c).options)
    scores, _, _ = bb.bootstrap_scores(c, "bradley_terry", options, 300, 1)
    regular = np.isfinite(scores) & (scores > 0)
    logs = np.where(regular, np.log(np.where(regular, scores, 1.0)), 0.0)
    mean = logs.sum(1) / np.maximum(regular.sum(1), 1)
    np.testing.assert_allclose(mean[regular.sum(1) >= 2], 0.0, atol=1e-6)


def test_eigen_ranks_the_lowest_score_first() -> None:
    board = leaderboard(
        {"left": ["a", "a", "b"], "right": ["b", "c", "c"], "winner": ["left"] * 3},
        method="eigen",
        n_resamples=20,
    )
    assert board.records()[0]["item"] == "a"
    assert board.scores[0] == board.scores.min()


# ---------------------------------------------------------------- win probabilities, options, report


def test_win_probabilities() -> None:
    c = _random(6)
    board = leaderboard(c, n_resamples=10)
    s = board.scores
    assert board.win_probability is not None
    expected = s[:, None] / (s[:, None] + s[None, :])
    np.fill_diagonal(expected, np.nan)
    np.testing.assert_allclose(board.win_probability, expected, rtol=1e-12)
    w, t = pair_counts(c.left, c.right, c.winner, c.n_items)
    met = (w + w.T + t) > 0
    rate = np.where(met, (w + 0.5 * t) / np.where(met, w + w.T + t, 1), np.nan)
    np.testing.assert_allclose(board.empirical, rate, rtol=1e-12)
    assert leaderboard(c, method="counting", n_resamples=10).win_probability is None
    davidson = leaderboard(c, ties="davidson", n_resamples=10)
    p = davidson.win_probability
    assert p is not None and np.nanmax(p + p.T) < 1.0  # ties take the rest
    elo = leaderboard(c, method="elo", n_resamples=5)
    assert elo.win_probability is not None
    np.testing.assert_allclose(
        np.nan_to_num(elo.win_probability + elo.win_probability.T, nan=1.0), 1.0
    )


def test_bad_options_are_option_errors_naming_them() -> None:
    c = _random(0)
    cases = [
        ({"method": "borda"}, "method"),
        ({"n_resamples": 0}, "n_resamples"),
        ({"confidence": 1.0}, "confidence"),
        ({"seed": -1}, "seed"),
        ({"k": 32}, "k"),
        ({"ties": "thirds"}, "ties"),
        ({"method": "elo", "k": -1.0}, "k"),
    ]
    for kwargs, name in cases:
        with pytest.raises(OptionError) as err:
            leaderboard(c, n_resamples=kwargs.pop("n_resamples", 5), **kwargs)  # type: ignore[arg-type]
        assert err.value.option == name, kwargs


def test_every_method_makes_a_board_whose_intervals_hold_its_score() -> None:
    c = _random(8)
    for method in pairwise.METHODS:
        board = leaderboard(c, method=method, n_resamples=40)
        assert board.method == method and board.provenance["n_resamples"] == 40
        assert sorted(r["rank"] for r in board.records())[0] == 1
        assert (board.rank_low <= board.rank).all() and (board.rank <= board.rank_high).all(), (
            method
        )
        assert (board.ci_low <= board.ci_high).all(), method


def test_the_report_escapes_item_names_in_every_format() -> None:
    pytest.importorskip("matplotlib")
    names = ["<b>x</b>", "$y$", "a|b", "c\\d"]
    c = Comparisons.read(
        {"left": names, "right": names[1:] + names[:1], "winner": ["left", "tie", "right", "left"]}
    )
    board = leaderboard(c, n_resamples=20)
    render = board.report().render
    assert "\\<b\\>x\\</b\\>" in render("markdown") and "a\\|b" in render("markdown")
    assert "\\textless{}b\\textgreater{}x" in render("latex") and "\\$y\\$" in render("latex")
    assert "<b>x</b>" in render("csv")  # machine formats keep the data as it is
    assert {r["item"] for r in json.loads(render("json"))["items"]} == set(names)
    page = board.html(title="t")
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "Scores with their intervals" in page and "Model win probability" in page
    doc = board.document()
    json.dumps(doc)  # plain JSON data
    assert [s["title"] for s in doc["sections"]] == ["Results", "Scores", "Win probabilities"]
    assert "Leaderboard(bradley_terry, 4 items" in repr(board)
    assert "<b>x</b>" not in board._repr_html_()


def test_an_item_between_degenerate_items_has_no_estimate() -> None:
    """b beat a (which only lost) and lost to c (which only won): nothing bounds b's strength."""
    board = leaderboard(
        {"left": ["b", "c"], "right": ["a", "b"], "winner": ["left", "left"]}, n_resamples=20
    )
    status = dict(zip(board.items, board.status, strict=True))
    assert status == {"a": "only losses", "b": "no estimate", "c": "only wins"}
    b = board.items.index("b")
    assert np.isnan(board.scores[b]) and np.isnan(board.rank[b])
    assert [r["item"] for r in board.records()] == ["c", "a", "b"]
