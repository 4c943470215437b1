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

from endeavor.errors import UsageError

from . import compute, db, dbhealth, jobs, links, notify, reviews, seating
from .store import BadRequest

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


def smtp_password(args: argparse.Namespace) -> tuple[str | None, str]:
    """The SMTP password given apart from the ``--smtp`` URL (whose own, if any, anyone
    on the machine can read in ``ps``), and where it came from: ``--smtp-password-file``
    (its first line, ``"file"``), else ``$ENDEAVOR_SMTP_PASSWORD`` (``"environment"``);
    ``(None, "")`` when neither is given. A file that cannot be read, or whose first
    line is empty, is a :class:`UsageError`."""
    path = getattr(args, "smtp_password_file", None)
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                first = f.readline()
        except (OSError, UnicodeError) as e:
            raise UsageError(f"--smtp-password-file {path}: cannot be read "
                             f"({getattr(e, 'strerror', None) or type(e).__name__})") from None
        password = first.rstrip("\r\n")
        if not password:
            raise UsageError(f"--smtp-password-file {path}: its first line is empty")
        return password, "file"
    from_env = os.environ.get(notify.SMTP_PASSWORD_VAR)
    if from_env:
        return from_env, "environment"
    return None, ""


def smtp_warnings(server: notify.SmtpServer, given_in_url: bool) -> list[str]:
    """What to tell the operator about the mail server ``server``: a login sent
    unencrypted (``smtp://`` without STARTTLS, to a server not on this machine), and a
    password written in the ``--smtp`` URL (visible in ``ps``)."""
    out: list[str] = []
    if server.user and server.security == "none" and not _loopback(server.host):
        out.append(f"--smtp sends the login of {server.user!r} to {server.host}:"
                   f"{server.port} unencrypted (smtp:// without TLS): use port 587 "
                   "(STARTTLS), ?starttls=1, or smtps:// (TLS)")
    if given_in_url:
        out.append("the password in the --smtp URL can be read by anyone on this machine "
                   f"who lists its processes (ps): give it in ${notify.SMTP_PASSWORD_VAR} "
                   "or a file (--smtp-password-file) instead")
    return out


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def notify_env(args: argparse.Namespace) -> list[str]:
    """Check ``--public-url``, ``--smtp`` (and its password: :func:`smtp_password`),
    ``--mail-from`` and ``--allow-private-webhooks`` and hand them to the workers'
    factory (through the environment: :func:`endeavor.web.app.app_from_env`); the
    warnings for the operator (:func:`smtp_warnings`). A bad value is a
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
    warnings: list[str] = []
    if smtp:
        try:
            server = notify.parse_smtp(smtp)
        except ValueError as e:
            raise UsageError(f"--smtp: {e}") from None
        try:
            notify.valid_email(sender or "")
        except BadRequest as e:
            raise UsageError(f"--mail-from: {e}") from None
        password, source = smtp_password(args)
        if password is not None:
            if server.password:
                raise UsageError(f"the SMTP password is given twice: in the --smtp URL and "
                                 f"in the {source}; give it once")
            if not server.user:
                raise UsageError("an SMTP password needs a user: smtp://USER@HOST:PORT")
            smtp = notify.with_password(smtp, password)
        warnings = smtp_warnings(server, given_in_url=bool(server.password))
        os.environ[notify.SMTP_VAR] = smtp  # the workers' environment: not in ps
        os.environ[notify.MAIL_FROM_VAR] = sender or ""
    else:
        os.environ.pop(notify.SMTP_VAR, None)
        os.environ.pop(notify.MAIL_FROM_VAR, None)
    os.environ.pop(notify.SMTP_PASSWORD_VAR, None)  # in the URL handed on, if used
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
    return warnings


def _review_env(args: argparse.Namespace) -> int:
    """Hand ``--review-iterations`` to the workers (which queue the reviews) and the
    background process (which runs them); the budget."""
    value = getattr(args, "review_iterations", None)
    iterations = reviews.DEFAULT_ITERATIONS if value is None else int(value)
    os.environ[reviews.ITERATIONS_VAR] = str(iterations)
    return iterations


def engine_env(args: argparse.Namespace) -> str:
    """Hand ``--engine-python`` (else ``$ENDEAVOR_ENGINE_PYTHON``, else ``auto``) to the
    workers and the background process; a line saying where the engine work runs. A
    path that is not an executable file is a :class:`UsageError`."""
    value = (getattr(args, "engine_python", None)
             or os.environ.get(compute.ENGINE_PYTHON_VAR, "") or compute.AUTO).strip()
    if value not in (compute.AUTO, compute.PURE):
        if not (os.path.isfile(value) and os.access(value, os.X_OK)):
            raise UsageError(f"--engine-python {value}: not an executable file (give "
                             "the python of a compiled install, 'auto' or 'pure')")
        value = os.path.abspath(value)
    os.environ[compute.ENGINE_PYTHON_VAR] = value
    if value == compute.PURE:
        return "engine: this server's own build (--engine-python pure)"
    engines = compute.Engines(value, check_seconds=0)
    try:
        status, python = engines.status(), engines.python
    finally:
        engines.close()
    if python is not None:
        return f"engine: {status.text}; engine workers: {python}"
    checkout = compute.checkout_root()
    if value != compute.AUTO or checkout is None or status.compiled_build == "here":
        return f"engine: {status.text}" + (f" ({value}: {status.compiled_build})"
                                           if value != compute.AUTO else "")
    return (f"engine: {status.text}; search bots and reviews move to the compiled build "
            f"({checkout / compute.CHECKOUT_VENV}) once it is built")


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
    warnings = notify_env(args)
    review_budget = _review_env(args)
    engine_line = engine_env(args)
    workers = max(1, int(args.workers))
    out.print(f"Endeavor: open {_browser_url(args.host, args.port)} in a browser "
              f"(Ctrl-C stops the server)")
    out.print(f"database: {db.describe_url(url)}"
              + (f"; {workers} worker processes" if workers > 1 else "")
              + (f"; post-game reviews at {review_budget} iterations a decision"
                 if review_budget else "; no post-game reviews"))
    out.print(engine_line, markup=False, highlight=False)
    for warning in warnings:
        out.print(f"warning: {warning}", markup=False, highlight=False)
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
