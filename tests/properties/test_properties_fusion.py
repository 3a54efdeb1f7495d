"""Properties of rank aggregation: invariance to the order of the voters, and a Condorcet
winner wins Copeland and Kemeny."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.fusion import aggregate
from strategies.fusion import votes


@settings(max_examples=60, deadline=None)
@given(votes, st.randoms(use_true_random=False))
def test_borda_kemeny_invariant_to_voter_order(votes: list[list[int]], rnd) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(votes)
    rnd.shuffle(shuffled)
    for m in ("borda", "kemeny", "copeland"):
        assert aggregate(votes, method=m) == aggregate(shuffled, method=m)


@settings(max_examples=80, deadline=None)
@given(votes)
def test_condorcet_winner_wins_copeland_and_kemeny(votes: list[list[int]]) -> None:
    cands = votes[0]
    winner = [
        a
        for a in cands
        if all(
            2 * sum(v.index(a) < v.index(b) for v in votes) > len(votes) for b in cands if b != a
        )
    ]
    if winner:
        assert aggregate(votes, method="copeland").order[0] == winner[0]
        assert aggregate(votes, method="kemeny").order[0] == winner[0]
