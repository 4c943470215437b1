"""Refusals as messages: the reason an illegal action is refused for (the rule areas'
``why_not``) and what the decision asks are structured messages, read in English word for
word as the engine always said them and in French with no English left.

A seeded sweep plays random games (every ruleset, board side, Exploits, the Silent Fleet
and its optional rules) and, at sampled decisions, tries many actions that are not legal
there. The English errors are compared with ``fixtures/refusals.json``, recorded from the
engine when the reasons were still English strings (``python tests/test_messages_refusals.py
--record`` writes it again: only when an English refusal is meant to change)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from endeavor import GameConfig, new_game
from endeavor import actions as A
from endeavor import data as D
from endeavor import testing as T
from endeavor.errors import IllegalActionError
from endeavor.messages import Message
from endeavor.rules.module import M_MISSIONARY
from endeavor.state import State

FIXTURE = Path(__file__).parent / "fixtures" / "refusals.json"

FLEET = {"silent_fleet": True, "limited_occupation": True, "no_token_reaction": True,
         "building_shortage": True}

#: the games swept: (config, every how many decisions a position is sampled)
GAMES: list[tuple[dict[str, Any], int]] = [
    *(({"players": n, "seed": 100 + n}, 4) for n in (2, 3, 4, 5)),
    ({"players": 4, "seed": 7, "board": "B"}, 4),
    ({"players": 4, "seed": 8, "options": {"plus_same_region": True}}, 4),
    *(({"players": 3 + g % 3, "seed": 200 + g, "exploits": "random"}, 3) for g in range(8)),
    *(({"players": 3 + g % 3, "seed": 300 + g, "ruleset": "classic"}, 4) for g in range(3)),
    ({"players": 2, "seed": 401, "options": FLEET}, 3),
    ({"players": 2, "seed": 402, "options": {"silent_fleet": True}, "board": "B"}, 3),
    ({"players": 2, "seed": 403, "options": FLEET, "exploits": "random"}, 3),
]

#: illegal actions tried at each sampled position: of a verb the decision takes, of any
PER_SAMPLE_NEAR = 120
PER_SAMPLE_ANY = 16

#: English words no French refusal may keep (the names of places stay as printed)
ENGLISH = frozenset({
    "the", "you", "your", "is", "not", "no", "has", "have", "need", "needs", "already",
    "only", "must", "open", "track", "Harbor", "worker", "building", "deck", "card",
    "with", "time", "make", "choose", "decision", "left", "supply", "level", "presence",
    "below", "unoccupied", "yours", "nothing", "allows", "hold", "Shield", "dormant",
    "both", "protects", "never", "board", "side", "sea", "routes", "discarded", "empty",
    "top", "staffed", "token", "carried", "now", "it", "its",
    "casualty", "casualties", "Attacked", "Occupied", "declined", "game", "this", "that",
})


#: words an English refusal and its French share rightly: French words spelt the same, and
#: the names of Exploits that keep a word ("Transit", "Main")
SAME_IN_FRENCH = frozenset({"a", "action", "actions", "source", "Exploit", "pile", "normal",
                            "type", "Europe", "Transit", "Main"})
#: the names of places, printed in English on the board: the same in every language
PLACES = frozenset(w for site in D.SITES for w in re.findall(r"[^\W\d_]+", site.name))


def _words(text: str) -> set[str]:
    """The words of a text but the notation's (quoted) and the codes (``AF/3``, ``EU3``,
    ``R8``: capitals)."""
    text = re.sub(r"«[^»]*»|'[a-z-]+(?: [A-Z]{2})?'", "", text)
    return {w for w in re.findall(r"[^\W\d_]+", text) if not w.isupper()}


#: the English error, its message and the seat it is said to
Refusal = tuple[str, Message | None, int | None]


def _refusals(cfg: dict[str, Any], every: int) -> list[Refusal]:
    """Each illegal action tried in one game, refused."""
    s = new_game(GameConfig(**cfg))
    r = random.Random(json.dumps(cfg, sort_keys=True))
    out: list[Refusal] = []
    all_codes = sorted(A.BY_CODE)
    step = 0
    while not s.is_over:
        legal = s.legal_actions()
        if step % every == every - 1:
            codes = {a.code for a in legal}
            verbs = {a.verb for a in legal} | {A.V_SHIP, A.V_OCCUPY, A.V_ATTACK, A.V_DRAW}
            near = [c for c in all_codes if c not in codes and A.BY_CODE[c].verb in verbs]
            far = [c for c in all_codes if c not in codes and A.BY_CODE[c].verb not in verbs]
            tried = r.sample(near, min(PER_SAMPLE_NEAR, len(near))) + r.sample(
                far, min(PER_SAMPLE_ANY, len(far)))
            for c in tried:
                with pytest.raises(IllegalActionError) as e:
                    s.apply(A.BY_CODE[c])
                out.append((str(e.value), e.value.message, e.value.viewer))
        step += 1
        # ship more often than at random, so that regions open and Exploits wake up
        ships = [a for a in legal if a.verb in (A.V_SHIP, A.V_ACT)]
        pick = r.choice(ships) if ships and r.random() < 0.4 else r.choice(legal)
        s.apply(pick)
    return out


def _reason(m: Message | None) -> Any:
    return None if m is None else m.args.get("reason")


def _english(reason: Any, viewer: int | None) -> str:
    if reason is None:
        return ""
    return reason if isinstance(reason, str) else reason.render(viewer=viewer)


def record() -> dict[str, Any]:
    """What the fixture holds: a digest of every English error in order, and the distinct
    English reasons."""
    digest = hashlib.sha256()
    reasons: set[str] = set()
    n = 0
    for cfg, every in GAMES:
        for text, m, viewer in _refusals(cfg, every):
            digest.update(text.encode() + b"\n")
            reasons.add(_english(_reason(m), viewer))
            n += 1
    return {"refusals": n, "digest": digest.hexdigest(), "reasons": sorted(reasons)}


@pytest.fixture(scope="module")
def swept() -> list[Refusal]:
    return [x for cfg, every in GAMES for x in _refusals(cfg, every)]


def test_the_english_refusals_read_as_they_always_did(swept: list[Refusal]) -> None:
    want = json.loads(FIXTURE.read_text(encoding="utf-8"))
    reasons = sorted({_english(_reason(m), viewer) for _, m, viewer in swept})
    assert len(swept) == want["refusals"]
    assert sorted(set(reasons) - set(want["reasons"])) == []
    assert sorted(set(want["reasons"]) - set(reasons)) == []
    digest = hashlib.sha256()
    for text, _, _ in swept:
        digest.update(text.encode() + b"\n")
    assert digest.hexdigest() == want["digest"]


def test_every_refusal_is_a_message(swept: list[Refusal]) -> None:
    assert len(swept) > 5000
    for text, m, viewer in swept:
        assert isinstance(m, Message), text
        assert m.render(viewer=viewer) == text
        reason = _reason(m)
        assert reason is None or isinstance(reason, Message), text
        assert isinstance(m.args.get("asks", Message("list.and", {})), Message), text


def test_the_french_refusals_keep_no_english(swept: list[Refusal]) -> None:
    seen: set[str] = set()
    for _, m, viewer in swept:
        assert m is not None
        reason = _reason(m)
        parts = [m.args["asks"]] if "asks" in m.args else []
        if isinstance(reason, Message):
            parts.append(reason)
        for part in parts:
            english = part.render(viewer=viewer)
            for reader in (viewer, None):
                fr = part.render("fr", viewer=reader)
                if fr in seen:
                    continue
                seen.add(fr)
                assert "{" not in fr, fr
                assert fr != english, fr
                # a verb of the notation, quoted, is a code: the same in every language
                words = _words(fr) & ENGLISH
                assert not words, f"{sorted(words)} in {fr!r} ({english!r})"
                # and no word of the English left, but places and words French spells alike
                kept = _words(fr) & _words(english) - PLACES - SAME_IN_FRENCH
                assert not kept, f"{sorted(kept)} kept in {fr!r} ({english!r})"
    assert len(seen) > 100



# --------------------------------------------------------------------------- rare reasons
def _attack_frame(harbor: int, exploits: tuple[str, ...] = ()) -> State:
    """P0 has activated a Barracks (an Attack to carry out) with ``harbor`` discs left;
    P1 holds Cadiz."""
    s = T.fresh(4, exploits=exploits)
    T.place(s, 1, "EU3")
    T.ready_to_act(s, 0, 3, "barracks")
    s.apply("act barracks")
    T.set_harbor(s, 0, harbor)
    return s


def _missionary() -> State:
    s = _attack_frame(2, ("jesuit_missionaries",))  # (a mark counts with an Exploit in play)
    T.mark_site(s, "EU3", M_MISSIONARY)
    return s


def _level5() -> State:
    s = T.fresh(4)
    d = s.decision()
    assert d is not None
    T.give_building(s, d.player, "museum")
    return s


def _no_disc() -> State:
    s = T.fresh(4)
    T.ready_to_act(s, 0, 0)
    return s


RARE: list[tuple[Callable[[], State], str, str]] = [
    (lambda: _attack_frame(1), "attack EU3",
     "attacking EU3 (Cadiz) needs 2 discs in your Harbor (1 casualty + 1 to occupy)"),
    (_missionary, "attack EU3", "a Missionary protects EU3 (Cadiz): it may never be Attacked"),
    (_level5, "build memorial", "you already have a level-5 building"),
    (_no_disc, "act shipyard", "you have no disc in your Harbor"),
]


@pytest.mark.parametrize("k", range(len(RARE)))
def test_a_rare_refusal_reads_as_before_and_in_french(k: int) -> None:
    build, action, english = RARE[k]
    s = build()
    with pytest.raises(IllegalActionError) as e:
        s.apply(action)
    m = e.value.message
    assert m is not None
    reason = m.args["reason"]
    assert isinstance(reason, Message)
    assert reason.render(viewer=e.value.viewer) == english
    assert f" is illegal: {english}; player " in str(e.value)
    fr = reason.render("fr", viewer=e.value.viewer)
    assert fr != english
    assert not set(re.findall(r"[^\W\d_]+", fr)) & ENGLISH, fr
    assert english not in m.render("fr", viewer=e.value.viewer)


def test_an_unknown_action_code_is_refused_in_words_of_every_language() -> None:
    s = new_game(GameConfig(players=3, seed=1))
    code = max(A.BY_CODE) + 1
    with pytest.raises(IllegalActionError) as e:
        s.apply_code(code)
    assert str(e.value) == f"unknown action code {code}"
    m = e.value.message
    assert m is not None
    assert m.render("fr") == f"code d'action inconnu : {code}"

if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_messages_refusals.py --record")
    FIXTURE.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    print(f"wrote {FIXTURE}")
