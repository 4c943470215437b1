"""Account enumeration by a sign-in's answer, through the HTTP API: an unknown name and a
wrong password get the same status, body and headers, and take as long as each other
(both check an Argon2id hash): their median times over 15 tries each are within half and
twice each other's. (The hashes, the limit on failed sign-ins and the cookie's flags:
``test_accounts.py``.)"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import httpx
from test_accounts import BUDGETS, client, sign_in, sign_up

from endeavor.web.accounts import MAX_FAILURES
from endeavor.web.app import create_app

TRIES = 15


def said(r: httpx.Response) -> list[tuple[str, str]]:
    """An answer's headers but its date."""
    return sorted((k, v) for k, v in r.headers.items() if k != "date")


def test_an_unknown_name_and_a_wrong_password_answer_alike(tmp_path: Path) -> None:
    made = create_app(f"sqlite:///{tmp_path}/t.db", bot_budgets=BUDGETS)
    # under the limits: a name fails at most MAX_FAILURES - 1 times, an address once
    per_name = MAX_FAILURES - 1
    names = [f"Eve{i}" for i in range(-(-TRIES // per_name))]
    for name in names:
        sign_up(client(made), name)
    sign_in(client(made, address="10.0.9.1"), "Nobody", "warm up")  # first-call costs
    wrong: list[float] = []
    unknown: list[float] = []
    for i in range(TRIES):  # interleaved, so that a busy moment slows both alike
        t0 = time.perf_counter()
        w = sign_in(client(made, address=f"10.0.0.{i}"), names[i // per_name], f"guess {i}")
        wrong.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        u = sign_in(client(made, address=f"10.0.1.{i}"), f"Nobody{i}", f"guess {i}")
        unknown.append(time.perf_counter() - t0)
        assert (w.status_code, w.json(), said(w)) == (u.status_code, u.json(), said(u))
        assert w.status_code == 401 and w.json()["detail"] == "wrong name or password"
    ratio = statistics.median(unknown) / statistics.median(wrong)
    assert 0.5 < ratio < 2, (ratio, wrong, unknown)
    # and the accounts exist: the right password still signs in
    assert sign_in(client(made, address="10.0.9.2"), names[0]).status_code == 200
