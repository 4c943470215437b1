"""``endeavor serve``'s background process: the work that follows a move, apart from the
web workers.

The notifications a move calls for are rows of the ``outbox`` table, written in the
move's own transaction (see :mod:`endeavor.web.store`); sending them (reading the game,
composing, a webhook's HTTP round trip, an SMTP session, retries) is done here, in a
process of its own that the supervisor starts beside the web workers and starts again if
it dies (:mod:`endeavor.web.supervisor`). So a slow or dead receiver, or a burst of
messages, never takes a web worker's time (its GIL) from the requests: under
``python -m tools.loadtest --games 200 --notify`` the sending cost a worker that did it itself
a move round trip several times longer. The process finds new rows by polling the
outbox (:data:`POLL_SECONDS`), claims each with the outbox's lease, so it may run beside
web workers that send themselves (``create_app(send_notifications=True)``, the default
of an app made in-process, e.g. by tests, and of Uvicorn run by hand on
``app_from_env``) and beside another server's background process on the same
database.

It also runs the post-game reviews (:class:`endeavor.web.reviews.Reviewer`): the rows
of the ``reviews`` table that the entry ending a game wrote, one game at a time, in a
thread of lower priority, with the same kind of lease (a review left by a process that
died is taken over, and resumed, when its lease runs out). A review is seconds to
minutes of one core: here it takes none of a web worker's (nor its GIL). The review
itself is computed by an engine worker on the compiled engine when there is one
(:mod:`endeavor.web.compute`), by this process otherwise.
"""

from __future__ import annotations

import logging
import signal
import threading
from dataclasses import replace
from typing import Any, Final

from . import db
from .compute import Engines
from .links import Links
from .notify import Notifier, NotifySettings
from .ratings import Rater
from .reviews import Reviewer, ReviewSettings
from .store import Store

log = logging.getLogger("endeavor.web")

#: how often the background process looks at the outbox (seconds): a notification
#: leaves at most this long after the move's commit (plus its send)
POLL_SECONDS: Final = 0.5
#: set to ``background`` by ``endeavor serve``: its web workers leave sending to the
#: background process (:func:`endeavor.web.app.app_from_env` reads it)
SENDER_VAR: Final = "ENDEAVOR_NOTIFY_SENDER"


def main(url: str | None = None) -> None:
    """Send notifications and run the post-game reviews until SIGTERM or SIGINT (the
    supervisor's stop): the database at ``url`` (default ``$ENDEAVOR_DB``), the links
    and settings from the environment ``endeavor serve`` set."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s")
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    engine = db.make_engine(url, pool_size=3)
    try:
        store = Store(engine)
        settings = replace(NotifySettings.from_env(), poll_seconds=POLL_SECONDS)
        notifier = Notifier(store, Links.from_env(), settings)
        review_settings = ReviewSettings.from_env()
        engines = Engines.from_env(nice=review_settings.nice)
        reviewer = (Reviewer(store, review_settings, engines=engines)
                    if review_settings.enabled else None)
        rater = Rater(store)  # the rated games' ratings (also rated by the web workers)
        notifier.start()
        rater.start()
        if reviewer is not None:
            reviewer.start()
        try:
            stop.wait()
        finally:
            rater.stop()
            if reviewer is not None:
                reviewer.stop()
            engines.close()
            notifier.stop()
    finally:
        engine.dispose()
