"""The engine's message catalogs (``src/endeavor/locale``), kept with Babel.

- ``python tools/catalog.py update``: writes ``endeavor.pot`` from the messages, terms
  and counted nouns the engine declares (:mod:`endeavor.messages`), merges it into each
  locale's ``.po`` (new entries empty and marked fuzzy, changed English texts fuzzy,
  entries no longer declared dropped), and compiles every ``.po`` into the ``.mo`` the
  engine reads at run time (with the standard library's :mod:`gettext`).
- ``python tools/catalog.py check``: what ``tests/test_messages.py`` checks in
  ``make test``: every entry of the template has a translation in every shipped locale,
  with the same placeholders as the English, none fuzzy, and the ``.mo`` compiled from
  the ``.po`` as it is now.

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


def _load_engine() -> Any:
    """The engine with every rule module imported (each declares its messages)."""
    sys.path.insert(0, str(ROOT / "src"))
    import endeavor.exploits  # noqa: F401
    import endeavor.rules.classic  # noqa: F401
    import endeavor.variants  # noqa: F401
    from endeavor import messages
    return messages


def entries() -> list[tuple[str, str | tuple[str, str]]]:
    """(msgctxt, msgid) of everything the engine can say, in a stable order."""
    m = _load_engine()
    out: list[tuple[str, str | tuple[str, str]]] = []
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


def template() -> Catalog:
    cat = Catalog(domain="endeavor", project="endeavor", fuzzy=False,
                  creation_date=datetime(2026, 12, 2, tzinfo=timezone.utc))
    for ctx, msgid in entries():
        cat.add(msgid, context=ctx)
    return cat


def locales() -> list[str]:
    return sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())


def po_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / "endeavor.po"


def read(locale: str) -> Catalog:
    with po_path(locale).open("rb") as f:
        return read_po(f, locale=locale)


def mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def update() -> None:
    pot = template()
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    with POT.open("wb") as f:
        write_po(f, pot, width=88, omit_header=False, sort_output=False)
    for locale in locales():
        cat = read(locale)
        cat.update(pot, no_fuzzy_matching=True, update_creation_date=False)
        cat.obsolete.clear()
        cat.fuzzy = False  # the header: the .mo needs its plural forms
        with po_path(locale).open("wb") as f:
            write_po(f, cat, width=88, sort_output=False)
        po_path(locale).with_suffix(".mo").write_bytes(mo_bytes(read(locale)))
        print(f"{locale}: {len(cat)} entries, {len(problems(locale))} problem(s)")


def placeholders(text: str) -> frozenset[str]:
    sys.path.insert(0, str(ROOT / "src"))
    from endeavor.messages import fields_of
    return fields_of(text)


def problems(locale: str) -> list[str]:
    """What is wrong with ``locale``'s catalog, one line each (nothing: it is complete)."""
    cat = read(locale)
    out = []
    for ctx, msgid in entries():
        key: Any = msgid if isinstance(msgid, str) else msgid[0]
        m = cat.get(key, context=ctx)
        name = f"{ctx}: {key!r}"
        if m is None:
            out.append(f"{name}: no entry")
            continue
        strings = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]
        if m.fuzzy or not all(strings):
            out.append(f"{name}: not translated" + (" (fuzzy)" if m.fuzzy else ""))
            continue
        english = placeholders(key if isinstance(msgid, str) else msgid[0])
        for s in strings:
            if placeholders(s) != english:
                out.append(f"{name}: placeholders {sorted(placeholders(s))} in {s!r}, "
                           f"not {sorted(english)}")
    mo = po_path(locale).with_suffix(".mo")
    if not mo.is_file() or mo.read_bytes() != mo_bytes(cat):
        out.append(f"{mo.relative_to(ROOT)} is not compiled from the .po as it is: run "
                   "python tools/catalog.py update")
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
