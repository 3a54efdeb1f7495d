"""The preference ranking metrics (``assay.ranking.measures.preferences``, vectorised over
queries) against ``assay trec-eval``'s preference engine (``assay.compat._te_prefs``, per
topic and judgment group, byte-exact with trec_eval on its test suite) on random graded
qrels read as one judgment group per topic, with untied scores."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay.compat import _te_prefs as P
from assay.compat import _te_prefs_fast as F
from assay.compat import _te_prefs_matrix as M
from assay.compat._te_prefs import PREFS_MEASURES
from assay.compat.trec_eval import Preferences, evaluate_trec
from assay.errors import InputError
from assay.metrics import parse

# trec_eval's names, in its order, each read through assay's registry
NAMES = list(PREFS_MEASURES)


def _case(seed: int) -> tuple[assay.Qrels, assay.Run]:
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(int(rng.integers(1, 5))):
        nd = int(rng.integers(1, 14))
        docs = [f"d{i}" for i in range(nd)]
        top = int(rng.integers(1, 5))
        judged = {d: int(rng.integers(0, top + 1)) for d in docs if rng.random() < 0.75}
        qrels[f"q{q}"] = judged or {docs[0]: int(rng.integers(0, 2))}
        scores = rng.permutation(60)[:nd] / 7.0  # distinct: no tie convention involved
        kept = {d: float(s) for d, s in zip(docs, scores, strict=True) if rng.random() < 0.8}
        run[f"q{q}"] = kept or {docs[-1]: 1.0}
    return assay.Qrels.from_dict(qrels), assay.Run.from_dict(run)


@pytest.mark.parametrize("block", range(4))
def test_metrics_equal_the_trec_eval_engine(block: int) -> None:
    checked = 0
    for seed in range(block * 100, block * 100 + 100):
        qrels, run = _case(seed)
        trec = evaluate_trec(Preferences.from_qrels(qrels), run, NAMES)
        res = assay.evaluate(qrels, run, NAMES)
        for name in NAMES:
            (metric,) = parse(name)
            got = res[run.name, metric].as_dict()
            for q in trec.queries:
                assert got[q] == trec.per_query[q][name], (seed, name, q)
                checked += 1
    assert checked > 100 * 14


# --- the vectorised engine against the per-topic form ------------------------------------


def _reference(prefs: Preferences, run: assay.Run, depth: int | None, stand_in: str) -> dict:
    """Every topic's values one topic and one JG at a time: internal ranks from a plain
    sort, then ec_counts / pa_matrix + pa_counts, topic_values and pair_values."""
    t = run.to_arrow().to_pylist()
    ranking: dict[str, list[str]] = {}
    for q in sorted({row["query"] for row in t}):
        rows = sorted((r for r in t if r["query"] == q), key=lambda r: (-r["score"], r["doc"]))
        ranking[q] = [r["doc"] for r in rows][:depth]
    out = {}
    for q in sorted(set(prefs.query.tolist())):
        sel = np.flatnonzero(prefs.query == q)
        docs = sorted(set(prefs.doc[sel].tolist()))
        ranked = ranking.get(q, [stand_in])
        ret = [d for d in ranked if d in docs]
        rank_of = {d: i for i, d in enumerate(ret + [d for d in docs if d not in ret])}
        nj, njr = len(docs), len(ret)
        r = np.array([rank_of[d] for d in prefs.doc[sel].tolist()], dtype=np.int64)
        jg, jsg, level = prefs.jg[sel], prefs.jsg[sel], prefs.level[sel]
        counts, ca = [], np.zeros((nj, nj), dtype=np.int64)
        for g in sorted(set(jg.tolist())):
            m = jg == g
            if len(set(jsg[m].tolist())) > 1:
                a, rel = P.pa_matrix(r[m], level[m], jsg[m].astype(str), nj, "x", None)
                counts.append(P.pa_counts(a, rel, njr))
                ca += a
            else:
                counts.append(P.ec_counts(r[m], level[m], njr))
                ca[np.ix_(r[m], r[m])] += level[m][:, None] > level[m][None, :]
        v = P.topic_values(counts)
        if len(counts) > 1:
            v["prefs_pair"], v["prefs_pair_ret"], v["prefs_pair_imp"] = P.pair_values(ca, njr)
        out[q] = v
    return out


def _prefs_case(seed: int) -> tuple[Preferences, assay.Run]:
    """Topics of 1-40 documents, 1-3 JGs of 1-3 sub-groups (levels from one hidden order per
    JG: no cycles), sometimes a JG of more than MAX_LEVELS levels, tied scores, topics
    without results."""
    rng = np.random.default_rng(seed)
    rows, run = [], {}
    for t in range(int(rng.integers(1, 9))):
        n = int(rng.integers(1, 40))
        pool = [f"d{i:02d}" for i in range(n + 3)]
        if rng.random() < 0.85:
            scores = rng.integers(0, 5, n) / 2.0
            run[f"t{t}"] = {
                f"d{i:02d}": float(s) for i, s in enumerate(scores) if rng.random() < 0.8
            }
        clash = rng.random() < 0.05  # a document 0 in one sub-group, 1 in another
        for u in range(int(rng.integers(1, 4))):
            hidden = rng.permutation(len(pool)) // int(rng.choice([1, 3, 8]))
            hidden -= int(rng.choice([0, 0, 2]))  # negative levels: two non-relevant classes
            many = rng.random() < 0.1  # one sub-group of 70 levels: the per-topic path
            for s in range(1 if many else int(rng.integers(1, 4))):
                k = int(rng.integers(1, min(9, len(pool)) + 1))
                pick = rng.choice(len(pool), k, replace=False)
                for i in pick.tolist():
                    lv = float(hidden[i] - (clash and s == 0 and hidden[i] == 1))  # 1 -> 0
                    rows.append((f"t{t}", f"u{u}", f"s{s}", pool[i], lv))
                if many:
                    rows += [(f"t{t}", f"u{u}", "s0", f"x{i}", i / 2.0) for i in range(70)]
    run = {q: d for q, d in run.items() if d} or {"t0": {"d00": 1.0}}
    return Preferences.from_rows(rows), assay.Run.from_dict(run)


@pytest.mark.parametrize("block", range(4))
def test_vectorised_engine_equals_the_per_topic_form(
    block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = many = errors = 0
    for seed in range(block * 60, block * 60 + 60):
        prefs, run = _prefs_case(seed)
        # small blocks: topics of one dense block and of several
        monkeypatch.setattr(M, "BLOCK_CELLS", [1 << 22, 600, 1][seed % 3])
        depth = [None, 3, 8][seed % 3]
        try:
            want = _reference(prefs, run, depth, "bogus")
        except InputError as e:  # a document both 0 and non-0: the same error expected
            with pytest.raises(InputError, match="both non-relevant"):
                P.prefs_context(prefs, run, depth=depth, complete=True, stand_in="bogus")
            assert "both non-relevant" in str(e)
            errors += 1
            continue
        ctx = P.prefs_context(prefs, run, depth=depth, complete=True, stand_in="bogus")
        assert ctx.queries == list(want)
        for name in PREFS_MEASURES:
            got = ctx.values[name].tolist()
            assert got == [want[q][name] for q in ctx.queries], (seed, name)
            checked += len(got)
        many += int(np.unique(prefs.level).size > F.MAX_LEVELS)
    assert checked > 60 * 14 * 3
    assert many > 3  # the per-topic path was taken
    assert 0 < errors < 10
