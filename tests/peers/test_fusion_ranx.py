"""Run fusion (assay.fusion.fuse) against ranx's fuse: every method under every norm."""

from __future__ import annotations

import warnings

import pytest

from assay import Run
from assay.fusion import fuse
from strategies.fusion import random_run_dicts

RANX_METHODS = {
    "sum": "combsum",
    "mnz": "combmnz",
    "anz": "combanz",
    "max": "combmax",
    "min": "combmin",
    "med": "combmed",
    "gmnz": "combgmnz",
    "wsum": "wsum",
    "rrf": "rrf",
    "isr": "isr",
    "bordafuse": "borda",
}


RANX_NORMS = {None: "none", "min-max": "min-max", "max": "max", "sum": "sum", "zmuv": "zscore"}


RANX_NORMS |= {"rank": "rank", "borda": "borda"}


@pytest.fixture(scope="module")
def ranx_fuse():  # type: ignore[no-untyped-def]
    ranx = pytest.importorskip("ranx")
    return ranx


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("rnorm", list(RANX_NORMS))
def test_fuse_matches_ranx(ranx_fuse, seed: int, rnorm: str | None) -> None:  # type: ignore[no-untyped-def]
    data = random_run_dicts(seed)
    ours = [Run.from_dict(r, name=f"r{i}") for i, r in enumerate(data)]
    theirs = [ranx_fuse.Run(r, name=f"r{i}") for i, r in enumerate(data)]
    weights = [0.2, 0.5, 0.3]
    for rmethod, method in RANX_METHODS.items():
        if rnorm == "borda" and method in ("rrf", "isr", "borda"):
            # ranx re-ranks the Borda-filled runs (unretrieved documents in set order); assay's
            # rank-based methods use the runs' own ranks whatever the norm.
            continue
        params: dict[str, object] = {}
        if rmethod == "gmnz":
            params = {"gamma": 1.7}
        elif rmethod == "wsum":
            params = {"weights": weights}
        elif rmethod == "rrf":
            params = {"k": 30}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = ranx_fuse.fuse(theirs, norm=rnorm, method=rmethod, params=params).to_dict()
        got = fuse(
            ours,
            method=method,
            norm=RANX_NORMS[rnorm],
            weights=weights if rmethod == "wsum" else None,
            rrf_k=30 if rmethod == "rrf" else 60,
            gamma=1.7 if rmethod == "gmnz" else 1.0,
        ).to_dict()
        assert set(got) == set(expected), (rmethod, rnorm)
        for q, docs in expected.items():
            assert set(got[q]) == set(docs), (rmethod, rnorm, q)
            for d, v in docs.items():
                assert got[q][d] == pytest.approx(v, abs=1e-9, rel=0), (rmethod, rnorm, q, d)


def test_ranx_aliases_accepted() -> None:
    runs = [Run.from_dict(r) for r in random_run_dicts(5, 2)]
    assert fuse(runs, method="mnz") == fuse(runs, method="CombMNZ")
    assert fuse(runs, method="sum", norm="zmuv") == fuse(runs, method="combsum", norm="zscore")
