"""Dawid & Skene (1979), Table 1: 45 patients rated on a 1–4 scale by 5 anaesthetists,
observer 1 three times (weeks apart), the others once: 315 label rows.

Source of the data: Table 1 of A. P. Dawid and A. M. Skene (1979), Maximum likelihood
estimation of observer error-rates using the EM algorithm, *Applied Statistics* 28(1):20–28,
as transcribed in public re-implementations (e.g. dallascard/dawid_skene's
``generate_sample_data``; the R package rater ships it as ``anesthesia``). No public copy of
the paper's *estimates* (its tables of error rates and patient class probabilities) was
found, so the checks are: (1) the fixed point of the paper's EM equations computed here
independently, densely and without any smoothing, starting as the paper does from each
patient's share of responses; (2) crowd-kit's ``DawidSkene`` on the same rows, to 1e-9.
"""

from __future__ import annotations

import numpy as np
import pytest

from assay.judgments._dawid_skene import EPS, dawid_skene
from assay.judgments._fit import CrowdCodes

# One string per patient: observer 1's three ratings, then observers 2, 3, 4 and 5.
TABLE_1 = [
    "1111111",
    "3334334",
    "1122122",
    "2223121",
    "2223222",
    "2223322",
    "1222111",
    "3333433",
    "2222223",
    "2322223",
    "4444444",
    "2223343",
    "1111111",
    "2223212",
    "1211111",
    "1112111",
    "1111111",
    "1111111",
    "2222221",
    "2221322",
    "2222222",
    "2222221",
    "2223222",
    "2212222",
    "1111111",
    "1111111",
    "2322222",
    "1111111",
    "1111111",
    "1121121",
    "1111111",
    "3333323",
    "1111111",
    "2222222",
    "2223232",
    "4334343",
    "2212232",
    "2323233",
    "3333342",
    "1111111",
    "1111111",
    "1212111",
    "2322222",
    "1211111",
    "2222222",
]


def _codes() -> CrowdCodes:
    observer = np.array([0, 0, 0, 1, 2, 3, 4])
    task = np.repeat(np.arange(len(TABLE_1)), 7)
    worker = np.tile(observer, len(TABLE_1))
    label = np.array([int(c) - 1 for row in TABLE_1 for c in row])
    return CrowdCodes(task, worker, label, len(TABLE_1), 5, 4)


def _paper_em(codes: CrowdCodes, rounds: int = 5000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The paper's EM, written from its equations with dense arrays: n[i, k, l] responses
    l by observer k on patient i; start T[i, j] = share of patient i's responses that are
    j; M-step π[k, j, l] = Σ_i T[i, j] n[i, k, l] / Σ_l Σ_i T[i, j] n[i, k, l] and
    p[j] = mean_i T[i, j]; E-step T[i, j] ∝ p[j] Π_k Π_l π[k, j, l] ** n[i, k, l]."""
    n = np.zeros((codes.n_tasks, codes.n_workers, codes.n_labels))
    for t, w, lab in zip(codes.task, codes.worker, codes.label, strict=True):
        n[t, w, lab] += 1
    responses = n.sum(axis=1)
    post = responses / responses.sum(axis=1, keepdims=True)
    for _ in range(rounds):
        p = post.mean(axis=0)
        soft = np.einsum("ij,ikl->kjl", post, n)
        pi = soft / soft.sum(axis=2, keepdims=True)
        # log 0 as -1e300: a response of probability 0 rules the class out (0 · log 0 = 0).
        log_pi = np.log(pi, out=np.full_like(pi, -1e300), where=pi > 0)
        log = np.log(p)[None, :] + np.einsum("ikl,kjl->ij", n, log_pi)
        new = np.exp(log - log.max(axis=1, keepdims=True))
        new /= new.sum(axis=1, keepdims=True)
        done = np.max(np.abs(new - post)) < 1e-15
        post = new
        if done:
            break
    p = post.mean(axis=0)
    soft = np.einsum("ij,ikl->kjl", post, n)
    return post, p, soft / soft.sum(axis=2, keepdims=True)


def test_the_data_is_table_1() -> None:
    codes = _codes()
    assert len(TABLE_1) == 45 and {len(row) for row in TABLE_1} == {7}
    assert len(codes.task) == 315 and set(codes.label.tolist()) == {0, 1, 2, 3}


def test_dawid_skene_reaches_the_papers_fixed_point() -> None:
    codes = _codes()
    post, prior, pi = _paper_em(codes)
    # crowd-kit's stopping rule ends at the first fall of its objective (round 5 here, see
    # below); a tolerance of -1 lets EM run to its fixed point.
    fit = dawid_skene(codes, max_iter=3000, tolerance=-1.0)
    # Our M-step floors counts at 1e-10 (crowd-kit's smoothing) where the paper's estimates
    # have exact zeros: the fixed points differ by ~1e-10.
    np.testing.assert_allclose(fit.posterior, post, atol=1e-9)
    np.testing.assert_allclose(fit.prior, prior, atol=1e-9)
    assert fit.confusion is not None
    np.testing.assert_allclose(fit.confusion, pi, atol=1e-9)
    # Not vacuous: the fixed point is far from the start and from crowd-kit's stopping point.
    start = dawid_skene(codes, max_iter=0)
    assert np.max(np.abs(start.posterior - post)) > 0.1
    assert fit.labels.tolist() == np.argmax(post, axis=1).tolist()
    # The marginal log-likelihood at the fixed point, from the reference's parameters.
    n = np.zeros((codes.n_tasks, codes.n_workers, codes.n_labels))
    np.add.at(n, (codes.task, codes.worker, codes.label), 1)
    with np.errstate(divide="ignore"):
        log = np.log(prior)[None, :] + np.einsum("ikl,kjl->ij", n, np.log(np.maximum(pi, EPS)))
    top = log.max(axis=1)
    expected = float(np.sum(top + np.log(np.exp(log - top[:, None]).sum(axis=1))))
    assert fit.log_likelihood == pytest.approx(expected, rel=1e-8)


@pytest.mark.filterwarnings("ignore")
def test_dawid_skene_matches_crowd_kit_on_table_1() -> None:
    pd = pytest.importorskip("pandas")
    crowdkit = pytest.importorskip("crowdkit.aggregation")
    codes = _codes()
    frame = pd.DataFrame({"task": codes.task, "worker": codes.worker, "label": codes.label})
    peer = crowdkit.DawidSkene().fit(frame)
    fit = dawid_skene(codes)
    assert fit.iterations == len(peer.loss_history_) == 5
    assert fit.converged and fit.change < 0  # its objective fell: crowd-kit stops there
    columns = peer.probas_.columns.to_numpy()
    peer_post = np.zeros((codes.n_tasks, codes.n_labels))
    peer_post[:, columns] = peer.probas_.sort_index().to_numpy()
    np.testing.assert_allclose(np.maximum(fit.posterior, EPS), peer_post, rtol=1e-9)
    assert fit.labels.tolist() == peer.labels_.sort_index().tolist()
