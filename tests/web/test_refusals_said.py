"""Every refusal the web server raises is said from a declared message, so that it reads
in the request's language: no store error is raised with English written in place (a
string, an f-string or a sum of them). The words that are not the server's own (the
engine's reason for a bad config or a corrupt record, passed on as ``str(e)``) are not
literals and are left alone."""

from __future__ import annotations

import ast
from pathlib import Path

import endeavor.web

WEB = Path(endeavor.web.__file__).parent
KINDS = frozenset({"StoreError", "BadRequest", "Unauthorized", "Forbidden", "NotFound",
                   "Conflict"})


def _written(node: ast.expr) -> bool:
    """Whether ``node`` is words written in place: a string, an f-string, or a sum with
    one of them in it."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _written(node.left) or _written(node.right)
    return False


def english_refusals() -> list[str]:
    out = []
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else None
            if name in KINDS and _written(node.args[0]):
                out.append(f"{path.relative_to(WEB)}:{node.lineno}")
    return out


def test_no_refusal_is_written_in_english_in_place() -> None:
    assert english_refusals() == []


def test_the_check_finds_words_written_in_place(tmp_path: Path) -> None:
    """The check itself: each form of words written in place is found."""
    for source in ('raise Conflict("nothing to undo")', 'raise NotFound(f"no game {g}")',
                   'raise Forbidden("P" + str(seat) + " moves")'):
        call = ast.parse(source).body[0]
        assert isinstance(call, ast.Raise) and isinstance(call.exc, ast.Call)
        assert _written(call.exc.args[0]), source
    for source in ("raise BadRequest(str(e))", 'raise Forbidden(words.render("en"))'):
        call = ast.parse(source).body[0]
        assert isinstance(call, ast.Raise) and isinstance(call.exc, ast.Call)
        assert not _written(call.exc.args[0]), source
