"""explain-sudoku serve: the learner's page, a local web application (docs/serve.md).

Needs the optional ``[serve]`` extra (Starlette and uvicorn); without it, one line says how to
install it (status 2). The socket is bound here, before anything starts, so that a port in use
is one line and status 3; Ctrl-C stops the server, its workers with it, within seconds.
"""
from __future__ import annotations

import argparse
import errno
import socket
import sys
import webbrowser
from collections.abc import Sequence

from .common import EXIT_BAD_INPUT, EXIT_OK, EXIT_OUTPUT, error, run_alone
from .options import integer, real

HELP = "the learner's page: play a grid in your browser, with hints, checks and drawn steps"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
INSTALL = "explain-sudoku serve needs the serve extra: pip install 'sudoku-explainer[serve]'"


def configure(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Serve the learner's page: paste or pick a puzzle, play it (values, pencil marks, undo), ask "
        "for a check or a progressive hint drawn on your own grid, ask why a mistake is wrong, claim a "
        "step, explain the rest of the puzzle. Open the address it prints in any browser; Ctrl-C "
        "stops it. The page works offline and keeps your progress in the browser. Listens on "
        "127.0.0.1 (this computer only) unless --host says otherwise. Needs the serve extra: "
        "pip install 'sudoku-explainer[serve]'.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only; another address "
                        "makes the page reachable from the network)")
    p.add_argument("--port", type=integer(1, 65535, name="--port"), default=8765,
                   help="port to listen on (default 8765)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--bank", metavar="FILE",
                   help="a puzzle bank (explain-sudoku db build) the page may pick puzzles from; read-only")
    p.add_argument("--hint-seconds", type=real(0, 600, open_low=True), default=5.0, metavar="S",
                   help="time limit of a hint (and of each engine request, an explanation six times it); "
                        "past it the page says so and the worker is replaced (default 5)")
    p.add_argument("--workers", type=integer(1, 64, name="--workers"), default=None, metavar="N",
                   help="engine processes answering requests at once (default: the cores)")


def reachable(host: str) -> bool:
    """True when listening on ``host`` makes the page reachable from other computers."""
    import ipaddress

    if host.lower() in LOOPBACK:
        return False
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return True  # a name: it may resolve to anything


def main(argv: Sequence[str] | None = None) -> int:
    return run_alone("serve", sys.modules[__name__], argv)


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (OSError when the port is taken or the address is not ours)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    infos = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
    # with the address's protocol (IPPROTO_TCP), so that asyncio sets TCP_NODELAY on each connection
    # (it checks the protocol): without it, an answer's headers and body wait ~40 ms for an ACK
    sock = socket.socket(infos[0][0], socket.SOCK_STREAM, infos[0][2])
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(infos[0][4])
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        error(INSTALL)
        return EXIT_BAD_INPUT
    from pathlib import Path

    from explainer.app.serve.app import Config, create_app
    from explainer.model.grid import PuzzleError

    bank = None
    if args.bank is not None:
        path = Path(args.bank)
        if not path.is_file():
            error(f"--bank: {args.bank}: no such file")
            return EXIT_BAD_INPUT
        bank = str(path.resolve())
    try:
        sock = bind(args.host, args.port)
    except socket.gaierror as e:
        error(f"--host: {args.host}: not an address of this computer ({e.strerror or e})")
        return EXIT_BAD_INPUT
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            error(f"--port: port {args.port} is in use on {args.host} (stop what uses it, or give another --port)")
        elif e.errno == errno.EADDRNOTAVAIL:
            error(f"--host: {args.host} is not an address of this computer")
            return EXIT_BAD_INPUT
        else:
            error(f"--host/--port: cannot listen on {args.host}:{args.port} ({e.strerror or e})")
        return EXIT_OUTPUT
    config = Config(host=args.host, port=args.port, hint_seconds=args.hint_seconds, workers=args.workers,
                    bank=bank)
    try:
        app = create_app(config)
    except PuzzleError as e:  # a bank that cannot be read (DatabaseError)
        sock.close()
        error(f"--bank: {e}")
        return EXIT_BAD_INPUT
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else shown}:{args.port}/"
    if reachable(args.host):
        print(f"explain-sudoku: warning: listening on {args.host}: the page is reachable from the network",
              file=sys.stderr)
    print(f"explain-sudoku serve: {url} (Ctrl-C stops it)", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                           timeout_graceful_shutdown=2))
    config.stopping = lambda: server.should_exit  # requests in flight end at once on Ctrl-C
    if args.open:
        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
