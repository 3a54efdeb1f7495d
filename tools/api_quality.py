"""How far the public API is from the house's rules: for every public function and class of
the user-facing modules (the pinned ones), whether its docstring has ``Parameters``,
``Returns`` and ``Examples`` (with ``>>>``) sections and whether its signature uses ``Any``.

    python tools/api_quality.py            # a summary per module
    python tools/api_quality.py --list     # every name that misses something
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "unit"))


def user_modules() -> list[str]:
    from test_public_api import USER_MODULES

    return list(USER_MODULES)


def missing(obj: object) -> list[str]:
    doc = inspect.getdoc(obj) or ""
    gaps = []
    try:
        sig = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        sig = None
    params = [p for p in (sig.parameters if sig else {}) if p not in ("self", "cls")]
    if params and "Parameters\n----------" not in doc:
        gaps.append("Parameters")
    if inspect.isfunction(obj) and "Returns\n-------" not in doc and "Yields\n------" not in doc:
        gaps.append("Returns")
    if "Examples\n--------" not in doc or ">>>" not in doc:
        gaps.append("Examples")
    if sig is not None:
        excused = _excused(obj)
        anys = [
            p for p, v in sig.parameters.items() if "Any" in str(v.annotation) and p not in excused
        ]
        if "Any" in str(sig.return_annotation) and "return" not in excused:
            anys.append("return")
        if anys:
            gaps.append("Any:" + ",".join(anys))
    return gaps


def _excused(obj: object) -> set[str]:
    """Names whose ``Any`` carries its written reason: a ``# Any: <why>`` comment on the line
    that declares them (a parameter, a dataclass field; ``return`` for the ``def`` line)."""
    try:
        source = inspect.getsource(obj)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return set()
    names = set()
    for line in source.splitlines():
        if "# Any:" not in line:
            continue
        code = line.split("#", 1)[0].strip()
        if code.startswith("def ") or code.startswith(")"):
            names.add("return")
        name = code.split(":", 1)[0].strip().lstrip("*")
        if name.isidentifier():
            names.add(name)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    seen: set[int] = set()
    total = done = 0
    for name in user_modules():
        module = importlib.import_module(name)
        rows = []
        for item in module.__all__:
            obj = getattr(module, item)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or id(obj) in seen:
                continue
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            seen.add(id(obj))
            gaps = missing(obj)
            total += 1
            done += not gaps
            rows.append((item, gaps))
        ok = sum(not g for _, g in rows)
        print(f"{name}: {ok}/{len(rows)}")
        if args.list:
            for item, gaps in rows:
                if gaps:
                    print(f"    {item}: {' '.join(gaps)}")
    print(f"total: {done}/{total} public functions and classes meet the rules")


if __name__ == "__main__":
    main()
