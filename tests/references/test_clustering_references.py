"""assay.clustering against slow per-item / per-pair references written here from the
definitions (purity: Manning et al. 2008 §16.3; B-Cubed: Bagga & Baldwin 1998, Amigó et al.
2009; nmPU/niPU: Kawahara, Peterson & Palmer 2014; pairwise over pair sets)."""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from typing import Any

import numpy as np
import pytest

from assay import clustering as C
from strategies.clustering import random_pairs, random_soft

TOL = 1e-9


PAIRS = random_pairs(0, 150)


def purity_ref(gold: list[Any], pred: list[Any]) -> float:
    # Manning et al. (2008) §16.3: purity = (1/N) Σ_k max_j |ω_k ∩ c_j|.
    clusters: dict[Any, Counter[Any]] = defaultdict(Counter)
    for g, p in zip(gold, pred, strict=True):
        clusters[p][g] += 1
    return sum(max(c.values()) for c in clusters.values()) / len(gold)


def bcubed_ref(gold: list[Any], pred: list[Any]) -> tuple[float, float]:
    # Bagga & Baldwin (1998); Amigó et al. (2009) §2.4: per item e, precision
    # |C(e) ∩ L(e)| / |C(e)| and recall |C(e) ∩ L(e)| / |L(e)|, averaged over items.
    n = len(gold)
    ps, rs = [], []
    for e in range(n):
        same_c = {i for i in range(n) if pred[i] == pred[e]}
        same_l = {i for i in range(n) if gold[i] == gold[e]}
        ps.append(len(same_c & same_l) / len(same_c))
        rs.append(len(same_c & same_l) / len(same_l))
    return sum(ps) / n, sum(rs) / n


def test_bcubed_and_purity_vs_reference() -> None:
    for g, p in PAIRS:
        if g.size > 200:
            continue
        gl, pl = g.tolist(), p.tolist()
        pr, rr = bcubed_ref(gl, pl)
        res = C.bcubed(g, p)
        assert res.precision == pytest.approx(pr, abs=TOL)
        assert res.recall == pytest.approx(rr, abs=TOL)
        f = 2 * pr * rr / (pr + rr)
        assert res.f == pytest.approx(f, abs=TOL)
        assert C.bcubed(g, p, beta=2).f == pytest.approx(5 * pr * rr / (4 * pr + rr), abs=TOL)
        assert C.purity(g, p) == pytest.approx(purity_ref(gl, pl), abs=TOL)
        assert C.inverse_purity(g, p) == pytest.approx(purity_ref(pl, gl), abs=TOL)


def pair_set(clusters: list[Any]) -> set[frozenset[Any]]:
    return {frozenset(pair) for c in clusters for pair in itertools.combinations(set(c), 2)}


def purity_formula(
    scored: list[dict[Any, float]], other: list[dict[Any, float]], modified: bool, normalize: bool
) -> float:
    # Kawahara, Peterson & Palmer (2014), §5:
    #   nmPU = (1/N) Σ_{i: |K_i| > 1} max_j δ_{K_i}(K_i ∩ G_j),  δ_{K_i}(S) = Σ_{v ∈ S} c_{iv}
    #   niPU = (1/N) Σ_j max_i δ_{G_j}(K_i ∩ G_j)
    # with c_{iv} normalised over the clusters of v when `normalize` (Watset's normalize()).
    if normalize:
        total: Counter[Any] = Counter()
        for c in scored:
            for v, w in c.items():
                total[v] += w
        scored = [{v: w / total[v] for v, w in c.items()} for c in scored]
    n = sum(sum(c.values()) for c in scored)
    score = 0.0
    for k in scored:
        if modified and len(k) <= 1:
            continue
        score += max((sum(w for v, w in k.items() if v in g) for g in other), default=0.0)
    return score / n


def as_dicts(clusters: list[Any]) -> list[dict[Any, float]]:
    return [dict(c) if isinstance(c, dict) else dict.fromkeys(c, 1.0) for c in clusters]


def test_nmpu_nipu_vs_formula_random() -> None:
    rng = np.random.default_rng(1)
    for t in range(200):
        universe = int(rng.integers(1, 15))
        weighted = t % 2 == 0
        gold = random_soft(rng, universe, int(rng.integers(1, 6)), weighted)
        pred = random_soft(rng, universe, int(rng.integers(1, 6)), weighted and t % 4 == 0)
        gd, pd = as_dicts(gold), as_dicts(pred)
        for normalize in (True, False):
            m = purity_formula(pd, gd, True, normalize)
            i = purity_formula(gd, pd, False, normalize)
            assert C.nmpu(gold, pred, normalize=normalize) == pytest.approx(m, abs=TOL)
            assert C.nipu(gold, pred, normalize=normalize) == pytest.approx(i, abs=TOL)
            f = 0.0 if m + i == 0 else 2 * m * i / (m + i)
            assert C.nmpu_f1(gold, pred, normalize=normalize) == pytest.approx(f, abs=TOL)
        # pairwise over pair sets (weights ignored)
        pp, gp = pair_set(pred), pair_set(gold)
        items = set().union(*gd, *pd)
        tp = len(pp & gp)
        c = C.soft_pair_counts(gold, pred)
        assert c == (tp, len(pp) - tp, len(gp) - tp, math.comb(len(items), 2) - len(pp | gp))
        res = C.soft_pairwise(gold, pred)
        assert res.precision == (tp / len(pp) if pp else 0.0)
        assert res.recall == (tp / len(gp) if gp else 0.0)
