"""``satnono serve``: one page, and a small JSON API behind it, on Starlette.

Every request that solves runs :mod:`satnono.web.work` in a process of its own, killed at
its time limit, with its address space capped; at most ``workers`` such processes run at
once and at most ``queue`` more requests wait for one (past that the answer is 503, "busy"),
so many requests at once queue instead of bringing the server down. A request the page
tags with an ``id`` is stopped (its process killed) by ``/api/cancel`` with that id.
Request bodies have a size limit, puzzles a cell limit, and no request names a file on the
server: files come in the body. Bad input is a 400 with the one line the command line
would print.
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import SatnonoError, SearchTimeout
from ..runtime.deadline import Deadline


@dataclass(frozen=True)
class Limits:
    """What one request may take: seconds, memory (what its process may map beyond what it
    started with, forked from the server), body bytes, cells; and how many solver
    processes run at once and how many requests may wait for one."""

    timeout: float = 20.0
    memory: int = 2 << 30
    body: int = 2 << 20
    cells: int = 100 * 100
    workers: int = 2
    queue: int = 32


def _capped(memory: int, fn: Callable[..., dict[str, Any]], args: tuple[Any, ...]
            ) -> Iterator[dict[str, Any]]:
    """The request's process: cap its memory, do the work, yield the answer (errors as a
    dict with the one line the command line would print)."""
    import resource

    from ..runtime.child import allow_children

    allow_children()  # the solvers start processes of their own
    # the cap is on address space, and a fork starts with all of the server's (its loaded
    # libraries, its threads' stacks: a server embedded in a large process can start near
    # or past any fixed cap), so the request's memory is counted from where it starts
    cap = _mapped() + memory
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):  # pragma: no cover - a lower hard limit is kept
        pass
    try:
        yield fn(*args)
    except SatnonoError as exc:
        yield {"error": str(exc)}
    except MemoryError:
        yield {"error": "the puzzle needs more memory than this server gives one request"}


def _mapped() -> int:
    """Bytes of address space this process maps now (0 where /proc does not say)."""
    import os

    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class Pool:
    """At most ``limits.workers`` requests work at once, each in its own process; up to
    ``limits.queue`` more wait; the rest are refused."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._slots = threading.BoundedSemaphore(limits.workers)
        self._lock = threading.Lock()
        self._waiting = 0

    def run(self, fn: Callable[..., dict[str, Any]], args: tuple[Any, ...],
            cancel: threading.Event | None = None) -> tuple[int, dict[str, Any]]:
        """``fn(*args)`` in a child, killed at the time limit or when ``cancel`` is set
        (Cancel on the page, or a browser gone away): (HTTP status, the answer)."""
        with self._lock:
            if self._waiting >= self.limits.queue + self.limits.workers:
                return 503, {"error": "the server is busy: try again in a moment"}
            self._waiting += 1
        try:
            with self._slots:
                if cancel is not None and cancel.is_set():
                    return 499, {"error": "cancelled"}
                return self._child(fn, args, cancel)
        finally:
            with self._lock:
                self._waiting -= 1

    def _child(self, fn: Callable[..., dict[str, Any]], args: tuple[Any, ...],
               cancel: threading.Event | None) -> tuple[int, dict[str, Any]]:
        from ..runtime.child import stream

        deadline = Deadline.after(self.limits.timeout + 5)  # the work has its own limit
        try:
            answers = list(stream(_capped, (self.limits.memory, fn, args), deadline,
                                  what="solving", always=True,
                                  stopped=None if cancel is None else cancel.is_set))
        except SearchTimeout:
            return 408, {"error": f"the time limit of {self.limits.timeout:g} s ran out"}
        except SatnonoError as exc:  # the process died: how, in one line
            return 500, {"error": str(exc)}
        if not answers:
            return 499, {"error": "cancelled"}
        answer = answers[0]
        return (400 if "error" in answer else 200), answer


def _static(name: str) -> bytes:
    return resources.files("satnono.web").joinpath("static").joinpath(name).read_bytes()


STATIC = {"app.js": "text/javascript", "style.css": "text/css"}


def _warm() -> None:
    """Import what requests use once, here: each request's process is forked from this
    one and inherits it, instead of paying the imports every time."""
    from ..analyze import check, count, difficulty, uniqueness  # noqa: F401
    from ..backends import DEFAULT, backend

    for name in (DEFAULT, "native"):  # the page's solver, and its replay's
        backend(name).warm()


def make_app(limits: Limits | None = None) -> Any:
    """The Starlette application; ``uvicorn`` serves it (:func:`serve`)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from . import work

    limits = limits or Limits()
    pool = Pool(limits)
    _warm()

    async def page(request: Request) -> Response:
        return Response(_static("index.html"), media_type="text/html")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", status_code=404)
        return Response(_static(name), media_type=STATIC[name])

    async def body(request: Request) -> dict[str, Any] | JSONResponse:
        size = int(request.headers.get("content-length") or 0)
        if size > limits.body:
            return JSONResponse({"error": f"the request is {size:,} bytes; this server takes "
                                          f"at most {limits.body:,}"}, status_code=413)
        raw = b""
        try:
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > limits.body:
                    return JSONResponse({"error": f"the request is over {limits.body:,} "
                                                  "bytes"}, status_code=413)
        except ClientDisconnect:  # the client's doing: no traceback in the log
            return JSONResponse({"error": "the request was cut short"}, status_code=400)
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        except RecursionError:
            return JSONResponse({"error": "the request is nested too deeply"},
                                status_code=400)
        if not isinstance(data, dict):
            return JSONResponse({"error": "the request is not a JSON object"}, status_code=400)
        try:  # JSON lets a string hold half a UTF-16 pair ("\ud800"), which is no text
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return JSONResponse({"error": "the request holds text that is not valid Unicode "
                                          "(a lone surrogate)"}, status_code=400)
        return data

    def endpoint(fn: Callable[..., dict[str, Any]], *fields: str,
                 optional: tuple[str, ...] = ()) -> Callable[[Request], Any]:
        async def handle(request: Request) -> JSONResponse:
            data = await body(request)
            if isinstance(data, JSONResponse):
                return data
            if not all(isinstance(data.get(f), str) for f in fields):
                return JSONResponse({"error": "expected " + ", ".join(fields) + " as text"},
                                    status_code=400)
            given = {f: data[f] for f in fields}
            given.update({f: data[f] for f in optional if isinstance(data.get(f), str)})
            cancel = threading.Event()
            ticket = data.get("id")
            if isinstance(ticket, str) and ticket:
                if len(cancels) >= 4 * (limits.workers + limits.queue):
                    return JSONResponse({"error": "the server is busy: try again in a "
                                                  "moment"}, status_code=503)
                cancels[ticket] = cancel
            try:
                task = asyncio.ensure_future(run_in_threadpool(
                    pool.run, fn, (given, limits.cells, limits.timeout), cancel))
                while not task.done():  # Cancel on the page, or a browser gone away
                    await asyncio.wait({task}, timeout=0.5)
                    if not task.done() and await request.is_disconnected():
                        cancel.set()
                status, answer = task.result()
            finally:
                if isinstance(ticket, str):
                    cancels.pop(ticket, None)
            return JSONResponse(answer, status_code=status)
        return handle

    cancels: dict[str, threading.Event] = {}  # the requests under way, by the page's id

    async def cancel(request: Request) -> JSONResponse:
        data = await body(request)
        if isinstance(data, JSONResponse):
            return data
        event = cancels.get(str(data.get("id")))
        if event is not None:
            event.set()
        return JSONResponse({"cancelled": event is not None})

    async def info(request: Request) -> JSONResponse:
        return JSONResponse({"timeout": limits.timeout, "cells": limits.cells,
                             "body": limits.body, "exports": work.exports()})

    routes = [Route("/", page), Route("/static/{name}", asset),
              Route("/api/info", info),
              Route("/api/open", endpoint(work.open_file, "name", "data",
                                          optional=("fit", "index")), methods=["POST"]),
              Route("/api/check", endpoint(work.check, "puzzle"), methods=["POST"]),
              Route("/api/solve", endpoint(work.solve, "puzzle"), methods=["POST"]),
              Route("/api/count", endpoint(work.count, "puzzle"), methods=["POST"]),
              Route("/api/export", endpoint(work.export, "puzzle", "what"),
                    methods=["POST"]),
              Route("/api/cancel", cancel, methods=["POST"])]
    return Starlette(routes=routes)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port``, or a UsageError saying why not (a port in use,
    an address that is not this machine's) before the server says it serves."""
    from ..errors import UsageError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise UsageError(f"--host {host}: not an address to listen on "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        why = "the port is in use" if exc.errno == errno.EADDRINUSE else (
            exc.strerror or str(exc))
        raise UsageError(f"cannot serve on {host}:{port}: {why}") from None
    return sock


def open_page(url: str) -> bool:
    """Open ``url`` in a browser, or say that there is none here (a server over ssh, a
    container) and where the page is."""
    import webbrowser

    if webbrowser.open(url):
        return True
    sys.stderr.write(f"satnono: no browser found on this machine; open {url} in one\n")
    return False


def serve(host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None,
          open_browser: bool = False, sock: socket.socket | None = None) -> None:
    """Serve the page until interrupted (on ``sock`` when given: :func:`listen`)."""
    import uvicorn

    if open_browser:
        threading.Timer(1.0, open_page, (f"http://{host}:{port}/",)).start()
    config = uvicorn.Config(make_app(limits), host=host, port=port, log_level="warning",
                            access_log=False)
    server = uvicorn.Server(config)
    server.run(sockets=[sock] if sock is not None else None)
