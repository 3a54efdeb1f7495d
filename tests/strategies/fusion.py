"""Ballots for rank aggregation and runs for fusion."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

#: 1 to 7 complete rankings of the same 2 to 6 candidates (0..n-1).
votes = st.integers(2, 6).flatmap(
    lambda n: st.lists(st.permutations(list(range(n))), min_size=1, max_size=7)
)


def random_run_dicts(seed: int, n_runs: int = 3) -> list[dict[str, dict[str, float]]]:
    """Runs over 6 queries with distinct positive continuous scores (seeded)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_runs):
        run = {}
        for q in range(6):
            docs = rng.choice(40, size=int(rng.integers(1, 20)), replace=False)
            # Distinct continuous scores: ranks are unambiguous in both libraries. Positive:
            # ranx's max norm divides by 1e-9 when a segment's max is negative, and its
            # CombMAX/CombMIN use -1e9/1e9 for a missing score, so huge values differ.
            run[f"q{q}"] = {f"d{x}": float(rng.uniform(0.1, 10.0)) for x in docs}
        out.append(run)
    return out
