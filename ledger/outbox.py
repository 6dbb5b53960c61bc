"""Work that must not be done inside the request: the account mails (sign-up, password
reset). Whether an address has an account must not change what the page answers, nor
how fast: the request only checks the form, counts the limits and hands the job here,
the same for every address; looking the address up, making tokens and talking to the mail
server happen afterwards.

``TABLESTAKES_OUTBOX`` says where:

- ``"thread"`` (the default): once the response is finished, the request's jobs go to one
  background thread per process, which runs them in order while the worker answers other
  requests. A job waits in memory: a worker killed with
  jobs queued loses them (the person asks again); at a normal exit the queue is drained
  for up to ``DRAIN_SECONDS``.
- ``"after_response"`` (the tests): the jobs run in the request's own thread once the
  response is finished (Django's ``request_finished``), so the test client sees the mail
  when ``post`` returns, deterministically. Outside a request a job runs at once.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
from collections.abc import Callable

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import connections

log = logging.getLogger("ledger.outbox")

MAX_QUEUED = 1000
DRAIN_SECONDS = 10

_jobs: queue.Queue = queue.Queue(maxsize=MAX_QUEUED)
_worker: threading.Thread | None = None
_worker_lock = threading.Lock()
_local = threading.local()


def defer(job: Callable, *args, **kwargs) -> None:
    """Run ``job(*args, **kwargs)`` after the response, away from the request. In a
    request the job waits until the response is finished (sent, under gunicorn): it then
    cannot slow the answer of the request that asked for it."""
    if getattr(_local, "in_request", False):
        _local.pending.append((job, args, kwargs))
    elif _inline():
        _run(job, args, kwargs)
    else:
        _enqueue(job, args, kwargs)


def _inline() -> bool:
    return getattr(settings, "TABLESTAKES_OUTBOX", "thread") == "after_response"


def _enqueue(job, args, kwargs) -> None:
    try:
        _jobs.put_nowait((job, args, kwargs))
    except queue.Full:
        log.error("outbox full (%d jobs): %s dropped", MAX_QUEUED, getattr(job, "__name__", job))
        return
    _ensure_worker()


def drain(timeout: float = DRAIN_SECONDS) -> bool:
    """Wait until every queued job has run (True) or ``timeout`` seconds passed (False)."""
    done = threading.Event()

    def waiter():
        _jobs.join()
        done.set()

    threading.Thread(target=waiter, daemon=True).start()
    return done.wait(timeout)


def _run(job, args, kwargs) -> None:
    try:
        job(*args, **kwargs)
    except Exception:  # a job's failure is logged, never the request's
        log.exception("outbox job %s failed", getattr(job, "__name__", job))


def _work() -> None:
    while True:
        job, args, kwargs = _jobs.get()
        try:
            _run(job, args, kwargs)
        finally:
            connections.close_all()  # this thread's own connections
            _jobs.task_done()


def _ensure_worker() -> None:
    global _worker
    with _worker_lock:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="tablestakes-outbox", daemon=True)
            _worker.start()


@atexit.register
def _drain_at_exit() -> None:
    if _worker is not None and _worker.is_alive():
        drain(DRAIN_SECONDS)


def _started(**kwargs) -> None:
    _local.in_request = True
    _local.pending = []


def _finished(**kwargs) -> None:
    pending = getattr(_local, "pending", [])
    _local.in_request = False
    _local.pending = []
    for job, args, kwargs_ in pending:
        if _inline():
            _run(job, args, kwargs_)
        else:
            _enqueue(job, args, kwargs_)


request_started.connect(_started, dispatch_uid="tablestakes-outbox-started")
request_finished.connect(_finished, dispatch_uid="tablestakes-outbox-finished")
