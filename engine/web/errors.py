"""JSON responses and errors: every failure the client can cause is a 4xx naming the problem."""

from __future__ import annotations

import json
import logging

import numpy as np
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

log = logging.getLogger("engine.web")


class ApiError(Exception):
    """A request the app refuses: ``status`` (4xx) and a one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _plain(value):
    """numpy scalars and arrays (which ``state_view`` may hold) as plain JSON values."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, tuple)):
        return list(value)
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")


class NumpyJSONResponse(JSONResponse):
    def render(self, content) -> bytes:
        return json.dumps(content, default=_plain, allow_nan=False,
                          separators=(",", ":")).encode()


def error_response(status: int, message: str) -> JSONResponse:
    return NumpyJSONResponse({"error": message, "status": status}, status_code=status)


async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
    return error_response(exc.status, exc.message)


async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
    return error_response(exc.status_code, str(exc.detail))


async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    """A real bug: logged with its traceback, answered as JSON (never an HTML page)."""
    log.exception("unhandled error in %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, f"internal error ({type(exc).__name__}); see the server log")


EXCEPTION_HANDLERS = {ApiError: api_error, HTTPException: http_error, Exception: unexpected_error}


async def json_body(request: Request) -> dict:
    """The request's JSON object (400 if the body is not one). A body must be sent as
    ``application/json``: other pages cannot send that without the browser asking this server
    first (a CORS preflight it never grants), so no form elsewhere can start games here."""
    raw = await request.body()
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if raw and media_type != "application/json":
        raise ApiError(415, f"content-type: expected application/json, got {media_type!r}")
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ApiError(400, f"request body: not valid JSON ({err})") from None
    if not isinstance(body, dict):
        raise ApiError(400, "request body: expected a JSON object")
    return body


def field_int(body: dict, name: str, low: int, high: int, default: int | None = None) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{name}: expected an integer in {low}..{high}, got {value!r}")
    return value


def field_str(body: dict, name: str, default: str | None = None, max_len: int = 200) -> str:
    value = body.get(name, default)
    if not isinstance(value, str) or not value or len(value) > max_len:
        raise ApiError(400, f"{name}: expected a non-empty string (at most {max_len} characters),"
                            f" got {value!r}")
    return value
