"""The preference ranking metrics (``assay.ranking.measures.preferences``, vectorised over
queries) against ``assay trec-eval``'s preference engine (``assay.compat._te_prefs``, per
topic and judgment group, byte-exact with trec_eval on its test suite) on random graded
qrels read as one judgment group per topic, with untied scores."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay.compat._te_prefs import PREFS_MEASURES
from assay.compat.trec_eval import Preferences, evaluate_trec
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
