"""trec_eval's command line: GNU getopt_long parsing of its flags (:func:`parse_argv`) and
the help text (:func:`help_text`), for ``assay trec-eval``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ._te_measure_specs import NICKNAMES, REL_FORMATS, TrecEvalError, parse_measures
from ._te_measures import MEASURES

_USAGE = "usage: assay trec-eval [-h] [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-R FORMAT] [-Z FILE] {-m MEASURE[.PARAMS]} QRELS RUN"

_LONG = {  # getopt_long's table: name -> (short letter, takes an argument)
    "help": ("h", False),
    "version": ("v", False),
    "query_eval_wanted": ("q", False),
    "measure": ("m", True),
    "complete_rel_info_wanted": ("c", False),
    "level_for_rel": ("l", True),
    "nosummary": ("n", False),
    "Debug_level": ("D", True),
    "Judged_docs_only": ("J", False),
    "Number_docs_in_coll": ("N", True),
    "Max_retrieved_per_topic": ("M", True),
    "Rel_info_format": ("R", True),
    "Results_format": ("T", True),
    "Output_old_results_format": ("o", True),
    "Zscore": ("Z", True),
}
_SHORT_ARG = set("mlDNMRTZ")
_SHORT_FLAG = set("hvqcnJo")


@dataclass
class Args:
    help: bool = False
    version: bool = False
    per_query: bool = False
    complete: bool = False
    summary: bool = True
    judged_only: bool = False
    relevance_level: int = 1
    depth: int | None = None  # -M
    num_docs: int = 0
    zscores: str | None = None  # -Z
    rel_format: str = "qrels"  # -R
    measures: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def _int_arg(flag: str, value: str, minimum: int | None = None) -> int:
    try:
        n = int(value.strip())
    except ValueError:
        raise TrecEvalError(f"option -{flag} needs an integer, got {value!r}") from None
    if minimum is not None and n < minimum:
        raise TrecEvalError(f"option -{flag} must be >= {minimum}, got {n}")
    return n


def parse_argv(argv: Sequence[str]) -> Args:
    """trec_eval's command line, with GNU getopt_long's conventions: short flags may be
    clustered (``-qc``), an option's value may be glued (``-mP.5``, ``-M100``) or follow, long
    options may be abbreviated and take ``--name=value``; options and files may be mixed;
    ``--`` ends the options."""
    a = Args()
    opts: list[tuple[str, str | None]] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            a.files.extend(args[i:])
            break
        if arg.startswith("--"):
            i = _long_option(arg, args, i, opts)
        elif arg.startswith("-") and arg != "-":
            i = _short_options(arg, args, i, opts)
        else:
            a.files.append(arg)
    for letter, value in opts:
        _apply(a, letter, value or "")
    return a


def _long_option(arg: str, args: list[str], i: int, opts: list[tuple[str, str | None]]) -> int:
    """``--name[=value]`` (abbreviations allowed) appended to ``opts``; the next index."""
    name, eq, given = arg[2:].partition("=")
    hits = [k for k in _LONG if k == name] or [k for k in _LONG if k.startswith(name)]
    if len(hits) != 1 or not name:
        what = "ambiguous" if len(hits) > 1 else "unknown"
        raise TrecEvalError(f"{what} option '--{name}'; see assay trec-eval -h")
    letter, takes = _LONG[hits[0]]
    value: str | None = given
    if takes and not eq:
        if i >= len(args):
            raise TrecEvalError(f"option '--{hits[0]}' needs a value; see assay trec-eval -h")
        value = args[i]
        i += 1
    elif not takes and eq:
        raise TrecEvalError(f"option '--{hits[0]}' takes no value; see assay trec-eval -h")
    opts.append((letter, value if takes else None))
    return i


def _short_options(arg: str, args: list[str], i: int, opts: list[tuple[str, str | None]]) -> int:
    """A cluster of short flags, the last of which may take a glued or following value."""
    for j, ch in enumerate(arg[1:], start=2):
        if ch in _SHORT_FLAG:
            opts.append((ch, None))
        elif ch in _SHORT_ARG:
            if j < len(arg):
                opts.append((ch, arg[j:]))
            elif i < len(args):
                opts.append((ch, args[i]))
                i += 1
            else:
                raise TrecEvalError(f"option -{ch} needs a value; see assay trec-eval -h")
            break
        else:
            raise TrecEvalError(f"unknown option -{ch}; see assay trec-eval -h")
    return i


#: Flags that set a field of :class:`Args` to a constant (-o is obsolete in trec_eval too:
#: accepted and ignored).
_SWITCHES = {
    "h": ("help", True),
    "v": ("version", True),
    "q": ("per_query", True),
    "c": ("complete", True),
    "n": ("summary", False),
    "J": ("judged_only", True),
}
#: -T: the results formats trec_eval can read (assay reads its default one only).
_RESULTS_FORMATS = ("trec_results",)


def _apply(a: Args, letter: str, v: str) -> None:
    if letter in _SWITCHES:
        field_name, value = _SWITCHES[letter]
        setattr(a, field_name, value)
    elif letter == "m":
        a.measures.append(v)
    elif letter == "l":
        a.relevance_level = _int_arg("l", v, 0)
    elif letter == "M":
        a.depth = _int_arg("M", v, 0)
    elif letter == "N":
        a.num_docs = _int_arg("N", v)
    elif letter == "R":
        if v not in REL_FORMATS:
            raise TrecEvalError(
                f"-R {v}: unknown relevance format; one of {', '.join(REL_FORMATS)}"
            )
        a.rel_format = v
    elif letter == "T":
        if v not in _RESULTS_FORMATS:
            raise TrecEvalError(f"-T {v}: only the 'trec_results' run format is supported")
    elif letter == "Z":
        a.zscores = v
    elif letter == "D":
        raise TrecEvalError("-D (debug output) is not supported")


def help_text(measures: Sequence[str] = ()) -> str:
    """``assay trec-eval -h``: usage, flags and the measures (those asked for with -m, or all)."""
    lines = [
        _USAGE,
        "",
        "Evaluate RUN (TREC run: query Q0 docno rank score tag; '-' reads stdin) against QRELS",
        "(query iteration docno grade) exactly as trec_eval 10.0 does, printing the same bytes",
        "to a file or a pipe (on a terminal, control characters in ids and the run tag are",
        "shown escaped, as \\x1b, instead of being run).",
        "",
        "  -q        also print every topic's values (topics in byte order, then 'all')",
        "  -c        average over all qrels topics; a topic without results scores 0",
        "            (without -c such a topic is an error, as in trec_eval 10)",
        "  -n        no summary ('all') lines",
        "  -J        drop unjudged documents from every ranking before evaluating",
        "  -l N      minimum grade counted relevant by the binary measures (default 1)",
        "  -M N      evaluate only the first N documents of every ranking",
        "  -N N      documents in the collection (utility's fourth coefficient)",
        "  -m NAME[.PARAMS]  add a measure or a nickname (repeatable; default: official);",
        "            parameters follow the first '.', comma-separated: -m P.5,10",
        "            -m ndcg.1=3,2=9  -m iprec_at_recall..1,.5  -m utility.2,-1,0,0",
        "  -R FORMAT relevance format of QRELS: qrels (default); prefs (qid jg jsg docno",
        "            level: preferences within judgment sub-groups); qrels_prefs (a qrels",
        "            file read as preferences); qrels_jg (qid jg docno grade: judgment groups)",
        "  -Z FILE   print z-scores against FILE's per-topic means and standard deviations",
        "            (lines: qid measure mean stddev); a missing pair prints -1000000",
        "  -h        this help (with -m: only those measures)",
        "",
        "Nicknames: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in NICKNAMES.items()),
        "",
        "Measures (in output order; defaults in brackets):",
    ]
    wanted: list[str] = list(MEASURES)
    if measures:
        chosen = {b.defn.name for b in parse_measures(list(measures), None)}
        wanted = [m for m in MEASURES if m in chosen]
    for name in wanted:
        d = MEASURES[name]
        tail = ""
        if d.param_doc:
            shown = ",".join((f"{v:g}" if isinstance(v, float) else str(v)) for v in d.defaults)
            tail = f"  [{d.param_doc}{': ' + shown if shown else ''}]"
        pad = " " if len(name) >= 22 else ""  # the longest names fill the column
        lines.append(f"  {name:<22}{pad}{d.doc}{tail}")
    return "\n".join(lines) + "\n"
