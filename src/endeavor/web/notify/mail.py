"""The e-mail channel: an address checked when a player sets it, and a message sent
through the ``--smtp`` server within the send's deadline."""

from __future__ import annotations

import contextlib
import smtplib
import socket
import ssl
import threading
from collections.abc import Callable
from email.message import EmailMessage

from ..store import BadRequest
from ..view import checkwords as words
from .base import NotifierBase, SendError
from .message import Message
from .settings import valid_email
from .webhook import io_error


class MailChannel(NotifierBase):
    """E-mail: checked and sent."""

    def check_email(self, address: str) -> str:
        """``address`` as an e-mail target (as it is stored and mailed to: its domain
        in lower case), or :class:`BadRequest` in words. Checked by ``email-validator``
        (no look-up of the domain); ASCII only, and no encoded words (``=?...?=``,
        which a mail header decodes into another address) nor control characters."""
        address = address.strip()
        if not self.email_available:
            raise BadRequest.said(words.EMAIL_UNAVAILABLE)
        return valid_email(address)

    def send_email(self, address: str, message: Message) -> None:
        """Send ``message`` to ``address`` through the ``--smtp`` server
        (:class:`SendError` in words on failure)."""
        self.send_mail(address, lambda sender: message.email(sender, address))

    def send_mail(self, address: str, make: Callable[[str], EmailMessage]) -> None:
        """Send the mail ``make(sender)`` (``sender``: ``--mail-from``) to ``address``
        through the ``--smtp`` server (:class:`SendError` in words on failure)."""
        server, sender = self._smtp, self.settings.mail_from
        if server is None or not sender:
            raise SendError.said(words.SEND_NO_SMTP, permanent=True)
        timeout = self.settings.timeout
        mail = make(sender)
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if server.security == "tls":  # not connected yet: the watchdog comes first
            client = smtplib.SMTP_SSL(timeout=timeout, context=context)
        else:
            client = smtplib.SMTP(timeout=timeout)
        cut = threading.Event()

        def cut_off() -> None:  # the whole deadline passed: end the conversation
            cut.set()
            sock = client.sock
            if sock is not None:
                with contextlib.suppress(OSError):
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)

        watchdog = threading.Timer(timeout, cut_off)
        watchdog.daemon = True
        watchdog.start()
        try:
            with client:
                client.connect(server.host, server.port)
                if server.security == "starttls":
                    client.starttls(context=context)
                if server.user:
                    client.login(server.user, server.password or "")
                # to exactly the address stored, whatever the To header may be read as
                refused = client.send_message(mail, from_addr=sender, to_addrs=[address])
        except (smtplib.SMTPException, OSError) as e:
            raise self._smtp_error(e, timeout, cut.is_set()) from None
        finally:
            watchdog.cancel()
        if refused:
            raise SendError.said(words.MAIL_REFUSED, permanent=True)

    @staticmethod
    def _smtp_error(e: Exception, timeout: float, cut: bool) -> SendError:
        """What the mail server's error ``e`` means (``cut``: the send's deadline
        passed and the conversation was cut off)."""
        if cut:
            return SendError.said(words.MAIL_SLOW, seconds=f"{timeout:g}")
        if isinstance(e, smtplib.SMTPRecipientsRefused):
            return SendError.said(words.MAIL_REFUSED, permanent=True)
        if isinstance(e, smtplib.SMTPAuthenticationError):
            return SendError.said(words.MAIL_LOGIN, code=e.smtp_code)
        if isinstance(e, smtplib.SMTPResponseException):
            return SendError.said(words.MAIL_ANSWERED, 500 <= e.smtp_code < 600,
                                  code=e.smtp_code)
        if isinstance(e, smtplib.SMTPServerDisconnected):
            return SendError.said(words.MAIL_CLOSED)
        return io_error(e, timeout)
