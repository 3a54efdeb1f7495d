"""The option types of the agreement family (typing only, cheap to import: the CLI reads them
at module level). Their validation is :mod:`assay._options`' (``choice``).

``KappaWeights`` and ``Level`` are also the meta-evaluation's (assessor agreement), so they
are declared in :mod:`assay._options` and named here too."""

from __future__ import annotations

from typing import Literal

from .._options import KappaWeights, Level

__all__ = ["KappaWeights", "Level", "RatingsLayout", "RatingsOrientation"]

#: Ratings files: which layout (``auto``: found from the columns).
RatingsLayout = Literal["auto", "wide", "long"]
#: What the rows of a wide ratings table are.
RatingsOrientation = Literal["units-by-raters", "raters-by-units"]
