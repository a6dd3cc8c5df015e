"""The compiled searches' clock: ``time.monotonic()`` readable from numba code.

On Linux the clock is ``clock_gettime(CLOCK_MONOTONIC)`` called straight from the
machine code (the clock ``time.monotonic`` reads there), so it is cached with the
searches like the rest of their code.  Elsewhere it falls back to an ``objmode``
block, which numba compiles anew in every process on its first call (a fair part of
a small fill's CPU: scripts/LOG.md); so does NUMBA_DISABLE_JIT, where the searches run
as plain Python.
"""

from __future__ import annotations

import sys
import time

from llvmlite import ir
from numba import config, objmode, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..jitcache import compiled

__all__ = ["clock"]

_CLOCK_MONOTONIC = 1  # <time.h> on Linux; the clock time.monotonic() reads there
_NANO = 1_000_000_000


@intrinsic
def _monotonic_ns(typingctx):
    """Nanoseconds of CLOCK_MONOTONIC, by a direct call to libc's clock_gettime."""

    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])  # time_t, long: 64 bits on 64-bit Linux
        ts = cgutils.alloca_once(builder, timespec)
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        builder.call(fn, [ir.Constant(i32, _CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, _NANO)), nsec)

    return types.int64(), codegen


_JIT = not getattr(config, "DISABLE_JIT", False)  # numba sets its config at run time

if sys.platform.startswith("linux") and sys.maxsize > 2**32 and _JIT:
    @compiled()
    def clock():
        """time.monotonic(), from compiled code (some 30 ns a call)."""
        return _monotonic_ns() / _NANO
else:
    @compiled()
    def clock():
        """time.monotonic(), from compiled code (about a microsecond a call)."""
        with objmode(t="float64"):
            t = time.monotonic()
        return t
