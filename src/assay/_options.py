"""One rule for options: each kind of option has one ``Literal`` type and one validator.

The choices of an option are written once, as a ``Literal`` type below (or in the family
module that owns it); :func:`choice` derives them from the type, so error messages, the CLI's
choices and the docs never repeat the list. Every validator raises :class:`OptionError` (or a
subclass given as ``error``), naming the option and what was expected. Parameter names follow
the glossary in ``docs/parameters.md``.

This module imports nothing heavy: the CLI uses its types at start-up.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

from .errors import OptionError

T = TypeVar("T")

# ---------------------------------------------------------------- shared option types

# Evaluation conventions (assay.data.conventions).
Ties = Literal["docno", "input", "average"]
Missing = Literal["zero", "skip", "error"]
NoRelevant = Literal["zero", "one", "skip", "nan"]
ShortQueries = Literal["score", "skip"]

# Statistics (assay.stats, assay.compare).
Alternative = Literal["two-sided", "greater", "less"]
BootstrapMethod = Literal["bca", "percentile", "basic"]
CIMethod = Literal["bca", "percentile", "basic", "t"]
PairedTest = Literal["randomization", "t", "wilcoxon", "sign", "bootstrap"]
#: McNemar's test: exact binomial, mid-p (Fagerland et al. 2013), χ² with continuity correction.
McNemarMethod = Literal["exact", "mid-p", "chi2"]
CompareTest = Literal["randomization", "t", "wilcoxon", "sign", "bootstrap", "tukey"]
Correction = Literal["holm", "bonferroni", "bh", "none"]
#: The paired tests of a statistic that is not a mean over units (clustering measures):
#: resampling the units (assay.clustering.compare).
ResamplingTest = Literal["bootstrap", "randomization"]
#: Other spellings accepted for a correction (statsmodels' names).
CORRECTION_ALIASES = {"fdr_bh": "bh"}
WilcoxonZeroMethod = Literal["wilcox", "pratt", "zsplit"]
WilcoxonPValue = Literal["auto", "exact", "asymptotic"]
SpearmanCI = Literal["fisher", "bootstrap"]
KendallCI = Literal["fieller", "bootstrap"]
KendallVariant = Literal["b", "c"]
KendallPValue = Literal["auto", "exact", "asymptotic"]
TauAPTies = Literal["error", "average"]
SystemCorrelation = Literal["kendall", "spearman", "tau_ap"]
#: How :func:`assay.stats.partial_conjunction` combines the p-values of several datasets.
Combination = Literal["bonferroni", "fisher"]

# Classification, clustering, agreement (the families' own types: assay.<family>.options).
Average = Literal["binary", "micro", "macro", "weighted"]
ZeroDivision = Literal[0, 1, "nan"]
KappaWeights = Literal["linear", "quadratic"]
Level = Literal["nominal", "ordinal", "interval", "ratio"]


# Files and output.
InputFormat = Literal["trec", "csv", "tsv", "parquet", "jsonl"]
# Ratings files: assay.agreement.options.
OutputFormat = Literal["table", "tsv", "csv", "jsonl", "json", "markdown", "latex"]
#: ``assay report``: the HTML page, or the tables of saved results as text.
ReportFormat = Literal["html", "markdown", "latex", "table"]
#: Files a plot is exported to.
PlotFormat = Literal["png", "svg", "pdf"]


def choices(kind: Any) -> tuple[Any, ...]:
    """The values a ``Literal`` type (or a union of them) allows, in declaration order."""
    if get_origin(kind) is Literal:
        return tuple(get_args(kind))
    if isinstance(kind, tuple):
        return kind
    out: list[Any] = []
    for part in get_args(kind):
        out.extend(v for v in choices(part) if v not in out)
    if not out:
        raise TypeError(f"not a Literal type: {kind!r}")
    return tuple(out)


# ---------------------------------------------------------------- validators


def _where(where: str | None) -> str:
    return f"{where}: " if where else ""


def _fail(
    name: str, expected: str, value: Any, error: type[OptionError], where: str | None
) -> OptionError:
    return error(f"{_where(where)}{name} must be {expected}, got {value!r}", option=name)


def choice(
    value: Any,
    kind: Any,
    name: str,
    *,
    aliases: Mapping[Any, Any] | None = None,
    ignore_case: bool = False,
    error: type[OptionError] = OptionError,
    where: str | None = None,
) -> Any:
    """``value`` if it is one of the choices of ``kind`` (a ``Literal`` type), else an error
    listing them. ``aliases`` maps other accepted spellings to a choice; ``ignore_case``
    compares strings case-insensitively (``"RRF"`` is ``"rrf"``)."""
    allowed = choices(kind)
    if ignore_case and isinstance(value, str):
        value = value.lower()
    hashable = _hashable(value)
    if aliases and hashable and value in aliases:
        return aliases[value]
    for option in allowed if hashable else ():
        # 0 == False and 1 == True in Python: a bool is never a numeric choice.
        if value == option and isinstance(value, bool) == isinstance(option, bool):
            return option
    shown = ", ".join(repr(c) if not isinstance(c, str) else c for c in allowed)
    raise error(f"{_where(where)}{name} must be one of {shown}; got {value!r}", option=name)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def flag(
    value: Any, name: str, *, error: type[OptionError] = OptionError, where: str | None = None
) -> bool:
    """True or False (NumPy booleans accepted; 0/1 and strings refused)."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise _fail(name, "True or False", value, error, where)


def integer(
    value: Any,
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    integral_float: bool = False,
    error: type[OptionError] = OptionError,
    where: str | None = None,
) -> int:
    """An integer in [minimum, maximum]. Booleans are refused; a float is accepted only when
    ``integral_float`` and it has no fractional part (``10.0``)."""
    expected = _integer_expectation(minimum, maximum)
    if isinstance(value, bool):
        raise _fail(name, expected, value, error, where)
    try:
        number = operator.index(value)
    except TypeError:
        if not (integral_float and isinstance(value, float) and value.is_integer()):
            raise _fail(name, expected, value, error, where) from None
        number = int(value)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise _fail(name, expected, value, error, where)
    return number


def _integer_expectation(minimum: int | None, maximum: int | None) -> str:
    if minimum == 1 and maximum is None:
        return "a positive integer"
    if minimum == 0 and maximum is None:
        return "a non-negative integer"
    if minimum is not None and maximum is not None:
        return f"an integer from {minimum:,} to {maximum:,}"
    if minimum is not None:
        return f"an integer >= {minimum}"
    if maximum is not None:
        return f"an integer <= {maximum}"
    return "an integer"


def number(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    error: type[OptionError] = OptionError,
    where: str | None = None,
) -> float:
    """A finite real number within the given bounds (open or closed at each end)."""
    expected = _number_expectation(low, high, low_open, high_open)
    if isinstance(value, bool) or not _is_real(value):
        raise _fail(name, expected, value, error, where)
    x = float(value)
    if not math.isfinite(x):
        raise _fail(name, expected, value, error, where)
    too_low = low is not None and (x <= low if low_open else x < low)
    too_high = high is not None and (x >= high if high_open else x > high)
    if too_low or too_high:
        raise _fail(name, expected, value, error, where)
    return x


def _is_real(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return not isinstance(value, str | bytes | complex)


def _number_expectation(
    low: float | None, high: float | None, low_open: bool, high_open: bool
) -> str:
    if low is None and high is None:
        return "a finite number"
    if high is None:
        return f"a number {'>' if low_open else '>='} {low:g}"
    if low is None:
        return f"a number {'<' if high_open else '<='} {high:g}"
    left, right = "(" if low_open else "[", ")" if high_open else "]"
    return f"a number in {left}{low:g}, {high:g}{right}"


# ---------------------------------------------------------------- named kinds (the glossary)


def seed(value: Any, *, where: str | None = None) -> int:
    """The seed of a random procedure: a non-negative integer."""
    return integer(value, "seed", minimum=0, where=where)


#: The most resamples any procedure takes: a p-value resolution of 1e-8 is far below any
#: significance level a correction can ask for, and above it the counts a test keeps (and the
#: index arithmetic on them) would leave 64-bit integers, and the time would be days.
MAX_RESAMPLES = 100_000_000


def n_resamples(value: Any, *, name: str = "n_resamples", where: str | None = None) -> int:
    """A number of resamples (bootstrap, randomisation): an integer from 1 to
    :data:`MAX_RESAMPLES`."""
    return integer(value, name, minimum=1, maximum=MAX_RESAMPLES, where=where)


def confidence(value: Any, *, where: str | None = None) -> float:
    """A confidence level in (0, 1), e.g. 0.95."""
    return number(value, "confidence", low=0, high=1, low_open=True, high_open=True, where=where)


def alpha(value: Any, *, where: str | None = None) -> float:
    """A significance level in (0, 1), e.g. 0.05."""
    return number(value, "alpha", low=0, high=1, low_open=True, high_open=True, where=where)


def risk_alpha(
    value: Any, *, error: type[OptionError] = OptionError, where: str | None = None
) -> float:
    """The weight of losses in risk-sensitive evaluation: a number >= 0 (a loss against the
    baseline counts 1 + risk_alpha times; 0 is the plain mean difference)."""
    return number(value, "risk_alpha", low=0, error=error, where=where)


def cutoff(
    value: Any,
    *,
    name: str = "k",
    error: type[OptionError] = OptionError,
    where: str | None = None,
) -> int | None:
    """A rank cutoff ``k``: a positive integer, or None for the whole list."""
    if value is None:
        return None
    return integer(value, name, minimum=1, error=error, where=where)


def depth(
    value: Any, *, error: type[OptionError] = OptionError, where: str | None = None
) -> int | None:
    """A truncation depth: keep the first ``depth`` documents (None: all)."""
    if value is None:
        return None
    return integer(value, "depth", minimum=0, error=error, where=where)


def optional(check: Callable[[Any], T]) -> Callable[[Any], T | None]:
    """A validator that also lets None through."""

    def wrapped(value: Any) -> T | None:
        return None if value is None else check(value)

    return wrapped
