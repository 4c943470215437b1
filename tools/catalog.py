"""The engine's message catalogs (``src/endeavor/locale``), kept with Babel.

- ``python tools/catalog.py update``: writes ``endeavor.pot`` from the messages, terms
  and counted nouns the engine declares (:mod:`endeavor.messages`), merges it into each
  locale's ``.po`` parts (new entries come in untranslated, entries no longer declared
  are dropped), and compiles the parts into the one ``.mo`` the engine reads at run
  time (with the standard library's :mod:`gettext`).
- ``python tools/catalog.py check``: what ``tests/test_messages.py`` checks in
  ``make test``: every entry of the template has a translation in every shipped locale,
  with the same placeholders as the English, and the ``.mo`` is compiled from the parts
  as they are.

A locale's translations live in parts, one ``.po`` file each under
``src/endeavor/locale/<locale>/parts/``, so that a rule module's words are translated in
a file of its own: a message goes to the part its id starts with (``salary.prompt`` to
``salary.po``; a rule module's ids start with the module's id: ``silent_fleet.ship`` in
``silent_fleet.po``), the game's terms and counted nouns to ``terms.po``.

In a catalog, a message's msgctxt is its id (``id/you`` for its second person) and its
msgid the English text; a term's msgctxt is its kind (``region``, ``token``...) and a
counted noun's is ``count`` (a plural entry ``{n} disc`` / ``{n} discs``).
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "src" / "endeavor" / "locale"
POT = LOCALE_DIR / "endeavor.pot"
#: every catalog's creation date: a fixed one, so that an update changes only entries
CREATED = datetime(2026, 12, 2, tzinfo=timezone.utc)

Entry = tuple[str, "str | tuple[str, str]"]


def _load_engine() -> Any:
    """The engine with every rule module imported (each declares its messages)."""
    src = str(ROOT / "src")
    if src not in sys.path:
        sys.path.insert(0, src)
    import endeavor.exploits  # noqa: F401
    import endeavor.rules.classic  # noqa: F401
    import endeavor.terminal.words  # noqa: F401  (the terminal's own words; no Rich)
    import endeavor.variants  # noqa: F401
    import endeavor.web.view  # noqa: F401  (the web's own sentences; no web libraries)
    import endeavor.web.guide  # noqa: F401  (How to play's tables)
    from endeavor import messages
    return messages


def entries() -> list[Entry]:
    """(msgctxt, msgid) of everything the engine can say, in a stable order."""
    m = _load_engine()
    out: list[Entry] = []
    for id, t in sorted(m.MESSAGES.items()):
        out.append((id, t.text))
        if t.you is not None:
            out.append((id + "/you", t.you))
    for kind in sorted(m.TERMS):
        for words in m.TERMS[kind]:
            out.append((kind, words))
    for one, many in sorted(m.NOUNS.values()):
        out.append(("count", ("{n} " + one, "{n} " + many)))
    return out


def part_of(ctx: str) -> str:
    """The part (file name without ``.po``) an entry of context ``ctx`` belongs to."""
    m = _load_engine()
    if ctx == "count" or ctx in m.TERMS:
        return "terms"
    return ctx.split("/")[0].split(".")[0]


def _catalog(locale: str | None) -> Catalog:
    return Catalog(locale=locale, domain="endeavor", project="endeavor", fuzzy=False,
                   creation_date=CREATED, revision_date=CREATED)


def template() -> Catalog:
    cat = _catalog(None)
    for ctx, msgid in entries():
        cat.add(msgid, context=ctx)
    return cat


def locales() -> list[str]:
    return sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "parts").is_dir())


def parts_dir(locale: str) -> Path:
    return LOCALE_DIR / locale / "parts"


def mo_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / "endeavor.mo"


def read(locale: str) -> Catalog:
    """Every part of ``locale`` as one catalog."""
    whole = _catalog(locale)
    for path in sorted(parts_dir(locale).glob("*.po")):
        with path.open("rb") as f:
            part = read_po(f, locale=locale)
        for m in part:
            if m.id:
                whole[m.id] = m
    return whole


def mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def update() -> None:
    pot = template()
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    with POT.open("wb") as f:
        write_po(f, pot, width=88, sort_output=False)
    for locale in locales():
        old = read(locale)
        parts: dict[str, Catalog] = {}
        for ctx, msgid in entries():
            key: Any = msgid
            known = old.get(msgid if isinstance(msgid, str) else msgid[0], context=ctx)
            part = parts.setdefault(part_of(ctx), _catalog(locale))
            string: Any = known.string if known is not None and known.id == key else (
                "" if isinstance(msgid, str) else ("",) * part.num_plurals)
            part.add(key, string, context=ctx)
        for path in parts_dir(locale).glob("*.po"):
            if path.stem not in parts:
                path.unlink()
        for name, part in parts.items():
            with (parts_dir(locale) / f"{name}.po").open("wb") as f:
                write_po(f, part, width=88, sort_output=False)
        mo_path(locale).parent.mkdir(parents=True, exist_ok=True)
        mo_path(locale).write_bytes(mo_bytes(read(locale)))
        print(f"{locale}: {len(read(locale))} entries in {len(parts)} parts, "
              f"{len(problems(locale))} problem(s)")


def placeholders(text: str) -> frozenset[str]:
    return _load_engine().fields_of(text)


def problems(locale: str) -> list[str]:
    """What is wrong with ``locale``'s catalog, one line each (nothing: it is complete)."""
    cat = read(locale)
    out = []
    for ctx, msgid in entries():
        key: Any = msgid if isinstance(msgid, str) else msgid[0]
        m = cat.get(key, context=ctx)
        name = f"{part_of(ctx)}.po, {ctx}: {key!r}"
        if m is None:
            out.append(f"{name}: no entry")
            continue
        strings = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]
        if m.fuzzy or not all(strings):
            out.append(f"{name}: not translated" + (" (fuzzy)" if m.fuzzy else ""))
            continue
        english = placeholders(key)
        for s in strings:
            if placeholders(s) != english:
                out.append(f"{name}: placeholders {sorted(placeholders(s))} in {s!r}, "
                           f"not {sorted(english)}")
    mo = mo_path(locale)
    if not mo.is_file() or mo.read_bytes() != mo_bytes(cat):
        out.append(f"{mo.relative_to(ROOT)} is not compiled from the parts as they are: "
                   "run python tools/catalog.py update")
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        update()
        return 0
    if argv[:1] == ["check"]:
        bad = [f"{loc}: {p}" for loc in locales() for p in problems(loc)]
        print("\n".join(bad) or "every message has a text in every locale")
        return 1 if bad else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
