"""Every peer a declaration records (MetricSpec.peers, listed by docs/metrics.md) names a real
function or class of the peer's package: imported here, where the package is installed."""

from __future__ import annotations

import importlib
import importlib.util
import re

import pytest

from assay.metrics import REGISTRY, load_families

#: The Python peers and their import names; the other tools are programs (conlleval, gdeval.pl).
PYTHON = {
    "scikit-learn": "sklearn",
    "krippendorff": "krippendorff",
    "statsmodels": "statsmodels",
    "seqeval": "seqeval",
    "nervaluate": "nervaluate",
    "sacrebleu": "sacrebleu",
    "rouge-score": "rouge_score",
    "crowd-kit": "crowdkit",
    "evalica": "evalica",
    "choix": "choix",
    "pytorch-metric-learning": "pytorch_metric_learning",
    "pyndeval": "pyndeval",
    "cwl_eval": "cwl",
}
PROGRAMS = {"conlleval", "gdeval"}


def _declared() -> list[tuple[str, str, str]]:
    load_families()
    return [(s.family + "/" + s.name, p.tool, p.name) for s in REGISTRY.specs() for p in s.peers]


def test_every_peer_tool_is_known() -> None:
    found = _declared()
    assert found, "no declaration records a peer"
    assert {tool for _, tool, _ in found} <= set(PYTHON) | PROGRAMS


@pytest.mark.parametrize("tool", sorted(PYTHON))
def test_python_peer_names_resolve(tool: str) -> None:
    module = PYTHON[tool]
    names = [(where, name) for where, t, name in _declared() if t == tool]
    if not names:
        pytest.skip(f"no declaration records {tool}")
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{tool} is not installed")
    for where, name in names:
        path = re.match(r"[\w.]+", name)
        assert path is not None and path.group().split(".")[0] == module, (where, name)
        parts = path.group().split(".")
        # The longest importable module, then attributes.
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
            assert callable(obj), (where, name)
            break
        else:  # pragma: no cover - the module was found above
            pytest.fail(f"{where}: {name} does not import")
