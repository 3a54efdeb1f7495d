"""The option types of the regression family (typing only, cheap to import: the CLI reads
them at module level). Their validation is :mod:`assay._options`' (``choice``)."""

from __future__ import annotations

from typing import Literal

__all__ = ["ConstantTarget", "RegressionLoss", "ZeroTarget"]

#: MAPE's rule for a zero true value.
ZeroTarget = Literal["error", "eps", "nan", "skip"]
#: R² and explained variance when the true values are constant.
ConstantTarget = Literal["finite", "nan", "error"]
#: The per-item loss two models are compared on.
RegressionLoss = Literal["squared", "absolute"]
