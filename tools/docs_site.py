"""The documentation site's references, generated from the code at build time, and its hooks.

``mkdocs.yml`` names this file twice:

- as a MkDocs hook module (``hooks:``): :func:`on_config` completes the navigation (one API
  page per public module, the catalogue pages ``docs/metrics-*.md``), :func:`on_files` adds
  the generated pages (never written to ``docs/``, never checked in) and
  :func:`on_page_markdown` turns a link to a repository file outside ``docs/`` into its path;
- as a griffe extension of mkdocstrings (``ReSTRoles``): the docstrings are NumPy style with
  reST roles (``:func:`x```), which become code spans linked to their API entry when there
  is one.

The API reference has one page per module of ``tests/unit/public_api.txt`` (the pinned public
API: ``assay``, the core modules and every family package of ``assay._families.FAMILIES``),
one entry per name of the module's ``__all__``. The CLI reference walks the click command tree
of ``assay.cli.app``. ``tests/unit/test_docs_site.py`` checks that both cover everything.
"""

from __future__ import annotations

import html
import importlib
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import griffe
import typer.main

ROOT = Path(__file__).resolve().parents[1]
#: The pinned public API (``module: name`` lines), which names the modules users import.
PINNED = ROOT / "tests" / "unit" / "public_api.txt"
#: Where the generated pages live in the site (no such folder exists in ``docs/``).
API_INDEX = "reference/api/index.md"
API_DIR = "reference/api"
CLI_PAGE = "reference/cli.md"
#: The navigation entries the hooks complete.
API_TITLE = "API reference"
CATALOGUE_PAGE = "metrics.md"

# ---------------------------------------------------------------- the API reference


def pinned_api(path: Path = PINNED) -> dict[str, list[str]]:
    """The pinned public names by module, in the file's order."""
    found: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            module, _, name = line.partition(": ")
            found.setdefault(module, []).append(name)
    return found


def api_modules() -> list[str]:
    """The modules of the API reference: ``assay``, the family packages in the family list's
    order, then the other pinned modules alphabetically."""
    from assay._families import FAMILIES

    pinned = pinned_api()
    first = ["assay", *(f.package for f in FAMILIES)]
    return [m for m in first if m in pinned] + sorted(set(pinned) - set(first))


def public_names(module: str) -> list[str]:
    """The module's ``__all__``, sorted (what ``public_api.txt`` pins)."""
    return sorted(importlib.import_module(module).__all__)


def api_uri(module: str) -> str:
    """The site path of a module's API page."""
    return f"{API_DIR}/{module}.md"


def api_page(module: str) -> str:
    """The Markdown source of a module's API page: its docstring, then one mkdocstrings entry
    (``::: module.name``) per public name."""
    names = public_names(module)
    lines = [
        f"# `{module}` {{ #{module} }}",
        "",
        f"::: {module}",
        "    options:",
        "      show_root_heading: false",
        "      show_root_toc_entry: false",
        "      members: false",
        "",
        f"Public names: {', '.join(f'[`{n}`](#{module}.{n})' for n in names)}.",
        "",
    ]
    for name in names:
        lines += [f"::: {module}.{name}", ""]
    return "\n".join(lines)


def api_index(modules: list[str]) -> str:
    """The Markdown source of the API reference's first page: the modules, with their first
    docstring line."""
    lines = [
        f"# {API_TITLE}",
        "",
        "Generated from the docstrings at build time: one page per public module (the pinned",
        "public API, `tests/unit/public_api.txt`), one entry per name of its `__all__`.",
        "",
        "| Module | Names | What it holds |",
        "| --- | ---: | --- |",
    ]
    for module in modules:
        doc = (importlib.import_module(module).__doc__ or "").strip()
        summary = _markdown_text(rest_to_text(doc.split("\n\n")[0].replace("\n", " ")))
        link = f"[{module}]({module}.md)"
        lines.append(f"| {link} | {len(public_names(module))} | {summary} |")
    return "\n".join([*lines, ""])


def api_entries(source: str) -> set[str]:
    """The identifiers of the mkdocstrings entries (``::: x``) of a page's source."""
    return set(re.findall(r"^::: (\S+)$", source, flags=re.MULTILINE))


def missing_api_entries(pinned: dict[str, list[str]], sources: dict[str, str]) -> list[str]:
    """The pinned names (``module: name``) with no entry in the API page of their module
    (``sources``: the page source by module)."""
    missing = []
    for module, names in pinned.items():
        entries = api_entries(sources.get(module, ""))
        missing += [f"{module}: {n}" for n in names if f"{module}.{n}" not in entries]
    return missing


# ---------------------------------------------------------------- the CLI reference


# Any: typer 0.28 vendors its own click (``typer._click``), older ones use click's classes;
# the walk is duck-typed (``list_commands``, ``param_type_name``) to work with both.
Command = Any
Context = Any


def cli_tree() -> Iterator[tuple[Command, Context]]:
    """Every command of ``assay`` (groups, then their subcommands, depth first, in the order
    of ``assay --help``), each with its context (``ctx.command_path``: ``assay meta rbo``)."""
    from assay.cli import app

    root = typer.main.get_command(app)
    yield from _walk(root, _context(root, "assay", None))


def _context(command: Command, name: str, parent: Context | None) -> Context:
    settings = command.context_settings or {}
    return command.context_class(command, info_name=name, parent=parent, **settings)


def _is_group(command: Command) -> bool:
    return hasattr(command, "list_commands")


def _walk(command: Command, ctx: Context) -> Iterator[tuple[Command, Context]]:
    yield command, ctx
    if _is_group(command):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)  # assay's group names the metavars here
            if sub is not None and not sub.hidden:
                yield from _walk(sub, _context(sub, name, ctx))


def cli_anchor(command_path: str) -> str:
    """The anchor of a command's entry: ``assay meta rbo`` -> ``assay-meta-rbo``."""
    return command_path.replace(" ", "-")


def cli_page() -> str:
    """The Markdown source of the CLI reference: for every command its help, usage,
    arguments and options, as ``assay CMD --help`` gives them."""
    lines = [
        "# CLI reference",
        "",
        "Generated at build time from the command tree of `assay.cli.app` (what",
        "`assay COMMAND --help` prints). Every command takes `-h`/`--help`.",
        "",
    ]
    for command, ctx in cli_tree():
        lines += _command_entry(command, ctx)
    return "\n".join(lines)


def _command_entry(command: Command, ctx: Context) -> list[str]:
    path = ctx.command_path
    level = "#" * min(2 + path.count(" ") - 1, 4) if " " in path else "##"
    out = [f"{level} `{path}` {{ #{cli_anchor(path)} }}", ""]
    if command.help:
        out += [_markdown_text(p) + "\n" for p in _paragraphs(command.help)]
    usage = " ".join([path, *command.collect_usage_pieces(ctx)])
    out += ["```text", f"Usage: {usage}", "```", ""]
    params = command.get_params(ctx)
    arguments = [p for p in params if p.param_type_name == "argument"]
    options = [p for p in params if p.param_type_name != "argument"]
    for title, params in (("Argument", arguments), ("Option", options)):
        rows = [r for r in (p.get_help_record(ctx) for p in params) if r is not None]
        if rows:
            out += [f"| {title} | Description |", "| --- | --- |"]
            out += [f"| `{names}` | {_markdown_text(text)} |" for names, text in rows]
            out.append("")
    if _is_group(command):
        subs = command.list_commands(ctx)
        links = [f"[`{path} {s}`](#{cli_anchor(f'{path} {s}')})" for s in subs]
        out += [f"**Commands**: {', '.join(links)}", ""]
    return out


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.replace("\b", "").split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def cli_entries(source: str) -> set[str]:
    """The command paths with an entry (a heading) in the CLI reference's source."""
    return set(re.findall(r"^#+ `(assay[^`]*)`", source, flags=re.MULTILINE))


def missing_cli_entries(commands: list[str], source: str) -> list[str]:
    """The command paths (``assay meta rbo``) with no entry in the CLI reference."""
    entries = cli_entries(source)
    return [c for c in commands if c not in entries]


# ---------------------------------------------------------------- text


_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|obj|exc|const):`([^`]+)`")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_MARKDOWN_SPECIAL = re.compile(r"([\\*_\[\]|#])")


def rest_to_text(text: str) -> str:
    """reST roles as code spans, without linking (``:func:`~a.b``` -> ```b```)."""
    from assay.metrics.doctext import role_title

    return _ROLE.sub(lambda m: f"`{role_title(m.group(1))}`", text).replace("``", "`")


def _markdown_text(text: str) -> str:
    """Plain text as Markdown: code spans kept, everything else escaped."""
    out, last = [], 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_escape(text[last : match.start()]))
        out.append(f"`{match.group(2).strip()}`")
        last = match.end()
    out.append(_escape(text[last:]))
    return "".join(out)


def _escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


# ---------------------------------------------------------------- docstrings (griffe)


class ReSTRoles(griffe.Extension):
    """Docstrings' reST as Markdown: a role (``:func:`name```) becomes a code span linked to
    the name's API entry when the site has one (an optional cross-reference, plain code
    otherwise), a ``.. math::`` block a LaTeX code block, a literal block's ``::`` a colon.

    A ``Protocol``'s members are documented under ``Parameters`` (its signature is
    ``(*args, **kwargs)``, so ``tests/unit/test_public_docs.py`` asks for the section): the
    site shows them as ``Attributes``, which is what they are."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None or obj.is_alias:
            return
        text = docstring_markdown(obj.docstring.value, obj)
        if isinstance(obj, griffe.Class) and any(str(b).endswith("Protocol") for b in obj.bases):
            text = text.replace("Parameters\n----------", "Attributes\n----------")
        obj.docstring.value = text


def docstring_markdown(text: str, scope: griffe.Object | None = None) -> str:
    """A docstring's reST constructs as Markdown (see :class:`ReSTRoles`)."""
    text = _MATH.sub(_math_block, text)
    text = "\n".join(_literal_underscores(line) for line in text.split("\n"))
    text = _LITERAL.sub(lambda m: m.group(1) + (":" if m.group(1)[-1:].strip() else ""), text)
    return _ROLE.sub(lambda m: _crossref(m.group(1), scope), text)


#: ``_`` after a combining mark (``x̄_i``): Markdown would open emphasis there (the mark is
#: no word character); reST has no ``_`` emphasis, so it is always the character.
_MARKED_UNDERSCORE = re.compile(r"(?<=[\u0300-\u036f])_")
_CODE_RUN = re.compile(r"(`+[^`]*`+)")


def _literal_underscores(line: str) -> str:
    if line.lstrip().startswith((">>>", "...")):
        return line
    parts = _CODE_RUN.split(line)
    return "".join(p if i % 2 else _MARKED_UNDERSCORE.sub(r"\\_", p) for i, p in enumerate(parts))


_MATH = re.compile(r"^( *)\.\. math::[ \t]*(.*)\n((?:\1 +.*\n|[ \t]*\n)*)", re.MULTILINE)
_LITERAL = re.compile(r"(\S?)[ \t]*::$", re.MULTILINE)


def _math_block(match: re.Match[str]) -> str:
    indent, first, rest = match.group(1), match.group(2), match.group(3)
    body = [first.strip(), *(line.strip() for line in rest.rstrip().splitlines())]
    fence = [f"{indent}```latex", *(indent + b for b in body if b), f"{indent}```"]
    return "\n".join(fence) + "\n\n"


def _crossref(target: str, scope: griffe.Object | None) -> str:
    from assay.metrics.doctext import role_title

    title = role_title(target)
    explicit = re.fullmatch(r"(.*?)\s*<(.+)>", target)
    name = (explicit.group(2) if explicit else target).lstrip("~").lstrip(".")
    identifier = _resolve(name, scope)
    code = f"<code>{html.escape(title)}</code>"
    if not identifier.startswith("assay."):
        # Not one of assay's objects (a parameter, a Python or NumPy name): plain code, never
        # a link to whatever prose heading happens to share its name (``data``).
        return code
    return f'<autoref optional identifier="{html.escape(identifier)}">{code}</autoref>'


def _resolve(name: str, scope: griffe.Object | None) -> str:
    """The defining path (``module.qualname``) of the object ``name`` names, seen from
    ``scope``'s module (and class); ``name`` itself when it names no live object."""
    if scope is None:
        return name
    head, *tail = name.split(".")
    found: Any = _MISSING
    for where in _scopes(scope):
        found = getattr(where, head, _MISSING)
        if found is not _MISSING:
            break
    if found is _MISSING:
        try:
            found = importlib.import_module(name)
        except ImportError:
            return name
        tail = []
    for part in tail:
        found = getattr(found, part, _MISSING)
        if found is _MISSING:
            return name
    return defining_path(found) or name


_MISSING = object()


def _scopes(scope: griffe.Object) -> Iterator[Any]:
    """The live class (when ``scope`` is in one) and module ``scope`` is defined in."""
    try:
        module = importlib.import_module(scope.module.path)
    except Exception:  # why: a module that cannot be imported has no live names to offer
        return
    obj = scope if isinstance(scope, griffe.Class) else scope.parent
    if isinstance(obj, griffe.Class):
        found: Any = module
        for part in obj.path.removeprefix(f"{scope.module.path}.").split("."):
            found = getattr(found, part, None)
        if found is not None:
            yield found
    yield module


def defining_path(obj: Any) -> str | None:
    """``module.qualname`` of a class or function (a module: its name); None otherwise."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    where, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(where, str) and isinstance(qualname, str) and "<" not in qualname:
        return f"{where}.{qualname}"
    return None


# ---------------------------------------------------------------- MkDocs hooks


def on_config(config: Any) -> Any:
    """Complete the navigation: the API reference's pages, the catalogue's pages. The site
    describes this checkout: its ``src`` comes first on the import path (mkdocstrings reads
    the same folder, ``paths: [src]``)."""
    if str(ROOT / "src") not in sys.path:
        sys.path.insert(0, str(ROOT / "src"))
    modules = api_modules()
    api = [API_INDEX, *({m: api_uri(m)} for m in modules)]
    sections: dict[str, list[Any]] = {API_TITLE: api}
    catalogue = sorted(p.name for p in _docs(config).glob("metrics-*.md"))
    if catalogue:
        sections[CATALOGUE_PAGE] = [CATALOGUE_PAGE, *catalogue]
    config["nav"] = _expand(config["nav"], sections)
    return config


def _docs(config: Any) -> Path:
    return Path(config["docs_dir"])


def _expand(nav: Any, sections: dict[str, list[Any]]) -> Any:
    """The navigation with each ``{title: page}`` of ``sections`` (by title or page) made the
    section ``{title: [pages]}``."""
    if isinstance(nav, list):
        return [_expand(item, sections) for item in nav]
    if isinstance(nav, dict):
        out = {}
        for title, value in nav.items():
            key = title if title in sections else value if isinstance(value, str) else None
            out[title] = sections[key] if key in sections else _expand(value, sections)
        return out
    return nav


def on_files(files: Any, config: Any) -> Any:
    """Add the generated reference pages."""
    from mkdocs.structure.files import File

    modules = api_modules()
    pages = {API_INDEX: api_index(modules), CLI_PAGE: cli_page()}
    pages |= {api_uri(m): api_page(m) for m in modules}
    for uri, content in pages.items():
        files.append(File.generated(config, uri, content=content))
    return files


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    """On an API page, register each entry under its object's defining path too
    (``assay.stats.paired.ttest`` for ``assay.stats.ttest``), so that a docstring's role naming
    it there links to the entry."""
    uri = page.file.src_uri
    if uri.startswith(f"{API_DIR}/") and uri != API_INDEX:
        autorefs = config["plugins"]["autorefs"]
        for canonical, public in _canonical_paths(uri.removeprefix(f"{API_DIR}/")[:-3]):
            if canonical != public:
                autorefs.register_anchor(page, canonical, public, primary=False)
    return html_text


def _canonical_paths(module: str) -> Iterator[tuple[str, str]]:
    """``(defining path, public path)`` of each public name of ``module`` and of the
    members its classes define."""
    loaded = importlib.import_module(module)
    for name in public_names(module):
        obj = getattr(loaded, name)
        canonical, public = defining_path(obj), f"{module}.{name}"
        if canonical is None:
            continue
        yield canonical, public
        if isinstance(obj, type):
            for member in vars(obj):
                if not member.startswith("_"):
                    yield f"{canonical}.{member}", f"{public}.{member}"


_LINK = re.compile(r"\[([^\]]+)\]\((\.\./[^)#\s]+)(#[^)\s]*)?\)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """A link to a repository file outside ``docs/`` (``../benchmarks/RESULTS.md``) becomes
    the file's path in code: the site holds only ``docs/``. A link to a missing file stays,
    for the strict build to refuse."""
    docs = _docs(config).resolve()
    source = (docs / page.file.src_uri).parent

    def outside(match: re.Match[str]) -> str:
        target = (source / match.group(2)).resolve()
        if target.is_relative_to(docs) or not target.exists():
            return match.group(0)
        path, text = target.relative_to(ROOT).as_posix(), match.group(1)
        return f"`{path}`" if text.strip("`") == path else f"{text} (`{path}` in the repository)"

    return _LINK.sub(outside, markdown)
