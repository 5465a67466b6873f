"""Searches off the event loop, each streamed to its request and stopped with it.

A search (an AI move, a hint, a review's win chances) runs in a bounded pool of worker
threads (the compiled search runs without the GIL). Its request gets a stream of JSON
lines (`application/x-ndjson`): {"event": "progress", "iterations", "seconds"} a few
times a second ({"event": "queued"} while it waits for a worker), then one {"event":
"done", "result": ...} or {"event": "error", "status", "error"}.

Stopping: the core's search calls a progress callback between its slices (every
PROGRESS_EVERY s); the job's callback raises Cancelled when the job was cancelled (the
stop endpoint, a new request) or when its stream has not been read for HEARTBEAT
seconds. A stream that is not read is a request that was cancelled or a page that was
closed: the server writes a line at least every TICK seconds, and a closed connection
stops taking them, so the search stops within HEARTBEAT + a slice. The same is the
terminal's Ctrl-C (KeyboardInterrupt from the same place in the search).
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import HTTPException
from fastapi.responses import StreamingResponse

log = logging.getLogger("gutenberg_ai.interfaces.web")

TICK = 0.25          # seconds between lines of a stream while a search runs or waits
HEARTBEAT = 3.0      # a stream not read for this long stops its search


class Cancelled(Exception):
    """A search stopped because its request went away or was cancelled."""


class Job:
    """One search: its cancel flag, its progress and its stream's heartbeat."""

    def __init__(self, loop, heartbeat: float = HEARTBEAT):
        self.loop = loop
        self.cancel = threading.Event()
        self.queue: asyncio.Queue = asyncio.Queue()
        self.beat = time.monotonic()
        self.heartbeat = heartbeat
        self.started = False

    def check(self):
        """Raise Cancelled if the job should stop (in the worker thread)."""
        if self.cancel.is_set() or time.monotonic() - self.beat > self.heartbeat:
            self.cancel.set()
            raise Cancelled()

    def progress(self, iterations: int, seconds: float, **more):
        """The search's progress callback (worker thread): report, or stop the search."""
        self.check()
        self.post("progress", iterations=int(iterations), seconds=round(float(seconds), 2), **more)

    def post(self, event: str, **data):
        self.loop.call_soon_threadsafe(self.queue.put_nowait, {"event": event, **data})


class JobStream(StreamingResponse):
    """A search's progress as lines of JSON, with its job (for the stop endpoint)."""

    job: Job


class Runner:
    """The worker pool: `workers` searches at once, at most `max_waiting` more queued
    (beyond that a request gets 503)."""

    def __init__(self, workers: int, max_waiting: int, heartbeat: float = HEARTBEAT):
        self.workers = workers
        self.max_waiting = max_waiting
        self.heartbeat = heartbeat
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="search")
        self.lock = threading.Lock()
        self.active = 0          # running or queued
        self.running = 0

    def shutdown(self):
        self.pool.shutdown(wait=False, cancel_futures=True)

    def stream(self, work, user_errors=(), on_end=None) -> JobStream:
        """Run `work(job)` in the pool and stream its progress and result. `work`
        raising one of `user_errors` ends the stream with a 422 error line; Cancelled
        ends it quietly. `on_end()` runs in the worker when the work is over."""
        with self.lock:
            if self.active >= self.workers + self.max_waiting:
                raise HTTPException(503, "the server is busy with other searches: try again in a moment")
            self.active += 1
        loop = asyncio.get_running_loop()
        job = Job(loop, self.heartbeat)

        def run():
            with self.lock:
                self.running += 1
            final: dict[str, Any] = {"event": "error", "status": 500,
                                     "error": "the search failed (the server's log says why)"}
            try:
                job.check()            # a request gone while it waited
                job.started = True
                final = {"event": "done", "result": work(job)}
            except Cancelled:
                final = {"event": "error", "status": 499, "error": "the search was stopped"}
            except user_errors as e:
                final = {"event": "error", "status": 422, "error": str(e)}
            except Exception:   # a bug: logged here, never a traceback to the page
                log.exception("search failed")
                final = {"event": "error", "status": 500, "error": "the search failed (the server's log says why)"}
            finally:
                with self.lock:
                    self.active -= 1
                    self.running -= 1
                try:
                    if on_end is not None:
                        on_end()
                except Exception:   # a bug; the stream must still end
                    log.exception("ending a search failed")
                # Last: what was held is free again before the page hears the end.
                job.post(**final)

        self.pool.submit(run)

        async def lines():
            try:
                while True:
                    try:
                        message = await asyncio.wait_for(job.queue.get(), TICK)
                    except asyncio.TimeoutError:
                        message = {"event": "progress" if job.started else "queued"}
                    yield json.dumps(message) + "\n"
                    job.beat = time.monotonic()   # the line was taken: someone is reading
                    if message["event"] in ("done", "error"):
                        return
            finally:
                job.cancel.set()

        response = JobStream(lines(), media_type="application/x-ndjson",
                               headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        response.job = job     # for the stop endpoint
        return response
