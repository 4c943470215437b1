"""The words of the refusals of what a form or an API client sends (a webhook's URL, an
e-mail address, a new game's config, seats, names and clock, a seat's notification
settings) and of a failed send's reason (a test message's answer says it), in the
request's language (their French in ``endeavor/locale/fr/parts/web.po``). Each is raised
as a store error (:meth:`endeavor.web.store.StoreError.said`) or a send error
(:meth:`endeavor.web.notify.SendError.said`) carrying its message. Values a client sent
are arguments as they were written (``value``: Python's ``repr`` of any JSON value),
and so are numbers, names and the API's own field names. Pure: no web imports."""

from __future__ import annotations

from typing import Final

from ...messages import define, noun
from .accountwords import CHARACTER

__all__ = ["CHARACTER", "SEAT"]

SEAT: Final = noun("seat")

# -- a webhook's URL, when a player sets it
WEBHOOK_LONG: Final = define("web.check.webhook.long", "a webhook URL has at most {most}")
WEBHOOK_SPACES: Final = define("web.check.webhook.spaces",
                               "a webhook URL has no spaces or control characters")
WEBHOOK_USAGE: Final = define(
    "web.check.webhook.usage", "a webhook is an http:// or https:// URL, e.g. "
    "https://ntfy.sh/your-topic or a Discord or Slack webhook")
WEBHOOK_UNREADABLE: Final = define("web.check.webhook.unreadable",
                                   "this webhook URL cannot be read: {usage}")
WEBHOOK_PORT: Final = define("web.check.webhook.port",
                             "the webhook's port is not a number from 1 to 65535")
WEBHOOK_NOT_HOST: Final = define("web.check.webhook.not_host",
                                 "the webhook's host '{host}' is not a host name")
WEBHOOK_LOOKUP_SLOW: Final = define(
    "web.check.webhook.lookup_slow", "the webhook's host '{host}' was not found within "
    "{seconds} s (its name server does not answer)")
WEBHOOK_NOT_FOUND: Final = define("web.check.webhook.not_found",
                                  "the webhook's host '{host}' cannot be found")
WEBHOOK_PRIVATE: Final = define(
    "web.check.webhook.private",
    "this server does not send to webhooks on loopback or private network addresses")

# -- an e-mail address
EMAIL_UNAVAILABLE: Final = define(
    "web.check.email.unavailable",
    "this server cannot send e-mail (it was started without --smtp and --mail-from)")
EMAIL_LONG: Final = define("web.check.email.long", "an e-mail address has at most {most}")
EMAIL_CONTROL: Final = define("web.check.email.control",
                              "an e-mail address has no control characters")
EMAIL_ENCODED: Final = define(
    "web.check.email.encoded",
    "'{address}' is not an e-mail address: encoded words (=?...?=) are not taken")
#: ``reason``: the words of the address checker (``email-validator``), in English
EMAIL_INVALID: Final = define("web.check.email.invalid",
                              "'{address}' is not an e-mail address: {reason}")

# -- a failed send (a test message's answer gives it)
SEND_PRIVATE_NOW: Final = define(
    "web.check.send.private_now",
    "the webhook's host is now on a private network address: not sent")
SEND_BAD_URL: Final = define("web.check.send.bad_url", "the webhook's URL cannot be used")
SEND_REDIRECT: Final = define("web.check.send.redirect",
                              "the webhook answered {status} (a redirect: not followed)")
#: ``reason``: the reason phrase the webhook's server answered with, as it wrote it
SEND_ANSWERED: Final = define("web.check.send.answered",
                              "the webhook answered {status} {reason}")
SEND_ANSWERED_BARE: Final = define("web.check.send.answered_bare",
                                   "the webhook answered {status}")
SEND_NO_SMTP: Final = define("web.check.send.no_smtp",
                             "this server has no --smtp and --mail-from any more")
MAIL_REFUSED: Final = define("web.check.send.mail_refused",
                             "the mail server refused the address")
MAIL_SLOW: Final = define("web.check.send.mail_slow",
                          "the mail server did not finish within {seconds} s")
MAIL_LOGIN: Final = define("web.check.send.mail_login",
                           "the mail server refused the login ({code})")
MAIL_ANSWERED: Final = define("web.check.send.mail_answered",
                              "the mail server answered {code}")
MAIL_CLOSED: Final = define("web.check.send.mail_closed",
                            "the mail server closed the connection")
IO_CONNECT: Final = define("web.check.io.connect", "could not connect within {seconds} s")
IO_LOOKUP: Final = define("web.check.io.lookup",
                          "the host's name was not found within {seconds} s")
IO_TIMEOUT: Final = define("web.check.io.timeout", "no complete answer within {seconds} s")
IO_REFUSED: Final = define("web.check.io.refused", "the connection was refused")
IO_CLOSED: Final = define("web.check.io.closed",
                          "the server closed the connection without an answer")
#: ``reason``: the TLS library's code for what failed
IO_TLS: Final = define("web.check.io.tls", "TLS failed ({reason})")
IO_NOT_FOUND: Final = define("web.check.io.not_found", "the host cannot be found")

# -- a game's clock, chosen at creation (its fields are the API's names)
CLOCK_OBJECT: Final = define("web.check.clock.object", "clock must be an object: {fields}")
CLOCK_FIELD: Final = define("web.check.clock.field",
                            "unknown clock field {field}: the fields are {fields}")
CLOCK_KIND: Final = define("web.check.clock.kind", "clock kind {value}: 'live' or 'turn'")
CLOCK_SECONDS: Final = define("web.check.clock.seconds",
                              "clock {field} is a number of seconds, not {value}")
#: the figure is ``endeavor.web.store.clockstate.MAX_CLOCK_SECONDS`` (tested), here and
#: in ``EXTEND_RANGE``
CLOCK_RANGE: Final = define("web.check.clock.range",
                            "clock {field} must be from 0 to 5,184,000 seconds (60 days)")
EXTEND_SECONDS: Final = define("web.check.extend.seconds",
                               "extend is a number of seconds, not {value}")
EXTEND_RANGE: Final = define("web.check.extend.range",
                             "extend must be from 0 to 5,184,000 seconds (60 days)")
CLOCK_EMPTY: Final = define(
    "web.check.clock.empty",
    "a clock needs at least 1 second: set per_decision and/or bank (seconds)")
CLOCK_ON_TIMEOUT: Final = define(
    "web.check.clock.on_timeout", "clock on_timeout {value}: 'decision' (a bot plays "
    "that decision) or 'game' (a bot plays the rest of the game)")
CLOCK_BOT: Final = define("web.check.clock.bot", "clock bot {value}: choose from {bots}")
CLOCK_RECLAIM: Final = define("web.check.clock.reclaim", "clock reclaim is true or false")

# -- a new game's config, seats and names, or a record imported
CONFIG_TYPE: Final = define("web.check.config.type",
                            "config must be an object of GameConfig fields")
#: ``reason``: the words of the check that failed (a field of the wrong shape), in English
CONFIG_BAD: Final = define("web.check.config.bad", "bad config: {reason}")
SEAT_TYPE: Final = define(
    "web.check.seat.type",
    "a seat is a string ('human', 'hotseat' or 'bot:<name>'), not {value}")
SEAT_BOT: Final = define("web.check.seat.bot",
                         "unknown bot {bot} in seat {value}: choose from {bots}")
SEAT_KIND: Final = define(
    "web.check.seat.kind",
    "unknown seat kind {value}: 'human', 'hotseat' or 'bot:<name>' (bots: {bots})")
SEATS_TYPE: Final = define("web.check.seats.type",
                           "seats must be a list with one seat per player")
SEATS_COUNT: Final = define("web.check.seats.count",
                            "the game is for {players} players but {seats} were given")
NAMES_LIST: Final = define(
    "web.check.names.list",
    "names must be a list with one name (or null) per seat: {count} of them")
#: ``reason``: why the name is refused (a message of :mod:`.accountwords`)
NAMES_SEAT: Final = define("web.check.names.seat", "{seat}'s name: {reason}")
RECORD_OVER: Final = define("web.check.record.over",
                            "the record goes on after the end of the game")

# -- a seat's notification settings
CHANNEL: Final = define("web.check.channel", "unknown channel {value}: {channels}")
LANGUAGE: Final = define("web.check.language", "unknown language {value}: {languages}")
