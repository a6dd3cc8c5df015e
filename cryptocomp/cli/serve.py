"""``cryptocomp serve``: the studio (web page and JSON API) on this machine.

It opens the dictionary as the prompt does (``--lang``/``--dict``, default en), says where
it listens and who can reach it, and serves until Ctrl-C.  It binds 127.0.0.1 unless told
otherwise; any other host needs ``--token``, which every request must then carry.
"""

from __future__ import annotations

import argparse
import logging
import threading
import webbrowser
from urllib.parse import urlencode

from .options import add_dict_options, open_index, whole

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..studio import DEFAULT_HOST, DEFAULT_PORT

    p = sub.add_parser("serve", help="the studio: a local web page and JSON API",
                       description="Serve the studio (the page at /, the JSON API at /api, "
                                   "its documentation at /docs) over one dictionary. It "
                                   "binds 127.0.0.1, reachable from this machine only, "
                                   "unless --host says otherwise (then --token is needed).")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    whole(p, "--port", 0, 65535, default=DEFAULT_PORT, metavar="PORT",
          help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--token", default=None, metavar="T",
                   help="a secret every request must carry: open the page once as /?token=T "
                        "(a cookie keeps it) or send 'Authorization: Bearer T'; needed for "
                        "a --host other than loopback")
    p.add_argument("--open", action="store_true", help="open the page in the browser")
    whole(p, "--workers", 1, 64, default=None, metavar="N",
          help="jobs (fills, arrow words) running at once, a process each (default: one a "
               "core)")
    add_dict_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..studio import Limits, StudioSettings, create_app, is_loopback
    from ..studio.queries import warm

    limits = Limits() if args.workers is None else Limits(workers=args.workers)
    settings = StudioSettings(host=args.host, port=args.port, token=args.token, limits=limits)
    index = open_index(args)
    warm(index)
    app = create_app(index, settings)
    reach = "this machine only" if is_loopback(args.host) else \
        "other machines too: every request needs the token"
    if args.token:
        reach += "; a browser opens ?token=T once, a cookie keeps it"
    log.info("studio on %s (%s) · dictionary %s: %s words · Ctrl-C stops", settings.url,
             reach, index.name, f"{len(index):,}")
    if args.open:
        # the page opened once with its token: the studio answers with its cookie
        url = settings.url + (f"?{urlencode({'token': args.token})}" if args.token else "")
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    # http and loop "auto": httptools and uvloop when installed (dependencies on Linux and
    # macOS), else h11 and asyncio; no access log: a line a request cost the word queries
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False,
                http="auto", loop="auto", server_header=False, proxy_headers=False)
    return 0
