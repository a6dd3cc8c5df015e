"""The studio's gate: the token every request needs (when one is set) and the body size.

A pure ASGI middleware, in front of everything the app serves (the API, ``/docs``, the
page's static files), so that no route can forget it.  The token is compared in constant
time; it comes in ``Authorization: Bearer T`` (programs), in the studio's cookie (the page),
or as ``?token=T``.  A page opened once as ``/?token=T`` is redirected to itself without the
token, setting the cookie (HttpOnly: no script reads it; SameSite=Strict: no other site's
page sends it): the page's own scripts, styles and event streams then carry it as any
browser request does, and the token leaves the address bar and the history.  The cookie
holds a digest of the token, not the token.  A body longer than the limit is refused with
413 before it is read whole: by its ``Content-Length`` when it says one, else as its chunks
add up (the reading raises a StudioError, which the app answers).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from .settings import StudioError

__all__ = ["Gate", "error_body", "COOKIE", "cookie_value"]

COOKIE = "cryptocomp_studio"  # the cookie a page opened with ?token=T gets

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def error_body(message: str) -> bytes:
    """The JSON of an error answer: ``{"error": "one line"}``."""
    line = " ".join(message.split()) or "bad request"
    return json.dumps({"error": line}, ensure_ascii=False).encode()


def cookie_value(token: str) -> str:
    """What the studio's cookie holds for ``token``: a digest (the cookie never carries the
    token itself, and a digest is always a valid cookie value)."""
    return hashlib.sha256(b"cryptocomp-studio\0" + token.encode("utf-8")).hexdigest()


class Gate:
    """Refuse requests without the token (401) or with a body over ``max_body`` (413)."""

    def __init__(self, app: ASGIApp, *, token: str | None, max_body: int):
        self.app, self.token, self.max_body = app, token, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI entry point."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.token is not None:
            how = self._admitted(scope)
            if how is None:
                await _answer(send, 401, "this studio needs its token: open the page once as "
                                         "/?token=T (a cookie keeps it), or send the header "
                                         "'Authorization: Bearer T'",
                              {"www-authenticate": "Bearer"})
                return
            if how == "query" and _is_page_visit(scope):
                await self._set_cookie(scope, send)
                return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _answer(send, 413, self._too_large())
            return
        await self.app(scope, self._counting(receive), send)

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_body:,} bytes"

    def _admitted(self, scope: Scope) -> str | None:
        """How the request carries the right token ("header", "cookie", "query"), or None."""
        assert self.token is not None
        token = self.token.encode("utf-8")
        auth = _header(scope, b"authorization")
        if auth is not None and auth[:7].lower() == "bearer ":
            return "header" if _same(auth[7:].strip(), token) else None
        cookie = _cookie(scope)
        if cookie is not None and _same(cookie, cookie_value(self.token).encode()):
            return "cookie"
        given = dict(_query(scope)).get("token")
        if given is not None and _same(given, token):
            return "query"
        return None

    async def _set_cookie(self, scope: Scope, send: Send) -> None:
        """Redirect a page visit with ``?token=T`` to the same page without it, setting the
        cookie that admits the page's own requests from then on."""
        assert self.token is not None
        rest = urlencode([(k, v) for k, v in _query(scope) if k != "token"])
        where = quote(str(scope.get("path") or "/")) + (f"?{rest}" if rest else "")
        cookie = (f"{COOKIE}={cookie_value(self.token)}; Path=/; HttpOnly; "
                  f"SameSite=Strict")
        await send({"type": "http.response.start", "status": 303, "headers": [
            (b"location", where.encode("utf-8")), (b"set-cookie", cookie.encode()),
            (b"cache-control", b"no-store"), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

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


def _same(given: str, expected: bytes) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected)


def _query(scope: Scope) -> list[tuple[str, str]]:
    return parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)


def _cookie(scope: Scope) -> str | None:
    raw = _header(scope, b"cookie")
    if raw is None:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value


def _is_page_visit(scope: Scope) -> bool:
    """A browser opening a page (not an API call): a GET outside /api."""
    path = str(scope.get("path") or "/")
    return scope.get("method") == "GET" and not (path == "/api" or path.startswith("/api/"))


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
