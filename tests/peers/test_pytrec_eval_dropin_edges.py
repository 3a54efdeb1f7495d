"""The pytrec_eval drop-in against pytrec-eval-terrier on the edges where they differed
(issue 11): an empty ranking, an empty measure set, ``parse_run``/``parse_qrel``'s
``defaultdict`` and the exception type of a value of the wrong type.

pytrec_eval runs in a subprocess for the empty-ranking cases: trec_eval 9 reads buffers that
were never allocated when an empty ranking is the first one it sees in a process (every
measure 0 then, and a segmentation fault with some measure sets), so the child first
evaluates a non-empty ranking, and a crash cannot take the test runner down.
"""

from __future__ import annotations

import collections
import copy
import io
import json
import math
import pickle
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from assay.compat import pytrec_eval as dropin

pytrec_eval = pytest.importorskip("pytrec_eval")

QRELS = {
    "q1": {"d1": 1, "d2": 0, "d4": 2, "d6": -1},
    "q2": {"d3": 2, "d5": 0, "d7": 1},
    "q3": {"d8": 0},
}
RUNS = [
    {"q1": {}, "q2": {"d3": 1.0, "d5": 2.0, "x": 0.5}},
    {"q2": {"d3": 1.0}, "q1": {}, "q3": {}},
    {"q3": {}, "q9": {"d1": 1.0}},
    {"q1": {"x": 1.0}, "q2": {}},  # judged_only empties q1 too
]

CHILD = """
import json, sys
import pytrec_eval
qrels, run, measures, level, judged = json.loads(sys.stdin.read())
warm = pytrec_eval.RelevanceEvaluator({"w": {"a": 1}}, {"map"})
warm.evaluate({"w": {"a": 1.0, "b": 0.5}})  # trec_eval's buffers allocated: steady state
ev = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=level,
                                    judged_docs_only_flag=judged)
print(json.dumps(ev.evaluate(run)))
"""


def reference(run: dict[str, Any], measures: list[str], level: int, judged: bool) -> Any:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps([QRELS, run, measures, level, judged]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


ALL = sorted(set(pytrec_eval.supported_measures) - {"runid"})  # runid: uninitialised in C


@pytest.mark.parametrize("judged", [False, True])
@pytest.mark.parametrize("level", [1, 2])
def test_empty_rankings_match(level: int, judged: bool) -> None:
    for run in RUNS:
        want = reference(run, ALL, level, judged)
        got = dropin.RelevanceEvaluator(
            QRELS, set(ALL), relevance_level=level, judged_docs_only_flag=judged
        ).evaluate(run)
        assert list(got) == list(want), run  # the same queries, in the run's order
        for q in want:
            assert set(got[q]) == set(want[q]), (run, q)
            bad = {m: (got[q][m], v) for m, v in want[q].items() if not same(got[q][m], v)}
            assert not bad, (run, q, bad)


@pytest.mark.parametrize("measures", [set(), [], ()])
def test_empty_measure_set(measures: Any) -> None:
    for run in RUNS:
        want = pytrec_eval.RelevanceEvaluator(QRELS, measures).evaluate(
            {q: d for q, d in run.items() if d}  # pytrec_eval in process: no empty ranking
        )
        got = dropin.RelevanceEvaluator(QRELS, measures).evaluate(
            {q: d for q, d in run.items() if d}
        )
        assert got == want
    # with empty rankings: every query of both, each with no measure
    assert dropin.RelevanceEvaluator(QRELS, set()).evaluate(RUNS[1]) == {
        "q2": {},
        "q1": {},
        "q3": {},
    }


TEXT_RUN = "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\nq2 Q0 d3 1 0.5 t\n"
TEXT_QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n"


@pytest.mark.parametrize(("parse", "text"), [("parse_run", TEXT_RUN), ("parse_qrel", TEXT_QRELS)])
def test_parsers_return_defaultdicts(parse: str, text: str) -> None:
    want = getattr(pytrec_eval, parse)(io.StringIO(text))
    got = getattr(dropin, parse)(io.StringIO(text))
    assert isinstance(got, collections.defaultdict) and isinstance(want, collections.defaultdict)
    assert got.default_factory is want.default_factory is dict
    assert got == want and repr(got) == repr(want)
    for f in (
        copy.copy,
        copy.deepcopy,
        lambda d: pickle.loads(pickle.dumps(d)),
        lambda d: d.copy(),
    ):
        a, b = f(got), f(want)
        assert type(a) is type(b) is collections.defaultdict and a == b
    # Reading a missing query inserts {} in both; the drop-in forgets its columns then.
    assert got["zz"] == want["zz"] == {} and "zz" in got and "zz" in want
    assert got.columnar is None
    assert got == want


def test_parsed_dicts_evaluate_as_pytrec_eval() -> None:
    qrels_p = pytrec_eval.parse_qrel(io.StringIO(TEXT_QRELS))
    run_p = pytrec_eval.parse_run(io.StringIO(TEXT_RUN))
    qrels_a = dropin.parse_qrel(io.StringIO(TEXT_QRELS))
    run_a = dropin.parse_run(io.StringIO(TEXT_RUN))
    measures = {"map", "P.5", "ndcg"}
    want = pytrec_eval.RelevanceEvaluator(qrels_p, measures).evaluate(run_p)
    assert dropin.RelevanceEvaluator(qrels_a, measures).evaluate(run_a) == want


BAD_GRADES = [1.0, 1.5, "1", None, np.int64(1), np.float64(1.0), [1]]
GOOD_GRADES = [True, 2, -1]
BAD_SCORES = ["1.0", None, np.float32(1.0), np.int64(1), [1.0], 1j]
GOOD_SCORES = [True, 1, np.float64(0.5), 2.5]


def _outcome(call: Any) -> Any:
    try:
        return ("ok", call())
    except Exception as exc:  # the exception type is what is compared
        return ("raised", exc)


def _compare(call_p: Any, call_a: Any, what: Any) -> None:
    want, got = _outcome(call_p), _outcome(call_a)
    assert want[0] == got[0], (what, want, got)
    if want[0] == "raised":
        assert isinstance(want[1], TypeError) and isinstance(got[1], TypeError), (what, got)
        assert str(want[1]).rstrip(".") in str(got[1]), (what, want[1], got[1])
    else:
        assert got[1] == want[1], what


@pytest.mark.parametrize("grade", BAD_GRADES + GOOD_GRADES, ids=repr)
def test_grade_types(grade: Any) -> None:
    qrels = {"q1": {"d1": grade, "d2": 0}}
    run = {"q1": {"d1": 1.0, "d2": 0.5}}
    _compare(
        lambda: pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run),
        lambda: dropin.RelevanceEvaluator(qrels, {"map"}).evaluate(run),
        grade,
    )


@pytest.mark.parametrize("score", BAD_SCORES + GOOD_SCORES, ids=repr)
def test_score_types(score: Any) -> None:
    qrels = {"q1": {"d1": 1, "d2": 0}}
    run = {"q1": {"d1": score, "d2": 0.75}}
    _compare(
        lambda: pytrec_eval.RelevanceEvaluator(qrels, {"map", "P.1"}).evaluate(run),
        lambda: dropin.RelevanceEvaluator(qrels, {"map", "P.1"}).evaluate(run),
        score,
    )


@pytest.mark.parametrize(
    "qrels",
    [{1: {"d1": 1}}, {"q1": {2: 1}}, {"q1": [("d1", 1)]}],
    ids=["int query id", "int doc id", "list of pairs"],
)
def test_key_and_container_types(qrels: Any) -> None:
    run = {"q1": {"d1": 1.0}}
    _compare(
        lambda: pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run),
        lambda: dropin.RelevanceEvaluator(qrels, {"map"}).evaluate(run),
        qrels,
    )


@pytest.mark.parametrize("run", [[("q1", {"d1": 1.0})], {"q1": [("d1", 1.0)]}, {1: {"d1": 1.0}}])
def test_run_containers(run: Any) -> None:
    qrels = {"q1": {"d1": 1}}
    _compare(
        lambda: pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run),
        lambda: dropin.RelevanceEvaluator(qrels, {"map"}).evaluate(run),
        run,
    )


@pytest.mark.parametrize("level", [0, 1.0, True])
def test_relevance_level_types(level: Any) -> None:
    qrels = {"q1": {"d1": 1, "d2": 2}}
    run = {"q1": {"d1": 2.0, "d2": 1.0}}
    _compare(
        lambda: pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=level).evaluate(run),
        lambda: dropin.RelevanceEvaluator(qrels, {"map"}, relevance_level=level).evaluate(run),
        level,
    )


def test_negative_relevance_level_is_refused() -> None:
    """A documented difference: pytrec_eval 0.5.11 refuses 0 but evaluates with a negative
    level (counting unjudged documents as relevant); the drop-in refuses both."""
    with pytest.raises(TypeError, match="should be positive"):
        dropin.RelevanceEvaluator({"q1": {"d1": 1}}, {"map"}, relevance_level=-1)


def test_type_error_is_also_an_assay_error() -> None:
    import assay

    with pytest.raises(assay.InputError, match="Expected relevance to be integer"):
        dropin.RelevanceEvaluator({"q1": {"d1": 1.0}}, {"map"})
