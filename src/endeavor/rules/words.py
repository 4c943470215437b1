"""Shared wording for decisions and events: players, tokens, cards, sites, icons."""

from __future__ import annotations

from .. import data as D


def word_player(p: int) -> str:
    """``"P2"``."""
    return f"P{p}"


def icons_words(icons: tuple[int, int, int, int], glory: int = 0) -> str:
    """``(0, 2, 0, 1)``, glory 1 -> ``"+2 Culture, +1 Influence, 1 glory"``."""
    parts = [f"+{icons[k]} {D.ATTRIBUTES[k].capitalize()}" for k in range(4) if icons[k]]
    if glory:
        parts.append(f"{glory} glory")
    return ", ".join(parts) or "nothing"


def token_words(t: int) -> str:
    """``"a Culture token"``, ``"an Influence token"``, ``"a Ship/Draw token"``."""
    name = D.TOKEN_NAMES[t]
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} token"


def card_words(c: int) -> str:
    """``"AF/3 (+2 Wealth, +2 Influence)"``."""
    card = D.CARDS[c]
    return f"{card.code} ({icons_words(card.icons, card.glory)})"


def site_words(x: int) -> str:
    """``"EU3 (Cadiz)"``."""
    site = D.SITES[x]
    return f"{site.code} ({site.name})"


def plural(k: int, word: str) -> str:
    """``plural(1, "disc")`` -> ``"1 disc"``, ``plural(2, "disc")`` -> ``"2 discs"``,
    ``plural(2, "casualty")`` -> ``"2 casualties"``."""
    if k == 1:
        return f"{k} {word}"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return f"{k} {word[:-1]}ies"
    return f"{k} {word}s"
