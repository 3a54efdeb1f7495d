"""``aggregate_labels(frame, method=m)`` against crowd-kit 1.4.2's ``fit_predict`` and
``fit_predict_proba`` on random crowd-kit frames, for every method the two share: the public
path (reading a pandas frame, encoding ids and classes, the kernel, the result's rows) gives
crowd-kit's labels and posteriors by task and class name. The kernels' own exhaustive peer
tests (crowd-kit's fixtures, thousands of inputs) are tests/peers/test_crowd_kit_*.py of the
kernels; MACE is compared with one restart (more restarts are a deliberate extension)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from assay.judgments import LabelAggregation, aggregate_labels

ck = pytest.importorskip("crowdkit.aggregation")
pd = pytest.importorskip("pandas")

# crowd-kit 1.4.2 calls pandas in ways pandas 3 deprecates (inplace=, copy=).
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: method -> (crowd-kit model factory, assay options).
PEERS: dict[str, tuple[Callable[[], Any], dict[str, Any]]] = {
    "majority_vote": (lambda: ck.MajorityVote(), {}),
    "wawa": (lambda: ck.Wawa(), {}),
    "zbs": (lambda: ck.ZeroBasedSkill(), {}),
    "dawid_skene": (lambda: ck.DawidSkene(n_iter=100, tol=1e-5), {}),
    "one_coin_dawid_skene": (lambda: ck.OneCoinDawidSkene(n_iter=100, tol=1e-5), {}),
    "glad": (lambda: ck.GLAD(), {}),
    "mace": (lambda: ck.MACE(n_restarts=1, random_state=0), {"n_restarts": 1, "seed": 0}),
}
#: Absolute tolerance of the posteriors: round-off, but for GLAD, whose M-steps run scipy's
#: conjugate gradient on sums taken in another order, so the two EMs walk round-off apart
#: and stop (change below tolerance=1e-5) on iterates up to about that far apart.
ATOL = {"glad": 1e-4}
#: Methods with crowd-kit ``skills_`` (one number per worker) that are assay's ``skill``.
SKILLS = {"majority_vote", "wawa", "zbs", "one_coin_dawid_skene"}


def _frame(seed: int) -> Any:  # Any: a pandas DataFrame
    """Random crowd labels: 5–40 tasks, 2–8 workers of random skill, 2–4 integer classes.
    Tasks, workers and labels are named so that their sorted order is their order of first
    appearance: where the two differ crowd-kit's MACE mixes workers and labels up (a defect
    the kernel's peer test shows), and its random start follows the first order."""
    rng = np.random.default_rng(seed)
    n_tasks, n_workers, k = (
        int(rng.integers(5, 41)),
        int(rng.integers(2, 9)),
        int(rng.integers(2, 5)),
    )
    truth = rng.integers(0, k, n_tasks)
    skill = rng.uniform(0.3, 0.95, n_workers)
    rows = []
    for t in range(n_tasks):
        for w in rng.choice(n_workers, int(rng.integers(1, min(n_workers, 5) + 1)), replace=False):
            label = truth[t] if rng.random() < skill[w] else int(rng.integers(0, k))
            rows.append((f"t{t:03d}", int(w), int(label)))
    frame = pd.DataFrame(rows, columns=["task", "worker", "label"])
    workers = {v: f"w{i:02d}" for i, v in enumerate(dict.fromkeys(frame["worker"]))}
    labels = {v: i for i, v in enumerate(dict.fromkeys(frame["label"]))}
    return frame.assign(worker=frame["worker"].map(workers), label=frame["label"].map(labels))


def _by_name(result: LabelAggregation) -> Any:  # Any: a pandas DataFrame
    """assay's posteriors as crowd-kit's frame: tasks x label values."""
    columns = [int(c) for c in result.classes]
    return pd.DataFrame(result.posterior, index=list(result.tasks), columns=columns)


@pytest.fixture(autouse=True)
def _fitted_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """crowd-kit 1.4.2's Wawa and ZBS predict through scikit-learn's ``check_is_fitted``,
    which newer scikit-learn refuses on estimators without its tags; the check only guards
    against predicting before fitting, which these tests never do."""
    from crowdkit.aggregation.classification import wawa, zero_based_skill

    for module in (wawa, zero_based_skill):
        monkeypatch.setattr(module, "check_is_fitted", lambda *a, **k: None, raising=False)


@pytest.mark.parametrize("method", sorted(PEERS))
@pytest.mark.parametrize("seed", range(8))
def test_labels_and_posteriors_are_crowd_kits(method: str, seed: int) -> None:
    frame = _frame(seed)
    make, options = PEERS[method]
    result = aggregate_labels(frame, method=method, **options)  # type: ignore[arg-type]
    # One fit: every model's fit_predict_proba leaves the labels its fit_predict returns in
    # ``labels_`` (Wawa and ZBS set both in the one step that predicts), and crowd-kit's fit
    # (~1 s for ZBS, GLAD, MACE here) is deterministic, so a second fit gave the same model.
    model = make()
    proba = model.fit_predict_proba(frame)
    ours = _by_name(result).loc[proba.index, proba.columns]
    atol = ATOL.get(method, 1e-8)
    assert np.allclose(ours.to_numpy(), proba.to_numpy(), rtol=1e-6, atol=atol), method
    # labels nobody gave keep posterior 0 (crowd-kit has no column for them)
    missing = [c for c in _by_name(result).columns if c not in proba.columns]
    assert np.all(_by_name(result)[missing].to_numpy() == 0.0)
    labels = model.labels_
    got = np.array([int(result.label_of(t)) for t in labels.index])
    want = labels.astype(int).to_numpy()
    top = np.sort(proba.to_numpy(), axis=1)
    clear = top[:, -1] - top[:, -2] > 10 * atol if top.shape[1] > 1 else np.ones(len(got), bool)
    assert np.array_equal(got[clear], want[clear]), method
    if method in SKILLS:
        skills = model.skills_
        mine = dict(zip(result.workers, result.skill.tolist(), strict=True))
        assert np.allclose([mine[w] for w in skills.index], skills.to_numpy(), rtol=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_gold_accuracy_is_crowd_kits_accuracy_on_true_labels(seed: int) -> None:
    """Gold-question accuracy per worker is crowd-kit's ``get_accuracy`` against the true
    labels of the gold tasks (its ``GoldMajorityVote`` skills)."""
    frame = _frame(100 + seed)
    tasks = sorted(set(frame["task"]))
    rng = np.random.default_rng(seed)
    known = rng.choice(len(tasks), max(1, len(tasks) // 3), replace=False)
    first = frame.groupby("task")["label"].first()
    gold = pd.Series({tasks[i]: int(first[tasks[i]]) for i in known})
    result = aggregate_labels(frame, method="majority_vote", gold=gold)
    peer = ck.GoldMajorityVote().fit(frame, gold).skills_
    assert result.gold_accuracy is not None
    mine = dict(zip(result.workers, result.gold_accuracy.tolist(), strict=True))
    for worker, value in peer.items():
        assert mine[worker] == pytest.approx(value, rel=1e-12), worker
    answered = set(frame[frame["task"].isin(gold.index)]["worker"])
    assert all(np.isnan(v) for w, v in mine.items() if w not in answered)


@pytest.mark.parametrize("seed", range(6))
def test_fit_gold_is_crowd_kits_true_labels(seed: int) -> None:
    """``fit_gold=True``: Dawid–Skene with the gold tasks fixed, crowd-kit's
    ``DawidSkene().fit(data, true_labels)``."""
    frame = _frame(200 + seed)
    tasks = sorted(set(frame["task"]))
    rng = np.random.default_rng(seed)
    known = sorted(rng.choice(len(tasks), max(1, len(tasks) // 4), replace=False).tolist())
    first = frame.groupby("task")["label"].first()
    gold = pd.Series({tasks[i]: int(first[tasks[i]]) for i in known})
    result = aggregate_labels(frame, method="dawid_skene", gold=gold, fit_gold=True)
    proba = ck.DawidSkene(n_iter=100, tol=1e-5).fit(frame, gold).probas_
    ours = _by_name(result).loc[proba.index, proba.columns]
    assert np.allclose(ours.to_numpy(), proba.to_numpy(), rtol=1e-6, atol=1e-8)
    assert result.aggregate_gold_accuracy == 1.0 and result.provenance["fit_gold"] is True
