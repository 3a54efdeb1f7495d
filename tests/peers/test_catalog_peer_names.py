"""Every peer a declaration records (MetricSpec.peers, listed by docs/metrics.md) names a real
function or class of the peer's package: imported here, where the package is installed.
pytorch-metric-learning needs PyTorch (gigabytes), so it is not a test dependency: its names are
checked against the outputs it recorded itself in ../shared (the call and the metric names)."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re

import pytest

from assay.metrics import REGISTRY, load_families
from conftest import shared_file

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
    "pyndeval": "pyndeval",
    "cwl_eval": "cwl",
}
PROGRAMS = {"conlleval", "gdeval"}
#: Checked against its own recorded outputs (tests/oracles/test_embedding_pml_oracle.py checks the values).
RECORDED = {"pytorch-metric-learning"}


def _declared() -> list[tuple[str, str, str]]:
    load_families()
    return [(s.family + "/" + s.name, p.tool, p.name) for s in REGISTRY.specs() for p in s.peers]


def test_every_peer_tool_is_known() -> None:
    found = _declared()
    assert found, "no declaration records a peer"
    assert {tool for _, tool, _ in found} <= set(PYTHON) | PROGRAMS | RECORDED


@pytest.mark.parametrize("tool", sorted(PYTHON))
def test_python_peer_names_resolve(tool: str) -> None:
    module = PYTHON[tool]
    names = [(where, name) for where, t, name in _declared() if t == tool]
    assert names, f"no declaration records {tool}: drop it from PYTHON"
    if importlib.util.find_spec(module) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{tool} is not installed (a test dependency: the dev extra)")
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


def test_pytorch_metric_learning_names_are_those_it_recorded() -> None:
    fixtures = json.loads(shared_file("embeddings", "pml_test_fixtures.json").read_text())
    case = fixtures["case_knn_labels_given"]
    recorded = set(case["expected"]["ref_includes_query=False"])
    calculator = "pytorch_metric_learning.utils.accuracy_calculator.AccuracyCalculator"
    assert "AccuracyCalculator(" in case["call"]
    names = [(where, name) for where, tool, name in _declared() if tool in RECORDED]
    assert names, "no declaration records pytorch-metric-learning"
    for where, name in names:
        call = re.fullmatch(rf"{re.escape(calculator)}\(include=\('(\w+)',\)\)", name)
        assert call is not None, (where, name)
        assert call.group(1) in recorded, (where, call.group(1), sorted(recorded))
