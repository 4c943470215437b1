"""The words of the accounts' refusals (sign up, sign in, claiming a seat, deleting an
account, a password reset) and of a seat's name, in the request's language (their French
in ``endeavor/locale/fr/parts/web.po``). Each is raised as a store error carrying its
message (:meth:`endeavor.web.store.StoreError.said`), so the answer's ``detail`` comes in
the reader's language and its ``message`` gives the id and arguments. Pure: no web
imports."""

from __future__ import annotations

from typing import Final

from ...messages import define, noun

CHARACTER: Final = noun("character")
MINUTE: Final = noun("minute")
SECOND: Final = noun("second")

NAME_KEPT: Final = define(
    "web.account.name_kept",
    "'{name}' is kept for the seats of deleted accounts: choose another name")
NAME_TAKEN: Final = define("web.account.name_taken",
                           "the name '{name}' is taken: choose another")
WRONG: Final = define("web.account.wrong", "wrong name or password")
DISABLED: Final = define("web.account.disabled",
                         "this account is disabled: ask the server's admin")
WRONG_PASSWORD: Final = define("web.account.wrong_password", "wrong password")
NO_ACCOUNT: Final = define("web.account.no_account", "no account called '{name}'")
RESET_BAD: Final = define(
    "web.account.reset_bad", "this password-reset link is unknown, used or expired: ask "
    "the server's admin for a new one")
TOO_MANY: Final = define("web.account.too_many",
                         "too many failed sign-ins: try again in {wait}")
NOT_SIGNED_IN: Final = define("web.account.not_signed_in",
                              "not signed in (or the session has ended): sign in first")
OTHER_ORIGIN: Final = define(
    "web.account.other_origin",
    "a request from another origin ({origin}) is refused: use this site's own pages")
HOT_SEAT: Final = define(
    "web.account.hot_seat",
    "a hot-seat link plays several seats: it cannot be claimed by one account")
SEAT_HELD: Final = define("web.account.seat_held",
                          "P{seat} of this game belongs to another account")
UNKNOWN_BOT: Final = define("web.account.unknown_bot",
                            "unknown bot '{bot}': choose from {bots}")

PASSWORD_TYPE: Final = define("web.password.type", "a password is a string")
PASSWORD_SHORT: Final = define("web.password.short",
                               "a password has at least {least} ({given} given)")
PASSWORD_LONG: Final = define("web.password.long", "a password has at most {most}")

NAME_TYPE: Final = define("web.name.type", "a name is a string of 1 to 24 characters")
NAME_CONTROL: Final = define(
    "web.name.control",
    "a name may not hold control or invisible characters (found {code})")
NAME_EMPTY: Final = define("web.name.empty", "a name cannot be empty")
NAME_LONG: Final = define("web.name.long", "a name has at most {most} ({given} given)")
NAME_SEAT: Final = define("web.name.seat", "'{name}' reads as a seat's number: choose a name")
NAME_USED: Final = define("web.name.used",
                          "P{seat} is already called '{name}': choose another name")
