"""The Silent Fleet: the 2-player variant of Age of Sail (R21, R22; rulebook fr,
"La variante à 2 joueurs « Flotte silencieuse »"; rulings P80-P90).

An unused colour's 35 discs form a neutral fleet (the neutral owner ``s.n``, whose
supply is ``s.neutral_supply``). Once after each of a player's turns, every decision of the
turn resolved (P17, P80), it reacts to the action the turn carried out; the acting
player makes its choices as ordinary legal actions:

* a turn that carried out several action kinds (a ``+`` building, a follow-up) first
  picks the one that triggers it (``fleet react ship``); a pass causes nothing;
* Ship: a fleet disc on the next free space of any track (a closed region's) or on a
  free trade route in Europe or an open region (``fleet ship FE`` / ``fleet ship
  EUT1``); the space's Trade token leaves the game; a Governor it wins leaves the game
  (R11, P81);
* Occupy: a fleet disc on an unoccupied city in Europe or in an open region where the
  fleet has presence (``fleet occupy EU3``); the token leaves the game; it never
  controls a link (P82);
* Draw: the top card of a deck where the fleet's presence meets the card's Draw Value
  leaves the game (``fleet draw AF``); the Europe 5 card abolishes Slavery (R17, P83);
* Attack, Payment: nothing.

No possible target: nothing; exactly one: applied at once; several: the acting player
chooses (P84). Every reaction raises a ``fleet`` event in words. Exploit abilities
count as the action kind they answer. The fleet never scores, holds no Shield, and is
never a seat; its discs can be attacked like an opponent's (P86).

Optional rules (config flags, R22): ``limited_occupation`` (its Occupy only in a region
where the player just occupied a city, P88), ``no_token_reaction`` (no reaction to a
turn played with a blue Action token, P89), ``building_shortage`` (at the start of each
round the player without the Crown discards a building from the supply,
``shortage discard theater``, P90).

Module data ``module_data[i]``: ``[regions where the acting player occupied a city this turn
(bitmask), 1 while the turn was started with a blue token, Trade tokens the fleet sent
out of the game, cards its Draws discarded, copies discarded by the building shortage
per building type x19, cities each seat holds per region x7n (as of the last action,
limited occupation only)]``.

Steps: ``STEP_REACT`` (``a`` the kinds performed, ``b`` the occupied regions):
which action triggers the reaction; ``STEP_SHIP`` / ``STEP_OCCUPY`` / ``STEP_DRAW``
(``a`` the occupied regions): where the reaction goes; ``STEP_SHORTAGE``: the
building discarded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import api

if TYPE_CHECKING:
    from ..state import State

REACT: Final = 0
TRACK: Final = 1
ROUTE: Final = 2
OCCUPY: Final = 3
DRAW: Final = 4
SHORTAGE: Final = 5
STEP_REACT: Final = 0
STEP_SHIP: Final = 1
STEP_OCCUPY: Final = 2
STEP_DRAW: Final = 3
STEP_SHORTAGE: Final = 4
#: the step asking where the reaction to each action kind goes (-1: it does nothing)
STEP_OF: Final = {api.SHIP: STEP_SHIP, api.OCCUPY: STEP_OCCUPY, api.DRAW: STEP_DRAW}
KIND_OF: Final = {v: k for k, v in STEP_OF.items()}
# data offsets
OCC: Final = 0
TOKEN: Final = 1
TOKENS_OUT: Final = 2
CARDS_OUT: Final = 3
BLD: Final = 4
NB: Final = len(api.BUILDINGS)
CITIES: Final = BLD + NB
NKINDS: Final = len(api.KIND_NAMES)
_SITE_REGION: Final = tuple(x.region for x in api.SITES)
_SITE_CITY: Final = tuple(x.city for x in api.SITES)
_CARD_VALUE: Final = tuple(c.value for c in api.CARDS)
_LEVEL: Final = tuple(b.level for b in api.BUILDINGS)
_EUROPE_DECKS: Final = (api.EU_DECK, api.SLAVERY_DECK)
FLEET: Final = "The Silent Fleet"
_SHIFT: Final = api.SHIFT
_ARG: Final = api.ARG
_V_SHIP: Final = api.V_SHIP
_V_ROUTE: Final = api.V_ROUTE
_ANY_REGION: Final = (-1,)


def _bits(mask: int) -> list[int]:
    return [k for k in range(8) if mask >> k & 1]


def _regions_message(mask: int) -> api.Items:
    return api.Items(tuple(api.region_term(r) for r in _bits(mask)), api.OR)


#: the fleet at a sentence's start
_FLEET: Final = api.Term("module", FLEET)
_M = api.define_message
NO_TOKEN_REACTION: Final = _M(
    "silent_fleet.token_turn",
    "{fleet} does not react: the turn was played with a blue Action token "
    "(no token reaction, R22, P89)")
NOTHING_TO_DO: Final = _M(
    "silent_fleet.nothing_to_do",
    "{fleet} could react to {seat}'s {actions}, but none of them gives it "
    "anything to do: nothing happens (P84)",
    you="{fleet} could react to your {actions}, but none of them gives it anything to do: "
    "nothing happens (P84)")
NO_SHORTAGE: Final = _M(
    "silent_fleet.shortage.none",
    "Building shortage: no building of level {level} or lower is left in "
    "the supply, so {seat} discards nothing (P90)",
    you="Building shortage: no building of level {level} or lower is left in the supply, so "
    "you discard nothing (P90)")
SHORTAGE_DISCARD: Final = _M(
    "silent_fleet.shortage", "Building shortage: {seat} (without the Crown) discards a {building} "
    "(level {level}) from the supply; it leaves the game (R22, P90)",
    you="Building shortage: you (without the Crown) discard a {building} (level {level}) from "
    "the supply; it leaves the game (R22, P90)")
IDLE: Final = _M("silent_fleet.idle", "{fleet} does nothing after {action} (R21)")
NO_TARGET: Final = _M(
    "silent_fleet.no_target",
    "{fleet} reacts to {seat}'s {action} but {reason}: nothing happens (P84)",
    you="{fleet} reacts to your {action} but {reason}: nothing happens (P84)")
NO_CARD: Final = _M("silent_fleet.no_target.draw",
                    "no deck's top card is within its presence")
NO_SUPPLY: Final = _M("silent_fleet.no_target.supply", "its supply is empty (P85)")
NO_SPACE: Final = _M("silent_fleet.no_target.ship",
                     "there is no free track space or trade route")
NO_CITY_IN: Final = _M("silent_fleet.no_target.occupy_in",
                       "there is no city it may occupy in {regions} (limited occupation, P88)")
NO_OCCUPATION: Final = _M("silent_fleet.no_target.no_occupation",
                          "{seat} occupied no city of the map (limited occupation, P88)",
                          you="you occupied no city of the map (limited occupation, P88)")
NO_CITY: Final = _M("silent_fleet.no_target.occupy",
                    "there is no unoccupied city in Europe or in an open region where it is "
                    "present")
SHIPS: Final = _M("silent_fleet.ship",
                  "{fleet} ships to the {region} track, space {space} of {length}{token_out}")
ROUTE_TO: Final = _M("silent_fleet.route", "{fleet} ships to the trade route {site}{token_out}")
OCCUPIES: Final = _M("silent_fleet.occupy", "{fleet} occupies {site}{token_out}")
TOKEN_OUT: Final = _M("silent_fleet.token_out", "; the {token} token there leaves the game")
DISCARDS: Final = _M("silent_fleet.draw",
                     "{fleet} discards the top card of the {deck} deck, {card}: it leaves the "
                     "game")
# ---------------------------------------------------------------------- prompts and options
PROMPT_REACT: Final = _M(
    "silent_fleet.prompt.react",
    "{fleet} reacts once to {seat}'s turn: {seat} chooses which of their actions triggers it "
    "({actions})",
    you="{fleet} reacts once to your turn: choose which of your actions triggers it ({actions})")
PROMPT_SHIP: Final = _M(
    "silent_fleet.prompt.ship",
    "{fleet} reacts to {seat}'s Ship: {seat} chooses where its disc goes (a track space or a "
    "free trade route; the Trade token there leaves the game)",
    you="{fleet} reacts to your Ship: choose where its disc goes (a track space or a free "
    "trade route; the Trade token there leaves the game)")
PROMPT_OCCUPY: Final = _M(
    "silent_fleet.prompt.occupy",
    "{fleet} reacts to {seat}'s Occupy: {seat} chooses the city its disc occupies{where} (its "
    "Trade token leaves the game)",
    you="{fleet} reacts to your Occupy: choose the city its disc occupies{where} (its Trade "
    "token leaves the game)")
PROMPT_OCCUPY_IN: Final = _M("silent_fleet.prompt.occupy.in", " in {regions}")
PROMPT_DRAW: Final = _M(
    "silent_fleet.prompt.draw",
    "{fleet} reacts to {seat}'s Draw: {seat} chooses the deck whose top card leaves the game",
    you="{fleet} reacts to your Draw: choose the deck whose top card leaves the game")
PROMPT_SHORTAGE: Final = _M(
    "silent_fleet.prompt.shortage",
    "Building shortage (Silent Fleet, R22): {seat} does not hold the Crown, so they discard a "
    "building of level {level} or lower (their Build Level) from the supply; it leaves the game",
    you="Building shortage (Silent Fleet, R22): you do not hold the Crown, so discard a "
    "building of level {level} or lower (your Build Level) from the supply; it leaves the game")
REACT_HEAD: Final = _M("silent_fleet.react", "Their {action} triggers it: {rest}",
                       you="Your {action} triggers it: {rest}")
REACT_IDLE: Final = _M("silent_fleet.react.idle", "the fleet does nothing")
REACT_NOTHING: Final = _M("silent_fleet.react.nothing", "nothing happens ({why})")
REACT_DECKS: Final = _M("silent_fleet.react.decks", "they then choose among {n} decks",
                        you="you then choose among {n} decks")
REACT_PLACES: Final = _M("silent_fleet.react.places", "they then choose among {n} places",
                         you="you then choose among {n} places")
# what a reaction does: at an option's start, and (lower case) after "Your Ship triggers it: "
_OPT_TRACK = "The fleet's disc to the {region} track, space {space} of {length}{token}{fills}"
_OPT_ROUTE = "The fleet's disc to the trade route {site}{token}"
_OPT_OCCUPY = "The fleet's disc occupies {site}{token}"
_OPT_DECK = "The top card of the {deck} deck leaves the game"
_OPT_CARD = "The top card of the {deck} deck, {card}, leaves the game{abolition}"
OPT_TRACK: Final = (_M("silent_fleet.option.track", _OPT_TRACK),
                    _M("silent_fleet.option.track.after", "t" + _OPT_TRACK[1:]))
OPT_ROUTE: Final = (_M("silent_fleet.option.route", _OPT_ROUTE),
                    _M("silent_fleet.option.route.after", "t" + _OPT_ROUTE[1:]))
OPT_OCCUPY: Final = (_M("silent_fleet.option.occupy", _OPT_OCCUPY),
                     _M("silent_fleet.option.occupy.after", "t" + _OPT_OCCUPY[1:]))
OPT_DECK: Final = (_M("silent_fleet.option.deck", _OPT_DECK),
                   _M("silent_fleet.option.deck.after", "t" + _OPT_DECK[1:]))
OPT_CARD: Final = (_M("silent_fleet.option.card", _OPT_CARD),
                   _M("silent_fleet.option.card.after", "t" + _OPT_CARD[1:]))
OPT_TOKEN_THERE: Final = _M("silent_fleet.option.token_there",
                            ": the {token} token there leaves the game")
OPT_ITS_TOKEN: Final = _M("silent_fleet.option.its_token", ": its {token} token leaves the game")
OPT_FILLS: Final = _M("silent_fleet.option.fills", "; fills the track and opens {region}{governor}")
OPT_GOVERNOR_FLEET: Final = _M(
    "silent_fleet.option.governor.fleet",
    ": the Governor goes to the fleet and leaves the game (R11)")
OPT_GOVERNOR: Final = _M("silent_fleet.option.governor", ": {winner} wins its Governor (R11)")
OPT_ABOLITION: Final = _M("silent_fleet.option.abolition",
                          "; it is the Europe 5 card: Slavery is abolished (R17)")
OPT_SHORTAGE: Final = _M(
    "silent_fleet.option.shortage",
    "Discard a {building} (level {level}) from the supply: it leaves the game ({left} left)")
api.define_term("action_indefinite", *(("an " if k[0] in "AEIOU" else "a ") + k
                                for k in api.KIND_NAMES))
#: its block of the RL observation (``observe``)
OBS: Final = api.ObsBlock()
O_OCC: Final = OBS.field("occupied", "bits", api.REGION_CODES,
                         "regions where the acting player occupied a city this turn")
O_TOKEN: Final = OBS.field("token_turn", "bits", ("token",),
                           "the turn was started with a blue token")
O_OUT: Final = OBS.field("out", "count", ("tokens", "cards"),
                         "Trade tokens and cards the fleet sent out of the game", scale=10,
                         most=(95, api.NCARDS))  # the 95 Trade tokens, the cards
O_SHORT: Final = OBS.field("shortage", "count", tuple(b.code for b in api.BUILDINGS),
                           "buildings discarded by the building shortage",
                           most=tuple(max(1, b.copies) for b in api.BUILDINGS))
O_CITIES: Final = OBS.field("cities", "count", api.REGION_CODES,
                            "cities held per region as of the last action (limited "
                            "occupation)", rows=api.OBS_SEAT_LABELS, scale=5,
                            most=api.NSITES)



# the summary of the module's state (describe)
DESCRIBE: Final = api.define_message(
    "silent_fleet.describe",
    "{supply} discs in its supply, {board} on the board; {tokens} and {cards} sent out of "
    "the game{discarded}{rules}")
DESCRIBE_TOKEN: Final = api.define_message("silent_fleet.describe.token", "{n} Trade token")
DESCRIBE_TOKENS: Final = api.define_message("silent_fleet.describe.tokens", "{n} Trade tokens")
DESCRIBE_DISCARDED: Final = api.define_message("silent_fleet.describe.discarded",
                                               "; buildings discarded: {buildings}")
DESCRIBE_RULES: Final = api.define_message("silent_fleet.describe.rules",
                                           "; optional rules: {rules}")
#: the optional rules, by option name
DESCRIBE_RULE: Final = {o: api.define_message(f"silent_fleet.describe.{o}", o.replace("_", " "))
                        for o in ("limited_occupation", "no_token_reaction",
                                  "building_shortage")}


class SilentFleet(api.RuleModule):
    id = "silent_fleet"
    number = 16
    name = FLEET
    neutral_colours = 1
    observation = OBS

    def catalogue(self) -> list[tuple[int, str]]:
        out = [(self.code(REACT, k), f"fleet react {api.KIND_NAMES[k].lower()}")
               for k in range(NKINDS)]
        out += [(self.code(TRACK, r), f"fleet ship {api.REGION_CODES[r]}")
                for r in range(1, api.NREGIONS)]
        out += [(self.code(ROUTE, x), f"fleet ship {site.code}")
                for x, site in enumerate(api.SITES) if not site.city]
        out += [(self.code(OCCUPY, x), f"fleet occupy {site.code}")
                for x, site in enumerate(api.SITES)
                if site.city and site.code not in api.TILE_SITES]
        out += [(self.code(DRAW, d), f"fleet draw {api.DECK_CODES[d]}")
                for d in range(len(api.DECK_CODES))]
        out += [(self.code(SHORTAGE, b), f"shortage discard {bd.code}")
                for b, bd in enumerate(api.BUILDINGS) if bd.level >= 1]
        return out

    def setup(self, s: State, i: int) -> list[int]:
        return [0] * (CITIES + 7 * s.n)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _on(s: State, option: str) -> bool:
        return bool(s.config.option(option))

    @staticmethod
    def owner(s: State, i: int) -> int:
        """The fleet's disc owner (``s.n``: after the seats)."""
        return api.neutral_owner(s, i)

    @staticmethod
    def _cities(s: State, p: int) -> list[int]:
        """Cities ``p`` holds per region (tile cities included)."""
        out = [0] * api.NREGIONS
        owner = s.site_owner
        for x in api.sites_in_play(s):
            if owner[x] == p and _SITE_CITY[x]:
                out[_SITE_REGION[x]] += 1
        return out

    def _snapshot(self, s: State, i: int) -> None:
        """Remember every seat's cities per region (limited occupation, P88)."""
        d = s.module_data[i]
        for p in range(s.n):
            d[CITIES + 7 * p:CITIES + 7 * p + 7] = self._cities(s, p)

    def targets(self, s: State, i: int, kind: int, occ: int) -> list[int]:
        """The codes of every place a reaction to ``kind`` can go now (sorted); ``occ``
        the regions where the player occupied a city this turn (limited occupation)."""
        q = self.owner(s, i)
        out: list[int] = []
        if kind == api.DRAW:  # P83: the eight decks, never the discard pile
            pres = s.region_presence
            base = q * api.REGION_STRIDE
            draw = self.code(DRAW)
            for d, deck in enumerate(s.decks):
                r = api.EUROPE if d in _EUROPE_DECKS else d
                if deck and _CARD_VALUE[deck[-1]] <= pres[base + r]:  # s.presence(q, r)
                    out.append(draw | d)
            return out
        if kind not in (api.SHIP, api.OCCUPY) or not api.neutral_supply(s, q):
            return out  # P85: an empty supply places nothing
        if kind == api.SHIP:  # P81: a track space or a free trade route, no open sea
            track, route = self.code(TRACK), self.code(ROUTE)
            for c in api.targets(s, q, api.SHIP, 1):
                verb = c >> _SHIFT
                if verb == _V_SHIP:
                    out.append(track | c & _ARG)
                elif verb == _V_ROUTE:
                    out.append(route | c & _ARG)
            return sorted(out)
        regions = _bits(occ) if self._on(s, "limited_occupation") else _ANY_REGION
        occupy = self.code(OCCUPY)
        for r in regions:  # P82, P88: the normal Occupy targets for the fleet's presence
            out += [occupy | c & _ARG for c in api.targets(s, q, api.OCCUPY, 1, r)]
        return sorted(out)

    # ------------------------------------------------------------------ hooks
    def on_action(self, s: State, i: int, p: int, kind: int, c: int, source: int,
                  region: int) -> None:
        d = s.module_data[i]
        if source >= api.SRC_TOKEN and self._on(s, "no_token_reaction"):
            d[TOKEN] = 1  # P89: the turn was taken with a blue Action token
        if not self._on(s, "limited_occupation"):
            return
        if kind == api.OCCUPY:  # P88: where the player just occupied a city
            if region >= 0:
                d[OCC] |= 1 << region
            else:  # an ability: the regions where p holds more cities than before
                now = self._cities(s, p)
                base = CITIES + 7 * p
                for r in range(api.NREGIONS):
                    if now[r] > d[base + r]:
                        d[OCC] |= 1 << r
        self._snapshot(s, i)

    def on_turn_end(self, s: State, i: int, p: int, kinds: int) -> None:
        d = s.module_data[i]
        occ, token = d[OCC], d[TOKEN]
        d[OCC] = d[TOKEN] = 0
        if self._on(s, "limited_occupation"):
            self._snapshot(s, i)
        if not kinds:
            return  # a pass causes nothing (R21)
        if token:
            if api.collecting(s):
                api.emit(s, "fleet", None, api.msg(NO_TOKEN_REACTION, fleet=_FLEET))
            return
        performed = _bits(kinds)
        if len(performed) == 1:
            self._react(s, i, p, performed[0], occ)
        elif not any(self.targets(s, i, k, occ) for k in performed):
            if api.collecting(s):
                names = api.Items(tuple(api.Term("action", api.KIND_NAMES[k])
                                        for k in performed), api.OR)
                api.emit(s, "fleet", None, api.msg(NOTHING_TO_DO, fleet=_FLEET,
                                                   seat=api.Seat(p), actions=names), reader=p)
        else:  # P80: the acting player picks the action that triggers it
            api.push_step(s, i, p, STEP_REACT, kinds, occ)

    def on_round_start(self, s: State, i: int) -> None:
        if not self._on(s, "building_shortage"):
            return
        p = (s.crown + 1) % s.n  # the player without the Crown (2 players)
        codes = self._shortage_codes(s, p)
        if len(codes) > 1:
            api.push_step(s, i, p, STEP_SHORTAGE)
        elif codes:
            self._discard_building(s, i, p, api.arg_of(codes[0]))
        else:
            if api.collecting(s):
                api.emit(s, "fleet", p, api.msg(NO_SHORTAGE, level=api.build_level(s, p),
                                                seat=api.Seat(p)))

    # ------------------------------------------------------------------ reactions
    def _react(self, s: State, i: int, p: int, kind: int, occ: int) -> None:
        """The reaction to ``kind``: nothing, the only target at once, or a decision."""
        what = api.KIND_NAMES[kind]
        if kind not in STEP_OF:
            if api.collecting(s):
                art = "an" if what[0] in "AEIOU" else "a"
                api.emit(s, "fleet", None, api.msg(IDLE, fleet=_FLEET, action=api.Term(
                    "action_indefinite", f"{art} {what}")))
            return
        codes = self.targets(s, i, kind, occ)
        if len(codes) > 1:
            api.push_step(s, i, p, STEP_OF[kind], occ)
        elif codes:
            self._do(s, i, codes[0])
        else:
            if api.collecting(s):
                api.emit(s, "fleet", None, api.msg(
                    NO_TARGET, fleet=_FLEET, seat=api.Seat(p), action=api.Term("action", what),
                    reason=self._nothing(s, i, p, kind, occ)), reader=p)

    def _nothing(self, s: State, i: int, p: int, kind: int, occ: int) -> api.Message:
        """Why a reaction to ``kind`` (``p``'s) has no target."""
        q = self.owner(s, i)
        if kind == api.DRAW:
            return api.msg(NO_CARD)
        if not api.neutral_supply(s, q):
            return api.msg(NO_SUPPLY)
        if kind == api.SHIP:
            return api.msg(NO_SPACE)
        if self._on(s, "limited_occupation"):
            if occ:
                return api.msg(NO_CITY_IN, regions=_regions_message(occ))
            return api.msg(NO_OCCUPATION, seat=api.Seat(p))
        return api.msg(NO_CITY)

    def _do(self, s: State, i: int, c: int) -> None:
        """Carry out reaction code ``c`` (the events first, then what follows: a region
        opening, its Governor, Abolition)."""
        d = s.module_data[i]
        q = self.owner(s, i)
        verb, arg = self.local_verb(c), api.arg_of(c)
        if verb == TRACK:
            k = s.filled[arg]
            t = s.track_tokens(arg)[k]
            d[TOKENS_OUT] += int(t >= 0)
            if api.collecting(s):
                api.emit(s, "fleet", None, api.msg(
                    SHIPS, fleet=_FLEET, region=api.Term("region", api.REGION_NAMES[arg]),
                    space=k + 1, length=api.track_length(s, arg), token_out=self._token_out(t)))
            api.ship_neutral_disc(s, q, arg)
        elif verb in (ROUTE, OCCUPY):
            t = s.site_token[arg]
            d[TOKENS_OUT] += int(t >= 0)
            if api.collecting(s):
                api.emit(s, "fleet", None, api.msg(
                    ROUTE_TO if verb == ROUTE else OCCUPIES, fleet=_FLEET,
                    site=api.site_words(arg), token_out=self._token_out(t)))
            api.place_neutral_disc(s, q, arg)
        else:  # DRAW
            card = s.decks[arg][-1]
            d[CARDS_OUT] += 1
            if api.collecting(s):
                api.emit(s, "fleet", None, api.msg(
                    DISCARDS, fleet=_FLEET, deck=api.Term("deck", api.DECK_NAMES[arg]),
                    card=api.card_message(card)))
            api.discard_top_card(s, arg)  # the Europe 5 card abolishes Slavery (R17)

    @staticmethod
    def _token_out(t: int) -> api.Message | str:
        return api.msg(TOKEN_OUT, token=api.Term("token", api.TOKEN_NAMES[t])) if t >= 0 else ""

    # ------------------------------------------------------------------ building shortage
    def _shortage_codes(self, s: State, p: int) -> list[int]:
        """P90: a building type left in the supply, level 1 up to ``p``'s Build Level."""
        bl = api.build_level(s, p)
        return [self.code(SHORTAGE, b) for b in range(NB)
                if s.building_supply[b] and 1 <= _LEVEL[b] <= bl]

    def _discard_building(self, s: State, i: int, p: int, b: int) -> None:
        bd = api.BUILDINGS[b]
        if api.collecting(s):
            api.emit(s, "fleet", p, api.msg(SHORTAGE_DISCARD, seat=api.Seat(p),
                                            building=api.Term("building", bd.name),
                                            level=bd.level))
        api.discard_building(s, b)
        s.module_data[i][BLD + b] += 1

    # ------------------------------------------------------------------ own steps
    def step_codes(self, s: State, i: int, f: api.Frame) -> list[int]:
        step = f[api.EXPLOIT_STEP]
        if step == STEP_REACT:
            return [self.code(REACT, k) for k in _bits(f[api.EXPLOIT_A]) if k < NKINDS]
        if step == STEP_SHORTAGE:
            return self._shortage_codes(s, f[1])
        if step in KIND_OF:
            return self.targets(s, i, KIND_OF[step], f[api.EXPLOIT_A])
        return []

    def step_apply(self, s: State, i: int, f: api.Frame, c: int) -> None:
        verb, arg = self.local_verb(c), api.arg_of(c)
        if verb == REACT:
            self._react(s, i, f[1], arg, f[api.EXPLOIT_B])
        elif verb == SHORTAGE:
            self._discard_building(s, i, f[1], arg)
        else:
            self._do(s, i, c)

    def step_kind(self, s: State, i: int, f: api.Frame) -> str:
        return ("fleet_react", "fleet_ship", "fleet_occupy", "fleet_draw",
                "building_shortage")[f[api.EXPLOIT_STEP]]

    def step_prompt(self, s: State, i: int, f: api.Frame) -> api.Message:
        step = f[api.EXPLOIT_STEP]
        seat = api.Seat(f[1])
        if step == STEP_REACT:
            names = api.Items(tuple(api.Term("action", api.KIND_NAMES[k])
                                    for k in _bits(f[api.EXPLOIT_A])), api.COMMA)
            return api.msg(PROMPT_REACT, fleet=_FLEET, seat=seat, actions=names)
        if step == STEP_SHIP:
            return api.msg(PROMPT_SHIP, fleet=_FLEET, seat=seat)
        if step == STEP_OCCUPY:
            where: api.Message | str = (
                api.msg(PROMPT_OCCUPY_IN, regions=_regions_message(f[api.EXPLOIT_A]))
                if self._on(s, "limited_occupation") else "")
            return api.msg(PROMPT_OCCUPY, fleet=_FLEET, seat=seat, where=where)
        if step == STEP_DRAW:
            return api.msg(PROMPT_DRAW, fleet=_FLEET, seat=seat)
        return api.msg(PROMPT_SHORTAGE, seat=seat, level=api.build_level(s, f[1]))

    def step_asks(self, s: State, i: int, f: api.Frame) -> api.Message:
        """The fleet's steps are no Exploit's: say what each one asks."""
        return api.msg(ASKS[f[api.EXPLOIT_STEP]])

    def step_phase(self, s: State, i: int, f: api.Frame) -> str:
        """P90: the shortage comes at the start of the round, before Construction (the
        phase left over from the round before, or Setup in round 1, is not happening)."""
        return "Building shortage" if f[api.EXPLOIT_STEP] == STEP_SHORTAGE else ""

    def describe_action(self, s: State, i: int, c: int) -> api.Message:
        return self._option(s, i, c, 0)

    def _option(self, s: State, i: int, c: int, after: int) -> api.Message:
        """What reaction code ``c`` does (``after``: 1 after "Your Ship triggers it: ")."""
        verb, arg = self.local_verb(c), api.arg_of(c)
        if verb == REACT:
            return self._react_words(s, i, arg)
        if verb == TRACK:
            return self._track_words(s, i, arg, after)
        if verb in (ROUTE, OCCUPY):
            t = s.site_token[arg]
            gone: api.Message | str = (
                api.msg(OPT_ITS_TOKEN, token=api.Term("token", api.TOKEN_NAMES[t]))
                if t >= 0 else "")
            return api.msg((OPT_ROUTE if verb == ROUTE else OPT_OCCUPY)[after],
                           site=api.site_words(arg), token=gone)
        if verb == DRAW:
            deck = s.decks[arg]
            name = api.Term("deck", api.DECK_NAMES[arg])
            if not deck:
                return api.msg(OPT_DECK[after], deck=name)
            card = api.CARDS[deck[-1]]
            abol: api.Message | str = (api.msg(OPT_ABOLITION)
                                       if card.abolition and not s.abolished else "")
            return api.msg(OPT_CARD[after], deck=name, card=api.card_message(deck[-1]),
                           abolition=abol)
        bd = api.BUILDINGS[arg]
        return api.msg(OPT_SHORTAGE, building=api.Term("building", bd.name), level=bd.level,
                       left=s.building_supply[arg] - 1)

    def _react_words(self, s: State, i: int, kind: int) -> api.Message:
        what = api.Term("action", api.KIND_NAMES[kind])
        f = s.frame
        p = f[1] if f is not None else -1
        seat = api.Seat(p)
        if kind not in STEP_OF:
            return api.msg(REACT_HEAD, seat=seat, action=what, rest=api.msg(REACT_IDLE))
        mine = f is not None and len(f) == 6 and f[api.EXPLOIT_MODULE] == i
        occ = f[api.EXPLOIT_B] if f is not None and mine else 0
        codes = self.targets(s, i, kind, occ)
        rest: api.Message
        if not codes:
            rest = api.msg(REACT_NOTHING, why=self._nothing(s, i, p, kind, occ))
        elif len(codes) == 1:
            rest = self._option(s, i, codes[0], 1)
        else:
            rest = api.msg(REACT_DECKS if kind == api.DRAW else REACT_PLACES, seat=seat,
                           n=len(codes))
        return api.msg(REACT_HEAD, seat=seat, action=what, rest=rest)

    def _track_words(self, s: State, i: int, r: int, after: int) -> api.Message:
        k = s.filled[r]
        n = api.track_length(s, r)
        t = s.track_tokens(r)[k]
        token: api.Message | str = (
            api.msg(OPT_TOKEN_THERE, token=api.Term("token", api.TOKEN_NAMES[t]))
            if t >= 0 else "")
        fills: api.Message | str = ""
        if k + 1 == n:
            governor: api.Message | str = ""
            if s.region_governors[r] >= 0:
                track = s.track(r)
                track[k] = self.owner(s, i)
                w = _winner(track)
                governor = (api.msg(OPT_GOVERNOR_FLEET) if api.is_neutral(s, w) else
                            api.msg(OPT_GOVERNOR, winner=api.Seat(w)))
            fills = api.msg(OPT_FILLS, region=api.region_term(r), governor=governor)
        return api.msg(OPT_TRACK[after], region=api.Term("region", api.REGION_NAMES[r]),
                       space=k + 1, length=n, token=token, fills=fills)

    # ------------------------------------------------------------------ accounting, display
    def tile_buildings(self, s: State, i: int) -> list[int]:
        d = s.module_data[i]
        return [b for b in range(NB) for _ in range(d[BLD + b])]

    def check(self, s: State, i: int) -> list[str]:
        d = s.module_data[i]
        if len(d) != CITIES + 7 * s.n:
            return [f"module data has {len(d)} ints, not {CITIES + 7 * s.n}"]
        out = []
        if min(d) < 0:
            out.append("a negative count")
        if d[OCC] >> api.NREGIONS or d[TOKEN] > 1:
            out.append("bad turn record")
        if not s.turn and (d[OCC] or d[TOKEN]):
            out.append("a turn record outside a turn")
        if d[OCC] and not self._on(s, "limited_occupation"):
            out.append("occupied regions recorded without limited occupation")
        if d[TOKEN] and not self._on(s, "no_token_reaction"):
            out.append("a token turn recorded without no token reaction")
        if any(d[BLD:CITIES]) and not self._on(s, "building_shortage"):
            out.append("buildings discarded without the building shortage")
        if any(d[CITIES:]) and not self._on(s, "limited_occupation"):
            out.append("cities recorded without limited occupation")
        if d[CARDS_OUT] > len(s.removed) or d[TOKENS_OUT] > sum(s.spent):
            out.append("more cards or tokens sent out of the game than are out of it")
        return out

    def describe(self, s: State, i: int) -> api.Message:
        d = s.module_data[i]
        q = self.owner(s, i)
        board = sum(s.presence(q, r) for r in range(api.NREGIONS))
        gone = tuple(api.Term("building", api.BUILDINGS[b].name)
                     for b in self.tile_buildings(s, i))
        rules = tuple(api.msg(m) for o, m in DESCRIBE_RULE.items() if self._on(s, o))
        return api.msg(
            DESCRIBE, supply=api.neutral_supply(s, q), board=board,
            tokens=api.msg(DESCRIBE_TOKEN if d[TOKENS_OUT] == 1 else DESCRIBE_TOKENS,
                           n=d[TOKENS_OUT]),
            cards=api.Count(d[CARDS_OUT], "card"),
            discarded=api.msg(DESCRIBE_DISCARDED, buildings=api.Items(gone, api.COMMA))
            if gone else "",
            rules=api.msg(DESCRIBE_RULES, rules=api.Items(rules, api.COMMA)) if rules else "")

    # ------------------------------------------------------------------ observation
    def observe(self, s: State, i: int, w: api.ObsWriter) -> None:
        d = s.module_data[i]
        w.flags(O_OCC, api.NREGIONS, d[OCC])
        w.flags(O_TOKEN, 1, d[TOKEN])
        w.count(O_OUT, d[TOKENS_OUT], 10)
        w.count(O_OUT + 1, d[CARDS_OUT], 10)
        for b in range(NB):
            w.count(O_SHORT + b, d[BLD + b])
        for k in range(s.n):
            o = CITIES + api.NREGIONS * w.seat(k)
            for r in range(api.NREGIONS):
                w.count(O_CITIES + k * api.NREGIONS + r, d[o + r], 5)


def _winner(track: list[int]) -> int:
    """R11 on a full track: most discs, ties to the tied owner closest to the deck."""
    counts: dict[int, int] = {}
    for q in track:
        if q >= 0:
            counts[q] = counts.get(q, 0) + 1
    best = max(counts.values())
    return next(q for q in reversed(track) if q >= 0 and counts[q] == best)


api.register(SilentFleet())


# --------------------------------------------------------------------------- refusals
#: what each of the fleet's own steps asks, for the refusal of an action that does not
#: answer it
ASKS: Final = (
    _M("silent_fleet.asks.reaction",
       "choose which of the turn's actions The Silent Fleet reacts to"),
    _M("silent_fleet.asks.ship",
       "choose where The Silent Fleet's disc ships to (its reaction to a Ship)"),
    _M("silent_fleet.asks.occupy",
       "choose the city The Silent Fleet occupies (its reaction to an Occupy)"),
    _M("silent_fleet.asks.draw",
       "choose the deck whose top card The Silent Fleet discards (its reaction to a Draw)"),
    _M("silent_fleet.asks.shortage",
       "discard a building from the supply for the building shortage (P90)"),
)
