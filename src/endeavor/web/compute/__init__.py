"""Where the server's engine work runs: the search bots' moves (``mcts``, ``hard``,
``expert``: in the background, and for a player whose time ran out) and the post-game
reviews, on the mypyc-compiled engine whenever one can be had (2 to 2.5 times faster
than pure Python), without making the server wait for one.

**Where.** ``endeavor serve`` itself always runs on the build it was installed as
(``make serve``: the editable, pure-Python install of ``.venv``, which starts in seconds).
An :class:`Engines` sends the heavy computations to *engine workers*: processes of
another interpreter, the one of a compiled install, each running this module
(``python -m endeavor.web.compute``) and answering one request at a time. Which
interpreter is the setting ``--engine-python`` (:data:`ENGINE_PYTHON_VAR`):

- ``auto`` (the default of ``endeavor serve``): the compiled build of this checkout,
  ``.venv-mypyc`` beside ``src/`` (what ``make compiled`` builds, and ``make serve``
  starts building in the background), as soon as its stamp
  (``.venv-mypyc/.installed-compiled``) exists;
- a path: that interpreter (a deployment's compiled install);
- ``pure``: none; everything runs in the server's own processes, as before.

An interpreter is used only once it answered a ``hello`` with this module's protocol
(:data:`PROTOCOL`) and the digest of the same engine sources as the server's
(:func:`engine_digest`): a build of other sources (the checkout edited since) could pick
moves the server's rules refuse, and its reviews would judge another game. Until then,
and whenever a worker fails (it died, it raised), the work is done in the server's
process on its own build, exactly as before the workers existed: so a missing, failed or
stale compiled build only costs speed. The stamp is looked at again every
:data:`CHECK_SECONDS`, so the switch happens without a restart once the build appears.

**Plain data.** Server and worker may be different builds (pure and compiled), so
nothing pickled crosses: a request is one line of JSON with the game's record (its
config and its action notations, which the worker replays, about a millisecond) and the
bot's name, seed and budget, or the review's options; the answer is the action's
notation, or the review's JSON. A review's callbacks (``progress``, ``on_decision``) are
lines the worker sends and the server acknowledges, so the server can stop a review at
any decision (its lease lost, the server stopping) and the worker is ready for the next
request. Bots are seeded by the game and the seq, so a move is the same wherever it is
computed (on both builds: they play identical games).

**Nothing lost.** The moves a bot makes are committed by the server, as before; the
reviews' jobs stay rows of the database with their leases (:mod:`endeavor.web.reviews`).
A worker is only a faster pair of hands: one that dies mid-request is replaced, and the
request is computed in the server's process instead.
"""

from __future__ import annotations

from .engines import (
    Engines,
    EngineStatus,
    Worker,
    WorkerFailed,
    build_state,
    local_status,
)
from .protocol import (
    AUTO,
    BUILD_LOG,
    BUILD_PID,
    BUILD_STATES,
    CHECK_SECONDS,
    CHECKOUT_VENV,
    ENGINE_PYTHON_VAR,
    PROTOCOL,
    PURE,
    RETRY_SECONDS,
    STAMP,
    checkout_root,
    engine_digest,
    main,
    own_digest,
    serve_requests,
)

__all__ = ["AUTO", "BUILD_LOG", "BUILD_PID", "BUILD_STATES", "CHECKOUT_VENV", "CHECK_SECONDS",
           "ENGINE_PYTHON_VAR", "PROTOCOL", "PURE", "RETRY_SECONDS", "STAMP", "EngineStatus",
           "Engines", "Worker", "WorkerFailed", "build_state", "checkout_root",
           "engine_digest", "local_status", "main", "own_digest", "serve_requests"]
