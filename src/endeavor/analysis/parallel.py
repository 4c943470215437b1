"""Running tasks in parallel for the adapters that play many games or searches
(:mod:`endeavor.analysis.tournament`, :mod:`endeavor.analysis.review`,
:mod:`endeavor.analysis.train`): in this process, on a pool of spawned local processes,
or as Ray tasks.

A *task* is a picklable value (a dict of settings) that a module-level ``function``
turns into a picklable result: ``function(task, *shared)``, where ``shared`` are
arguments the same for every task (a bot factory, the networks of a training run). The
results are handed to ``handle`` as they finish (to count progress, save them, or stop
at the first failure by raising) and returned in the order of the tasks.

Backends (:data:`BACKENDS`):

- ``local``: one worker runs the tasks in this process; more run them on a pool of
  processes started with ``spawn`` (a script that runs tasks on several workers needs
  the usual ``if __name__ == "__main__":`` guard; ``function`` and ``shared`` must be
  importable or picklable). The workers ignore Ctrl-C: the parent gets it and
  terminates them, as it does when ``handle`` raises. :class:`LocalPool` keeps its
  processes from one run to the next (a training run's generations).
- ``ray``: Ray tasks (``num_cpus=1`` each, no retries) on the Ray instance this process
  is connected to, else on a local one of ``workers`` CPUs or the cluster at
  ``address``, started for the run and shut down after it (:func:`using_ray` keeps one
  for a longer block). ``shared`` goes once through Ray's object store. Ray is an
  optional extra (``pip install 'endeavor[ray]'``); ``endeavor`` must be importable on
  every node.

The errors of the settings and of the optional imports are raised as the caller's
exception class (``error``), so each adapter keeps its own (``TournamentError``...).

Interpreted in the compiled build (``setup.py``'s ``INTERPRETED``): Ray's ``remote``
takes only Python functions, and :func:`python_function` wraps the caller's (native
code when its module is compiled, like :mod:`endeavor.analysis.tournament`) in one built from
source text, which stays Python whichever build runs.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

from ..errors import EndeavorError

BACKENDS = ("local", "ray")
#: the error class an adapter raises for bad settings and a missing optional extra
ErrorClass = type[Exception]

R = TypeVar("R")


# --------------------------------------------------------------------------- settings
def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


def check_backend(backend: str, address: str | None,
                  error: ErrorClass = EndeavorError) -> None:
    """Raise ``error`` for a backend not in :data:`BACKENDS`, or an address without
    the ray backend."""
    if backend not in BACKENDS:
        raise error(f"unknown backend {backend!r}: choose from {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise error("an address is for the ray backend only")


def check_workers(workers: object, error: ErrorClass = EndeavorError) -> int:
    """``workers`` if it is a whole number of at least 1, else raise ``error``."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise error(f"workers must be at least 1, not {workers!r}")
    return workers


def import_optional(module: str, extra: str, purpose: str,
                    error: ErrorClass = EndeavorError) -> Any:
    """Import ``module``, or raise ``error`` saying which extra ``purpose`` needs
    (``"--plot needs matplotlib: pip install 'endeavor[plot]'"``)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise error(f"{purpose} needs {module.split('.')[0]}: "
                    f"pip install 'endeavor[{extra}]'") from None


def plot_formats(error: ErrorClass = EndeavorError) -> dict[str, str]:
    """The file types matplotlib's Agg canvas writes (suffix -> description), which the
    ``--plot`` of tournaments, reviews and training runs take; ``error`` without
    matplotlib."""
    import_optional("matplotlib", "plot", "--plot", error)
    backend_agg = importlib.import_module("matplotlib.backends.backend_agg")
    formats: dict[str, str] = backend_agg.FigureCanvasAgg.get_supported_filetypes()
    return formats


def require_ray(error: ErrorClass = EndeavorError) -> Any:
    """The ``ray`` module, or ``error`` saying that the ray backend needs it."""
    return import_optional("ray", "ray", "the ray backend", error)


# --------------------------------------------------------------------------- local
def ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which terminates them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: its pending tasks cancelled, its running ones killed (rather
    than waited for: a game may take minutes)."""
    stop = getattr(pool, "terminate_workers", None)  # Python 3.14
    if stop is not None:  # pragma: no cover - newer Pythons
        stop()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    pool.shutdown(wait=True)


class LocalPool:
    """Runs tasks in this process (``workers=1``) or on a pool of ``workers`` spawned
    processes, started at the first run and kept until :meth:`close` (or the end of a
    ``with`` block), so that several runs share them."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, function: Callable[..., R], tasks: Sequence[Any],
            handle: Callable[[R], None] | None = None, shared: Sequence[Any] = ()
            ) -> list[R]:
        """``function(task, *shared)`` for every task; ``handle`` gets each result as it
        finishes; the results in the order of ``tasks``. When anything raises (a task,
        ``handle``, Ctrl-C) the pool is terminated and the error goes on."""
        results: list[Any] = [None] * len(tasks)
        if self.workers <= 1:
            for i, task in enumerate(tasks):
                results[i] = function(task, *shared)
                if handle is not None:
                    handle(results[i])
            return results
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=ignore_sigint)
        index: dict[Future[R], int] = {self._pool.submit(function, task, *shared): i
                                       for i, task in enumerate(tasks)}
        pending = set(index)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    results[index[future]] = future.result()
                    if handle is not None:
                        handle(results[index[future]])
        except BaseException:
            pool, self._pool = self._pool, None
            _terminate(pool)
            raise
        return results

    def close(self) -> None:
        """Shut the processes down (the next run starts new ones)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def run_local(function: Callable[..., R], tasks: Sequence[Any],
              handle: Callable[[R], None] | None = None, *, shared: Sequence[Any] = (),
              workers: int = 1) -> list[R]:
    """:meth:`LocalPool.run` on a pool of ``workers`` processes (no more than there
    are tasks) for this run only."""
    with LocalPool(min(workers, len(tasks))) as pool:
        return pool.run(function, tasks, handle, shared)


# --------------------------------------------------------------------------- Ray
def python_function(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` wrapped in a plain Python function. Ray's ``remote`` takes only
    Python functions, and in the mypyc-compiled build every function of a compiled
    module (:mod:`endeavor.analysis.tournament`'s) is native code; the wrapper is built from
    source text so that it stays Python in both builds, whether this module is compiled
    or not (Ray pickles it by value, and ``function`` by reference)."""
    namespace: dict[str, Any] = {"__name__": __name__, "function": function}
    exec("def task(*args, **kwargs):\n    return function(*args, **kwargs)\n", namespace)
    wrapper: Callable[..., Any] = namespace["task"]
    wrapper.__qualname__ = wrapper.__name__ = f"{function.__name__}_task"
    return wrapper


def start_ray(workers: int, address: str | None, error: ErrorClass = EndeavorError
              ) -> bool:
    """Initialise Ray (a local instance of ``workers`` CPUs, or the cluster at
    ``address``) unless it is; True if this call started it. Raises ``error`` when Ray
    is missing or does not start."""
    ray = require_ray(error)
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "logging_level": logging.ERROR}
    try:
        if address:
            ray.init(address=address, **options)
        else:  # a new instance of its own, even beside a cluster started on this machine
            ray.init(address="local", num_cpus=workers, **options)
    except Exception as e:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise error(f"could not start {where}: {type(e).__name__}: "
                    f"{' '.join(str(e).split())[:300]}") from None
    return True


@contextmanager
def using_ray(workers: int, address: str | None, error: ErrorClass = EndeavorError
              ) -> Iterator[Any]:
    """Ray for the ``with`` block (the ``ray`` module): started by :func:`start_ray`
    unless it runs already, and then shut down at the end."""
    ray = require_ray(error)
    started = start_ray(workers, address, error)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def run_ray(function: Callable[..., R], tasks: Sequence[Any],
            handle: Callable[[R], None] | None = None, *, shared: Sequence[Any] = (),
            workers: int = 1, address: str | None = None,
            error: ErrorClass = EndeavorError) -> list[R]:
    """``function(task, *shared)`` for every task as Ray tasks (see the module
    docstring); ``handle`` gets each result as it finishes; the results in the order of
    ``tasks``. The tasks not finished when anything raises are cancelled."""
    results: list[Any] = [None] * len(tasks)
    with using_ray(workers, address, error) as ray:
        pending: list[Any] = []
        try:
            remote = ray.remote(num_cpus=1, max_retries=0)(python_function(function))
            refs = [ray.put(value) for value in shared]
            pending = [remote.remote(task, *refs) for task in tasks]
            index = {ref: i for i, ref in enumerate(pending)}
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    results[index[ref]] = ray.get(ref)
                    if handle is not None:
                        handle(results[index[ref]])
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
    return results


# --------------------------------------------------------------------------- either
def run(function: Callable[..., R], tasks: Sequence[Any],
        handle: Callable[[R], None] | None = None, *, shared: Sequence[Any] = (),
        backend: str = "local", workers: int = 1, address: str | None = None,
        error: ErrorClass = EndeavorError, pool: LocalPool | None = None) -> list[R]:
    """``function(task, *shared)`` for every task on ``backend``: :func:`run_ray`, or
    ``pool``'s :meth:`LocalPool.run` (default: :func:`run_local` with ``workers``).
    ``handle`` gets each result as it finishes; the results in the order of ``tasks``."""
    if backend == "ray":
        return run_ray(function, tasks, handle, shared=shared, workers=workers,
                       address=address, error=error)
    if pool is not None:
        return pool.run(function, tasks, handle, shared)
    return run_local(function, tasks, handle, shared=shared, workers=workers)


__all__ = ["BACKENDS", "LocalPool", "check_backend", "check_workers", "default_workers",
           "ignore_sigint", "import_optional", "plot_formats", "python_function",
           "require_ray", "run", "run_local", "run_ray", "start_ray", "using_ray"]
