"""docs/deploy.md as the tests run it: its marked blocks (``<!-- deploy: NAME -->`` before
a fenced block), filled in with the test's ports, paths and databases, and a real nginx
from Debian in front of a real ``endeavor serve`` started with the systemd unit's command
line, on loopback.

Every value a test puts in place of the doc's must be found there (:func:`fill`), so a
doc that changes under the tests fails them rather than being silently not tested.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tools.loadtest import LAUNCH, ServerProcess, free_port

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
NGINX = Path("/usr/sbin/nginx")
#: the prefix of the doc's path-prefix variant
PREFIX = "/endeavor"


def unavailable(reason: str) -> None:
    """Skip the test, except under CI (``CI`` set), where a missing tool is a failure."""
    if os.environ.get("CI"):
        pytest.fail(f"under CI the deployment tests must run: {reason} "
                    "(tools/ci_services.sh installs it)")
    pytest.skip(reason)


def require(tool: str) -> str:
    """The path of a program the recipe uses (skips without it, see :func:`unavailable`)."""
    path = str(NGINX) if tool == "nginx" and NGINX.exists() else shutil.which(tool)
    if not path:
        unavailable(f"{tool} is not installed (tools/ci_services.sh installs it)")
    return str(path)


# --------------------------------------------------------------------------- the doc
def block(name: str) -> str:
    """The fenced block after ``<!-- deploy: name -->`` in docs/deploy.md."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- deploy: {re.escape(name)} -->\n```[a-z]*\n(.*?)^```", text,
                  re.S | re.M)
    assert m, f"docs/deploy.md has no block marked <!-- deploy: {name} -->"
    return m.group(1)


def fill(text: str, values: dict[str, str], what: str) -> str:
    """``text`` with each key of ``values`` replaced (each must be there)."""
    for old, new in values.items():
        assert old in text, f"docs/deploy.md's {what} no longer has {old!r}"
        text = text.replace(old, new)
    return text


def commands(name: str) -> list[str]:
    """The shell commands of a block: one per line (``\\`` continuations joined),
    comments and blank lines left out."""
    out: list[str] = []
    pending = ""
    for line in block(name).splitlines():
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        line = pending + line
        pending = ""
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip())
    return out


def as_test(command: str) -> str:
    """A doc command as the test runs it: without ``sudo -u USER`` (the test's own user
    owns the test's files and databases)."""
    return re.sub(r"^sudo -u \S+ ", "", command)


def run_shell(command: str, env: dict[str, str] | None = None,
              timeout: float = 60) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(["sh", "-c", command], capture_output=True, text=True,
                            timeout=timeout, env={**os.environ, **(env or {})})
    assert result.returncode == 0, (f"{command!r} failed ({result.returncode}): "
                                    f"{result.stderr.strip() or result.stdout.strip()}")
    return result


def unit_command() -> list[str]:
    """The systemd unit's ``ExecStart=`` as an argument list."""
    text = block("unit")
    m = re.search(r"^ExecStart=((?:.*\\\n)*.*)$", text, re.M)
    assert m, "docs/deploy.md's unit has no ExecStart="
    return shlex.split(m.group(1).replace("\\\n", " "))


# --------------------------------------------------------------------------- the app
class DocServer(ServerProcess):
    """``endeavor serve`` with the unit's arguments: ``--port``, ``--db`` and
    ``--public-url`` filled in (the others, ``--workers 2`` and
    ``--forwarded-allow-ips 127.0.0.1`` among them, as the doc has them), plus
    ``extra``."""

    def __init__(self, db: str, public_url: str, extra: tuple[str, ...] = ()) -> None:
        super().__init__(db, extra=extra)
        self.public_url = public_url

    def command(self) -> list[str]:
        argv = unit_command()
        assert argv[0].endswith("/bin/endeavor") and argv[1] == "serve", argv[:2]
        values = {"--port": str(self.port), "--db": self.db, "--public-url": self.public_url}
        args = argv[2:]
        for flag, value in values.items():
            assert flag in args, f"docs/deploy.md's ExecStart has no {flag}"
            args[args.index(flag) + 1] = value
        return [sys.executable, "-c", LAUNCH, "serve", *args, *self.extra]


# --------------------------------------------------------------------------- nginx
def self_signed(tmp: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 (its own CA: clients trust it by its file)."""
    openssl = require("openssl")
    cert, key = tmp / "fullchain.pem", tmp / "privkey.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=30)
    return cert, key


def site(app_port: int, http_port: int, https_port: int, cert: Path, key: Path,
         www: Path, prefix: bool) -> str:
    """The doc's nginx site on the test's ports and certificate; ``prefix``: with the
    doc's path-prefix location instead of ``location /``."""
    text = block("nginx-site")
    if prefix:
        root_location = ("    location / {\n        proxy_pass http://127.0.0.1:8000;\n"
                         "        include snippets/endeavor-proxy.conf;\n    }\n")
        text = fill(text, {root_location: block("nginx-prefix")}, "site (location /)")
    return fill(text, {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": "",
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "listen [::]:443 ssl;": "",
        "/etc/letsencrypt/live/games.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/games.example.org/privkey.pem": str(key),
        "root /var/www/html;": f"root {www};",
        "http://127.0.0.1:8000": f"http://127.0.0.1:{app_port}",
    }, "nginx site")


def nginx_conf(tmp: Path, site_file: Path) -> str:
    """A main nginx.conf of the test's own (Debian's includes sites-enabled/* in its
    ``http`` block the same way): everything nginx writes stays in ``tmp``."""
    temp = "\n".join(f"    {kind}_temp_path {tmp / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # as root, nginx's workers would be "nobody", who may not enter pytest's directories
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (f"{user}worker_processes 1;\npid {tmp / 'nginx.pid'};\n"
            f"error_log {tmp / 'error.log'} warn;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            f"    access_log {tmp / 'access.log'};\n{temp}\n"
            f"    include {site_file};\n"
            "}\n")


@dataclass
class Proxied:
    """nginx on ``https://127.0.0.1:https_port`` in front of ``app``."""

    tmp: Path
    app: DocServer
    https_port: int
    http_port: int
    cert: Path
    public_url: str

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def log(self) -> str:
        return self.app.log.read_text(errors="replace")


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 15
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("nginx did not start: "
                               + (log.read_text(errors="replace")[-2000:] if log.exists()
                                  else "no error log"))
        time.sleep(0.05)


def nginx_test(tmp: Path, conf: Path) -> None:
    """``nginx -t`` on ``conf``: the configuration is valid."""
    r = subprocess.run([require("nginx"), "-t", "-p", str(tmp), "-e", str(tmp / "error.log"),
                        "-c", str(conf)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr


@contextlib.contextmanager
def proxied(tmp: Path, db: str, extra: tuple[str, ...] = ()) -> Iterator[Proxied]:
    """The doc's app (its unit's command line on ``db``, public URL at the prefix) behind
    the doc's nginx site with the path-prefix variant, on free loopback ports."""
    nginx = require("nginx")
    cert, key = self_signed(tmp)
    https_port, http_port = free_port(), free_port()
    public_url = f"https://127.0.0.1:{https_port}{PREFIX}"
    app = DocServer(db, public_url, extra)
    app.start()
    proc: subprocess.Popen[bytes] | None = None
    try:
        (tmp / "snippets").mkdir()
        (tmp / "snippets" / "endeavor-proxy.conf").write_text(block("nginx-proxy"))
        (tmp / "www").mkdir()
        site_file = tmp / "endeavor.site"
        site_file.write_text(site(app.port, http_port, https_port, cert, key, tmp / "www",
                                  prefix=True))
        conf = tmp / "nginx.conf"
        conf.write_text(nginx_conf(tmp, site_file))
        error_log = tmp / "error.log"
        proc = subprocess.Popen([nginx, "-p", str(tmp), "-e", str(error_log), "-c", str(conf),
                                 "-g", "daemon off;"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        _wait_port(https_port, proc, error_log)
        yield Proxied(tmp, app, https_port, http_port, cert, public_url)
    finally:
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)  # nginx's master and its worker
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        app.close()
