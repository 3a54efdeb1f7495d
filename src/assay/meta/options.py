"""The choices of the meta-evaluation's options, as ``Literal`` types (typing only: importing
this module loads nothing else, so a CLI module can use it at module level). Their
validators are :func:`assay._options.choice` and friends.

>>> from typing import get_args
>>> from assay.meta.options import RBOTies
>>> get_args(RBOTies)
('docno', 'input', 'group')
"""

from __future__ import annotations

from typing import Literal

__all__ = ["DiscPowerTest", "PowerMethod", "RBOTies", "ReproKind"]

#: The significance tests of :func:`assay.meta.discriminative_power`.
DiscPowerTest = Literal["bootstrap", "tukey"]
#: How :func:`assay.meta.topic_set_size` computes power: noncentral t/F, or Sakai's normal
#: approximations (his Excel tools).
PowerMethod = Literal["exact", "normal"]
#: How :func:`assay.meta.rbo_runs` orders tied scores.
RBOTies = Literal["docno", "input", "group"]
#: What :func:`assay.meta.reproducibility` measured: the same collection, or another one.
ReproKind = Literal["reproducibility", "replicability"]
