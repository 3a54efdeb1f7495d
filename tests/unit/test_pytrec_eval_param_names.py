"""The pytrec_eval drop-in names measures with parameters as pytrec_eval does, and refuses
the parameters pytrec_eval cannot use with a message that blames the parameters (issue 25).
The keys below were recorded from pytrec-eval-terrier 0.5.11; the peer test
tests/peers/test_pytrec_eval_param_keys.py compares every spelling against it live."""

from __future__ import annotations

import pytest

from assay.compat import pytrec_eval
from assay.errors import MetricError

QRELS = {"q1": {"a": 1, "b": 0, "c": 2}}
RUN = {"q1": {"a": 1.0, "b": 2.0, "c": 0.5, "d": 3.0}}

RECORDED = {
    "11pt_avg.0.25,0.5": ["11pt_avg"],
    "11pt_avg_0.5": ["11pt_avg"],
    "relstring.7": ["relstring"],
    "relstring_7": ["relstring"],
    "set_F.0.5": ["set_F"],
    "set_F.0.5,2": ["set_F"],
    "P.5,10": ["P_10", "P_5"],
    "iprec_at_recall.0.1": ["iprec_at_recall_0.10"],
    "Rprec_mult.0.2,1.0": ["Rprec_mult_0.20", "Rprec_mult_1.00"],
    "binG.2": ["binG"],
    "num_ret.5": ["num_ret"],
}


@pytest.mark.parametrize(("measure", "keys"), RECORDED.items())
def test_keys_are_pytrec_evals(measure: str, keys: list[str]) -> None:
    got = pytrec_eval.RelevanceEvaluator(QRELS, {measure}).evaluate(RUN)
    assert sorted(got["q1"]) == keys


def test_set_F_value_is_the_first_beta_as_pytrec_eval() -> None:
    got = pytrec_eval.RelevanceEvaluator(QRELS, {"set_F.0.5,2"}).evaluate(RUN)
    assert got["q1"]["set_F"] == pytest.approx(0.6)  # pytrec_eval 0.5.11's value


@pytest.mark.parametrize(
    ("measure", "accepts"),
    [
        ("utility.2,-1,0,0", "takes only 'utility' itself"),
        ("ndcg.1=3,2=9", "takes only 'ndcg' itself"),
        ("Rndcg.3", "takes only 'Rndcg' itself"),
        ("P.0.5", "whole numbers (P.5,10 or P_5)"),
        ("map.1=3", "non-negative numbers (map.5,10 or map_5)"),
    ],
)
def test_refusals_blame_the_parameters(measure: str, accepts: str) -> None:
    with pytest.raises(MetricError) as info:
        pytrec_eval.RelevanceEvaluator(QRELS, {measure})
    message = str(info.value)
    assert f"measure {measure!r}" in message
    assert "is supported, these parameters are not" in message and accepts in message
    assert "supported: 11pt_avg" not in message  # not the list that names the measure


def test_unknown_measures_still_list_the_supported_ones() -> None:
    with pytest.raises(MetricError, match=r"unsupported measure 'foo\.3'; supported: "):
        pytrec_eval.RelevanceEvaluator(QRELS, {"foo.3"})
