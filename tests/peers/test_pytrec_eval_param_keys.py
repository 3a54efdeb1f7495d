"""The drop-in's result keys against pytrec-eval-terrier's for every measure spelled with
parameters (issue 25): code written for pytrec_eval must find the keys it expects. Each
spelling runs pytrec_eval in a subprocess, because some (gain parameters) abort it; those the
drop-in refuses, with a message naming the parameters as the reason."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assay.compat import pytrec_eval as dropin
from assay.errors import MetricError

pytest.importorskip("pytrec_eval")

QRELS = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"a": 0, "e": 1}}
RUN = {"q1": {"a": 1.0, "b": 2.0, "c": 0.5, "d": 3.0}, "q2": {"e": 1.0, "a": 2.0}}
NUMBERS = ["5", "0.5", "2", "0.25,0.5", "5,10", "1,2,3"]
GAINS = ["1=3,2=9", "0=0,1=1"]

# One child imports pytrec_eval once and forks for each spelling, so that an abort (or output
# on stderr, which is how pytrec_eval reports a parameter it could not use) marks that spelling
# alone; the forks keep the suite fast.
CHILD = """
import json, os, sys
import pytrec_eval
qrels, run, measures = json.load(sys.stdin)
out = {}
for measure in measures:
    read, write = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(err_w, 2)
        keys = sorted(pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)["q1"])
        os.write(write, json.dumps(keys).encode())
        os._exit(0)
    os.close(write)
    os.close(err_w)
    text = os.read(read, 1 << 16).decode()
    err = os.read(err_r, 1 << 16)
    _, status = os.waitpid(pid, 0)
    out[measure] = json.loads(text) if status == 0 and text and not err.strip() else None
print(json.dumps(out))
"""


def _spellings() -> list[str]:
    out = []
    for m in sorted(dropin.supported_measures):
        for p in NUMBERS + GAINS:
            out.append(f"{m}.{p}")
        out.append(f"{m}_{NUMBERS[0]}")
    return out


@pytest.fixture(scope="module")
def pytrec_keys() -> dict[str, list[str] | None]:
    """pytrec_eval's keys for every spelling, None where it aborts or complains on stderr."""
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps([QRELS, RUN, _spellings()]),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(proc.stdout)


@pytest.mark.parametrize("measure", _spellings())
def test_keys_match_pytrec_eval_or_refused_for_the_parameters(
    measure: str, pytrec_keys: dict[str, list[str] | None]
) -> None:
    expected = pytrec_keys[measure]
    try:
        got = dropin.RelevanceEvaluator(QRELS, {measure}).evaluate(RUN)
    except MetricError as exc:
        # Refused, with the parameters named as the reason: where pytrec_eval fails too, or
        # for name=value parameters, which it aborts on or silently reads as numbers.
        assert expected is None or "=" in measure, (measure, expected)
        assert "is supported, these parameters are not" in str(exc)
        return
    assert expected is not None, measure
    assert sorted(got["q1"]) == expected, measure
