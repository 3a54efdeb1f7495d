"""assay.generation and assay.io.segments against sacrebleu and rouge-score themselves: chrF++
and signatures, sentence scores per item, several references, sacrebleu's paired tests
reproduced bit for bit (in process and through its command), sacrebleu's line reader."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import assay.generation as G
from assay.io.segments import read_segments
from support.generation import paired_systems
from support.io import write

sacrebleu = pytest.importorskip("sacrebleu")
pytest.importorskip("rouge_score")


def test_chrf_plus_plus_and_signature_equal_sacrebleu() -> None:
    hyps = ["The dog bit the man.", "It wasn't surprising."]
    refs = [["The dog bit the man.", "It was not unexpected."]]
    ours = G.score(references=refs, hypotheses=hyps, metric="chrF++")
    theirs = sacrebleu.metrics.CHRF(word_order=2)
    assert ours.score == theirs.corpus_score(hyps, refs).score
    assert ours.name == "chrF2++"
    assert ours.signature == theirs.get_signature().format()
    assert ours.provenance["signature"] == ours.signature
    assert ours.provenance["backend_version"] == sacrebleu.__version__


def test_per_item_values_are_sentence_scores() -> None:
    refs = ["the cat sat on the mat", "a dog barked loudly", "rain again today"]
    hyps = ["the cat sat on a mat", "the dog barked", "no rain today"]
    res = G.bleu(references=refs, hypotheses=hyps, effective_order=True)
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        assert res.items[i] == sacrebleu.sentence_bleu(h, [r]).score
    ter = G.ter(references=refs, hypotheses=hyps)
    assert ter.items.tolist() == [
        sacrebleu.sentence_ter(h, [r]).score for h, r in zip(hyps, refs, strict=True)
    ]
    assert float(res) == res.score
    rows = res.records(per_item=True)
    assert [r["item"] for r in rows] == [0, 1, 2, "all"]


def test_multiple_and_variable_references() -> None:
    hyps = ["a b c d", "e f g"]
    streams = [["a b c d", "e f x"], [None, "e f g"]]
    got = G.bleu(references=streams, hypotheses=hyps)
    expected = sacrebleu.metrics.BLEU().corpus_score(hyps, streams)
    assert got.score == expected.score
    assert "nrefs:var" in got.signature


def test_rouge_multiple_references_take_the_best() -> None:
    from rouge_score import rouge_scorer

    hyps = ["the cat sat", "a dog ran far"]
    streams = [["the cat sat on the mat", "dogs run"], ["a cat sat", None]]
    res = G.rouge(references=streams, hypotheses=hyps, rouge_types=["rouge1", "rougeL"])
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    first = scorer.score_multi(["the cat sat on the mat", "a cat sat"], "the cat sat")
    assert tuple(res.items["rouge1"][0]) == tuple(first["rouge1"])
    assert tuple(res.items["rougeL"][1]) == tuple(
        scorer.score("dogs run", "a dog ran far")["rougeL"]
    )


def _sacrebleu_paired(
    refs: list[str],
    systems: dict[str, list[str]],
    test_type: str,
    n: int,
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Any, Any]:
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    metrics = {
        "BLEU": BLEU(references=[refs]),
        "chrF2": CHRF(references=[refs]),
        "TER": TER(references=[refs]),
    }
    return PairedTest(list(systems.items()), metrics, None, test_type=test_type, n_samples=n)()


@pytest.mark.parametrize(
    ("test", "n", "seed"),
    [("bootstrap", 1000, 12345), ("bootstrap", 300, 7), ("randomization", 2000, 12345)],
)
def test_paired_tests_reproduce_sacrebleu(
    test: str, n: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    refs, systems = paired_systems()
    sigs, theirs = _sacrebleu_paired(
        refs, systems, "bs" if test == "bootstrap" else "ar", n, seed, monkeypatch
    )
    ours = G.compare_systems(
        refs,
        systems,
        metrics=["bleu", "chrf", "ter"],
        test=test,
        n_resamples=n,
        seed=seed,
        correction="none",
    )
    pvalues = []
    for name, key in (("BLEU", "bleu"), ("chrF2", "chrf"), ("TER", "ter")):
        for i, system in enumerate(systems):
            r, a = theirs[name][i], ours[system, key]
            assert a.score == r.score
            assert a.pvalue == r.p_value  # identical bits
            if test == "bootstrap":
                assert a.mean == float(r.mean)
                assert a.halfwidth == pytest.approx(float(r.ci), rel=1e-6)  # float32 in sacrebleu
            if r.p_value is not None:
                pvalues.append(r.p_value)
        assert ours.signatures[key] == sigs[name].format()
    assert any(0.01 < p < 0.9 for p in pvalues), pvalues  # the test is not trivial


def test_paired_bootstrap_reproduces_the_sacrebleu_command(tmp_path: Any) -> None:
    refs, systems = paired_systems()
    paths = []
    for name, lines in (("ref", refs), *systems.items()):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    cmd = [
        sys.executable,
        "-m",
        "sacrebleu",
        paths[0],
        "-i",
        *paths[1:],
        "-m",
        "bleu",
        "--paired-bs",
        "--paired-bs-n",
        "500",
        "-f",
        "text",
        "--no-color",
    ]
    env = {**os.environ, "SACREBLEU_SEED": "12345"}
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    printed = [float(x) for x in re.findall(r"\(p = ([0-9.]+)\)", out)]
    ours = G.compare_systems(refs, systems, metrics="bleu", n_resamples=500, correction="none")
    assert printed == [round(ours[s, "bleu"].pvalue or 0, 4) for s in ("close", "worse")]


def test_line_rules_match_sacrebleus_reader(tmp_path: Path) -> None:
    sacrebleu_utils = pytest.importorskip("sacrebleu.utils")
    data = b"a b  \r\nc\rd\t\n\n  e f \nlast"
    path = str(write(tmp_path, "h.txt", data))
    with sacrebleu_utils.smart_open(path) as fh:
        theirs = [line.rstrip() for line in fh]
    assert read_segments(path) == theirs == ["a b", "c\rd", "", "  e f", "last"]
