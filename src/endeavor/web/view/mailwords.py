"""The words of accounts by e-mail: the sign-in and password-reset mails, in the
account's language, and the answers of their endpoints and of the account's
notification setting (their French in ``endeavor/locale/fr/parts/notify.po`` and
``web.po``). Pure: no web imports."""

from __future__ import annotations

from typing import Final

from ...messages import define

SIGNIN_SUBJECT: Final = define("notify.signin_subject", "Endeavor: your sign-in link")
SIGNIN_TEXT: Final = define(
    "notify.signin_text", "Hello {name}, open this link to sign in to Endeavor (it works "
    "once, for {minutes} minutes):")
RESET_SUBJECT: Final = define("notify.reset_subject", "Endeavor: choose a new password")
RESET_TEXT: Final = define(
    "notify.reset_text", "Hello {name}, open this link to choose a new password for "
    "Endeavor (it works once, for {minutes} minutes):")
NOT_ASKED: Final = define(
    "notify.not_asked", "If you did not ask for it, ignore this message: nothing changes "
    "until the link is opened.")
MAIL_FOOTER: Final = define(
    "notify.account_footer", "You get this because someone asked for it with the name of "
    "your account, whose address this is.")

#: the one answer of both mailing endpoints, whatever the name
MAILED: Final = define(
    "web.mail.sent", "If an account of that name has an e-mail address, a link is on its "
    "way to it: it works once, for {minutes} minutes.")
NO_SMTP: Final = define(
    "web.mail.no_smtp", "This server cannot send e-mail (it was started without --smtp "
    "and --mail-from): ask the server's admin for a password-reset link.")
TOO_MANY: Final = define(
    "web.mail.too_many", "Too many links asked for: try again in {minutes} minutes.")
LINK_BAD: Final = define(
    "web.mail.link_bad", "This sign-in link is unknown, used or expired: ask for a new one.")
NO_ADDRESS: Final = define(
    "web.mail.no_address", "Turns cannot be e-mailed without an address: give one first.")
BAD_MODE: Final = define("web.mail.bad_mode", "Unknown mode {mode}: 'turn' or 'digest'.")

