"""gdeval.pl's recorded outputs (version 1.3 as the TREC 2014 Web track published it,
trec-web/trec-web-2014 src/eval/gdeval.pl, run with perl 5 on the files below): plain, -c,
-k, and the risk mode against a baseline with -riskAlpha, with and without -c. The inputs
hold a topic prefix (wt13-201), unjudged and spam (-2) documents, tied scores broken by
document id, a topic judged without a relevant document (203), a run-only topic (207),
judged topics the run lacks (204-206) and, under -c in the risk mode, gdeval's carried-over
baseline value (206, missing from both runs, is compared with 205's baseline value)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.compat.gdeval import evaluate_gdeval, main
from assay.stats import urisk

QRELS = """\
wt13-201 0 clueweb-a 3
wt13-201 0 clueweb-b 1
wt13-201 0 clueweb-c -2
wt13-201 0 clueweb-d 4
201 0 clueweb-e 0
202 0 x1 2
202 0 x2 2
202 0 x3 1
203 0 y1 0
203 0 y2 -2
204 0 z1 1
205 0 w1 2
206 0 v1 1
"""

RUN = """\
201 Q0 clueweb-c 1 9.5 mine
201 Q0 clueweb-a 2 7 mine
201 Q0 clueweb-e 3 7 mine
201 Q0 clueweb-b 4 7 mine
201 Q0 clueweb-z 5 1 mine
202 Q0 x3 1 3 mine
202 Q0 x9 2 2 mine
202 Q0 x1 3 1 mine
203 Q0 y1 1 5 mine
207 Q0 q1 1 5 mine
"""

BASE = """\
201 Q0 clueweb-d 1 5 bl
201 Q0 clueweb-a 2 4 bl
202 Q0 x1 1 3 bl
202 Q0 x2 2 2 bl
202 Q0 x3 3 1 bl
205 Q0 w1 1 1 bl
"""

RISK1 = "mine (rel to. bl; rs=1+a; a=1)"
RISK05 = "mine (rel to. bl; rs=1+a; a=0.5)"

EXPECTED = {
    "": """runid,topic,ndcg@20,err@20
mine,201,0.17647,0.12337
mine,202,0.46358,0.12109
mine,amean,0.32003,0.12223
""",
    "-c": """runid,topic,ndcg@20,err@20
mine,201,0.17647,0.12337
mine,202,0.46358,0.12109
mine,amean,0.12801,0.04889
""",
    "-k 2": """runid,topic,ndcg@2,err@2
mine,201,0.00000,0.00000
mine,202,0.20438,0.06250
mine,amean,0.10219,0.03125
""",
    "-baseline base -riskAlpha 1": f"""runid,topic,ndcg@20,err@20
{RISK1},201,-1.59684,-1.65560
{RISK1},202,-1.07284,-0.31266
{RISK1},amean,-1.33484,-0.98413
""",
    "-baseline base -riskAlpha 5": """runid,topic,ndcg@20,err@20
mine (rel to. bl; rs=1+a; a=5),201,-4.79053,-4.96680
mine (rel to. bl; rs=1+a; a=5),202,-3.21851,-0.93799
mine (rel to. bl; rs=1+a; a=5),amean,-4.00452,-2.95239
""",
    "-c -baseline base -riskAlpha 1": f"""runid,topic,ndcg@20,err@20
{RISK1},201,-1.59684,-1.65560
{RISK1},202,-1.07284,-0.31266
{RISK1},204,0.00000,0.00000
{RISK1},205,-2.00000,-0.37500
{RISK1},206,-2.00000,-0.37500
{RISK1},amean,-1.33394,-0.54365
""",
    "-c -k 3 -baseline base -riskAlpha 0.5": f"""runid,topic,ndcg@3,err@3
{RISK05},201,-1.42469,-1.39551
{RISK05},202,-0.80463,-0.23450
{RISK05},204,0.00000,0.00000
{RISK05},205,-1.50000,-0.28125
{RISK05},206,-1.50000,-0.28125
{RISK05},amean,-1.04586,-0.43850
""",
}


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in (("qrels", QRELS), ("run", RUN), ("base", BASE)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("flags", list(EXPECTED))
def test_gdeval_output_byte_for_byte(files: Path, flags: str) -> None:
    import io

    out = io.StringIO()
    assert main([*flags.split(), "qrels", "run"], out=out) == 0
    assert out.getvalue() == EXPECTED[flags]


def test_the_risk_mean_is_urisk(files: Path) -> None:
    """gdeval's risk-mode amean is URisk over the per-topic values of the two runs."""
    run = evaluate_gdeval("qrels", "run")
    base = evaluate_gdeval("qrels", "base")
    risk = evaluate_gdeval("qrels", "run", baseline="base", risk_alpha=1.0)
    base_ndcg = {t: n for t, n, _ in base.rows}
    scores = [n for _, n, _ in run.rows]
    baseline = [base_ndcg.get(t, 0.0) for t, _, _ in run.rows]
    assert f"{float(urisk(scores, baseline, risk_alpha=1.0)):.5f}" == "-1.33484"
    assert risk.ndcg == pytest.approx(float(urisk(scores, baseline, risk_alpha=1.0)), abs=1e-15)


def test_python_label_prints_alpha_as_perl_prints_a_number(files: Path) -> None:
    res = evaluate_gdeval("qrels", "run", baseline="base", risk_alpha=1.0)
    assert res.runid == "mine (rel to. bl; rs=1+a; a=1)"
    assert res.text() == EXPECTED["-baseline base -riskAlpha 1"]
