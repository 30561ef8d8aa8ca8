"""``python -m engine.web [--host 127.0.0.1] [--port 8000] [--runs DIR ...]``: serve the browser
board, to play, watch and replay every registered game.

Binds to localhost unless ``--host`` says otherwise; only files under the ``--runs`` directories
(and each game's shipped reference weights) can be loaded by the page. Agents think in worker
processes within the limits below (``engine.web.limits``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.core.commands.helptext import summary
from engine.core.commands.version import add_version_flag
from engine.web.limits import Limits

GRACE_SECONDS = 3  # on Ctrl-C, requests still open after this are cancelled
# The ``Limits`` fields a command-line flag sets (``--max-depth`` ...): name, metavar, help.
LIMIT_FLAGS = (
    ("max_depth", "D", "deepest fixed-depth search a page may ask"),
    ("max_seconds", "S", "most seconds per move a page may ask"),
    ("max_nodes", "N", "largest number (playouts, nodes) in an agent spec"),
    ("move_seconds", "S", "any agent move is stopped after this many seconds, whatever it was "
                          "asked"),
    ("max_clock", "S", "most seconds per player of a game clock a page may ask"),
    ("queue", "N", "searches that may wait for a worker; more are refused with a 429"),
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    defaults = Limits()
    parser = argparse.ArgumentParser(prog="python -m engine.web",
                                     description=summary(__doc__))
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: localhost)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (0: any free port)")
    parser.add_argument("--runs", nargs="*", default=[], metavar="DIR",
                        help="run directories (or folders of runs) whose champions and recorded "
                             "games the page may load")
    parser.add_argument("--agent-workers", type=int, default=1, metavar="N",
                        help="processes agents think in, one search each at a time (default 1)")
    add_version_flag(parser)
    limits = parser.add_argument_group("limits", "what a request may ask, and any search gets")
    for name, metavar, what in LIMIT_FLAGS:
        default = getattr(defaults, name)
        kind = type(default)
        shown = f"{default:g}" if kind is float else default
        limits.add_argument("--" + name.replace("_", "-"), type=kind, default=default,
                            metavar=metavar, help=f"{what} (default {shown})")
    return parser.parse_args(argv)


def limits_of(args: argparse.Namespace) -> Limits:
    return Limits(**{name: getattr(args, name) for name, _, _ in LIMIT_FLAGS})


def check_args(args: argparse.Namespace) -> None:
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be in 0..65535, got {args.port}")
    if not 1 <= args.agent_workers <= 64:
        raise ValueError(f"--agent-workers must be in 1..64, got {args.agent_workers} (agents "
                         "think in worker processes so that the server can stop a search; "
                         "threads, the old 0, cannot be stopped)")
    limits_of(args).check()
    for directory in args.runs:
        if not Path(directory).is_dir():
            raise ValueError(f"--runs: {directory} is not a directory")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        check_args(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    import uvicorn

    from engine.web.app import create_app
    from engine.web.hosts import is_loopback
    from engine.web.thinking import ProcessThinker

    thinker = ProcessThinker(args.agent_workers, limits_of(args))
    app = create_app([Path(d) for d in args.runs], local_only=is_loopback(args.host),
                     thinker=thinker)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            timeout_graceful_shutdown=GRACE_SECONDS)
    server = uvicorn.Server(config)
    _announce_url(server, args.host)
    _stop_searches_first(server, thinker)
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it handled: the usual way to stop
        pass
    finally:
        thinker.close()  # in case the server stopped before its shutdown ran
    return 0


def _stop_searches_first(server, thinker) -> None:
    """On shutdown, stop the agents before waiting for open requests: a search in progress is
    answered with a 503 at once instead of holding the server until it ends."""
    shutdown = server.shutdown

    async def stop_then_shutdown(sockets=None):
        thinker.close()
        await shutdown(sockets=sockets)

    server.shutdown = stop_then_shutdown


def _announce_url(server, host: str) -> None:
    """Print the URL once the socket is bound (so ``--port 0`` prints the real port)."""
    startup = server.startup

    async def startup_and_print(sockets=None):
        await startup(sockets=sockets)
        for socket in (s for srv in server.servers for s in srv.sockets):
            port = socket.getsockname()[1]
            shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
            print(f"board-evolve web: http://{shown}:{port}/", flush=True)
            break

    server.startup = startup_and_print


if __name__ == "__main__":
    sys.exit(main())
