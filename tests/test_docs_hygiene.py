"""Code, tests and documentation say what they mean in words: no tracker numbers
("issue" and a number), no section signs, no commit hashes and no names of documents
kept outside this repository (the style guide, the developers' notes, the shared
rulings and component listing). Rulings are cited by their ids (R12, P35), which are
fine. Colours (``#1d3b53``) and numbers are not hashes."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ["src", "docs", "tests", "tools", "README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
BINARY = {".png", ".jpg", ".gif", ".ico", ".npz", ".woff", ".woff2", ".db"}

# each written so that this file does not match itself (and the planted examples below are
# split into pieces for the same reason)
RULES = [
    ("a tracker number", re.compile(r"\b[Ii]ssue #?[0-9]")),
    ("a section sign", re.compile("\u00a7")),
    ("a commit hash",
     re.compile(r"(?<![#\w])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")),
    ("the style guide's name", re.compile(r"\bSTYL[E] [0-9]")),
    ("an outside document's name",
     re.compile(r"DEVELOPER[S]\.md|RULING[S]\.md|COMPONENT[S]\b|\.\./share[d]/")),
]


def problems(text: str) -> list[tuple[int, str, str]]:
    """(line number, what, the line) for each reference in ``text``."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, rule in RULES:
            if rule.search(line):
                found.append((number, what, line.strip()))
    return found


def _files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z", *SCANNED], cwd=ROOT, check=True,
                                capture_output=True).stdout.decode().split("\0")
        paths = [ROOT / p for p in listed if p]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the tree
        paths = [p for name in SCANNED for p in
                 ([ROOT / name] if (ROOT / name).is_file() else (ROOT / name).rglob("*"))]
    return [p for p in paths if p.is_file() and p.suffix not in BINARY]


def test_no_references_where_words_belong() -> None:
    found = []
    for path in _files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(ROOT)}:{n}: {what}: {line[:100]}"
                  for n, what, line in problems(text)]
    assert not found, "say it in words:\n" + "\n".join(found)


@pytest.mark.parametrize("line", [
    "Post-game review (iss" "ue 18): every decision",
    "see Iss" "ue 7 for the rest",
    "the rule in \u00a76 of the rulebook",
    "measured against 3bf5" "fe2, side by side",
    "the commit before (b96c" "2e8)",
    "things that must never drift apart (STYL" "E 16)",
    "from ``shared/data/COMPONENT" "S.md``",
    "as ../share" "d/RULING" "S.md says",
    "see DEVELOPER" "S.md",
])
def test_each_kind_of_reference_is_found(line: str) -> None:
    assert problems(line), line


@pytest.mark.parametrize("line", [
    "a host entry: ``reissue 2``, ``bot 2 medium``",
    "color: #1d3b53; background: #ffffff14;",
    "at most 10000000 iterations; seed 9223372036854775807",
    "ruling P35 and R12; the facade of a decade",
])
def test_words_and_numbers_pass(line: str) -> None:
    assert not problems(line), line
