"""Slow, plain-Python references for the tagging family, one token (or one span) at a time.

Written from the tools' descriptions, with loops and no NumPy, so that the vectorised code
of ``assay.tagging.spans`` and ``assay.tagging.partial`` can be checked
against something independent:

- :func:`conlleval_pl` — the main loop of CoNLL-2000's ``conlleval`` (version 2004-01-26),
  token by token with the boundary token between sentences, counting chunks the way the
  Perl script does (starts for the "found" counts, the ``inCorrect`` state for the correct
  ones), with its own start/end rules (E followed by B of the same type is neither);
- :func:`chunks_conlleval` — the same rules with E and S always ending a chunk (seqeval's
  default mode), emitting (type, start, end) at every chunk end;
- :func:`chunks_strict` — seqeval's strict scan with the scheme's patterns;
- :func:`nervaluate_counts` — nervaluate 1.2.1's four greedy matching loops.

Tags are strings ``O`` or ``P-TYPE``; BILOU's L and U are read as E and S.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

Tag = tuple[str, str]  # (prefix, type)
Chunk = tuple[str, int, int]  # (type, start, end inclusive)


def split_tag(tag: str) -> Tag:
    """conlleval's reading: the prefix up to the first hyphen, the type after it."""
    if "-" not in tag:
        return tag, ""
    prefix, kind = tag.split("-", 1)
    return {"L": "E", "U": "S"}.get(prefix, prefix), kind


# ---------------------------------------------------------------- conlleval.pl


def _pl_end(prev: str, tag: str, prev_type: str, kind: str) -> bool:
    end = (prev, tag) in {
        ("B", "B"),
        ("B", "O"),
        ("I", "B"),
        ("I", "O"),
        ("E", "E"),
        ("E", "I"),
        ("E", "O"),
    }
    if prev not in ("O", ".") and prev_type != kind:
        end = True
    return end or prev in ("]", "[")


def _pl_start(prev: str, tag: str, prev_type: str, kind: str) -> bool:
    start = (prev, tag) in {
        ("B", "B"),
        ("I", "B"),
        ("O", "B"),
        ("O", "I"),
        ("E", "E"),
        ("E", "I"),
        ("O", "E"),
    }
    if tag not in ("O", ".") and prev_type != kind:
        start = True
    return start or tag in ("[", "]")


def conlleval_pl(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]]) -> dict[str, object]:
    """conlleval's counts for sentences written one token per line with a blank line after
    each sentence: tokens, correct_tags, and per type found_gold, found_pred, correct."""
    rows: list[tuple[bool, str, str]] = []
    for g_sent, p_sent in zip(gold, pred, strict=True):
        rows += [(False, g, p) for g, p in zip(g_sent, p_sent, strict=True)]
        rows.append((True, "O", "O"))  # the blank line: the boundary token
    tokens = correct_tags = 0
    found_gold: Counter[str] = Counter()
    found_pred: Counter[str] = Counter()
    correct: Counter[str] = Counter()
    in_correct = False
    last_c, last_g, last_ct, last_gt = "O", "O", "", ""
    for boundary, g_tag, p_tag in rows:
        c, ct = split_tag(g_tag)
        g, gt = split_tag(p_tag)
        if boundary:
            g = "O"
        end_c, end_g = _pl_end(last_c, c, last_ct, ct), _pl_end(last_g, g, last_gt, gt)
        if in_correct:
            if end_c and end_g and last_gt == last_ct:
                in_correct = False
                correct[last_ct] += 1
            elif end_c != end_g or gt != ct:
                in_correct = False
        start_c, start_g = _pl_start(last_c, c, last_ct, ct), _pl_start(last_g, g, last_gt, gt)
        if start_c and start_g and gt == ct:
            in_correct = True
        if start_c:
            found_gold[ct] += 1
        if start_g:
            found_pred[gt] += 1
        if not boundary:
            if c == g and ct == gt:
                correct_tags += 1
            tokens += 1
        last_c, last_g, last_ct, last_gt = c, g, ct, gt
    if in_correct:
        correct[last_ct] += 1
    return {
        "tokens": tokens,
        "correct_tags": correct_tags,
        "found_gold": dict(found_gold),
        "found_pred": dict(found_pred),
        "correct": dict(correct),
    }


# ---------------------------------------------------------------- chunks


def _end(prev: str, tag: str, prev_type: str, kind: str) -> bool:
    if prev in ("E", "S"):
        return True
    if prev in ("B", "I") and tag in ("B", "S", "O"):
        return True
    return prev != "O" and prev_type != kind


def _start(prev: str, tag: str, prev_type: str, kind: str) -> bool:
    if tag in ("B", "S"):
        return True
    if tag in ("I", "E") and prev in ("E", "S", "O"):
        return True
    return tag != "O" and prev_type != kind


def chunks_conlleval(sentence: Sequence[str]) -> list[Chunk]:
    """Chunks of one sentence under the conlleval rules (E and S end a chunk)."""
    chunks: list[Chunk] = []
    prev, prev_type, begin = "O", "", 0
    for i, tag in enumerate([*sentence, "O"]):
        cur, kind = split_tag(tag)
        if _end(prev, cur, prev_type, kind):
            chunks.append((prev_type, begin, i - 1))
        if _start(prev, cur, prev_type, kind):
            begin = i
        prev, prev_type = cur, kind
    return chunks


_ANY = "OBIES"
#: scheme -> (start, inside, end) patterns: (previous prefixes, current prefixes, type rule).
PATTERNS: dict[str, tuple[list[tuple[str, str, str]], ...]] = {
    "iob1": (
        [
            ("O", "I", "any"),
            ("I", "I", "diff"),
            ("B", "I", "any"),
            ("I", "B", "same"),
            ("B", "B", "same"),
        ],
        [("B", "I", "same"), ("I", "I", "same")],
        [
            ("I", "I", "diff"),
            ("I", "O", "any"),
            ("I", "B", "any"),
            ("B", "O", "any"),
            ("B", "I", "diff"),
            ("B", "B", "same"),
        ],
    ),
    "ioe1": (
        [("O", "I", "any"), ("I", "I", "diff"), ("E", "I", "any"), ("E", "E", "same")],
        [("I", "I", "same"), ("I", "E", "same")],
        [
            ("I", "I", "diff"),
            ("I", "O", "any"),
            ("I", "E", "diff"),
            ("E", "I", "same"),
            ("E", "E", "same"),
        ],
    ),
    "iob2": (
        [(_ANY, "B", "any")],
        [("B", "I", "same"), ("I", "I", "same")],
        [
            ("I", "O", "any"),
            ("I", "I", "diff"),
            ("I", "B", "any"),
            ("B", "O", "any"),
            ("B", "I", "diff"),
            ("B", "B", "any"),
        ],
    ),
    "ioe2": (
        [
            ("O", "I", "any"),
            ("O", "E", "any"),
            ("E", "I", "any"),
            ("E", "E", "any"),
            ("I", "I", "diff"),
            ("I", "E", "diff"),
        ],
        [("I", "E", "same"), ("I", "I", "same")],
        [("E", _ANY, "any")],
    ),
    "bioes": (
        [(_ANY, "B", "any"), (_ANY, "S", "any")],
        [("B", "I", "same"), ("B", "E", "same"), ("I", "I", "same"), ("I", "E", "same")],
        [("S", _ANY, "any"), ("E", _ANY, "any")],
    ),
    "io": (
        [("O", "I", "any"), ("I", "I", "diff")],
        [("I", "I", "same")],
        [("I", "O", "any"), ("I", "I", "diff")],
    ),
}
PATTERNS["bilou"] = PATTERNS["bioes"]


def _fits(patterns: Iterable[tuple[str, str, str]], prev: Tag, cur: Tag) -> bool:
    for prevs, curs, rule in patterns:
        if prev[0] in prevs and cur[0] in curs:
            same = prev[1] == cur[1] and prev[0] != "O" and cur[0] != "O"
            if rule == "any" or (rule == "same") == same:
                return True
    return False


def chunks_strict(sentence: Sequence[str], scheme: str) -> list[Chunk]:
    """seqeval's strict scan: a start, the run of inside tokens after it, and an end check on
    the token after the run; the scan goes on from that token."""
    start_p, inside_p, end_p = PATTERNS[scheme]
    tokens = [split_tag(t) for t in sentence] + [("O", "")]
    chunks: list[Chunk] = []
    i, prev = 0, ("O", "")
    while i < len(tokens):
        token = tokens[i]
        if _fits(start_p, prev, token):
            j, last = i + 1, token
            while j < len(tokens) and _fits(inside_p, last, tokens[j]):
                last = tokens[j]
                j += 1
            if _fits(end_p, tokens[j - 1], tokens[j]):
                chunks.append((token[1], i, j - 1))
            i = j
        else:
            i += 1
        prev = tokens[i - 1]
    return chunks


def chunks(sentences: Sequence[Sequence[str]], scheme: str, mode: str) -> list[list[Chunk]]:
    if mode == "conlleval":
        return [chunks_conlleval(s) for s in sentences]
    return [chunks_strict(s, scheme) for s in sentences]


# ---------------------------------------------------------------- nervaluate


def _overlaps(p: Chunk, t: Chunk) -> bool:
    if p[1] > t[2] or p[2] < t[1]:
        return False
    span = min(p[2], t[2]) - max(p[1], t[1]) + 1
    return span / (t[2] - t[1] + 1) * 100.0 >= 1.0


def _evaluate_one(true: list[Chunk], pred: list[Chunk], match: str) -> Counter[str]:
    out: Counter[str] = Counter()
    taken: set[int] = set()
    for p in pred:
        choice, kind = None, "spurious"
        best = None
        for k, t in enumerate(true):
            if k in taken:
                continue
            same_bounds = (p[1], p[2]) == (t[1], t[2])
            if match in ("strict", "exact"):
                if same_bounds and (match == "exact" or p[0] == t[0]):
                    choice, kind = k, "correct"
                    break
                if _overlaps(p, t) and kind == "spurious":
                    choice, kind = k, "incorrect"
            elif match == "partial":
                if _overlaps(p, t):
                    if same_bounds:
                        choice, kind = k, "correct"
                        break
                    if kind == "spurious":
                        choice, kind = k, "partial"
            elif _overlaps(p, t):  # type
                distance = abs(p[1] - t[1]) + abs(p[2] - t[2])
                if p[0] == t[0]:
                    if best is None or distance < best[0]:
                        best = (distance, k)
                elif kind == "spurious":
                    choice, kind = k, "incorrect"
        if best is not None:
            choice, kind = best[1], "correct"
        out[kind] += 1
        if choice is not None:
            taken.add(choice)
    out["missed"] += len(true) - len(taken)
    return out


def nervaluate_counts(
    true: Sequence[Sequence[Chunk]], pred: Sequence[Sequence[Chunk]], match: str
) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Overall and per-type counts (correct, incorrect, partial, missed, spurious)."""
    keys = ("correct", "incorrect", "partial", "missed", "spurious")
    overall: Counter[str] = Counter()
    per_type: dict[str, Counter[str]] = {}
    types = sorted({c[0] for doc in [*true, *pred] for c in doc})
    for t_doc, p_doc in zip(true, pred, strict=True):
        overall += _evaluate_one(list(t_doc), list(p_doc), match)
        for kind in types:
            t_k = [c for c in t_doc if c[0] == kind]
            p_k = [c for c in p_doc if c[0] == kind]
            per_type.setdefault(kind, Counter()).update(_evaluate_one(t_k, p_k, match))
    as_dict = {k: overall[k] for k in keys}
    return as_dict, {kind: {k: c[k] for k in keys} for kind, c in per_type.items()}
