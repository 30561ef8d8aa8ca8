"""Only requests addressed to this machine by name reach a localhost server.

A web page elsewhere can make the browser send requests to ``127.0.0.1`` under its own host name
(DNS rebinding); checking the ``Host`` header refuses them. Bound to another address on purpose
(``--host 0.0.0.0``), the server accepts any host name.
"""

from __future__ import annotations

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def is_loopback(host: str) -> bool:
    return host in LOOPBACK_HOSTS


class LocalHostsOnly:
    """ASGI middleware: a request whose ``Host`` is not a loopback name gets a JSON 400."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and _host_name(scope) not in LOOPBACK_HOSTS:
            from engine.web.errors import error_response

            response = error_response(400, f"host: {_host_name(scope)!r} is not this machine "
                                           "(the server binds to localhost)")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _host_name(scope) -> str:
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    if host.startswith("["):  # [::1]:8000
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host
