"""The account mails (a sign-in link, a password-reset link: ``account_mail`` rows,
written by the request that asks for one, see :mod:`endeavor.web.accounts.maillinks`):
claimed with a lease as the outbox's rows are (one worker wins each, every claim an
attempt), the link's one-time token made when the mail is sent, the mail sent in the
account's language through the ``--smtp`` server, and the row deleted once sent, retried
after the backoff on a failure, given up after the last attempt."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Final

from sqlalchemy import and_, bindparam, delete, or_, select, update

from ..accounts import maillinks, mailtables, tables
from ..store import utcnow
from ..view import mailwords
from ..view.notice import say
from .base import SendError
from .mail import MailChannel
from .settings import MAX_ERROR, redact_email

log = logging.getLogger("endeavor.web")

_M, _A, _S = mailtables.account_mail, tables.accounts, mailtables.account_settings
_FREE = or_(_M.c.lease_until.is_(None), _M.c.lease_until < bindparam("b_now"))
#: the due mails nobody holds, oldest first, with their account's name and address
_DUE: Final = (
    select(_M.c.id, _M.c.account_id, _M.c.kind, _M.c.lang, _M.c.attempts, _A.c.name,
           _A.c.disabled, _S.c.email)
    .select_from(_M.join(_A, _A.c.id == _M.c.account_id)
                 .outerjoin(_S, _S.c.account_id == _M.c.account_id))
    .where(and_(_M.c.due <= bindparam("b_now"), _FREE))
    .order_by(_M.c.due).limit(bindparam("b_limit")))
_CLAIM: Final = (update(_M).where(and_(_M.c.id == bindparam("b_id"),
                                       _M.c.due <= bindparam("b_now"), _FREE))
                 .values(lease_until=bindparam("b_lease"), attempts=_M.c.attempts + 1))
_MINE = and_(_M.c.id == bindparam("b_id"), _M.c.lease_until == bindparam("b_lease"))


@dataclass(frozen=True)
class MailJob:
    """An account mail this worker claimed until ``lease`` (``attempts``: which attempt
    this is), to ``email`` (None: the account has no address any more)."""

    id: int
    account_id: int
    kind: str
    lang: str
    attempts: int
    lease: datetime
    name: str
    email: str | None
    disabled: bool


class AccountMailer(MailChannel):
    """The account mails: claimed, sent, written back."""

    def claim_mail(self, limit: int, now: datetime | None = None) -> list[MailJob]:
        """Claim up to ``limit`` due account mails nobody holds (oldest first)."""
        if limit <= 0:
            return []
        won, lease = self.claim_rows(_DUE, _CLAIM, limit, now or utcnow(),
                                     lambda r: {"b_id": r.id})
        return [MailJob(int(r.id), int(r.account_id), r.kind, r.lang or "en",
                        int(r.attempts) + 1, lease, r.name, r.email, bool(r.disabled))
                for r in won]

    def send_account_mail(self, job: MailJob) -> str:
        """Send the claimed mail ``job`` (or drop it) and write back what became of it;
        what happened, in words."""
        if job.email is None or job.disabled or job.kind not in maillinks.KINDS:
            self._mail_done(job)
            return "not sent: no address, or the account is disabled"
        try:
            with self.store.transaction() as conn:
                token = maillinks.new_token(conn, job.kind, job.account_id, utcnow())
            link = self.links.page(f"{maillinks.PAGES[job.kind]}#{token}", absolute=True)
            self.send_mail(job.email, lambda sender: self._account_mail(job, sender, link))
        except SendError as e:
            return self._mail_failed(job, str(e), e.permanent)
        self._mail_done(job)
        log.info("notifications: sent the %s link of an account to %s", job.kind,
                 redact_email(job.email))
        return "sent"

    def _account_mail(self, job: MailJob, sender: str, link: str) -> EmailMessage:
        lang = job.lang
        signin = job.kind == "signin"
        m = EmailMessage()
        m["Subject"] = say(mailwords.SIGNIN_SUBJECT if signin else mailwords.RESET_SUBJECT,
                           lang)
        m["From"] = sender
        m["To"] = job.email
        m["Date"] = format_datetime(utcnow())
        m["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "endeavor.invalid")
        m["Auto-Submitted"] = "auto-generated"
        text = say(mailwords.SIGNIN_TEXT if signin else mailwords.RESET_TEXT, lang,
                   name=job.name, minutes=maillinks.minutes(job.kind))
        m.set_content(f"{text}\n\n{link}\n\n{say(mailwords.NOT_ASKED, lang)}\n\n-- \n"
                      f"{say(mailwords.MAIL_FOOTER, lang)}\n")
        return m

    def _mail_done(self, job: MailJob) -> None:
        with self.store.transaction() as conn:
            conn.execute(delete(_M).where(_MINE), {"b_id": job.id, "b_lease": job.lease})

    def _mail_failed(self, job: MailJob, words: str, permanent: bool) -> str:
        backoff = self.settings.backoff
        key = {"b_id": job.id, "b_lease": job.lease}
        if permanent or job.attempts > len(backoff):
            with self.store.transaction() as conn:
                conn.execute(delete(_M).where(_MINE), key)
            log.warning("notifications: gave up on the %s link of an account after %d "
                        "attempts: %s", job.kind, job.attempts, words)
        else:
            due = utcnow() + timedelta(seconds=backoff[job.attempts - 1])
            with self.store.transaction() as conn:
                conn.execute(update(_M).where(_MINE).values(
                    lease_until=None, due=due, last_error=words[:MAX_ERROR]), key)
            log.warning("notifications: the %s link of an account failed (attempt %d): "
                        "%s", job.kind, job.attempts, words)
        return f"failed: {words}"
