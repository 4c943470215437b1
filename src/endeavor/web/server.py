"""``endeavor serve``: the web app under Uvicorn.

The database is checked and migrated here, once, before Uvicorn starts, so a bad URL, an
unreachable server or a database this server cannot write (a read-only file, a full disk:
:func:`endeavor.web.dbhealth.check_writable`) is one clear line (exit status 2) rather
than a traceback in every worker; the port is tried the same way. Uvicorn then runs the
app factory ``endeavor.web.app:app_from_env`` (an import string, so ``--workers N`` can
start N processes), which reads the database URL from ``$ENDEAVOR_DB``, with
:class:`endeavor.web.protocol.GuardedHttpToolsProtocol` as its HTTP protocol (it bounds
how long a client may take to send a request, and the size of a request's head). The
worker processes, one by default, run under :mod:`endeavor.web.supervisor`, which starts
a new one when one dies (a SQLite ``-shm`` file truncated under it is a SIGBUS).
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket

from rich.console import Console

from endeavor.cli.common import UsageError

from . import db, dbhealth, jobs, links, notify, reviews, seating

FACTORY = "endeavor.web.app:app_from_env"


def _check_port(host: str, port: int) -> None:
    """Bind the address once, as Uvicorn will (SO_REUSEADDR), so a port in use or an
    address this machine doesn't have is a :class:`UsageError` now."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise UsageError(f"--host {host}: {e.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise UsageError(f"port {port} on {host} is in use: stop what listens "
                                 f"there or choose another with --port") from None
            raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def _browser_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else (
        f"[{host}]" if ":" in host else host)
    return f"http://{shown}:{port}/"


def trusted_proxies(value: str | None) -> list[str]:
    """``--forwarded-allow-ips``: the addresses and networks (``10.0.0.0/8``) of the
    reverse proxies whose ``X-Forwarded-For``/``-Proto`` Uvicorn believes (``*``: every
    client, only for an app no one else can reach). None or empty: none. A value that
    is neither is a :class:`UsageError` (Uvicorn would take it as a name never seen)."""
    out: list[str] = []
    for item in (value or "").split(","):
        item = item.strip()
        if not item:
            continue
        if item != "*":
            try:
                if "/" in item:
                    ipaddress.ip_network(item)
                else:
                    ipaddress.ip_address(item)
            except ValueError as e:
                raise UsageError(f"--forwarded-allow-ips: {e} (give IP addresses or "
                                 "networks, comma-separated, e.g. 127.0.0.1 or "
                                 "10.0.0.0/8)") from None
        out.append(item)
    return out


def _notify_env(args: argparse.Namespace) -> None:
    """Check ``--public-url``, ``--smtp``, ``--mail-from`` and
    ``--allow-private-webhooks`` and hand them to the workers' factory (through the
    environment: :func:`endeavor.web.app.app_from_env`). A bad value is a
    :class:`UsageError`."""
    public = getattr(args, "public_url", None)
    if public:
        try:
            os.environ[links.PUBLIC_URL_VAR] = links.check_public_url(public)
        except links.LinkError as e:
            raise UsageError(str(e)) from None
    else:
        os.environ.pop(links.PUBLIC_URL_VAR, None)
    os.environ[links.FALLBACK_URL_VAR] = _browser_url(args.host, args.port).rstrip("/")
    smtp, sender = getattr(args, "smtp", None), getattr(args, "mail_from", None)
    if bool(smtp) != bool(sender):
        raise UsageError("--smtp and --mail-from go together: the server sends e-mail "
                         "through --smtp as --mail-from")
    if smtp:
        try:
            notify.parse_smtp(smtp)
        except ValueError as e:
            raise UsageError(f"--smtp: {e}") from None
        if not notify.EMAIL.match(sender or ""):
            raise UsageError(f"--mail-from {sender!r} is not an e-mail address")
        os.environ[notify.SMTP_VAR] = smtp
        os.environ[notify.MAIL_FROM_VAR] = sender or ""
    else:
        os.environ.pop(notify.SMTP_VAR, None)
        os.environ.pop(notify.MAIL_FROM_VAR, None)
    if getattr(args, "allow_private_webhooks", False):
        os.environ[notify.PRIVATE_VAR] = "1"
    else:
        os.environ.pop(notify.PRIVATE_VAR, None)
    digest = getattr(args, "digest_hours", None)
    if digest is not None:
        if not 0 < digest <= 24 * 7:
            raise UsageError(f"--digest-hours {digest:g}: give hours, more than 0 and at "
                             "most 168 (a week)")
        os.environ[seating.DIGEST_VAR] = f"{digest:g}"
    else:
        os.environ.pop(seating.DIGEST_VAR, None)


def _review_env(args: argparse.Namespace) -> int:
    """Hand ``--review-iterations`` to the workers (which queue the reviews) and the
    background process (which runs them); the budget."""
    value = getattr(args, "review_iterations", None)
    iterations = reviews.DEFAULT_ITERATIONS if value is None else int(value)
    os.environ[reviews.ITERATIONS_VAR] = str(iterations)
    return iterations


def serve(args: argparse.Namespace, out: Console) -> int:
    """Run the web app until interrupted: ``args.host``, ``args.port``, ``args.db`` (None:
    ``$ENDEAVOR_DB`` or ``sqlite:///endeavor.db``), ``args.workers``, ``args.log_level``.
    Returns the exit status; a bad database or port raises :class:`UsageError`."""
    from . import protocol, supervisor

    proxies = trusted_proxies(getattr(args, "forwarded_allow_ips", None))
    url = ""
    try:
        url = db.resolve_url(args.db)
        engine = db.make_engine(url)
        try:
            db.upgrade(engine)
            dbhealth.check_writable(engine)
        finally:
            engine.dispose()
    except db.DatabaseError as e:
        raise UsageError(f"{e}{dbhealth.full_disk_hint(url, str(e))}") from None
    _check_port(args.host, args.port)
    os.environ[db.ENV_VAR] = url  # the workers' factory reads it
    _notify_env(args)
    review_budget = _review_env(args)
    workers = max(1, int(args.workers))
    out.print(f"Endeavor: open {_browser_url(args.host, args.port)} in a browser "
              f"(Ctrl-C stops the server)")
    out.print(f"database: {db.describe_url(url)}"
              + (f"; {workers} worker processes" if workers > 1 else "")
              + (f"; post-game reviews at {review_budget} iterations a decision"
                 if review_budget else "; no post-game reviews"))
    if os.environ.get(links.PUBLIC_URL_VAR) or proxies:
        out.print(f"public address: {os.environ.get(links.PUBLIC_URL_VAR) or 'none'}; "
                  f"forwarded headers believed from: {', '.join(proxies) or 'nobody'}")
    try:
        # the notifications are sent by a background process (jobs.main), not by the
        # workers, whose time is the requests'
        os.environ[jobs.SENDER_VAR] = "background"
        os.environ[reviews.RUNNER_VAR] = "background"  # and the reviews are run there
        started = supervisor.run(FACTORY, workers=workers, background=jobs.main,
                                 host=args.host, port=args.port,
                                 log_level=args.log_level, proxy_headers=bool(proxies),
                                 forwarded_allow_ips=proxies or None,
                                 server_header=False, http=protocol.PROTOCOL,
                                 ws_max_size=protocol.WS_MAX_SIZE)
    except SystemExit as e:  # Uvicorn exits when it cannot start (it logged why)
        code = e.code if isinstance(e.code, int) else 1
        started = not code
    if not started:
        raise UsageError("the server could not start; see the messages above")
    return 0
