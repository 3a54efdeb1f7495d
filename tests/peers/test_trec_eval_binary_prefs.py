"""``assay trec-eval -R prefs|qrels_prefs|qrels_jg`` against the trec_eval 10.0 binary on
random inputs, byte for byte: several judgment groups and sub-groups per topic (preference
matrices, transitive closure), tied scores, unjudged and unretrieved documents, ``-M``.

The binary is ``$TREC_EVAL`` or ``trec_eval`` on PATH (``benchmarks/bench_prefs.py`` builds
one from source). trec_eval's source is on no package index, so CI cannot build it: the
test is defined only where a binary is named, rather than reported as a skip on every run;
the quicktest oracles (tests/oracles/test_trec_eval_outputs.py) cover the formats in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from support.trec_eval import trec_eval

BINARY = os.environ.get("TREC_EVAL") or shutil.which("trec_eval")


def _files(folder: Path, seed: int) -> dict[str, Path]:
    rng = np.random.default_rng(seed)
    paths = {k: folder / f"{k}{seed}" for k in ("run", "prefs", "qrels", "qrels_jg")}
    run, prefs, qrels, jg = [], [], [], []
    for t in range(int(rng.integers(1, 6))):
        n = int(rng.integers(2, 16))
        scores = rng.integers(0, 6, n) / 2.0  # many ties
        run += [f"t{t} Q0 d{d} 1 {s} r\n" for d, s in enumerate(scores) if rng.random() < 0.85]
        pool = [f"d{d}" for d in range(n + 4)]  # some never retrieved
        for u in range(int(rng.integers(1, 4))):
            hidden = rng.permutation(len(pool))  # one order per user: no contradictions
            for s in range(int(rng.integers(1, 4))):
                pick = rng.choice(len(pool), int(rng.integers(1, min(8, len(pool)) + 1)), False)
                prefs += [f"t{t} u{u} s{s} {pool[i]} {hidden[i] // 3}\n" for i in pick.tolist()]
            graded = rng.choice(len(pool), int(rng.integers(1, len(pool) + 1)), False)
            # grades >= 0: with a negative level, trec_eval's R < N recount reads past its
            # arrays when the lowest class holds fewer than R documents (not reproducible)
            qrels += [f"t{t} {u} {pool[i]} {int(rng.integers(0, 4))}\n" for i in graded.tolist()]
            jg += [f"t{t} u{u} {pool[i]} {int(rng.integers(-1, 3))}\n" for i in graded.tolist()]
        if not any(line.startswith(f"t{t} ") for line in run):
            run.append(f"t{t} Q0 d0 1 1.0 r\n")
    for key, lines in (("run", run), ("prefs", prefs), ("qrels", qrels), ("qrels_jg", jg)):
        paths[key].write_text("".join(lines), encoding="utf-8")
    return paths


if BINARY is not None:

    @pytest.mark.parametrize("seed", range(40))
    def test_random_inputs_print_trec_evals_bytes(tmp_path: Path, seed: int) -> None:
        assert BINARY is not None
        p = _files(tmp_path, seed)
        extra = ["-M", "5"] if seed % 4 == 3 else []
        for fmt, nick, rel in (
            ("prefs", "all_prefs", p["prefs"]),
            ("qrels_prefs", "all_prefs", p["qrels"]),
            ("qrels_jg", "qrels_jg", p["qrels_jg"]),
        ):
            args = ["-q", *extra, "-m", nick, "-R", fmt, str(rel), str(p["run"])]
            want = subprocess.run([BINARY, *args], capture_output=True, text=True, check=True)
            code, out, err = trec_eval(*args)
            assert code == 0, err
            assert out == want.stdout, (seed, fmt)


def _wide_files(folder: Path, seed: int) -> dict[str, Path]:
    """The shapes the vectorised engine treats apart: up to 12 topics of up to 80 documents
    (topics of different sizes share dense blocks), a judgment group of more than 64 levels
    (counted one topic at a time), equivalence-class and matrix JGs in one topic, one JG per
    topic, and topics without results (with ``-c``)."""
    rng = np.random.default_rng(1000 + seed)
    paths = {k: folder / f"w{k}{seed}" for k in ("run", "prefs", "qrels", "qrels_jg")}
    run, prefs, qrels, jg = [], [], [], []
    for t in range(int(rng.integers(2, 13))):
        n = int(rng.integers(2, 80))
        pool = [f"d{d}" for d in range(n + 6)]
        if t == 0 or rng.random() < 0.8:
            scores = rng.integers(0, 20, n) / 4.0
            run += [f"t{t} Q0 d{d} 1 {s} r\n" for d, s in enumerate(scores) if rng.random() < 0.9]
        many = rng.random() < 0.3
        for u in range(1 if rng.random() < 0.4 else int(rng.integers(2, 5))):
            hidden = rng.permutation(len(pool)) // (1 if many and u == 0 else 4)
            subs = 1 if (many and u == 0) or rng.random() < 0.5 else int(rng.integers(2, 4))
            for s in range(subs):
                k = len(pool) if subs == 1 else int(rng.integers(2, min(12, len(pool)) + 1))
                pick = rng.choice(len(pool), k, False)
                prefs += [f"t{t} u{u} s{s} {pool[i]} {hidden[i]}\n" for i in pick.tolist()]
            graded = rng.choice(len(pool), int(rng.integers(1, len(pool) + 1)), False)
            top = 90 if many else 4
            qrels += [f"t{t} {u} {pool[i]} {int(rng.integers(0, top))}\n" for i in graded.tolist()]
            jg += [f"t{t} u{u} {pool[i]} {int(rng.integers(-1, 3))}\n" for i in graded.tolist()]
    for key, lines in (("run", run), ("prefs", prefs), ("qrels", qrels), ("qrels_jg", jg)):
        paths[key].write_text("".join(lines), encoding="utf-8")
    return paths


if BINARY is not None:

    @pytest.mark.parametrize("seed", range(16))
    def test_wide_inputs_print_trec_evals_bytes(tmp_path: Path, seed: int) -> None:
        assert BINARY is not None
        p = _wide_files(tmp_path, seed)
        extra = [["-c"], ["-c", "-M", "20"], []][seed % 3]
        for fmt, nick, rel in (
            ("prefs", "all_prefs", p["prefs"]),
            ("qrels_prefs", "all_prefs", p["qrels"]),
            ("qrels_jg", "qrels_jg", p["qrels_jg"]),
        ):
            args = ["-q", *extra, "-m", nick, "-R", fmt, str(rel), str(p["run"])]
            want = subprocess.run([BINARY, *args], capture_output=True, text=True)
            code, out, err = trec_eval(*args)
            if want.returncode:  # a topic without results and no -c: both stop
                assert code != 0, (seed, fmt)
                continue
            assert code == 0, err
            assert out == want.stdout, (seed, fmt)
