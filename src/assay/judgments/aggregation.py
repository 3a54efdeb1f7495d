"""Crowd label aggregation: one declared method per model (majority vote, Wawa, ZBS,
Dawid–Skene, one-coin Dawid–Skene, GLAD, MACE) and :func:`aggregate_labels`, which runs any
of them by name and, given known true labels, scores the workers and the aggregate on them.

Every method takes crowd labels (:class:`~assay.judgments.CrowdLabels`, or anything
:func:`~assay.judgments.read_crowd_labels` reads: a file, a pandas or polars frame with
crowd-kit's ``task``, ``worker``, ``label`` columns, a mapping of columns) positionally and
its options keyword-only, and returns a :class:`~assay.judgments.LabelAggregation`: per task
the aggregated label and its posterior over every class, per worker a skill, convergence in
provenance. The declarations (``assay metrics --family judgments``) give each method's
formula, options and reference; the numbers are crowd-kit 1.4.2's where the method is
deterministic (the kernels' docstrings state every deliberate difference: tie rules,
starting points, MACE's restarts).

The declared bounds, [0, 1], are those of the posterior; ``higher_is_better`` refers to it
(a larger posterior is a more confident label).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import _options as opt
from ..errors import OptionError
from ..metrics.registry import REGISTRY, Peer, measure
from ._crowd_params import DS_PARAMS, GLAD_PARAMS, MACE_PARAMS, SEED, TIES, ZBS_PARAMS
from .crowd_result import LabelAggregation, build
from .options import CrowdMethod, DawidSkeneInit, LabelTies, MaceMethod

if TYPE_CHECKING:
    from ..metrics.spec import MetricSpec
    from ._fit import CrowdFit

__all__ = [
    "METHODS",
    "aggregate_labels",
    "dawid_skene",
    "glad",
    "mace",
    "majority_vote",
    "one_coin_dawid_skene",
    "wawa",
    "zbs",
]

FAMILY = "judgments"
INPUT = "crowd labels"

#: The kernel module of each method (each module's ``KERNELS`` maps the name to the kernel).
_KERNEL_MODULES = {
    "majority_vote": "_voting",
    "wawa": "_voting",
    "zbs": "_voting",
    "dawid_skene": "_dawid_skene",
    "one_coin_dawid_skene": "_dawid_skene",
    "glad": "_glad",
    "mace": "_mace",
}
#: Options declared under another name than the kernel's: ``method`` names the aggregation
#: method in :func:`aggregate_labels` and on the command line, so MACE's is ``inference``.
_KERNEL_NAMES = {("mace", "inference"): "method"}
#: The methods whose fit can take the gold labels as known (crowd-kit's ``true_labels``).
GOLD_FITTED = ("dawid_skene", "one_coin_dawid_skene")
#: The methods, in the order the docs list them.
METHODS: tuple[str, ...] = tuple(_KERNEL_MODULES)

_method = functools.partial(measure, family=FAMILY, input=INPUT, bounds=(0.0, 1.0))


# ---------------------------------------------------------------- the methods


@_method(params=(TIES, SEED), peers=(Peer("crowd-kit", "crowdkit.aggregation.MajorityVote"),))
def majority_vote(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    ties: LabelTies = "first_seen",
    seed: int | None = None,
) -> LabelAggregation:
    """Majority vote: ``posterior[t, c] = n_tc / n_t``, the share of task t's labels that
    say c; the label is the most frequent one; a worker's skill is their accuracy against
    the majority labels (crowd-kit's ``MajorityVote``).

    Ties (``ties``): by default the label first seen in the rows, crowd-kit's rule.

    Reference: Sheng, Provost & Ipeirotis (2008), "Get another label? Improving data quality and
    data mining using multiple, noisy labelers", KDD.

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels (:func:`~assay.judgments.read_crowd_labels` reads anything else).
    ties : {"first_seen", "lowest", "random"}
        Which of equally frequent labels wins.
    seed : int, optional
        Seed of ``ties="random"``.

    Returns
    -------
    LabelAggregation
        The labels, posteriors and skills.

    Examples
    --------
    >>> from assay.judgments import majority_vote
    >>> rows = {"task": ["t1", "t1", "t1", "t2"], "worker": ["a", "b", "c", "a"],
    ...         "label": ["cat", "cat", "dog", "dog"]}
    >>> majority_vote(rows).label_of("t1")
    'cat'
    """
    return aggregate(labels, "majority_vote", {"ties": ties, "seed": seed})


@_method(params=(TIES, SEED), peers=(Peer("crowd-kit", "crowdkit.aggregation.Wawa"),))
def wawa(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    ties: LabelTies = "lowest",
    seed: int | None = None,
) -> LabelAggregation:
    """Worker Agreement With Aggregate (Wawa): each worker's skill ``s_w`` is their accuracy
    against the majority vote; then ``posterior[t, c] = Σ_{w: y_wt = c} s_w / Σ_w s_w``, a
    skill-weighted vote. Reference: crowd-kit's ``Wawa`` (Toloka).

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels.
    ties : {"first_seen", "lowest", "random"}
        Which of equally weighted labels wins (default: the classes' order, crowd-kit's).
    seed : int, optional
        Seed of ``ties="random"``.

    Returns
    -------
    LabelAggregation
        The labels, posteriors and skills.

    Examples
    --------
    >>> from assay.judgments import wawa
    >>> rows = {"task": ["t1", "t1", "t1", "t2", "t2"], "worker": ["a", "b", "c", "a", "c"],
    ...         "label": [1, 1, 0, 0, 1]}
    >>> wawa(rows).records()[1]["label"]
    '0'
    """
    return aggregate(labels, "wawa", {"ties": ties, "seed": seed})


@_method(params=ZBS_PARAMS, peers=(Peer("crowd-kit", "crowdkit.aggregation.ZeroBasedSkill"),))
def zbs(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    max_iter: int = 100,
    tolerance: float | None = None,
    learning_rate: float = 1.0,
    lr_steps_to_reduce: int = 20,
    lr_reduce_factor: float = 0.5,
    eps: float = 1e-5,
    ties: LabelTies = "lowest",
    seed: int | None = None,
) -> LabelAggregation:
    """Zero-Based Skill (ZBS): skills start at ``1/L + eps`` and move towards each worker's
    accuracy against the skill-weighted vote, ``s_w ← s_w + η (acc_w − s_w)``, the rate η
    multiplied by ``lr_reduce_factor`` every ``lr_steps_to_reduce`` steps; the posterior is
    the vote weighted by the final skills. Reference: crowd-kit's ``ZeroBasedSkill`` (Toloka).

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels.
    max_iter : int
        Update steps.
    tolerance : float, optional
        Stop once the largest skill change is below it (None: every step, crowd-kit).
    learning_rate, lr_steps_to_reduce, lr_reduce_factor : float, int, float
        The step size and its schedule.
    eps : float
        Added to the starting skill.
    ties : {"first_seen", "lowest", "random"}
        Which of equally weighted labels wins.
    seed : int, optional
        Seed of ``ties="random"``.

    Returns
    -------
    LabelAggregation
        The labels, posteriors and skills; the steps taken in provenance.

    Examples
    --------
    >>> from assay.judgments import zbs
    >>> rows = {"task": ["t1", "t1", "t1", "t2", "t2"], "worker": ["a", "b", "c", "a", "c"],
    ...         "label": [1, 1, 0, 0, 1]}
    >>> zbs(rows).label_of("t1")
    '1'
    """
    options = {
        "max_iter": max_iter,
        "tolerance": tolerance,
        "learning_rate": learning_rate,
        "lr_steps_to_reduce": lr_steps_to_reduce,
        "lr_reduce_factor": lr_reduce_factor,
        "eps": eps,
        "ties": ties,
        "seed": seed,
    }
    return aggregate(labels, "zbs", options)


@_method(params=DS_PARAMS, peers=(Peer("crowd-kit", "crowdkit.aggregation.DawidSkene"),))
def dawid_skene(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    init: DawidSkeneInit = "majority_vote",
    max_iter: int = 100,
    tolerance: float = 1e-5,
    ties: LabelTies = "first_seen",
    seed: int | None = None,
) -> LabelAggregation:
    """Dawid–Skene: each worker w has a confusion matrix ``π_w[c, k] = P(w says k given
    true c)``; EM alternates ``posterior[t, c] ∝ p_c Π_{rows (w, k) of t} π_w[c, k]`` and the
    maximum-likelihood ``p`` and ``π`` given the posteriors, from the majority vote's
    posteriors, until the change falls below ``tolerance`` or ``max_iter`` steps (crowd-kit's
    ``DawidSkene``). A worker's skill is their accuracy implied by ``π_w`` and ``p``.

    Reference: A. P. Dawid and A. M. Skene (1979), "Maximum likelihood estimation of
    observer error-rates using the EM algorithm", Applied Statistics 28(1): 20–28.

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels.
    init : {"majority_vote"}
        The starting posteriors.
    max_iter : int
        Most EM steps.
    tolerance : float
        Convergence threshold.
    ties : {"first_seen", "lowest", "random"}
        Which of equally probable labels wins.
    seed : int, optional
        Seed of ``ties="random"``.

    Returns
    -------
    LabelAggregation
        The labels, posteriors, confusion matrices, class prior and convergence.

    Examples
    --------
    >>> from assay.judgments import dawid_skene
    >>> rows = {"task": ["t1", "t1", "t1", "t2", "t2", "t2"],
    ...         "worker": ["a", "b", "c", "a", "b", "c"], "label": [1, 1, 0, 0, 0, 1]}
    >>> result = dawid_skene(rows)
    >>> [result.label_of(t) for t in result.tasks], result.confusion.shape
    (['1', '0'], (3, 2, 2))
    """
    options = {"init": init, "max_iter": max_iter, "tolerance": tolerance}
    return aggregate(labels, "dawid_skene", {**options, "ties": ties, "seed": seed})


@_method(params=DS_PARAMS, peers=(Peer("crowd-kit", "crowdkit.aggregation.OneCoinDawidSkene"),))
def one_coin_dawid_skene(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    init: DawidSkeneInit = "majority_vote",
    max_iter: int = 100,
    tolerance: float = 1e-5,
    ties: LabelTies = "first_seen",
    seed: int | None = None,
) -> LabelAggregation:
    """One-coin Dawid–Skene: each worker has one accuracy ``s_w``, ``π_w[c, k] = s_w`` for
    ``k = c`` and ``(1 − s_w) / (K − 1)`` otherwise; EM as :func:`dawid_skene` (crowd-kit's
    ``OneCoinDawidSkene``). Fewer parameters: for thin data.

    Reference: Dawid and Skene (1979); the one-coin model as in crowd-kit.

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels.
    init : {"majority_vote"}
        The starting posteriors.
    max_iter : int
        Most EM steps.
    tolerance : float
        Convergence threshold.
    ties : {"first_seen", "lowest", "random"}
        Which of equally probable labels wins.
    seed : int, optional
        Seed of ``ties="random"``.

    Returns
    -------
    LabelAggregation
        The labels, posteriors, each worker's accuracy and convergence.

    Examples
    --------
    >>> from assay.judgments import one_coin_dawid_skene
    >>> rows = {"task": ["t1", "t1", "t1", "t2", "t2", "t2"],
    ...         "worker": ["a", "b", "c", "a", "b", "c"], "label": [1, 1, 0, 0, 0, 1]}
    >>> one_coin_dawid_skene(rows).label_of("t2")
    '0'
    """
    options = {"init": init, "max_iter": max_iter, "tolerance": tolerance}
    return aggregate(labels, "one_coin_dawid_skene", {**options, "ties": ties, "seed": seed})


@_method(params=GLAD_PARAMS, peers=(Peer("crowd-kit", "crowdkit.aggregation.GLAD"),))
def glad(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    max_iter: int = 100,
    tolerance: float = 1e-5,
    label_prior: Any = None,  # Any: None or one probability per class
    alpha_prior_mean: Any = 1.0,  # Any: a number or one per worker
    log_beta_prior_mean: Any = 1.0,  # Any: a number or one per task
    m_step_max_iter: int = 25,
    m_step_tolerance: float = 1e-2,
) -> LabelAggregation:
    """GLAD: worker w answers task t correctly with probability ``σ(α_w β_t)`` (α the
    worker's ability, β > 0 the task's easiness), else uniformly among the other labels;
    EM with conjugate-gradient M-steps, as crowd-kit's ``GLAD``.

    Reference: J. Whitehill, P. Ruvolo, T. Wu, J. Bergsma and J. Movellan (2009), "Whose
    vote should count more: optimal integration of labels from labelers of unknown
    expertise", NIPS 22.

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels.
    max_iter : int
        Most EM steps.
    tolerance : float
        Convergence threshold.
    label_prior : array_like, optional
        The class prior (default: uniform).
    alpha_prior_mean, log_beta_prior_mean : float or array_like
        Means of the Gaussian priors of α and log β.
    m_step_max_iter : int
        Gradient steps of each M-step.
    m_step_tolerance : float
        Tolerance of the M-step.

    Returns
    -------
    LabelAggregation
        The labels, posteriors, each worker's α (in ``extra``) and skill, each task's β.

    Examples
    --------
    >>> from assay.judgments import glad
    >>> rows = {"task": ["t1", "t1", "t1", "t2", "t2", "t2"],
    ...         "worker": ["a", "b", "c", "a", "b", "c"], "label": [1, 1, 0, 0, 0, 1]}
    >>> glad(rows).label_of("t1")
    '1'
    """
    options = {
        "max_iter": max_iter,
        "tolerance": tolerance,
        "label_prior": label_prior,
        "alpha_prior_mean": alpha_prior_mean,
        "log_beta_prior_mean": log_beta_prior_mean,
        "m_step_max_iter": m_step_max_iter,
        "m_step_tolerance": m_step_tolerance,
    }
    return aggregate(labels, "glad", options)


@_method(params=MACE_PARAMS, peers=(Peer("crowd-kit", "crowdkit.aggregation.MACE"),))
def mace(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    n_restarts: int = 10,
    n_iter: int = 50,
    inference: MaceMethod = "vb",
    smoothing: float | None = None,
    default_noise: float = 0.5,
    spamming_prior: float = 0.5,
    competence_prior: float = 0.5,
    strategy_prior: float = 10.0,
    seed: int = 0,
) -> LabelAggregation:
    """MACE: worker w spams with probability ``1 − θ_w`` (then answers by their own strategy
    ``ξ_w``), else gives the true label: ``P(w says k given c) = θ_w [k = c] + (1 − θ_w) ξ_w[k]``;
    fitted by variational Bayes (or EM) from ``n_restarts`` random starts, the best kept
    (crowd-kit's ``MACE``). A worker's skill is θ_w; ``extra["spamming"]`` is 1 − θ_w.

    Reference: D. Hovy, T. Berg-Kirkpatrick, A. Vaswani and E. Hovy (2013), "Learning whom
    to trust with MACE", NAACL-HLT 2013: 1120–1130.

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels.
    n_restarts : int
        Random starts.
    n_iter : int
        Steps of each start.
    inference : {"vb", "em"}
        Variational Bayes with priors, or EM with smoothing (crowd-kit's ``method``,
        renamed: ``method`` names the aggregation method in :func:`aggregate_labels`).
    smoothing : float, optional
        Added to the counts of ``inference="em"``.
    default_noise : float
        Spread of the random starting parameters.
    spamming_prior, competence_prior, strategy_prior : float
        The priors of ``inference="vb"``.
    seed : int
        Seed of the random starts.

    Returns
    -------
    LabelAggregation
        The labels, posteriors, competence and spamming probabilities.

    Examples
    --------
    >>> from assay.judgments import mace
    >>> rows = {"task": ["t1", "t1", "t1", "t2", "t2", "t2"],
    ...         "worker": ["a", "b", "c", "a", "b", "c"], "label": [1, 1, 0, 0, 0, 1]}
    >>> mace(rows, seed=1).classes
    ('0', '1')
    """
    options = {
        "n_restarts": n_restarts,
        "n_iter": n_iter,
        "inference": inference,
        "smoothing": smoothing,
        "default_noise": default_noise,
        "spamming_prior": spamming_prior,
        "competence_prior": competence_prior,
        "strategy_prior": strategy_prior,
        "seed": seed,
    }
    return aggregate(labels, "mace", options)


# ---------------------------------------------------------------- by name


def method_spec(method: Any) -> MetricSpec:  # Any: validated here
    """The registry's declaration of the aggregation method ``method`` (an
    :class:`~assay.errors.OptionError` naming ``method`` for anything else)."""
    name = opt.choice(method, CrowdMethod, "method")
    spec = REGISTRY.lookup(name, FAMILY)
    if spec is None:  # a method of the Literal without a declaration: a defect, said plainly
        raise OptionError(f"method {name!r} is not declared", option="method")
    return spec


def check_options(spec: MetricSpec, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` validated by ``spec``'s declarations (an OptionError naming an unknown one),
    with every other option at its default."""
    declared = {p.name: p for p in spec.params}
    unknown = sorted(set(options) - set(declared))
    if unknown:
        allowed = ", ".join(declared) or "none"
        raise OptionError(
            f"method {spec.name!r} has no option {', '.join(unknown)}; its options: {allowed}",
            option=unknown[0],
        )
    return {
        name: p.check(options[name]) if name in options else p.default
        for name, p in declared.items()
    }


def kernel(method: str) -> Callable[..., CrowdFit]:
    """The kernel of ``method`` (on :class:`~assay.judgments._fit.CrowdCodes`)."""
    module = importlib.import_module(f"{__package__}.{_KERNEL_MODULES[method]}")
    found: Callable[..., CrowdFit] = module.KERNELS[method]
    return found


def aggregate(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    method: str,
    options: Mapping[str, Any],
    gold: Any = None,  # Any: what CrowdLabels.gold_codes takes
    fit_gold: bool = False,
) -> LabelAggregation:
    """Run ``method``'s kernel with validated ``options`` (and, with ``fit_gold``, the gold
    labels fixed as known) and wrap its fit."""
    from .labels import as_crowd_labels

    crowd = as_crowd_labels(labels)
    gold_codes = None if gold is None else crowd.gold_codes(gold)
    named = {_KERNEL_NAMES.get((method, k), k): v for k, v in options.items()}
    if fit_gold:
        named["gold"] = gold_codes
    fit = kernel(method)(crowd.codes(), **named)
    return build(crowd, method, fit, dict(options), gold_codes, fit_gold)


def _check_fit_gold(fit_gold: Any, method: str, gold: Any) -> bool:  # Any: validated here
    fit = opt.flag(fit_gold, "fit_gold")
    if fit and gold is None:
        raise OptionError("fit_gold=True needs gold labels (gold=)", option="fit_gold")
    if fit and method not in GOLD_FITTED:
        raise OptionError(
            f"fit_gold=True: {method} cannot fix known labels; methods that can: "
            f"{', '.join(GOLD_FITTED)}",
            option="fit_gold",
        )
    return fit


def aggregate_labels(
    labels: Any,  # Any: CrowdLabels or what read_crowd_labels reads
    *,
    method: CrowdMethod = "dawid_skene",
    gold: Any = None,  # Any: a mapping, Series, path or frame of known true labels
    fit_gold: bool = False,
    **method_options: Any,  # Any: each method's own options, validated by its declaration
) -> LabelAggregation:
    """Aggregate crowd labels with ``method``: per task the label and its posterior over
    every class, per worker a skill, convergence in provenance; with ``gold``, each worker's
    accuracy on the gold tasks and the aggregate's.

    Parameters
    ----------
    labels : CrowdLabels, str, PathLike, DataFrame or mapping
        The crowd labels (:func:`~assay.judgments.read_crowd_labels` reads anything but
        :class:`~assay.judgments.CrowdLabels`; to name columns or declare the label set,
        read first).
    method : {"majority_vote", "wawa", "zbs", "dawid_skene", "one_coin_dawid_skene", \
"glad", "mace"}
        The aggregation method (``assay metrics --family judgments`` lists their options).
    gold : mapping, pandas.Series, str, PathLike or DataFrame, optional
        Known true labels of some tasks (:meth:`CrowdLabels.gold_codes`): used to score the
        workers and the aggregate, and to fit only with ``fit_gold``.
    fit_gold : bool
        Also fix the gold tasks' posteriors to their known labels while fitting (Dawid–Skene
        and its one-coin form; crowd-kit's ``fit(data, true_labels)``). The aggregate's gold
        accuracy is then 1 by construction; the workers' skills learn from the gold answers.
    **method_options
        The method's options (:func:`dawid_skene`'s ``max_iter``, ...).

    Returns
    -------
    LabelAggregation
        The aggregated labels, posteriors, worker skills and convergence.

    Raises
    ------
    OptionError
        An unknown method, an option the method does not have, a bad option value.
    InputError
        Bad rows or gold labels (naming the file and line).

    Examples
    --------
    >>> from assay.judgments import aggregate_labels
    >>> rows = {"task": ["t1", "t1", "t1", "t2", "t2", "t2"],
    ...         "worker": ["a", "b", "c", "a", "b", "c"], "label": [1, 1, 0, 0, 0, 1]}
    >>> result = aggregate_labels(rows, method="majority_vote", gold={"t1": 1})
    >>> result.label_of("t2"), result.gold_accuracy.tolist()
    ('0', [1.0, 1.0, 0.0])
    """
    spec = method_spec(method)
    options = check_options(spec, method_options)
    fit = _check_fit_gold(fit_gold, spec.name, gold)
    return aggregate(labels, spec.name, options, gold, fit)
