"""The studio's gate: the token every request needs (when one is set) and the body size.

A pure ASGI middleware, in front of everything the app serves (the API, ``/docs``, the
page's static files), so that no route can forget it.  The token is compared in constant
time; it comes in ``Authorization: Bearer T`` or ``?token=T`` (a browser opening the page
has no header to send).  A body longer than the limit is refused with 413 before it is
read whole: by its ``Content-Length`` when it says one, else as its chunks add up (the
reading raises a StudioError, which the app answers).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from .settings import StudioError

__all__ = ["Gate", "error_body"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def error_body(message: str) -> bytes:
    """The JSON of an error answer: ``{"error": "one line"}``."""
    line = " ".join(message.split()) or "bad request"
    return json.dumps({"error": line}, ensure_ascii=False).encode()


class Gate:
    """Refuse requests without the token (401) or with a body over ``max_body`` (413)."""

    def __init__(self, app: ASGIApp, *, token: str | None, max_body: int):
        self.app, self.token, self.max_body = app, token, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI entry point."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.token is not None and not self._admitted(scope):
            await _answer(send, 401, "this studio needs its token: send the header "
                                     "'Authorization: Bearer T' or add ?token=T",
                          {"www-authenticate": "Bearer"})
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _answer(send, 413, self._too_large())
            return
        await self.app(scope, self._counting(receive), send)

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_body:,} bytes"

    def _admitted(self, scope: Scope) -> bool:
        assert self.token is not None
        given = ""
        auth = _header(scope, b"authorization")
        if auth is not None and auth[:7].lower() == "bearer ":
            given = auth[7:].strip()
        else:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = (query.get("token") or [""])[0]
        return hmac.compare_digest(given.encode("utf-8", "replace"),
                                   self.token.encode("utf-8"))

    def _counting(self, receive: Receive) -> Receive:
        seen = 0

        async def wrapped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:  # answered 413 by the app's handler of StudioError
                    raise StudioError(self._too_large(), 413)
            return message

        return wrapped


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


async def _answer(send: Send, status: int, message: str,
                  headers: dict[str, str] | None = None) -> None:
    body = error_body(message)
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
