"""Which words on a French page are English: a check against the catalogs.

A word is *English* when the English catalogs use it (the front end's ``i18n/en.json``,
the engine's template ``endeavor.pot``, and the string literals of the front end's
modules and of the server's and the reviews' Python, where a word left untranslated
would hide) and the French catalogs never do (``i18n/fr.json`` and
the ``.po`` parts' translations). Proper names (the board's cities and trade routes, the
game's name, the seats' names a test gives) are not words of either language, and a few
short words are both (``on``, ``fin``...): words of fewer than three letters are left out.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import endeavor
from endeavor.data import SITES

PACKAGE = Path(endeavor.__file__).resolve().parent
STATIC = PACKAGE / "web" / "static"
LOCALE = PACKAGE / "locale"

#: a word: letters (accented ones too), apostrophes inside
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœ]+(?:['’][A-Za-zÀ-ÖØ-öø-ÿŒœ]+)*")
#: placeholders and markup in catalog texts: not words
PLACEHOLDER = re.compile(r"\{[^}]*\}|<[^>]*>|%\([a-z_]+\)[sd]")


def words(text: str) -> set[str]:
    """The words of ``text`` (three letters or more), lower case, without placeholders."""
    return {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text)) if len(w) >= 3}


def _po_texts(path: Path, key: str) -> Iterable[str]:
    """The ``msgid``/``msgid_plural`` (key "msgid") or ``msgstr[...]`` (key "msgstr")
    strings of a ``.po``/``.pot`` file, continuation lines joined."""
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        if line.startswith('"') and current is not None:
            current.append(json.loads(line))
            continue
        if current is not None:
            yield "".join(current)
            current = None
        head, _, rest = line.partition(" ")
        if head.startswith(key) and rest.startswith('"'):
            current = [json.loads(rest)]


#: string literals in the front end's modules (double or single quoted, or template
#: literals without substitutions' code)
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')


def _front_end_literals() -> Iterable[str]:
    for module in sorted(STATIC.glob("*.js")):
        for m in LITERAL.finditer(module.read_text(encoding="utf-8")):
            text = next(g for g in m.groups() if g is not None)
            # prose only: a literal with a space and no code-ish characters
            if " " in text and not re.search(r"[=;(){}\[\]<>$#.:/]\S", text):
                yield text


def _python_literals() -> Iterable[str]:
    """The prose string constants (not docstrings) of the web server's and the
    reviews' modules."""
    for folder in (PACKAGE / "web", PACKAGE / "analysis"):
        for module in sorted(folder.rglob("*.py")):
            tree = ast.parse(module.read_text(encoding="utf-8"))
            docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                          if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                               ast.AsyncFunctionDef))
                          and node.body and isinstance(node.body[0], ast.Expr)
                          and isinstance(node.body[0].value, ast.Constant)}
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                        and id(node) not in docstrings and " " in node.value):
                    yield node.value


@cache
def french_vocabulary() -> frozenset[str]:
    found: set[str] = set()
    for text in json.loads((STATIC / "i18n" / "fr.json").read_text(encoding="utf-8")).values():
        found |= words(text)
    for part in sorted((LOCALE / "fr" / "parts").glob("*.po")):
        for text in _po_texts(part, "msgstr"):
            found |= words(text)
    return frozenset(found)


@cache
def english_vocabulary() -> frozenset[str]:
    found: set[str] = set()
    for text in json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8")).values():
        found |= words(text)
    for text in _po_texts(LOCALE / "endeavor.pot", "msgid"):
        found |= words(text)
    for text in _front_end_literals():
        found |= words(text)
    for text in _python_literals():
        found |= words(text)
    return frozenset(found)


@cache
def proper_names() -> frozenset[str]:
    """The board's places and the game's name: the same in every language."""
    found = {"endeavor", "age", "sail"}
    for site in SITES:
        found |= words(site.name)
    return frozenset(found)


def english_in(text: str, also_proper: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` (sorted), outside proper names."""
    allowed = french_vocabulary() | proper_names()
    for name in also_proper:
        allowed |= words(name)
    return sorted((words(text) & english_vocabulary()) - allowed)
