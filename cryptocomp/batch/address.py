"""Dask scheduler addresses: their form checked at once, and the peer checked to speak
Dask before ``distributed`` connects to it.

Forms accepted: ``tcp://HOST:PORT``, ``HOST:PORT`` (TCP), ``tls://HOST:PORT``; HOST a
host name or an IPv4 address, or an IPv6 address in brackets (``[::1]:8786``).  Anything
else (no port, another scheme, ``inproc://`` which names a scheduler inside one
process) is refused with one line before any connection is tried.

Why a probe: ``distributed`` reads the handshake of a new connection with no time
limit, and allocates whatever frame length the peer's first 8 bytes say (its
``read_bytes_rw``: no bound).  A port where an HTTP server listens kept the client
waiting for good; a peer answering 8 bytes of text had it allocate exabytes.  A Dask
server speaks first: a length, then a few frames holding a small msgpack dict
(compression, Python version, pickle protocol: 58 bytes in distributed 2026.8).  So
:func:`probe` opens a plain socket, waits at most ``timeout`` seconds for that greeting,
checks its size and shape, and sends the same bytes back, which completes the handshake
and lets the scheduler close the connection without a word in its log.  Over TLS the
peer is the one its certificate names, and the TLS handshake comes first: no probe.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import struct
import time

from ..errors import BatchError

__all__ = ["scheduler_address", "probe", "SCHEMES", "GREETING_LIMIT"]

SCHEMES = ("tcp", "tls")
# a scheduler's greeting is some 60 bytes; 64 KiB leaves room for any field a later
# distributed adds, and is what the probe reads at most from an unknown peer
GREETING_LIMIT = 64 * 1024
_MAX_FRAMES = 64          # frames of a greeting at most (one today)
_LENGTH = struct.Struct("Q")   # distributed's frame lengths: native uint64
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_FORM = "tcp://HOST:PORT, HOST:PORT or tls://HOST:PORT (an IPv6 host in brackets: [::1]:8786)"


def scheduler_address(text: str, *, what: str = "the scheduler address") -> str:
    """``text`` as ``distributed`` takes it (``tcp://host:port``), or :class:`BatchError`
    saying what is wrong with it (``what`` names where it came from)."""
    scheme, host, port = _split(text.strip(), what)
    return f"{scheme}://{host}:{port}"


def _split(text: str, what: str) -> tuple[str, str, int]:
    """(scheme, host as written in an address, port) of a well-formed address."""
    def bad(reason: str) -> BatchError:
        return BatchError(f"{what} {text!r} {reason}; give {_FORM}")

    scheme, sep, loc = text.partition("://")
    if not sep:
        scheme, loc = "tcp", text
    scheme = scheme.lower()
    if scheme == "inproc":
        raise bad("names a scheduler inside another process (inproc://)")
    if scheme not in SCHEMES:
        raise bad(f"has the scheme {scheme!r}, which cryptocomp does not use")
    if loc.startswith("["):
        host, close, rest = loc[1:].partition("]")
        if not close:
            raise bad("opens a bracket it does not close")
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise bad("has no valid IPv6 address in its brackets") from None
        if not rest.startswith(":"):
            raise bad("has no port (:PORT after the brackets)")
        host, port = f"[{host}]", rest[1:]
    else:
        host, colon, port = loc.rpartition(":")
        if not colon:
            raise bad("has no port")
        if ":" in host:
            raise bad("has an IPv6 host outside brackets")
        if len(host) > 253 or not _HOST.fullmatch(host):
            raise bad(f"has no valid host name before the port ({host!r})")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise bad(f"has no valid port ({port!r}: 1 to 65535)")
    return scheme, host, int(port)


def probe(address: str, timeout: float) -> None:
    """Check, within about ``timeout`` seconds, that a Dask server answers at the
    ``tcp://`` ``address`` (see the module's docstring); :class:`BatchError` if not."""
    scheme, host, port = _split(address, "the scheduler address")
    if scheme != "tcp":
        return
    target = host.strip("[]")
    try:
        sock = socket.create_connection((target, port), timeout=timeout)
    except socket.gaierror as exc:
        raise BatchError(f"cannot reach the Dask scheduler at {address}: the host {target} "
                         f"is unknown ({exc.strerror or exc})") from None
    except OSError as exc:
        raise BatchError(f"cannot reach the Dask scheduler at {address} "
                         f"({exc.strerror or exc}); start one with `dask scheduler` and "
                         f"workers with `dask worker ADDRESS`") from None
    with sock:
        deadline = time.monotonic() + timeout
        head = _receive(sock, _LENGTH.size, deadline, address, timeout)
        (size,) = _LENGTH.unpack(head)
        if head.startswith(b"HTTP") or not _LENGTH.size <= size <= GREETING_LIMIT:
            raise _not_dask(address, "it speaks HTTP: the dashboard's port?"
                            if head.startswith(b"HTTP") else
                            f"its first message claims {size:,} bytes")
        body = _receive(sock, size, deadline, address, timeout)
        (frames,) = _LENGTH.unpack_from(body)
        prelude = _LENGTH.size * (1 + frames)
        if not 1 <= frames <= _MAX_FRAMES or prelude > size or \
                prelude + sum(struct.unpack_from(f"{frames}Q", body, _LENGTH.size)) != size:
            raise _not_dask(address, "its first message is not a Dask handshake")
        # its own greeting back completes the handshake; if it hung up first, distributed
        # will say so when it tries again
        with contextlib.suppress(OSError):
            sock.sendall(head + body)


def _receive(sock: socket.socket, n: int, deadline: float, address: str,
             timeout: float) -> bytes:
    """``n`` bytes from the peer before ``deadline``, else :class:`BatchError`."""
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _not_dask(address, f"nothing came in {timeout:g} s, and a scheduler "
                            f"greets at once" if not data else
                            f"its greeting stopped short: {len(data)} of {n} bytes")
        sock.settimeout(left)
        try:
            chunk = sock.recv(n - len(data))
        except TimeoutError:
            continue
        except OSError as exc:
            raise BatchError(f"lost the connection to {address} while checking it is a Dask "
                             f"scheduler ({exc.strerror or exc})") from None
        if not chunk:
            raise _not_dask(address, "it closed the connection without a Dask greeting")
        data += chunk
    return data


def _not_dask(address: str, why: str) -> BatchError:
    return BatchError(f"something answers at {address}, but not a Dask scheduler ({why}); "
                      f"give the address `dask scheduler` prints (port 8786 by default)")
