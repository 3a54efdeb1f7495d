"""GLAD and MACE against crowd-kit 1.4.2 on random inputs and on crowd-kit's own test fixtures.

Both kernels follow crowd-kit's algorithms step for step, so the comparisons are to round-off:
GLAD's posteriors to 1e-6 (scipy's conjugate gradient runs on both sides; only the order of
summation differs), MACE's (with one run, whose random start both draw alike) to 1e-9.
crowd-kit numbers workers and labels in order of first appearance (its random starts and, for
GLAD, its parameter vector), and its MACE reads some counts in sorted order: the random inputs
are coded in order of first appearance with names that sort in that order, where crowd-kit is
right (see ``test_crowd_kit_mace_mixes_orders`` for where it is not).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from assay.judgments._fit import CrowdCodes
from assay.judgments._glad import glad
from assay.judgments._mace import mace
from assay.judgments._synthetic import synthetic_crowd

#: How many times the default number of random inputs to run against crowd-kit (the
#: suite runs 1; ASSAY_PEER_SCALE=10 is the thorough run recorded in the issue's note).
SCALE = int(os.environ.get("ASSAY_PEER_SCALE", "1"))

pd = pytest.importorskip("pandas")
aggregation = pytest.importorskip("crowdkit.aggregation")

# crowd-kit 1.4.2 calls pandas in ways pandas 3 deprecates (inplace=, copy=).
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def first_appearance(codes: CrowdCodes) -> CrowdCodes:
    """The same labels with tasks, workers and labels numbered in order of first appearance."""

    def renumber(x: np.ndarray) -> np.ndarray:
        _, first = np.unique(x, return_index=True)
        rank = np.empty(x.max() + 1, dtype=np.int64)
        rank[np.unique(x)] = np.argsort(np.argsort(first))
        return rank[x]

    task, worker, label = (renumber(x) for x in codes[:3])
    return CrowdCodes(
        task, worker, label, int(task.max()) + 1, int(worker.max()) + 1, int(label.max()) + 1
    )


def random_codes(rng: np.random.Generator, informative: bool = True) -> CrowdCodes:
    """Random crowd labels: 2-5 classes, 1-12 workers, 1-40 tasks, 1-6 labels per task."""
    k = int(rng.integers(2, 6))
    n_workers = int(rng.integers(1, 13))
    n_tasks = int(rng.integers(1, 41))
    per_task = rng.integers(1, 7, n_tasks)
    task = np.repeat(np.arange(n_tasks), per_task)
    worker = rng.integers(0, n_workers, task.size)
    truth = rng.integers(0, k, n_tasks)
    accuracy = rng.uniform(0.2, 1.0, n_workers) if informative else np.full(n_workers, 1 / k)
    label = np.where(
        rng.random(task.size) < accuracy[worker], truth[task], rng.integers(0, k, task.size)
    )
    # crowd-kit counts the classes that occur: keep every class in.
    label[:k] = np.arange(k) if task.size >= k else label[:k]
    order = rng.permutation(task.size)
    return first_appearance(
        CrowdCodes(task[order], worker[order], label[order], n_tasks, n_workers, k)
    )


def frame(codes: CrowdCodes) -> Any:  # Any: a pandas DataFrame
    return pd.DataFrame({"task": codes.task, "worker": codes.worker, "label": codes.label})


def crowd_kit_posterior(model: Any, codes: CrowdCodes) -> np.ndarray:  # Any: a fitted model
    return model.probas_.reindex(
        index=range(codes.n_tasks), columns=range(codes.n_labels)
    ).to_numpy()


def same_labels_but_near_ties(posterior: np.ndarray, theirs: np.ndarray, gap: float) -> None:
    top = np.sort(posterior, axis=1)
    clear = top[:, -1] - top[:, -2] > gap if posterior.shape[1] > 1 else np.ones(len(top), bool)
    assert np.array_equal(posterior.argmax(axis=1)[clear], theirs.argmax(axis=1)[clear])


# ------------------------------------------------------------------------------------ GLAD


def check_glad(codes: CrowdCodes, options: dict[str, Any]) -> None:
    ours = glad(
        codes,
        max_iter=options["n_iter"],
        tolerance=options["tol"],
        m_step_max_iter=options["m_step_max_iter"],
    )
    theirs = aggregation.GLAD(**options).fit(frame(codes))
    posterior = crowd_kit_posterior(theirs, codes)
    assert ours.iterations == len(theirs.loss_history_)
    assert ours.log_likelihood is not None
    n_cells = codes.task.size * codes.n_labels
    if not np.allclose(ours.posterior, posterior, atol=1e-6, rtol=0):
        # Each M-step is scipy's conjugate gradient stopped at tol 1e-2 (crowd-kit's): a
        # last-bit difference in a gradient can stop it an iteration earlier or later, and the
        # fits part at ~1e-3 (the thorough run, ASSAY_PEER_SCALE=5: 1 input of 200). Then
        # ours must fit at least as well and agree to 1e-3, labels equal but near-ties.
        assert ours.log_likelihood / n_cells >= theirs.loss_history_[-1] - 1e-6
        assert np.allclose(ours.posterior, posterior, atol=1e-3, rtol=0)
        same_labels_but_near_ties(ours.posterior, posterior, 1e-3)
        return
    same_labels_but_near_ties(ours.posterior, posterior, 1e-6)
    assert ours.log_likelihood / n_cells == pytest.approx(
        theirs.loss_history_[-1], rel=1e-6, abs=1e-9
    )
    assert np.allclose(
        ours.extra["alpha"], theirs.alphas_.reindex(range(codes.n_workers)), atol=1e-5
    )
    assert np.allclose(
        ours.extra["log_beta"], theirs.betas_.reindex(range(codes.n_tasks)), atol=1e-5
    )


@pytest.mark.parametrize("seed", range(40 * SCALE))
def test_glad_on_random_inputs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    codes = random_codes(rng, informative=seed % 5 != 0)
    while codes.n_labels < 2:  # one class given: crowd-kit's objective is log 0 (unit tests)
        codes = random_codes(rng, informative=seed % 5 != 0)
    options = {
        "n_iter": int(rng.choice([1, 2, 5, 100])),
        "tol": float(rng.choice([0.0, 1e-5, 1e-3])),
        "m_step_max_iter": int(rng.choice([1, 5, 25])),
    }
    check_glad(codes, options)


@pytest.mark.parametrize("seed", range(3))
def test_glad_priors_against_crowd_kit(seed: int) -> None:
    """A class prior and per-worker and per-task prior means, as crowd-kit takes them."""
    rng = np.random.default_rng(500 + seed)
    codes = random_codes(rng)
    prior = rng.dirichlet(np.ones(codes.n_labels))
    alpha_mean = rng.normal(1.0, 1.0, codes.n_workers)
    beta_mean = rng.normal(0.5, 0.5, codes.n_tasks)
    ours = glad(
        codes, label_prior=prior, alpha_prior_mean=alpha_mean, log_beta_prior_mean=beta_mean
    )
    theirs = aggregation.GLAD(
        labels_priors=pd.Series(prior, index=range(codes.n_labels)),
        alphas_priors_mean=pd.Series(alpha_mean, index=range(codes.n_workers)),
        betas_priors_mean=pd.Series(beta_mean, index=range(codes.n_tasks)),
    ).fit(frame(codes))
    assert np.allclose(ours.posterior, crowd_kit_posterior(theirs, codes), atol=1e-6, rtol=0)
    assert np.allclose(
        ours.extra["alpha"], theirs.alphas_.reindex(range(codes.n_workers)), atol=1e-5
    )


# ------------------------------------------------------------------------------------ MACE


def check_mace(codes: CrowdCodes, options: dict[str, Any]) -> None:
    ours = mace(
        codes,
        n_restarts=1,
        n_iter=options["n_iter"],
        method=options["method"],
        default_noise=options["default_noise"],
        spamming_prior=options["alpha"],
        competence_prior=options["beta"],
        seed=options["random_state"],
    )
    theirs = aggregation.MACE(n_restarts=1, **options).fit(frame(codes))
    posterior = crowd_kit_posterior(theirs, codes)
    assert np.allclose(ours.posterior, posterior, atol=1e-9, rtol=0)
    same_labels_but_near_ties(ours.posterior, posterior, 1e-9)
    assert np.allclose(ours.extra["spamming_weights"], theirs.spamming_, atol=1e-9, rtol=0)
    assert np.allclose(ours.extra["strategy"], theirs.thetas_, atol=1e-9, rtol=0)


@pytest.mark.parametrize("seed", range(120 * SCALE))
def test_mace_on_random_inputs(seed: int) -> None:
    rng = np.random.default_rng(1000 + seed)
    codes = random_codes(rng, informative=seed % 5 != 0)
    options = {
        "n_iter": int(rng.integers(1, 11)),
        "method": str(rng.choice(["vb", "em"])),
        "default_noise": float(rng.choice([0.0, 0.5, 2.0])),
        "alpha": float(rng.choice([0.5, 1.0, 3.0])),
        "beta": float(rng.choice([0.5, 2.0])),
        "random_state": int(rng.integers(0, 2**31)),
    }
    check_mace(codes, options)


def test_crowd_kit_mace_restarts_are_one_run() -> None:
    """crowd-kit reseeds every restart with the same seed: its ten restarts are one run, so
    its default fit is the fit of this kernel's first run."""
    codes = random_codes(np.random.default_rng(5))
    ten = aggregation.MACE(n_restarts=10, n_iter=5).fit(frame(codes))
    ours = mace(codes, n_restarts=1, n_iter=5)
    assert np.allclose(ours.posterior, crowd_kit_posterior(ten, codes), atol=1e-9, rtol=0)


def test_crowd_kit_mace_mixes_orders() -> None:
    """The deliberate difference: when names do not sort in order of first appearance,
    crowd-kit's M-step reads another worker's and label's counts; renaming alone changes its
    result, and this kernel's is the one it gives when the orders agree."""
    codes = first_appearance(synthetic_crowd(50, 8, 3, 6, seed=3))
    right = aggregation.MACE(n_restarts=1, n_iter=10).fit(frame(codes))
    renamed = frame(codes).assign(label=lambda d: d["label"].map(lambda c: "zyx"[c]))
    mixed = aggregation.MACE(n_restarts=1, n_iter=10).fit(renamed)
    ours = mace(codes, n_restarts=1, n_iter=10)
    want = crowd_kit_posterior(right, codes)
    got = mixed.probas_.reindex(index=range(50), columns=list("zyx")).to_numpy()
    assert np.allclose(ours.posterior, want, atol=1e-9)
    assert not np.allclose(got, want, atol=1e-3)


@pytest.mark.parametrize("seed", range(2))
def test_mace_with_restarts_agrees_on_informative_inputs(seed: int) -> None:
    """With ten distinct runs (crowd-kit's one run among them) the labels are crowd-kit's on
    at least 99 % of tasks and the spamming estimates within 0.05."""
    codes = first_appearance(synthetic_crowd(300, 20, 4, 5, seed=seed))
    ours = mace(codes)
    theirs = aggregation.MACE(n_restarts=1).fit(frame(codes))
    posterior = crowd_kit_posterior(theirs, codes)
    assert np.mean(ours.labels == posterior.argmax(axis=1)) >= 0.99
    spam = theirs.spamming_[:, 0] / theirs.spamming_.sum(axis=1)
    assert np.max(np.abs(ours.extra["spamming"] - spam)) < 0.05
    ll = mace(codes, n_restarts=1).log_likelihood
    assert ours.log_likelihood is not None and ll is not None and ours.log_likelihood >= ll


# ------------------------------------------------------------------------ crowd-kit's fixtures
# The toy YSDA answers and the "simple" answers (six workers: good ones, a fraudster who
# always answers parrot, a careless one) of crowd-kit's tests/conftest.py, with short names;
# in order of first appearance, worker by worker.

TOY = {  # worker: labels of t1..t5 ("." = no answer)
    "w1": "nyyyy",
    "w2": "yynyn",
    "w3": ".ynyn",
    "w4": "ynyyn",
    "w5": "nnnyn",
}
TOY_TRUTH = "yynyn"

SIMPLE = [  # worker, then task:label pairs (tasks by the last three hex digits of their ids)
    ("bde3", "eec:g efb:p f03:g f05:g f02:p f08:p"),
    ("b17c", "efb:p ee8:c f07:p efd:c ee4:c f03:g"),
    ("a452", "ee8:c eec:g f05:g f02:p f08:p"),
    ("0f65", "eec:g ee8:c f03:g ee4:c"),
    ("0c3e", "eec:p efb:p f07:p efd:p ee4:p f05:p"),
    ("e563", "efb:p ee8:g f02:p f08:p f07:p efd:g"),
]
SIMPLE_TRUTH = {
    "eec": "g",
    "f03": "g",
    "f05": "g",
    "efb": "p",
    "f02": "p",
    "f08": "p",
    "f07": "p",
    "ee8": "c",
    "efd": "c",
    "ee4": "c",
}


def toy_frame() -> Any:  # Any: a pandas DataFrame
    rows = [
        (w, f"t{i + 1}", {"n": "no", "y": "yes"}[a])
        for w, answers in TOY.items()
        for i, a in enumerate(answers)
        if a != "."
    ]
    return pd.DataFrame(rows, columns=["worker", "task", "label"])


def simple_frame() -> Any:  # Any: a pandas DataFrame
    rows = [
        (w, t, {"g": "goose", "p": "parrot", "c": "chicken"}[a])
        for w, answers in SIMPLE
        for t, a in (pair.split(":") for pair in answers.split())
    ]
    return pd.DataFrame(rows, columns=["worker", "task", "label"])


def encode(df: Any) -> tuple[CrowdCodes, Any, Any]:  # Any: a DataFrame; the two indexes
    task, task_names = pd.factorize(df["task"])
    worker, _ = pd.factorize(df["worker"])
    label, label_names = pd.factorize(df["label"])
    codes = CrowdCodes(
        task, worker, label, len(task_names), int(worker.max()) + 1, len(label_names)
    )
    return codes, task_names, label_names


@pytest.mark.parametrize(("n_iter", "tol"), [(100, 0.0), (100500, 1e-5)])
@pytest.mark.parametrize("data", ["toy", "simple"])
def test_glad_on_crowd_kits_fixtures(data: str, n_iter: int, tol: float) -> None:
    """crowd-kit's own GLAD tests: every task right; and the fit is crowd-kit's."""
    df = toy_frame() if data == "toy" else simple_frame()
    codes, tasks, labels = encode(df)
    fit = glad(codes, max_iter=n_iter, tolerance=tol)
    truth = (
        {f"t{i + 1}": {"n": "no", "y": "yes"}[a] for i, a in enumerate(TOY_TRUTH)}
        if data == "toy"
        else {t: {"g": "goose", "p": "parrot", "c": "chicken"}[a] for t, a in SIMPLE_TRUTH.items()}
    )
    assert [labels[c] for c in fit.labels] == [truth[t] for t in tasks]
    theirs = aggregation.GLAD(n_iter=n_iter, tol=tol).fit(df)
    assert np.allclose(fit.posterior, theirs.probas_.loc[tasks, labels].to_numpy(), atol=1e-6)


def test_glad_first_e_step_on_crowd_kits_single_task() -> None:
    """crowd-kit's test_glad_e_step: the first E-step on the simple set's task ...eec gives
    [0.995664, 0.004336] (goose, parrot)."""
    df = simple_frame()
    codes, _, labels = encode(df[df["task"] == "eec"])
    fit = glad(codes, max_iter=1)
    assert list(labels) == ["goose", "parrot"]
    assert np.allclose(fit.posterior, [[0.995664, 0.004336]], atol=1e-6)


@pytest.mark.parametrize("method", ["vb", "em"])
def test_mace_on_crowd_kits_fixtures(method: str) -> None:
    """crowd-kit's own MACE tests (one run of five iterations): every toy task right, and the
    simple set's with "vb"; on the toy set (its names sort in order of first appearance) the
    fit is crowd-kit's."""
    df = toy_frame()
    codes, tasks, labels = encode(df)
    fit = mace(codes, n_restarts=1, n_iter=5, method=method)  # type: ignore[arg-type]
    assert [labels[c] for c in fit.labels] == [
        {"n": "no", "y": "yes"}[TOY_TRUTH[int(t[1:]) - 1]] for t in tasks
    ]
    theirs = aggregation.MACE(n_restarts=1, n_iter=5, method=method).fit(df)
    assert np.allclose(fit.posterior, theirs.probas_.loc[tasks, labels].to_numpy(), atol=1e-9)
    assert np.allclose(fit.extra["strategy"], theirs.thetas_, atol=1e-9)
    df = simple_frame()
    codes, tasks, labels = encode(df)
    fit = mace(codes, n_restarts=1, n_iter=5, method=method)  # type: ignore[arg-type]
    right = np.mean(
        [
            labels[c] == {"g": "goose", "p": "parrot", "c": "chicken"}[SIMPLE_TRUTH[t]]
            for c, t in zip(fit.labels, tasks, strict=True)
        ]
    )
    assert right >= (1.0 if method == "vb" else 0.9)
