"""Compatibility layers: other evaluation tools' exact behaviour on assay's columnar engine.

- :mod:`assay.compat.trec_eval`: trec_eval 10.0 reproduced byte for byte (``assay trec-eval``;
  :func:`~assay.compat.trec_eval.evaluate_trec`, :func:`~assay.compat.trec_eval.format_trec`).
- :mod:`assay.compat.pytrec_eval`: a drop-in for pytrec_eval built on the former.
- :mod:`assay.compat.gdeval`: the TREC Web track's gdeval.pl 1.3 byte for byte (``assay
  gdeval``; :func:`~assay.compat.gdeval.evaluate_gdeval`), its risk mode included.
- :mod:`assay.compat.ndeval`: ndeval 4.5 (TREC Web track diversity) byte for byte
  (``assay ndeval``; :func:`~assay.compat.ndeval.evaluate_ndeval`).

Nothing is imported here: ``import assay.compat.trec_eval`` loads only what it needs.
"""

__all__: list[str] = []
