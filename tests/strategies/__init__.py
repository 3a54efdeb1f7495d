"""Hypothesis strategies shared by the test suite, one module per family
(``from strategies.ranking import collections``)."""
