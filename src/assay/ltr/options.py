"""The choices of learning to rank's options, as ``Literal`` types (typing only: importing
this module loads nothing else, so a CLI module can use it at module level). Their
validators are :func:`assay._options.choice` and friends.

>>> from typing import get_args
>>> from assay.ltr.options import ModelName
>>> get_args(ModelName)
('linear', 'ridge', 'lambdamart', 'random')
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "AnalysisKind",
    "FeatureLayout",
    "FeatureNorm",
    "IndexBase",
    "ModelName",
    "Norm",
    "ValueType",
]

#: The models :func:`assay.ltr.make_model` builds by name.
ModelName = Literal["linear", "ridge", "lambdamart", "random"]
#: Query-level feature normalisation (:func:`assay.ltr.normalize`).
FeatureNorm = Literal["min-max", "zscore"]
#: Feature normalisation as the CLI's ``--norm`` takes it (``none``: the features as read).
Norm = Literal["none", "min-max", "zscore"]
#: The analyses :func:`assay.ltr.analyze` makes (``assay ltr analyze``).
AnalysisKind = Literal["queries", "length", "relevant", "scores", "importance", "trees", "features"]
#: How a LETOR file numbers its features (``auto``: 0 when some index is 0).
IndexBase = Literal["auto", 0, 1]
#: The layout of a LETOR file's feature matrix (``auto``: dense when at least half is stored).
FeatureLayout = Literal["auto", "dense", "sparse"]
#: The value type of LETOR features.
ValueType = Literal["float32", "float64"]
