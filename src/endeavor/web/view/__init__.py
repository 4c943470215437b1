"""The position, the pending decision, the scores and the events as JSON for clients.

Pure functions of an engine :class:`~endeavor.state.State` (no web framework, no Rich):
the browser app draws the board and the mats from :func:`position`, offers the options
of :func:`decision_view` (each with the ids of the board or mat elements it is clicked
on, its ``targets``), shows :func:`scores_view` at the end and logs :func:`event_view`.

Only the engine's public API is read: :meth:`State.decision`, the read-only queries
(``marker``, ``presence``, ``is_open``, ``track``, ``track_tokens``, ``sea_discs``,
``has_passed``, ``held_cards``, ``over_card_limit``, ``governor_winner``,
``controls_link``, ``exploit_active``, ``has_shield``), the mats ``state.players[p]``,
the ruleset's tables ``state.rules`` and the component tables of :mod:`endeavor.data`.

Element ids (``id`` in the position, ``targets`` in the options; the front end puts
them in ``data-target``)::

    track:FE  city:EU3  route:EUT1  sea:FE  deck:AF  pile:SA/1  card:SA/1
    building:<seat>:<index>  supply:<building>  token:<seat>:<kind>  slot:<card>
    slot:none  link:EU1-IN1  exploit:<id>  pass  done

Every id an option names exists in the position (tested), so a client can highlight
exactly the elements some legal action is clicked on.
"""

from __future__ import annotations

from ...rules.words import word_player as player_name
from . import accountwords, checkwords, mailwords, ratings, refusals  # noqa: F401  (their words)
from .board import element_ids, position
from .decision import VERB_GROUPS, decision_view, group_of, targets_of
from .log import action_view, event_view, line_view, scores_view
from .pieces import building_does, card_json, clear_caches
from .words import plain_words

__all__ = ["VERB_GROUPS", "action_view", "building_does", "card_json", "clear_caches",
           "decision_view", "element_ids", "event_view", "group_of", "line_view", "plain_words",
           "player_name", "position", "ratings", "scores_view", "targets_of"]
