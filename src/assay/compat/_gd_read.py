"""gdeval.pl's readers: its qrels and run formats, with its checks, as plain Python.

gdeval reads ``topic 0 docno grade`` and ``topic Q0 docno rank score runid`` split on
whitespace; a topic keeps what follows its last ``-`` (``wt2013-201`` is topic ``201``) and
must then be digits; a grade is an integer <= 4 and only positive grades are kept; the run's
tag is the last line's. A line that fails a check is an :class:`~assay.errors.ParseError`
naming the file and the line, as gdeval's "format error on line N" does.
"""

from __future__ import annotations

import bz2
import gzip
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, ParseError
from ..ranking.measures.gdeval import GDEVAL_MAX_GRADE

_DIGITS = re.compile(r"[0-9]+")
_GRADE = re.compile(r"-?[0-9]+")


def _topic(field_: str) -> str:
    return field_.rsplit("-", 1)[-1]


def _lines(path: Path) -> list[str]:
    """The file's lines as gdeval's ``while (<FILE>)`` sees them, carriage returns removed."""
    try:
        data = path.read_bytes()
        # gdeval decompresses a name containing ".gz" or ".bz2" (anywhere in it).
        if ".gz" in path.name:
            data = gzip.decompress(data)
        elif ".bz2" in path.name:
            data = bz2.decompress(data)
    except OSError as exc:
        raise InputError(f"gdeval: cannot open {str(path)!r}: {exc.strerror}") from exc
    # Ids compare byte by byte in gdeval; surrogateescape keeps every byte, and UTF-8 text
    # keeps its byte order under Python's code point order.
    lines = data.decode("utf-8", "surrogateescape").replace("\r", "").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


#: The numeric prefix perl reads from a string ("0x1" is 0, "1abc" is 1, "abc" is 0).
PERL_NUMBER = re.compile(r"\s*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def _zero(value: str) -> bool:
    """gdeval's ``$zero == 0``: perl's numeric value of the string is 0."""
    match = PERL_NUMBER.match(value)
    return match is None or float(match.group()) == 0


@dataclass
class GdevalQrels:
    """Positive judgments by topic (``{topic: {docno: grade}}``), in file order."""

    path: str
    judged: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass
class GdevalRun:
    """A run's scores by topic (``{topic: {docno: score}}``) and its tag (the last line's)."""

    path: str
    runid: str = "?????"
    scores: dict[str, dict[str, float]] = field(default_factory=dict)


def read_qrels(path: str | Path) -> GdevalQrels:
    """gdeval's qrels: positive grades only; a grade above 4 is a format error."""
    p = Path(path)
    out = GdevalQrels(str(p))
    for n, line in enumerate(_lines(p), start=1):
        parts = line.split()
        topic = _topic(parts[0]) if parts else ""
        ok = (
            len(parts) >= 4
            and _DIGITS.fullmatch(topic) is not None
            and _zero(parts[1])
            and _GRADE.fullmatch(parts[3]) is not None
            and int(parts[3]) <= GDEVAL_MAX_GRADE
        )
        if not ok:
            raise ParseError(
                f"{p}:{n}: expected 'topic 0 docno grade' with a numeric topic and an "
                f"integer grade <= {GDEVAL_MAX_GRADE} (gdeval's qrels format), got {line!r}"
            )
        grade = int(parts[3])
        if grade > 0:
            docs = out.judged.setdefault(topic, {})
            if parts[2] in docs:
                raise ParseError(f"{p}:{n}: document {parts[2]!r} judged twice for topic {topic}")
            docs[parts[2]] = grade
    return out


def read_run(path: str | Path) -> GdevalRun:
    """gdeval's run: scores by topic; the tag of the last line names the run."""
    p = Path(path)
    out = GdevalRun(str(p))
    for n, line in enumerate(_lines(p), start=1):
        parts = line.split()
        topic = _topic(parts[0]) if parts else ""
        ok = (
            len(parts) >= 6
            and _DIGITS.fullmatch(topic) is not None
            and parts[1] == "Q0"
            and _DIGITS.fullmatch(parts[3]) is not None
            and parts[5] != "0"  # perl's truth: the tag "0" is false, a format error
        )
        score = _score(parts[4]) if ok else math.nan
        if not ok or not math.isfinite(score):
            raise ParseError(
                f"{p}:{n}: expected 'topic Q0 docno rank score runid' with a numeric topic, "
                f"an integer rank and a finite score (gdeval's run format), got {line!r}"
            )
        docs = out.scores.setdefault(topic, {})
        if parts[2] in docs:
            raise ParseError(f"{p}:{n}: document {parts[2]!r} retrieved twice for topic {topic}")
        docs[parts[2]] = score
        out.runid = parts[5]
    return out


def _score(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan
