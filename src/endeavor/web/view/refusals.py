"""The words of the server's refusals during play and at the table: a move, an undo, the
host's panel (links, bots, clocks, the end), the seats, the chat, the reviews and a seat's
notification settings, in the request's language (their French in
``endeavor/locale/fr/parts/web.po``). Each is raised as a store error carrying its message
(:meth:`endeavor.web.store.StoreError.said`), so the answer's ``detail`` comes in the
reader's language and its ``message`` gives the id and arguments. A seat argument is a
:class:`~endeavor.messages.Seat` (it reads "P1"), a bot's level a term
(:func:`endeavor.web.view.journal.bot_level`); whatever the user typed is given back as
they typed it (its ``repr``, as the English always said it). Pure: no web imports."""

from __future__ import annotations

from typing import Final

from ...messages import define

# --------------------------------------------------------------------------- tokens
SEAT_TOKEN: Final = define("web.refuse.seat_token",
                           "a seat's token is needed: Authorization: Bearer <token>")
HOST_TOKEN: Final = define("web.refuse.host_token",
                           "the host's token is needed: Authorization: Bearer <token>")
NOT_A_SEAT: Final = define("web.refuse.not_a_seat",
                           "this link is not a seat of this game (any more)")
NOT_YOURS: Final = define("web.refuse.not_yours", "this link is not {seat}'s")
NO_HOST_LINK: Final = define("web.refuse.no_host_link",
                             "this game has no host link (it was created before host links)")
NOT_HOST: Final = define("web.refuse.not_host", "this is not the host's link of this game")
BENCHED: Final = define("web.refuse.benched",
                        "The host gave your seat ({seat}) to the {bot} bot; ask them to "
                        "hand it back")
BENCHED_ON: Final = define("web.refuse.benched_on",
                           "The host gave your seat ({seat}) to the {bot} bot on {date} at "
                           "{time} UTC; ask them to hand it back")

# --------------------------------------------------------------------------- the game
NO_GAME: Final = define("web.refuse.no_game", "no game {game}")
OVER: Final = define("web.refuse.over", "the game is over")
ENDED_BY_HOST: Final = define("web.refuse.ended_by_host", "the game was ended by the host")
MOVED_ON: Final = define(
    "web.refuse.moved_on", "the game has moved on since this page was drawn (it is at move "
    "{seq}, you saw move {seen}): look again")
NO_POSITION: Final = define(
    "web.refuse.no_position",
    "game {game} has {count} actions: ask for a position from 0 to {count}")
NOT_AN_ACTION: Final = define("web.refuse.not_an_action", "not an action: {action}...")
ACTION_TYPE: Final = define("web.refuse.action_type", "an action is a string")
NOT_YOUR_MOVE: Final = define("web.refuse.not_your_move", "{seat} is to move, not you")
PERSON_NOW: Final = define("web.refuse.person_now", "{seat} is played by a person now")
UNDO_ENDED: Final = define("web.refuse.undo_ended", "nothing to undo: the game has ended")
UNDO_NONE: Final = define("web.refuse.undo_none",
                          "nothing to undo: no action has been played yet")
UNDO_BOT: Final = define("web.refuse.undo_bot",
                         "nothing to undo: a bot played your last decision")
UNDO_OTHER: Final = define(
    "web.refuse.undo_other",
    "nothing to undo: another player has acted since your last decision")
RECORDED_FIRST: Final = define("web.refuse.recorded_first",
                               "another move was recorded first (move {seq})")
BEING_RECORDED: Final = define("web.refuse.being_recorded",
                               "another move was being recorded (move {seq}); try again")
BOT_STUCK: Final = define("web.refuse.bot_stuck", "the {bot} bot could not move")

# --------------------------------------------------------------------------- seats
NO_SEAT: Final = define("web.refuse.no_seat",
                        "the game has no seat {seat}: its seats are 0 to {last}")
NO_LINK_BOT: Final = define(
    "web.refuse.no_link_bot",
    "{seat} has no link to re-issue: a bot plays it; hand it back to a player instead")
NO_LINK: Final = define("web.refuse.no_link",
                        "{seat} has no link to re-issue: it is not a person's seat")
UNKNOWN_BOT: Final = define("web.refuse.unknown_bot", "unknown bot {bot}: choose from {bots}")
BOT_PLAYS: Final = define("web.refuse.bot_plays", "the {bot} bot already plays {seat}")
PERSON_PLAYS: Final = define(
    "web.refuse.person_plays",
    "{seat} is already played by a person: re-issue its link if it was lost")
NAME_OWN: Final = define(
    "web.refuse.name_own",
    "this link is not {seat}'s: a player names their own seat (the host may name any)")
CALLED: Final = define("web.refuse.called", "{seat} is already called {name}")
NO_TAKEOVER: Final = define("web.refuse.no_takeover", "no bot has taken {seat}'s seat over")
HOST_BOT: Final = define("web.refuse.host_bot",
                         "the host put a bot in {seat}'s seat: ask the host for it")
NO_RECLAIM: Final = define("web.refuse.no_reclaim",
                           "the host did not allow taking a seat back in this game")

# --------------------------------------------------------------------------- clocks
EXTEND_LEAST: Final = define("web.refuse.extend_least", "extend by at least 1 second")
NO_CLOCK: Final = define("web.refuse.no_clock", "this game has no clock")
STOPPED: Final = define("web.refuse.stopped", "the clocks are already stopped")
RUNNING: Final = define("web.refuse.running", "the clocks are already running")

# --------------------------------------------------------------------------- lobby, reviews
UNKNOWN_STATUS: Final = define("web.refuse.unknown_status",
                               "unknown status {status}: {statuses}")
REVIEW_NOT_OVER: Final = define(
    "web.refuse.review_not_over",
    "the game is not over: its review is made once it has ended")
NO_REVIEWS: Final = define(
    "web.refuse.no_reviews",
    "this server does not review games (endeavor serve --review-iterations 0)")

# --------------------------------------------------------------------------- chat
CHAT_TOKEN: Final = define(
    "web.refuse.chat_token",
    "a seat's token is needed to write in the chat: Authorization: Bearer <token>")
CHAT_HOST: Final = define(
    "web.refuse.chat_host",
    "the host's link cannot write in the chat: write from a seat's link")
WHICH_SEAT: Final = define("web.refuse.which_seat",
                           "this link plays several seats: say which (seat)")
CHAT_RATE: Final = define("web.refuse.chat_rate",
                          "too many messages: at most {count} in {seconds} seconds; "
                          "wait {wait} s")
DELETE_TOKEN: Final = define(
    "web.refuse.delete_token",
    "the host's token is needed to delete a message: Authorization: Bearer <token>")
DELETE_HOST: Final = define("web.refuse.delete_host", "only the host can delete a chat message")
NO_CHAT_MESSAGE: Final = define("web.refuse.no_chat_message",
                                "no chat message {number} in game {game}")
CHAT_EMPTY: Final = define("web.refuse.chat_empty", "the message is empty: write something")
CHAT_LONG: Final = define("web.refuse.chat_long",
                          "the message is too long: {length} characters, at most {most}")
CHAT_CONTROL: Final = define(
    "web.refuse.chat_control",
    "the message holds a control character (U+{code}): plain text only")
CHAT_LINES: Final = define("web.refuse.chat_lines",
                           "the message has {lines} lines: at most {most}")

# --------------------------------------------------------------------------- notifications
UNKNOWN_MODE: Final = define("web.refuse.unknown_mode",
                             "unknown mode {mode}: 'turn' or 'digest'")
#: a channel with no address, by channel: (when its mode is set, when it is tested)
NO_ADDRESS: Final = {
    "email": (define("web.refuse.no_email", "{seat} has no email set: set its address first"),
              define("web.refuse.no_email_test",
                     "{seat} has no email set: save an address first")),
    "webhook": (define("web.refuse.no_webhook",
                       "{seat} has no webhook set: set its address first"),
                define("web.refuse.no_webhook_test",
                       "{seat} has no webhook set: save an address first")),
}
TEST_WAIT: Final = define("web.refuse.test_wait",
                          "a test was sent {ago} s ago: try again in {wait} s")
RELINKED: Final = define("web.refuse.relinked",
                         "the seat's link has changed: save the address again")

# --------------------------------------------------------------------------- the rematch
REMATCH_ORDER: Final = define(
    "web.refuse.rematch_order",
    "unknown seat order {order}: 'rotate' (each player one seat on) or 'keep'")
REMATCH_TOKEN: Final = define(
    "web.refuse.rematch_token",
    "a seat's or the host's token is needed: Authorization: Bearer <token>")
REMATCH_NOT_SEAT: Final = define("web.refuse.rematch_not_seat",
                                 "this link is neither a seat nor the host of this game")
REMATCH_NOT_OVER: Final = define(
    "web.refuse.rematch_not_over",
    "the game is not over yet: Play again is offered once it has ended")
REMATCH_EXISTS: Final = define(
    "web.refuse.rematch_exists",
    "this game already has a rematch (game {game}): open it with Join the rematch")
REMATCH_NONE: Final = define(
    "web.refuse.rematch_none",
    "there is no rematch of this game yet: propose one with Play again")
REMATCH_NO_SEAT: Final = define(
    "web.refuse.rematch_no_seat",
    "your seat has no seat in the rematch: ask its host for a link")
REMATCH_GONE: Final = define("web.refuse.rematch_gone",
                             "the rematch (game {game}) is no longer on this server")
REMATCH_RELINKED: Final = define(
    "web.refuse.rematch_relinked",
    "your link in the rematch was changed by its host (a new link, or a bot in your "
    "seat): ask them for it")

# --------------------------------------------------------------------------- requests
LANGUAGE: Final = define("web.refuse.language",
                         "unknown language {value}: the server speaks {languages}")
EXTEND_OR_PAUSE: Final = define(
    "web.refuse.extend_or_pause",
    "give either extend (seconds, with an optional seat) or paused (true or false)")
