"""Rank-biased overlap from the equations of Webber, Moffat & Zobel (2010), by brute force.

Slow and literal: the prefixes are Python sets at every depth; the infinite sums of RBO_min
and RBO_max are summed term by term to a depth where p^d is below 1e-17; RBO_ext is eq. 32
written as a loop. Ties (§4.3): a tie group starting at rank r is in every prefix of depth
≥ r, agreement is 2X_d / (|S_{:d}| + |L_{:d}|) (eq. 28), a list that has ended counts as
holding d items, and the bounds use the effective overlap d·A_d.
"""

from __future__ import annotations

import math


def _prefix(groups: list[list[int]], d: int) -> set[int]:
    out: set[int] = set()
    rank = 1
    for g in groups:
        if rank > d:
            break
        out.update(g)
        rank += len(g)
    return out


def _length(groups: list[list[int]]) -> int:
    return sum(len(g) for g in groups)


def effective_overlap(a: list[list[int]], b: list[list[int]], d: int) -> float:
    sa, sb = _prefix(a, d), _prefix(b, d)
    size_a, size_b = max(len(sa), d), max(len(sb), d)
    return d * 2 * len(sa & sb) / (size_a + size_b)


def rbo_reference(a: list[list[int]], b: list[list[int]], p: float) -> tuple[float, float, float]:
    """(RBO_min, RBO_max, RBO_ext)."""
    s, l_ = sorted((_length(a), _length(b)))
    if l_ == 0:
        return 0.0, 1.0, 1.0
    if s == 0:
        return 0.0, 1.0, 0.0
    x = {d: effective_overlap(a, b, d) for d in range(1, l_ + 1)}
    x_l, x_s = x[l_], x[s]
    depth = int(math.log(1e-17) / math.log(p)) + 2 * l_ + 10
    lo = hi = 0.0
    for d in range(1, depth):
        x_min = x[d] if d <= l_ else x_l
        if d <= s:
            x_max = x[d]
        elif d <= l_:
            x_max = x[d] + (d - s)
        else:
            x_max = min(d, x_l + (d - s) + (d - l_))
        lo += (1 - p) * p ** (d - 1) * x_min / d
        hi += (1 - p) * p ** (d - 1) * x_max / d
    total = 0.0
    for d in range(1, l_ + 1):
        total += x[d] / d * p**d
    for d in range(s + 1, l_ + 1):
        total += x_s * (d - s) / (s * d) * p**d
    ext = (1 - p) / p * total + ((x_l - x_s) / l_ + x_s / s) * p**l_
    return lo, hi, ext
