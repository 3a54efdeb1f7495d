"""Tag input of the tagging family: CoNLL column files (tagging.conll) and lists of tag lists, and
the one clear error each kind of bad input gets (file and line, or the list position)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from assay import tagging as T
from assay.errors import EmptyInputError, InputError, ParseError
from assay.tagging.conll import TagSequences, check_aligned, read_conll


def test_read_conll_layout(tmp_path: Path) -> None:
    path = tmp_path / "x.conll"
    path.write_text(
        "-DOCSTART- -X- O O\n\nEU\tNNP B-ORG B-ORG\r\nrejects VBZ O O\n\n\n"
        "-DOCSTART- -X- O O\nPeter NNP B-PER I-PER\n  \nBlackburn NNP B-PER B-PER\n",
        encoding="utf-8",
    )
    data = read_conll(path)
    assert (data.n_fields, data.columns) == (4, (2, 3))
    assert data.gold.sentences() == [["B-ORG", "O"], ["B-PER"], ["B-PER"]]
    assert data.predictions[0].sentences() == [["B-ORG", "O"], ["I-PER"], ["B-PER"]]
    assert data.gold.lines.tolist() == [3, 4, 8, 10]
    tokens = read_conll(path, gold=0, pred=[1, -1])
    assert tokens.gold.sentences()[0] == ["EU", "rejects"] and len(tokens.predictions) == 2
    packed = tmp_path / "x.conll.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert read_conll(packed).gold.sentences() == data.gold.sentences()


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("a B-X B-X\nb O\n", 2, "found 2 fields, expected 3"),
        ("a B-X B-X\n\n", 1, "column 5"),
        (b"a O O\n\xff O O\n", 2, "UTF-8"),
    ],
)
def test_read_conll_errors_name_the_line(
    tmp_path: Path, text: str | bytes, line: int, words: str
) -> None:
    path = tmp_path / "bad.conll"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ParseError) as err:
        read_conll(path, pred=5 if "column" in words else -1)
    assert err.value.source == str(path) and err.value.line == line and words in str(err.value)


def test_read_conll_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.conll"
    for text in ("", "\n\n", "-DOCSTART- -X- O O\n\n"):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(EmptyInputError):
            read_conll(path)


def test_lists_are_checked() -> None:
    with pytest.raises(InputError, match=r"y_true\[0\] is 'B-X', not a list of tags"):
        T.span_f1(["B-X", "O"], ["B-X", "O"])
    with pytest.raises(InputError, match=r"y_pred\[1\]\[0\] is None; tags must be strings"):
        T.span_f1([["O"], ["O"]], [["O"], [None]])
    with pytest.raises(InputError, match=r"y_pred\[1\] has 1 tags but y_true\[1\] has 2"):
        T.span_f1([["O"], ["O", "O"]], [["O"], ["O"]])
    with pytest.raises(InputError, match=r"y_pred\[1\] is missing: 1 sentences but y_true has 2"):
        T.token_accuracy([["O"], ["O"]], [["O"]])
    with pytest.raises(InputError, match=r"y_pred\[1\] is one too many"):
        T.span_f1([["O"]], [["O"], ["O"]])
    with pytest.raises(EmptyInputError):
        T.span_f1([[], []], [[], []])
    with pytest.raises(InputError, match=r"y_true must be a list of sentences"):
        T.span_f1("B-X", "B-X")


@pytest.mark.parametrize(
    ("scheme", "tag"),
    [
        ("iob2", "E-X"),
        ("ioe2", "B-X"),
        ("io", "B-X"),
        ("bioes", "L-X"),
        ("bilou", "S-X"),
        ("iob2", "B-"),
        ("iob2", "X"),
        ("iob2", "B"),
        ("iob2", "B--X"),
        ("iob2", "O-X"),
        ("iob2", "BX-Y"),
    ],
)
def test_tags_outside_the_scheme(scheme: str, tag: str) -> None:
    with pytest.raises(InputError) as err:
        T.span_f1([["O", "O"]], [["O", tag]], scheme=scheme)
    assert f"y_pred[0][1] tag {tag!r} is not a tag of scheme {scheme}" in str(err.value)


def test_sequences_keep_their_origin() -> None:
    seqs = TagSequences.from_lists([["O", "B-X"], [], ["I-X"]], "gold")
    assert seqs.n_sentences == 3 and seqs.n_tokens == 3 and seqs.offsets.tolist() == [0, 2, 2, 3]
    assert TagSequences.from_lists(seqs, "other") is seqs
    assert seqs.sentences() == [["O", "B-X"], [], ["I-X"]]
    other = TagSequences.from_lists([["O", "B-X"], ["O"], ["I-X"]], "pred")
    with pytest.raises(InputError, match=r"pred\[1\] has 1 tags but gold\[1\] has 0"):
        check_aligned(seqs, other)
    spans = T.extract_spans(seqs)
    assert spans.per_sentence() == [[("X", 1, 1)], [], [("X", 0, 0)]]
    assert spans.records() == [
        {"sentence": 0, "start": 1, "end": 1, "type": "X"},
        {"sentence": 2, "start": 0, "end": 0, "type": "X"},
    ]
    assert np.array_equal(spans.sentence, [0, 2])


def test_spans_given_directly_are_checked() -> None:
    spans = T.Spans.from_sentences([[("A", 2, 3), ("B", 0, 1)], []], lengths=[5, 2])
    assert spans.offsets.tolist() == [0, 5, 7] and spans.start.tolist() == [0, 2]
    with pytest.raises(InputError, match="overlaps"):
        T.Spans.from_sentences([[("A", 0, 3), ("B", 3, 4)]])
    with pytest.raises(InputError, match="not one of the types"):
        T.Spans.from_sentences([[("A", 0, 3)]], types=["B"])
