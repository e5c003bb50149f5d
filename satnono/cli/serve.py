"""``satnono serve``: the web page, on this machine by default."""

from __future__ import annotations

import argparse

from ..errors import Interrupted, UsageError
from .options import SubParsers, say, seconds, whole


def port(text: str) -> int:
    """A TCP port, 1-65535 (argparse reports anything else as a usage error)."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}")
    return int(text)


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = sub.add_parser("serve", help="a web page to draw, check, solve and count puzzles",
                       description="Serve satnono's page: draw a picture or open a puzzle, "
                       "check it (unique? where is the ambiguity? how hard?), watch it being "
                       "solved step by step, count its solutions, export it. Needs the web "
                       "extra: pip install 'satnono[web]'.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port, default=8000, help="1-65535 (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument("--timeout", type=seconds, default=20.0, metavar="S",
                   help="each request's time limit (default 20)")
    p.add_argument("--max-cells", type=whole, default=100 * 100, metavar="N",
                   help="the largest puzzle taken, in cells (default 10000)")
    p.add_argument("--jobs", type=whole, default=2, metavar="N",
                   help="requests worked on at once, each in a process of its own (default "
                   "2); more wait")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UsageError("satnono serve needs the web extra: pip install 'satnono[web]'"
                         ) from None
    from ..web.app import Limits, listen, serve

    limits = Limits(timeout=args.timeout, cells=args.max_cells, workers=args.jobs)
    sock = listen(args.host, args.port)  # a port in use or a bad host: said before anything
    say(f"satnono: serving on http://{args.host}:{args.port}/ (Ctrl-C stops)")
    try:
        serve(args.host, args.port, limits, open_browser=args.open, sock=sock)
    except (KeyboardInterrupt, Interrupted):  # how a server is stopped: not a failure
        pass
    say("satnono: stopped")
    return 0
