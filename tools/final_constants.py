"""Annotate module-level constants with ``Final``: mypyc then inlines int/str constants
and keeps the other ones in C statics, where an unannotated module global costs a dict
lookup (and an unboxing) at every use in the compiled engine (~25 % of its time).

Usage: ``python tools/final_constants.py FILE.py ...`` (e.g. every module ``setup.py``
compiles: ``python tools/final_constants.py $(python -c "import setup;
print(*setup.compiled_modules())")``), then ``ruff check --fix --select I src`` for the
``typing`` import and ``mypy src/endeavor`` as the check.

A constant is a module-level name in UPPER_CASE (an optional leading underscore) bound
exactly once in the module, by a plain assignment, and never declared ``global``.
``A, B = 1, 2`` and ``A, B = range(2)`` are split into one annotated line per name.
Idempotent: annotated names are left alone.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

NAME = re.compile(r"_?[A-Z][A-Z0-9_]*")
FINAL = ": Final"


def _bindings(tree: ast.AST) -> dict[str, int]:
    """How often each name is bound anywhere in the module."""
    out: dict[str, int] = {}

    def bind(name: str) -> None:
        out[name] = out.get(name, 0) + 1

    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bind(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name)
    return out


def _values(src: str, value: ast.expr, count: int) -> list[str] | None:
    """The source of each value of a tuple unpacking, or None if it is not simple."""
    if isinstance(value, ast.Tuple) and len(value.elts) == count:
        return [ast.get_source_segment(src, e) or "" for e in value.elts]
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "range" and 1 <= len(value.args) <= 2
            and all(isinstance(a, ast.Constant) and type(a.value) is int
                    for a in value.args)):
        bounds = [a.value for a in value.args
                  if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        if len(range(*bounds)) == count:
            return [str(i) for i in range(*bounds)]
    return None


def annotate(path: Path) -> int:
    """Annotate the constants of one file in place; return how many."""
    src = path.read_text(encoding="utf-8")
    tree = ast.parse(src)
    declared = {n for node in ast.walk(tree) if isinstance(node, ast.Global)
                for n in node.names}
    bound = _bindings(tree)
    lines = src.splitlines(keepends=True)
    done = 0

    def constant(name: str) -> bool:
        return bool(NAME.fullmatch(name)) and name not in declared and bound.get(name) == 1

    for node in tree.body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        first = lines[node.lineno - 1]
        if isinstance(target, ast.Name) and constant(target.id):
            col = target.col_offset + len(target.id)
            if not first[col:].lstrip().startswith("="):
                continue
            lines[node.lineno - 1] = first[:col] + FINAL + first[col:]
            # continuation lines aligned with a bracket of the first line move with it
            brackets = {i + 1 for i, ch in enumerate(first) if ch in "([{" and i > col}
            for k in range(node.lineno, node.end_lineno or node.lineno):
                indent = len(lines[k]) - len(lines[k].lstrip(" "))
                if lines[k].strip() and indent in brackets:
                    lines[k] = " " * len(FINAL) + lines[k]
            done += 1
        elif (isinstance(target, ast.Tuple)
              and all(isinstance(e, ast.Name) and constant(e.id) for e in target.elts)):
            names = [e.id for e in target.elts if isinstance(e, ast.Name)]
            values = _values(src, node.value, len(names))
            if values is None:
                print(f"{path}: left alone: {', '.join(names)}", file=sys.stderr)
                continue
            last = lines[(node.end_lineno or node.lineno) - 1]
            tail = last[node.value.end_col_offset or 0:]
            comment = "  " + tail[tail.index("#"):].strip() if "#" in tail else ""
            for k in range(node.lineno, node.end_lineno or node.lineno):
                lines[k] = ""
            lines[node.lineno - 1] = "".join(
                f"{n}{FINAL} = {v}{comment if i == 0 else ''}\n"
                for i, (n, v) in enumerate(zip(names, values, strict=True)))
            done += len(names)
    if not done:
        return 0
    out = "".join(lines)
    if not re.search(r"^from typing import [^(\n]*\bFinal\b", out, re.MULTILINE):
        m = re.search(r"^from typing import ([^(\n]*)$", out, re.MULTILINE)
        if m:
            names = sorted({x.strip() for x in m.group(1).split(",")} | {"Final"})
            out = out[:m.start()] + "from typing import " + ", ".join(names) + out[m.end():]
        else:
            m = re.search(r"^from __future__ import annotations\n", out, re.MULTILINE)
            at = m.end() if m else 0
            out = out[:at] + "\nfrom typing import Final\n" + out[at:]
    path.write_text(out, encoding="utf-8")
    return done


def main(argv: list[str]) -> int:
    total = 0
    for name in argv:
        n = annotate(Path(name))
        if n:
            print(f"{name}: {n}")
        total += n
    print(f"{total} constant(s) annotated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
