"""Bootstrap and Tukey HSD results, and the reproducibility of every resampling procedure
(same seed, same bits, whatever the number of BLAS threads)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from assay import stats as S
from conftest import ROOT

SRC = ROOT / "src"


def test_bootstrap_degenerate_and_standard_error() -> None:
    res = S.bootstrap_ci(np.full(10, 0.3))
    assert res.ci == (0.3, 0.3) and res.statistic == pytest.approx(0.3)
    lo, hi = S.bootstrap_mean_ci(np.zeros((2, 5)))
    assert lo.tolist() == [0.0, 0.0] and hi.tolist() == [0.0, 0.0]
    lo, hi = S.bootstrap_mean_ci(np.ones((3, 1)))  # one item: no interval
    assert np.isnan(lo).all() and np.isnan(hi).all() and lo.shape == (3,)
    x = np.random.default_rng(0).normal(size=100)
    se = S.bootstrap_ci(x, n_resamples=5000).details["standard_error"]
    assert se == pytest.approx(np.std(x) / 10, rel=0.05)


def test_tukey_result_shape_names_and_monotonicity() -> None:
    rng = np.random.default_rng(9)
    scores = {f"s{i}": rng.normal(0.1 * i, 1, size=40) for i in range(5)}
    res = S.tukey_hsd(scores, n_resamples=3000, seed=2)
    assert res.names == ("s0", "s1", "s2", "s3", "s4")
    assert res.pvalues.shape == (5, 5)
    assert (res.pvalues == res.pvalues.T).all() and (np.diag(res.pvalues) == 1).all()
    assert len(res.pairs) == 10
    for i, j, diff, p in res.pairs:
        assert i < j and diff == pytest.approx(res.means[i] - res.means[j])
        assert p == res.pvalues[i, j] == res.pvalue(res.names[i], res.names[j])
    # the larger the difference, the smaller (or equal) the p-value
    by_diff = sorted(res.pairs, key=lambda r: abs(r[2]))
    assert all(x[3] >= y[3] for x, y in itertools.pairwise(by_diff))
    # HSD is more conservative than the unadjusted pairwise test of the same pair
    i, j = 0, 4
    raw = S.randomization_test(scores["s0"], scores["s4"], n_resamples=3000, seed=2).pvalue
    assert res.pvalues[i, j] >= raw - 0.01
    arr = np.column_stack(list(scores.values()))
    again = S.tukey_hsd(arr, n_resamples=3000, seed=2, names=list(scores))
    assert (again.pvalues == res.pvalues).all() and again.names == res.names
    assert res.details == {"n_resamples": 3000, "seed": 2, "n_items": 40}


def test_same_seed_same_result_other_seed_other_result() -> None:
    rng = np.random.default_rng(1)
    d = rng.normal(0.1, 1, size=(5, 50))
    for test in ("randomization", "bootstrap"):
        first = S.paired_pvalues(d, test=test, n_resamples=999, seed=42)
        assert (first == S.paired_pvalues(d, test=test, n_resamples=999, seed=42)).all()
        assert (first != S.paired_pvalues(d, test=test, n_resamples=999, seed=43)).any()
    ci = S.bootstrap_ci(d[0], seed=5).ci
    assert ci == S.bootstrap_ci(d[0], seed=5).ci != S.bootstrap_ci(d[0], seed=6).ci


_THREAD_SCRIPT = textwrap.dedent(
    """
    import json
    import numpy as np
    from assay import stats as S

    rng = np.random.default_rng(0)
    d = rng.normal(0.02, 1, size=(48, 700))
    d[::3] = np.round(d[::3], 1)        # discrete rows: many mathematically tied resamples
    out = {}
    for test in ("randomization", "bootstrap"):
        out[test] = S.paired_pvalues(d, test=test, n_resamples=4000, seed=7).tolist()
    lo, hi = S.bootstrap_mean_ci(d, n_resamples=3000, seed=7)
    out["bca"] = lo.tolist() + hi.tolist()
    lo, hi = S.bootstrap_mean_ci(d, n_resamples=3000, seed=7, ci_method="basic")
    out["basic"] = lo.tolist() + hi.tolist()
    res = S.randomization_test(d[0], n_resamples=5000, seed=3)
    out["single"] = [res.pvalue]
    out["tukey"] = S.tukey_hsd(d[:6].T, n_resamples=500, seed=1).pvalues.ravel().tolist()
    print(json.dumps({k: [float(v).hex() for v in vals] for k, vals in out.items()}))
    """
)


def _run_with_threads(threads: int) -> dict[str, list[str]]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", _THREAD_SCRIPT], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, list[str]] = json.loads(proc.stdout)
    return result


def test_identical_results_whatever_the_number_of_threads() -> None:
    one, two = _run_with_threads(1), _run_with_threads(2)
    assert one.keys() == two.keys()
    for key in one:
        assert one[key] == two[key], key
