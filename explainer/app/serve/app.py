"""The learner's page as an ASGI application (Starlette), served by uvicorn (``cli/serve.py``).

Stateless: every request carries the whole position and gets JSON back (docs/serve.md); the
engine runs in a pool of worker processes (``pool``), each request with a time limit. This
module only carries requests: the Host check (DNS rebinding), the body limit (64 KB, counted
as it arrives, chunked bodies too), the security headers, JSON in and out, and the status of
each failure (4xx one line, 504 past the time limit, 500 for an engine error).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .pool import Cancelled, EngineError, Pool, Timeout
from .position import BadRequest

STATIC = Path(__file__).resolve().parent / "static"
BODY_BYTES = 65536
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "object-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
# the requests the worker pool runs, and how many hint limits each may take
ENGINE = {"start": 1, "check": 1, "hint": 1, "apply": 1, "why": 2, "claim": 2, "explain": 6, "scene": 6,
          "generate": 6, "bank": 1}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]


@dataclass
class Config:
    """What the server was started with."""

    host: str = "127.0.0.1"
    port: int = 8765
    hint_seconds: float = 5.0
    workers: int | None = None
    bank: str | None = None
    # Host header values accepted (host:port); empty: those of host and port (``allowed_hosts``)
    hosts: set[str] = field(default_factory=set)
    meta: dict[str, Any] = field(default_factory=dict)
    # True once the server is stopping (Ctrl-C): requests in flight end at once (503)
    stopping: Callable[[], bool] = lambda: False


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host header values of the address served: localhost, 127.0.0.1 and ``host``, with the port
    (and without it on port 80)."""
    names = {"localhost", "127.0.0.1", "[::1]", host if ":" not in host or host.startswith("[") else f"[{host}]"}
    out = {f"{name}:{port}" for name in names}
    if port == 80:
        out |= names
    return {h.lower() for h in out}


WILDCARDS = ("0.0.0.0", "::", "")


def ip_host(host: str, port: int) -> bool:
    """True for a Host header naming an IP address (not a name) with the served port: what a
    browser sends to a server listening on every address (a DNS rebinding needs a name)."""
    import ipaddress

    name, _, tail = host.rpartition(":")
    if tail != str(port):
        return False
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class Guard:
    """ASGI middleware: refuse a Host header not of the served address (421), add the security
    headers to every response. ``any_ip``: the server listens on every address (``--host
    0.0.0.0``): any IP address with the port is the served address too."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], any_ip: int | None = None) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.any_ip = any_ip

    def allowed(self, host: str) -> bool:
        host = host.lower()
        return host in self.hosts or (self.any_ip is not None and ip_host(host, self.any_ip))

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), "")

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                for k, v in HEADERS.items():
                    if k.lower().encode() not in have:
                        headers.append((k.lower().encode(), v.encode()))
                message["headers"] = headers
            await send(message)

        if not self.allowed(host):
            response = JSONResponse({"error": f"this server answers for {sorted(self.hosts)[0]} only, "
                                              f"not the Host {host!r}"}, status_code=421)
            await response(scope, receive, secured)
            return
        origin = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"origin"), None)
        if origin is not None and origin != "null" and not self.allowed(urlsplit(origin).netloc):
            # another site's page posting to this one (its answer unread, but the work done)
            response = JSONResponse({"error": f"requests from another site ({origin}) are refused"}, status_code=403)
            await response(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


def error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status)


async def read_body(request: Request, limit: int = BODY_BYTES) -> Any:
    """The JSON body, at most ``limit`` bytes (counted as they arrive); BadRequest otherwise.
    Only ``application/json`` is read: a browser asks before sending that to another site (a
    CORS preflight, which this server never grants), so no other site's page can post here."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest("requests carry JSON (Content-Type: application/json)", 415)
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise BadRequest(f"the request body is larger than {limit // 1024} KB", 413)
        except ValueError:
            raise BadRequest("bad Content-Length") from None
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(f"the request body is larger than {limit // 1024} KB", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        body = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise BadRequest(f"the request body is not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except RecursionError:
        raise BadRequest("the request body is nested too deeply") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body is a JSON object")
    return body


async def watched(request: Request, work: Awaitable[Any], gone: threading.Event,
                  stopping: Callable[[], bool], pool: Pool) -> Any:
    """``work``'s result; meanwhile, if the client goes away (the learner cancelled the hint),
    ``gone`` is set so that the pool may end the job (``Pool.run``); if the server is stopping,
    the job ends at once (``Cancelled``), so that Ctrl-C never waits for a long hint."""
    task = asyncio.ensure_future(work)
    while True:
        done, _ = await asyncio.wait({task}, timeout=0.1)
        if done:
            return task.result()
        if stopping():
            pool.closing = True
            gone.set()
        elif not gone.is_set() and await request.is_disconnected():
            gone.set()


def version() -> str:
    try:
        return metadata.version("sudoku-explainer")
    except metadata.PackageNotFoundError:  # pragma: no cover - a checkout without installing
        return "0"


def make_meta(config: Config) -> dict[str, Any]:
    """What the page reads once: languages, orders, themes, techniques, limits, the bank.

    ``palettes`` is the themes' older name, kept (the same object) for pages written
    against it; deprecated (docs/serve.md)."""
    from explainer.engine.orders import ORDERS
    from explainer.model.rating import DIFFICULTY_BANDS
    from render.scenejson import themes_dict
    from techniques import REGISTRY, title

    from .more import bank_info

    themes = themes_dict()
    return {
        "version": version(),
        "languages": ["en", "fr"],
        "orders": list(ORDERS),
        "themes": themes,
        "palettes": themes,  # deprecated: the older name of "themes"
        "techniques": [{"name": t.name, "title": {"en": title(t.name, "en"), "fr": title(t.name, "fr")}}
                       for t in REGISTRY],
        "sizes": [4, 9, 16, 25],
        "bank": bank_info(config.bank),
        "difficulties": [name for _, name in DIFFICULTY_BANDS],
        "limits": {"hint_seconds": config.hint_seconds, "body_bytes": BODY_BYTES},
    }


def create_app(config: Config | None = None, pool: Pool | None = None) -> Any:
    """The ASGI application (the Guard around Starlette). ``pool``: the engine's workers
    (default: ``config.workers`` processes), started and ended with the application."""
    config = config or Config()
    if not config.meta:
        config.meta = make_meta(config)
    engine = pool or Pool(config.workers, config.bank)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def meta(request: Request) -> Response:
        return JSONResponse(config.meta)

    async def call(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ENGINE:
            return error(f"no such request: /api/{name}", 404)
        gone = threading.Event()
        try:
            body = await read_body(request)
            seconds = config.hint_seconds * ENGINE[name]
            answer = await watched(request, engine.run(name, body, seconds, gone), gone, config.stopping, engine)
        except Cancelled:
            if config.stopping():
                return error("the server is stopping", 503)
            return error("cancelled", 499)
        except BadRequest as e:
            return error(e.message, e.status)
        except Timeout:
            return error(f"the {name} took longer than {config.hint_seconds * ENGINE[name]:g} s; try again, "
                         f"or start the server with a larger --hint-seconds", 504)
        except EngineError as e:
            return error(f"engine error: {e}", 500)
        return Response(answer, media_type="application/json")

    async def not_found(request: Request, exc: Exception) -> Response:
        return error(f"not found: {request.url.path}", 404)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return error(f"{request.method} is not allowed on {request.url.path}", 405)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await engine.start()
        try:
            yield
        finally:
            engine.close()

    routes = [
        Route("/", page, methods=["GET", "HEAD"]),
        Route("/api/meta", meta, methods=["GET"]),
        Route("/api/{name}", call, methods=["POST"]),
        Route("/favicon.ico", lambda request: PlainTextResponse("", status_code=204), methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    # compressed for a browser that asks (all do): a hint's scenes list every candidate of every
    # frame, and repeat; level 6 keeps the CPU spent small
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(GZipMiddleware, compresslevel=6)],
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.config = config
    app.state.pool = engine
    hosts = config.hosts or allowed_hosts(config.host, config.port)
    if config.host in WILDCARDS:
        hosts |= allowed_hosts(socket.gethostname(), config.port) | allowed_hosts(socket.getfqdn(), config.port)
    return Guard(app, hosts, config.port if config.host in WILDCARDS else None)
