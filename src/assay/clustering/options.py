"""The option types of the clustering family (``Literal``\\ s: the CLI imports this module at
start-up, so it imports nothing but ``typing``). Their validators are :mod:`assay._options`';
``zero_division`` is shared with the other families and defined there (re-exported here)."""

from __future__ import annotations

from typing import Literal

from .._options import ResamplingTest, ZeroDivision

__all__ = ["AverageMethod", "ClusteringLayout", "ClusteringTest", "ZeroDivision"]

#: The mean of the two entropies that normalises NMI and AMI.
AverageMethod = Literal["arithmetic", "geometric", "min", "max"]
#: How a clustering file is laid out (``auto``: from its content, see
#: :mod:`assay.clustering.reader`).
ClusteringLayout = Literal["auto", "labels", "clusters", "lines"]
#: The paired test of two clusterings over the same items (:func:`assay.clustering.compare`);
#: defined with the statistics options, so that the CLI declares it without this package.
ClusteringTest = ResamplingTest
