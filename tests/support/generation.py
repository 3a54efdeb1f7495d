"""rouge-score's test files (../shared/data/generation/rouge) and systems built from them."""

from __future__ import annotations

import numpy as np

from conftest import shared_file


def rouge_lines(name: str) -> list[str]:
    return shared_file("generation", "rouge", name).read_text(encoding="utf-8").splitlines()


def paired_systems() -> tuple[list[str], dict[str, list[str]]]:
    """300 items; two systems that differ from the baseline on some lines, better on some
    (the reference copied) and worse on others (truncated), so that the p-values of both
    tests are spread out rather than all minimal."""
    refs = rouge_lines("target_large.txt")[:300]
    base = rouge_lines("prediction_large.txt")[:300]
    rng = np.random.default_rng(3)

    def mix(up: int, down: int) -> list[str]:
        out = list(base)
        idx = rng.choice(300, up + down, replace=False)
        for i in idx[:up]:
            out[i] = refs[i]
        for i in idx[up:]:
            words = base[i].split()
            out[i] = " ".join(words[: max(1, len(words) // 3)])
        return out

    return refs, {"base": base, "close": mix(10, 15), "worse": mix(6, 20)}
