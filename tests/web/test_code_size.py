"""The web app's code stays in pieces one can read: no module of ``src/endeavor/web/``
over :data:`MAX_MODULE_LINES` lines, no function (or method) over
:data:`MAX_FUNCTION_LINES` lines, its decorators and docstring included."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "endeavor" / "web"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80


def _modules() -> list[Path]:
    return sorted(WEB.rglob("*.py"))


def offenders(path: Path, name: str) -> list[str]:
    """What in the module at ``path`` (``name`` in the words) is over the limits."""
    text = path.read_text(encoding="utf-8")
    found = []
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES:
        found.append(f"{name}: {lines} lines (at most {MAX_MODULE_LINES})")
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            size = (node.end_lineno or node.lineno) - first + 1
            if size > MAX_FUNCTION_LINES:
                found.append(f"{name}:{node.lineno}: {node.name} is {size} lines "
                             f"(at most {MAX_FUNCTION_LINES})")
    return found


def test_web_modules_and_functions_are_small() -> None:
    modules = _modules()
    assert len(modules) > 20  # the package is there
    found = [line for path in modules
             for line in offenders(path, path.relative_to(WEB.parent.parent).as_posix())]
    assert not found, "too long:\n" + "\n".join(found)


def test_the_check_sees_a_long_module_and_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    long = tmp_path / "long.py"
    long.write_text(f"def f():\n{body}\n" + "\n" * MAX_MODULE_LINES, encoding="utf-8")
    found = offenders(long, "long.py")
    assert len(found) == 2, found
    assert "lines (at most 400)" in found[0] and "f is 81 lines" in found[1]
