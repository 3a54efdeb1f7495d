"""The declared options of the label aggregation methods (:mod:`assay.judgments.aggregation`):
one :class:`~assay.metrics.Param` per option with the validator its kernel applies, so a bad
value is an :class:`~assay.errors.OptionError` naming the option whichever way the method is
called (its function, :func:`~assay.judgments.aggregate_labels`, the command line)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import _options as opt
from ..errors import OptionError
from ..metrics.params import one_of, optional, positive_float
from ..metrics.registry import FROM_SIGNATURE, Param
from .options import DawidSkeneInit, LabelTies, MaceMethod

__all__ = [
    "DS_PARAMS",
    "GLAD_PARAMS",
    "MACE_PARAMS",
    "MAX_RESTARTS",
    "MAX_STEPS",
    "SEED",
    "TIES",
    "ZBS_PARAMS",
]

#: The most steps of any iterative method, and random starts of MACE: beyond them a run
#: takes days, so a larger count is an error rather than a hang.
MAX_STEPS = 1_000_000
MAX_RESTARTS = 10_000


def _count(what: str, minimum: int, maximum: int) -> Callable[[Any], int]:
    return functools.partial(
        opt.integer, name=what, minimum=minimum, maximum=maximum, integral_float=True
    )


def _nonneg_number(what: str) -> Callable[[Any], float]:
    return functools.partial(opt.number, name=what, low=0.0, error=OptionError)


def _seed(value: Any) -> int:  # Any: validated here
    return opt.seed(value)


def _real_or_array(what: str) -> Callable[[Any], Any]:
    """A number, or an array-like checked by the kernel (one value per worker or task)."""

    def check(value: Any) -> Any:  # Any: a number or an array-like
        if isinstance(value, str | bytes | bool) or value is None:
            raise OptionError(
                f"{what} must be a number or an array of numbers, got {value!r}", option=what
            )
        if isinstance(value, int | float):
            return opt.number(value, what)
        return value

    return check


def _probabilities(value: Any) -> Any:  # Any: None or an array-like of class probabilities
    if isinstance(value, str | bytes | bool | int | float):
        raise OptionError(
            f"label_prior must be None or one probability per class, got {value!r}",
            option="label_prior",
        )
    return value


# Every option of every method: one declaration each (default: the method's own signature).
TIES = Param(
    "ties",
    FROM_SIGNATURE,
    one_of("ties", LabelTies),
    "label among equal largest posteriors: first_seen (first in the rows), lowest (the "
    "classes' order) or random (seeded)",
)
SEED = Param("seed", FROM_SIGNATURE, optional(_seed), "seed of ties='random'")
MAX_ITER = Param(
    "max_iter", FROM_SIGNATURE, _count("max_iter", 0, MAX_STEPS), "most EM (or update) steps"
)
TOLERANCE = Param(
    "tolerance",
    FROM_SIGNATURE,
    _nonneg_number("tolerance"),
    "stop when the step's change falls below this",
)
ZBS_TOLERANCE = Param(
    "tolerance",
    FROM_SIGNATURE,
    optional(_nonneg_number("tolerance")),
    "stop when the largest skill change falls below this (None: run every step, crowd-kit)",
)
INIT = Param(
    "init", FROM_SIGNATURE, one_of("init", DawidSkeneInit), "starting posteriors of the EM"
)
ZBS_PARAMS = (
    MAX_ITER,
    ZBS_TOLERANCE,
    Param("learning_rate", FROM_SIGNATURE, positive_float("learning_rate"), "skill step size"),
    Param(
        "lr_steps_to_reduce",
        FROM_SIGNATURE,
        _count("lr_steps_to_reduce", 1, MAX_STEPS),
        "steps between reductions of the learning rate",
    ),
    Param(
        "lr_reduce_factor",
        FROM_SIGNATURE,
        positive_float("lr_reduce_factor"),
        "factor the learning rate is multiplied by",
    ),
    Param("eps", FROM_SIGNATURE, _nonneg_number("eps"), "added to the starting skill 1/L"),
    TIES,
    SEED,
)
DS_PARAMS = (INIT, MAX_ITER, TOLERANCE, TIES, SEED)
GLAD_PARAMS = (
    Param("max_iter", FROM_SIGNATURE, _count("max_iter", 1, MAX_STEPS), "most EM steps"),
    TOLERANCE,
    Param("label_prior", FROM_SIGNATURE, _probabilities, "class prior (None: uniform)"),
    Param(
        "alpha_prior_mean",
        FROM_SIGNATURE,
        _real_or_array("alpha_prior_mean"),
        "mean of the Gaussian prior of each worker's ability α",
    ),
    Param(
        "log_beta_prior_mean",
        FROM_SIGNATURE,
        _real_or_array("log_beta_prior_mean"),
        "mean of the Gaussian prior of each task's log β",
    ),
    Param(
        "m_step_max_iter",
        FROM_SIGNATURE,
        _count("m_step_max_iter", 1, MAX_STEPS),
        "gradient steps of each M-step",
    ),
    Param(
        "m_step_tolerance",
        FROM_SIGNATURE,
        positive_float("m_step_tolerance"),
        "tolerance of each M-step's gradient ascent",
    ),
)
MACE_PARAMS = (
    Param(
        "n_restarts",
        FROM_SIGNATURE,
        _count("n_restarts", 1, MAX_RESTARTS),
        "random starts (best kept)",
    ),
    Param("n_iter", FROM_SIGNATURE, _count("n_iter", 1, MAX_STEPS), "EM steps of each start"),
    Param(
        "inference",
        FROM_SIGNATURE,
        one_of("inference", MaceMethod),
        "vb (variational Bayes with priors) or em (EM with smoothing)",
    ),
    Param(
        "smoothing",
        FROM_SIGNATURE,
        optional(positive_float("smoothing")),
        "added to the counts of inference='em' (None: 0.01 / K)",
    ),
    Param(
        "default_noise",
        FROM_SIGNATURE,
        functools.partial(opt.number, name="default_noise", low=-1.0, low_open=True),
        "spread of the random starting weights, drawn on [1, 2 + default_noise) (> -1)",
    ),
    Param(
        "spamming_prior",
        FROM_SIGNATURE,
        positive_float("spamming_prior"),
        "Beta prior weight of spamming",
    ),
    Param(
        "competence_prior",
        FROM_SIGNATURE,
        positive_float("competence_prior"),
        "Beta prior weight of knowing",
    ),
    Param(
        "strategy_prior",
        FROM_SIGNATURE,
        positive_float("strategy_prior"),
        "Dirichlet prior of the spammers' label strategy",
    ),
    Param("seed", FROM_SIGNATURE, _seed, "seed of the random starts"),
)
