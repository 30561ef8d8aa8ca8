"""``python -m engine.web [--host 127.0.0.1] [--port 8000] [--runs DIR ...]``: serve the board.

Binds to localhost unless ``--host`` says otherwise; only files under the ``--runs`` directories
(and each game's shipped reference weights) can be loaded by the page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.web",
                                     description=__doc__.split("\n")[0].strip("`: "))
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: localhost)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (0: any free port)")
    parser.add_argument("--runs", nargs="*", default=[], metavar="DIR",
                        help="run directories (or folders of runs) whose champions and recorded "
                             "games the page may load")
    parser.add_argument("--agent-workers", type=int, default=1, metavar="N",
                        help="processes agents think in (one search each at a time; 0: threads "
                             "of the server, which numba's search slows while it runs)")
    return parser.parse_args(argv)


def check_args(args: argparse.Namespace) -> None:
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be in 0..65535, got {args.port}")
    if not 0 <= args.agent_workers <= 64:
        raise ValueError(f"--agent-workers must be in 0..64, got {args.agent_workers}")
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

    thinker = ProcessThinker(args.agent_workers) if args.agent_workers else None
    app = create_app([Path(d) for d in args.runs], local_only=is_loopback(args.host),
                     thinker=thinker)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    _announce_url(server, args.host)
    server.run()
    return 0


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
