"""The one family list (:mod:`assay._families`) is the truth everything else derives from,
and CONTRIBUTING.md's recipe for adding a family holds: one folder, one CLI module, one
entry in ``FAMILIES``.

- every entry's package, measure modules and CLI modules exist and import;
- no other place in ``src/`` lists families by hand;
- a lookup of a metric of every family works in a fresh interpreter with nothing else
  imported, and ``import assay; assay.<family>.<name>`` works for every family;
- a name that moved out of a core module still resolves, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import subprocess
import sys
import types
import warnings

import pytest

from assay._lazy import LazyNames


def test_a_moved_name_resolves_with_a_deprecation_warning_naming_its_home() -> None:
    namespace: dict[str, object] = {}
    names = LazyNames("assay.fake", namespace, {}, elsewhere={"sqrt": "math"}, moved={"pi": "math"})
    assert names.get("sqrt") is __import__("math").sqrt
    for _ in range(2):  # every access warns: the name is never cached
        with pytest.warns(DeprecationWarning, match=r"assay\.fake\.pi moved to math\.pi"):
            assert names.get("pi") == pytest.approx(3.14159, abs=1e-5)
    assert "pi" not in namespace
    assert names.listing() == ["sqrt"]
    with pytest.raises(AttributeError, match="no attribute 'tau'"):
        names.get("tau")


def test_a_moved_name_in_a_module_getattr_warns_at_the_caller() -> None:
    module = types.ModuleType("assay_fake_module")
    names = LazyNames("assay_fake_module", vars(module), {}, moved={"e": "math"})
    module.__getattr__ = names.get  # type: ignore[method-assign]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert module.e == pytest.approx(2.71828, abs=1e-5)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert caught[0].filename == __file__


def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter (nothing of assay imported), return its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
