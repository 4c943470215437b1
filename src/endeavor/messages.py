"""Structured messages: what the engine says, as a message id and its arguments, put into
words for a locale and a point of view only when a client asks.

A :class:`Message` is an id declared with :func:`define` (its English text, in the third
person, and where the player concerned reads it otherwise, in the second) and its
arguments: seats (:class:`Seat`), the game's terms (:class:`Term`: a region, a token, a
building...), counted nouns (:class:`Count`), lists (:class:`Items`), other messages,
and plain numbers and codes (``"AF/3"``, ``"EU3"``), which read the same in every
language. :func:`render` puts it into words:

- for a **locale** (``"en"``, the texts declared here; ``"fr"``, the catalog shipped in
  ``endeavor/locale``, read with the standard library's :mod:`gettext`; its ``.po``
  source is kept with Babel, see ``tools/catalog.py``);
- for a **viewer**: the seat that the message is about (its ``seat`` argument) reads the
  second person ("You gain 2 discs"), everyone else the third ("P1 gains 2 discs");
  ``viewer=None`` (spectators, replays, logs) reads the third;
- with the client's **seat names** (``seats``: a function of the seat number; default
  ``P0``..``P4``).

In a catalog the msgctxt of a message is its id (``id/you`` for its second person) and the
msgid its English text, so a translation knows what it translates and an English text
changed in the code shows up as a missing translation. Terms are looked up with their
kind as the context (``region``, ``token``...) and counted nouns with ``count``.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, Final

#: the locales shipped: English (the texts in the code) and French (``endeavor/locale``)
LOCALES: Final = ("en", "fr")
DEFAULT_LOCALE: Final = "en"
#: the gettext domain of the engine's catalog
DOMAIN: Final = "endeavor"

SeatNames = Callable[[int], str]


def seat_code(p: int) -> str:
    """The engine's own name of a seat: ``"P2"``."""
    return f"P{p}"


class Template:
    """A declared message: its id, its English text in the third person and, when the
    player concerned reads it otherwise, in the second (``you``); ``fields`` are the
    placeholders of the text."""

    __slots__ = ("id", "text", "you", "fields")

    def __init__(self, id: str, text: str, you: str | None) -> None:
        self.id = id
        self.text = text
        self.you = you
        self.fields = fields_of(text)
        if you is not None and fields_of(you) - self.fields:
            raise ValueError(f"message {id!r}: its second person names a field its text "
                             f"does not: {sorted(fields_of(you) - self.fields)}")


def fields_of(text: str) -> frozenset[str]:
    """The placeholders of a text: ``"{seat} gains {discs}"`` -> ``{"seat", "discs"}``."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


#: every message declared, by id
MESSAGES: Final[dict[str, Template]] = {}
#: every counted noun declared: its English singular and plural forms
NOUNS: Final[dict[str, tuple[str, str]]] = {}
#: every term declared, by kind: its English words
TERMS: Final[dict[str, list[str]]] = {}


def define(id: str, text: str, you: str | None = None) -> str:
    """Declare message ``id`` (its English third person ``text`` and second person
    ``you``) and return the id. Declaring it again with other words is an error: one id,
    one meaning."""
    old = MESSAGES.get(id)
    if old is not None:
        if old.text != text or old.you != you:
            raise ValueError(f"message {id!r} is already declared with other words")
        return id
    MESSAGES[id] = Template(id, text, you)
    return id


def english_plural(word: str) -> str:
    """``"disc"`` -> ``"discs"``, ``"casualty"`` -> ``"casualties"``."""
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return word[:-1] + "ies"
    return word + "s"


def noun(word: str, plural: str | None = None) -> str:
    """Declare a counted noun (``plural`` when English does not just add an s) and return
    it."""
    NOUNS.setdefault(word, (word, plural or english_plural(word)))
    return word


def term(kind: str, *words: str) -> None:
    """Declare the English ``words`` of a kind of term (``"region"``, ``"token"``...)."""
    known = TERMS.setdefault(kind, [])
    for w in words:
        if w not in known:
            known.append(w)


class Seat:
    """A seat as an argument: named by the client's ``seats`` function, or "you"-ward
    through the message's second person."""

    __slots__ = ("p",)

    def __init__(self, p: int) -> None:
        self.p = p

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seat) and other.p == self.p

    def __hash__(self) -> int:
        return hash(("seat", self.p))

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Seat, (self.p,))

    def __repr__(self) -> str:
        return f"Seat({self.p})"


class Term:
    """A word of the game (``kind``: ``region``, ``region_noun``, ``region_start``,
    ``token``...; ``words``: its English words), translated from the catalog."""

    __slots__ = ("kind", "words")

    def __init__(self, kind: str, words: str) -> None:
        self.kind = kind
        self.words = words

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and (other.kind, other.words) == (self.kind, self.words)

    def __hash__(self) -> int:
        return hash((self.kind, self.words))

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (Term, (self.kind, self.words))

    def __repr__(self) -> str:
        return f"Term({self.kind!r}, {self.words!r})"


class Count:
    """``n`` of a declared noun: ``Count(2, "disc")`` reads "2 discs" ("2 disques")."""

    __slots__ = ("n", "noun")

    def __init__(self, n: int, noun: str) -> None:
        self.n = n
        self.noun = noun

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Count) and (other.n, other.noun) == (self.n, self.noun)

    def __hash__(self) -> int:
        return hash((self.n, self.noun))

    def __reduce__(self) -> tuple[Any, tuple[int, str]]:
        return (Count, (self.n, self.noun))

    def __repr__(self) -> str:
        return f"Count({self.n}, {self.noun!r})"


class Items:
    """Several arguments read as one: joined by ``sep`` (a message id whose text joins
    ``{a}`` and ``{b}``), or the message ``empty`` when there are none."""

    __slots__ = ("items", "sep", "empty")

    def __init__(self, items: tuple[Any, ...], sep: str, empty: str | None = None) -> None:
        self.items = items
        self.sep = sep
        self.empty = empty

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Items) and (other.items, other.sep, other.empty) == (
            self.items, self.sep, self.empty)

    def __hash__(self) -> int:
        return hash((self.items, self.sep, self.empty))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (Items, (self.items, self.sep, self.empty))

    def __repr__(self) -> str:
        return f"Items({self.items!r}, {self.sep!r}, {self.empty!r})"


class Message:
    """Message ``id`` (declared with :func:`define`) with its arguments. Equal messages
    read the same in every locale; :meth:`to_dict` is its JSON form."""

    __slots__ = ("id", "args")

    def __init__(self, id: str, args: Mapping[str, Any]) -> None:
        self.id = id
        self.args = args

    @property
    def template(self) -> Template:
        return MESSAGES[self.id]

    @property
    def subject(self) -> int | None:
        """The seat the message is about (its ``seat`` argument), if any."""
        s = self.args.get("seat")
        return s.p if isinstance(s, Seat) else None

    def render(self, locale: str = DEFAULT_LOCALE, viewer: int | None = None,
               seats: SeatNames | None = None) -> str:
        """In words: see :func:`render`."""
        return render(self, locale, viewer, seats)

    def ids(self) -> set[str]:
        """The ids of this message and of every message nested in its arguments (in
        lists too), e.g. to find which words an option is made of."""
        out = {self.id}
        for v in self.args.values():
            for x in v.items if isinstance(v, Items) else (v,):
                if isinstance(x, Message):
                    out |= x.ids()
        return out

    def to_dict(self) -> dict[str, Any]:
        """``{"id": ..., "args": {...}}``: seats as ``{"seat": p}``, terms as
        ``{"term": kind, "words": ...}``, counts as ``{"count": n, "noun": ...}``,
        lists as ``{"items": [...], "sep": id, "empty": id}``, messages nested."""
        return {"id": self.id, "args": {k: _arg_json(v) for k, v in self.args.items()}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and other.id == self.id and dict(
            other.args) == dict(self.args)

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted(self.args))))

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        return (Message, (self.id, dict(self.args)))

    def __repr__(self) -> str:
        return f"Message({self.id!r}, {dict(self.args)!r})"


def msg(id: str, **args: Any) -> Message:
    """``Message(id, args)``."""
    return Message(id, args)


def _arg_json(v: Any) -> Any:
    if isinstance(v, Seat):
        return {"seat": v.p}
    if isinstance(v, Term):
        return {"term": v.kind, "words": v.words}
    if isinstance(v, Count):
        return {"count": v.n, "noun": v.noun}
    if isinstance(v, Items):
        return {"items": [_arg_json(x) for x in v.items], "sep": v.sep, "empty": v.empty}
    if isinstance(v, Message):
        return v.to_dict()
    return v


def from_dict(d: Mapping[str, Any]) -> Message:
    """The message :meth:`Message.to_dict` wrote (``ValueError`` on an unknown id or a
    malformed argument)."""
    id = d.get("id")
    if not isinstance(id, str) or id not in MESSAGES:
        raise ValueError(f"unknown message id {id!r}")
    args = d.get("args", {})
    if not isinstance(args, dict):
        raise ValueError(f"message {id!r}: its args must be an object")
    return Message(id, {k: _arg_from(v) for k, v in args.items()})


def _arg_from(v: Any) -> Any:
    if isinstance(v, dict):
        if "seat" in v:
            return Seat(int(v["seat"]))
        if "term" in v:
            return Term(str(v["term"]), str(v["words"]))
        if "count" in v:
            return Count(int(v["count"]), str(v["noun"]))
        if "items" in v:
            return Items(tuple(_arg_from(x) for x in v["items"]), str(v["sep"]),
                         v.get("empty"))
        if "id" in v:
            return from_dict(v)
        raise ValueError(f"a malformed message argument: {v!r}")
    if isinstance(v, (int, str)) and not isinstance(v, bool):
        return v
    raise ValueError(f"a malformed message argument: {v!r}")


# ---------------------------------------------------------------------- catalogs
_CATALOGS: dict[str, gettext.NullTranslations] = {}


def catalog(locale: str) -> gettext.NullTranslations:
    """The translations of ``locale`` (English: none, the texts are the code's); a locale
    not shipped is a ``ValueError`` naming those that are."""
    tr = _CATALOGS.get(locale)
    if tr is not None:
        return tr
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}: the engine speaks {', '.join(LOCALES)}")
    if locale == DEFAULT_LOCALE:
        tr = gettext.NullTranslations()
    else:
        path = resources.files("endeavor").joinpath(
            f"locale/{locale}/LC_MESSAGES/{DOMAIN}.mo")
        with path.open("rb") as f:
            tr = gettext.GNUTranslations(f)
    _CATALOGS[locale] = tr
    return tr


def locale_of(accept: str | None) -> str:
    """The shipped locale that best fits an ``Accept-Language`` header or a language tag
    (``"fr-CA,fr;q=0.9,en;q=0.8"`` -> ``"fr"``); English when none fits."""
    if not accept:
        return DEFAULT_LOCALE
    ranked = []
    for i, part in enumerate(accept.split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        ranked.append((-q, i, tag))
    for _, _, tag in sorted(ranked):
        lang = tag.split("-")[0].split("_")[0]
        if lang in LOCALES:
            return lang
    return DEFAULT_LOCALE


# ---------------------------------------------------------------------- rendering
def render(message: Message, locale: str = DEFAULT_LOCALE, viewer: int | None = None,
           seats: SeatNames | None = None) -> str:
    """``message`` in words for ``locale``, read by seat ``viewer`` (None: a spectator,
    a replay, a log), seats named by ``seats`` (default ``P0``..``P4``)."""
    tr = None if locale == DEFAULT_LOCALE else catalog(locale)
    return _render(message, tr, viewer, seats or seat_code)


def _render(m: Message, tr: gettext.NullTranslations | None, viewer: int | None,
            seats: SeatNames) -> str:
    t = MESSAGES[m.id]
    text = t.text
    you = t.you
    if you is not None and viewer is not None:
        s = m.args.get("seat")
        if isinstance(s, Seat) and s.p == viewer:
            text = you
            if tr is not None:
                text = tr.pgettext(m.id + "/you", you)
        elif tr is not None:
            text = tr.pgettext(m.id, text)
    elif tr is not None:
        text = tr.pgettext(m.id, text)
    values = {}
    for k, v in m.args.items():
        values[k] = v if isinstance(v, str) else _word(v, tr, viewer, seats)
    return text.format_map(values)


def _word(v: Any, tr: gettext.NullTranslations | None, viewer: int | None,
          seats: SeatNames) -> str:
    if isinstance(v, Seat):
        return seats(v.p)
    if isinstance(v, Term):
        return v.words if tr is None else tr.pgettext(v.kind, v.words)
    if isinstance(v, Message):
        return _render(v, tr, viewer, seats)
    if isinstance(v, Count):
        one, many = NOUNS[v.noun]
        if tr is None:
            return f"{v.n} {one if v.n == 1 else many}"
        return tr.npgettext("count", "{n} " + one, "{n} " + many, v.n).format(n=v.n)
    if isinstance(v, Items):
        if not v.items:
            return _render(Message(v.empty, {}), tr, viewer, seats) if v.empty else ""
        out = _word(v.items[0], tr, viewer, seats)
        for x in v.items[1:]:
            out = _render(Message(v.sep, {"a": out, "b": _word(x, tr, viewer, seats)}),
                          tr, viewer, seats)
        return out
    return str(v)


# ---------------------------------------------------------------------- shared words
#: list joiners: ``{a}, {b}``, ``{a}; {b}`` and ``{a} and {b}``
COMMA: Final = define("list.comma", "{a}, {b}")
SEMICOLON: Final = define("list.semicolon", "{a}; {b}")
AND: Final = define("list.and", "{a} and {b}")
OR: Final = define("list.or", "{a} or {b}")
