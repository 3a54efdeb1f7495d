"""Registry-driven properties of the judgments family's label aggregation methods.

For every method declared in the registry for the judgments family with input "crowd
labels" (``REGISTRY.specs("judgments")``):

* random crowd labels (hypothesis; every declared option drawn from its valid values) give
  posteriors inside the declared bounds whose rows sum to 1, and labels that are the argmax
  of the posterior under the stated tie rule (exact ties: the label first seen in the rows
  for ``ties="first_seen"``, else the lowest class code);
* renaming tasks and workers changes nothing; shuffling the rows changes no posterior (up
  to rounding) and no label that is not a near tie, for the methods whose fit does not
  follow the row order (all but MACE and Wawa: see ``ORDER_DEPENDENT``);
* when every task is unanimous, every method returns those labels;
* every declared option given a bad value raises OptionError naming that option;
* a new method must be placed here: every option needs a valid and a bad value, else
  ``test_every_declaration_is_placed`` fails.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.judgments as J
from assay.errors import OptionError
from assay.judgments import LabelAggregation, read_crowd_labels
from assay.metrics import FAMILIES, REGISTRY, MetricSpec, load_families, make
from support.contracts import assert_option_error

load_families()
SPECS: list[MetricSpec] = [s for s in REGISTRY.specs("judgments") if s.input == "crowd labels"]
IDS = [s.name for s in SPECS]
#: Methods whose result depends on the order of the rows beyond the final tie-break: MACE's
#: random starts follow the workers' order; Wawa's skills are accuracies against a majority
#: vote whose ties go, as crowd-kit's, to the label first seen in the rows.
ORDER_DEPENDENT = {"mace", "wawa"}

#: Valid values of each option (drawn together with the data); iteration counts kept small.
VALID: dict[str, st.SearchStrategy[Any]] = {
    "ties": st.sampled_from(["first_seen", "lowest"]),
    "seed": st.sampled_from([0, 1, 7]),
    "max_iter": st.integers(1, 30),
    "tolerance": st.sampled_from([1e-5, 1e-3, 0.0]),
    "init": st.just("majority_vote"),
    "learning_rate": st.sampled_from([0.5, 1.0]),
    "lr_steps_to_reduce": st.integers(1, 20),
    "lr_reduce_factor": st.sampled_from([0.5, 0.9]),
    "eps": st.sampled_from([0.0, 1e-5]),
    "label_prior": st.just(None),
    "alpha_prior_mean": st.sampled_from([1.0, 0.5]),
    "log_beta_prior_mean": st.sampled_from([1.0, 0.0]),
    "m_step_max_iter": st.integers(1, 10),
    "m_step_tolerance": st.sampled_from([1e-2, 1e-3]),
    "n_restarts": st.integers(1, 3),
    "n_iter": st.integers(1, 20),
    "inference": st.sampled_from(["vb", "em"]),
    "smoothing": st.sampled_from([None, 0.01]),
    "default_noise": st.sampled_from([0.0, 0.5]),
    "spamming_prior": st.sampled_from([0.5, 1.0]),
    "competence_prior": st.sampled_from([0.5, 1.0]),
    "strategy_prior": st.sampled_from([10.0, 1.0]),
}
#: A bad value of each option.
BAD: dict[str, Any] = {
    "ties": "median",
    "seed": -1,
    "max_iter": -1,
    "tolerance": -0.1,
    "init": "random",
    "learning_rate": 0.0,
    "lr_steps_to_reduce": 0,
    "lr_reduce_factor": -1.0,
    "eps": -1.0,
    "label_prior": "uniform",
    "alpha_prior_mean": "one",
    "log_beta_prior_mean": float("nan"),
    "m_step_max_iter": 0,
    "m_step_tolerance": -1.0,
    "n_restarts": 0,
    "n_iter": 0,
    "inference": "gibbs",
    "smoothing": -1.0,
    "default_noise": -0.5,
    "spamming_prior": 0.0,
    "competence_prior": -1.0,
    "strategy_prior": 0.0,
}


def test_every_declaration_is_placed() -> None:
    assert "judgments" in FAMILIES
    assert [s.name for s in SPECS] == list(J.aggregation.METHODS)
    for spec in SPECS:
        assert (spec.lower, spec.upper) == (0.0, 1.0), spec.name
        for p in spec.params:
            assert p.name in VALID and p.name in BAD, f"{spec.name}: option {p.name!r} unplaced"
        doc = " ".join(spec.doc.split())
        assert len(spec.summary) > 10, spec.name
        assert any(ch in doc for ch in "=∝←"), f"{spec.name}: docstring lacks a formula"


def test_public_functions_are_the_declarations() -> None:
    for spec in SPECS:
        assert getattr(J, spec.name) is spec.kernel


# ---------------------------------------------------------------- data


@st.composite
def crowd(draw: st.DrawFn, unanimous: bool = False, complete: bool = False) -> dict[str, list[str]]:
    """Crowd labels: 1–8 tasks, 1–5 workers, 1–4 classes, each task labelled by 1 or more
    distinct workers (so no duplicate pairs; by every worker when ``complete``)."""
    n_tasks = draw(st.integers(1, 8))
    n_workers = draw(st.integers(1, 5))
    n_classes = draw(st.integers(1, 4))
    truth = draw(st.lists(st.integers(0, n_classes - 1), min_size=n_tasks, max_size=n_tasks))
    rows: dict[str, list[str]] = {"task": [], "worker": [], "label": []}
    for t in range(n_tasks):
        workers = (
            list(range(n_workers))
            if complete
            else draw(
                st.lists(st.integers(0, n_workers - 1), min_size=1, max_size=n_workers, unique=True)
            )
        )
        for w in workers:
            label = truth[t] if unanimous else draw(st.integers(0, n_classes - 1))
            rows["task"].append(f"t{t}")
            rows["worker"].append(f"w{w}")
            rows["label"].append(f"c{label}")
    order = draw(st.permutations(range(len(rows["task"]))))
    return {k: [v[i] for i in order] for k, v in rows.items()}


def _options(spec: MetricSpec, data: st.DataObject) -> dict[str, Any]:
    return {p.name: data.draw(VALID[p.name], p.name) for p in spec.params}


def _tie_rule(spec: MetricSpec, options: dict[str, Any]) -> str:
    default = {p.name: p.default for p in spec.params}.get("ties", "lowest")
    return str(options.get("ties", default))


def _check_labels(result: LabelAggregation, rows: dict[str, list[str]], rule: str) -> None:
    post = result.posterior
    top = post.max(axis=1, keepdims=True)
    tied = post == top
    if rule == "first_seen":
        first: list[int] = []
        for value in rows["label"]:
            code = result.classes.index(value)
            if code not in first:
                first.append(code)
        order = first + [c for c in range(len(result.classes)) if c not in first]
        expected = [next(c for c in order if tied[t, c]) for t in range(len(result.tasks))]
    else:
        expected = np.argmax(tied, axis=1).tolist()
    assert result.label.tolist() == expected


# ---------------------------------------------------------------- properties


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_posteriors_in_bounds_and_labels_are_the_argmax(
    spec: MetricSpec, data: st.DataObject
) -> None:
    rows = data.draw(crowd(), "rows")
    options = _options(spec, data)
    result = spec.kernel(rows, **options)
    assert isinstance(result, LabelAggregation)
    post = result.posterior
    assert post.shape == (len(result.tasks), len(result.classes))
    assert np.all(np.isfinite(post))
    assert np.all((post >= spec.lower) & (post <= spec.upper))
    assert np.allclose(post.sum(axis=1), 1.0, atol=1e-9)
    _check_labels(result, rows, _tie_rule(spec, options))
    skill = result.skill[~np.isnan(result.skill)]
    # ZBS starts at 1/L + eps (crowd-kit's start), so a worker can sit up to eps above 1
    top = 1 + options.get("eps", 0.0) + 1e-12
    assert np.all((skill >= -1e-12) & (skill <= top)), skill


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_renaming_tasks_and_workers_changes_nothing(spec: MetricSpec, data: st.DataObject) -> None:
    rows = data.draw(crowd(), "rows")
    options = _options(spec, data)
    renamed = {
        "task": [f"<{t}> renamed" for t in rows["task"]],
        "worker": [f"{w[::-1]}@x" for w in rows["worker"]],
        "label": rows["label"],
    }
    a, b = spec.kernel(rows, **options), spec.kernel(renamed, **options)
    assert np.array_equal(a.posterior, b.posterior)
    assert np.array_equal(a.label, b.label)
    assert np.array_equal(a.skill, b.skill, equal_nan=True)


@pytest.mark.parametrize(
    "spec",
    [s for s in SPECS if s.name not in ORDER_DEPENDENT],
    ids=[n for n in IDS if n not in ORDER_DEPENDENT],
)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_shuffling_the_rows_changes_no_posterior(spec: MetricSpec, data: st.DataObject) -> None:
    rows = data.draw(crowd(), "rows")
    options = _options(spec, data)
    order = data.draw(st.permutations(range(len(rows["task"]))), "order")
    shuffled = {k: [v[i] for i in order] for k, v in rows.items()}
    a, b = spec.kernel(rows, **options), spec.kernel(shuffled, **options)
    by_task = {t: i for i, t in enumerate(b.tasks)}
    index = [by_task[t] for t in a.tasks]
    columns = [b.classes.index(c) for c in a.classes]
    other = b.posterior[np.ix_(index, columns)]
    assert np.allclose(a.posterior, other, atol=1e-7)
    clear = np.sort(a.posterior, axis=1)
    margin = clear[:, -1] - (clear[:, -2] if clear.shape[1] > 1 else 0.0)
    sure = margin > 1e-6
    labels_b = np.array([columns.index(c) for c in b.label[index]])
    assert np.array_equal(a.label[sure], labels_b[sure])


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_unanimous_tasks_get_their_label(spec: MetricSpec, data: st.DataObject) -> None:
    """Every task unanimous: those labels. Dawid–Skene fits a whole confusion matrix per
    worker, so a worker who only ever saw one class says nothing about the other rows and a
    sparse design is not identifiable (two workers, one task each, two classes: 0.5/0.5,
    crowd-kit's too); for it every worker labels every task."""
    rows = data.draw(crowd(unanimous=True, complete=spec.name == "dawid_skene"), "rows")
    result = spec.kernel(rows, **_options(spec, data))
    given_label = dict(zip(rows["task"], rows["label"], strict=True))
    assert [result.label_of(t) for t in result.tasks] == [given_label[t] for t in result.tasks]


# ---------------------------------------------------------------- bad options

VALID_DATA = {
    "task": ["t1", "t1", "t1", "t2", "t2", "t3"],
    "worker": ["a", "b", "c", "a", "b", "c"],
    "label": ["x", "x", "y", "y", "y", "x"],
}
BAD_CASES = [
    pytest.param(spec, p.name, id=f"{spec.name}-{p.name}") for spec in SPECS for p in spec.params
]


@pytest.mark.parametrize(("spec", "option"), BAD_CASES)
def test_bad_option_raises_option_error(spec: MetricSpec, option: str) -> None:
    spec.kernel(VALID_DATA)  # the data is valid: only the option can be to blame
    assert_option_error(spec.kernel, VALID_DATA, **{option: BAD[option]})
    with pytest.raises(OptionError):
        make(spec, **{option: BAD[option]})
    with pytest.raises(OptionError) as info:
        J.aggregate_labels(VALID_DATA, method=spec.name, **{option: BAD[option]})  # type: ignore[arg-type]
    assert info.value.option == option


def test_the_labels_read_first_are_the_labels_given() -> None:
    crowd_labels = read_crowd_labels(VALID_DATA)
    for spec in SPECS:
        a, b = spec.kernel(crowd_labels), spec.kernel(VALID_DATA)
        assert np.array_equal(a.posterior, b.posterior), spec.name
