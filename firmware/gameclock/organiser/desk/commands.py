"""`gameclock desk [--db FILE] [--host ADDR] [--port N] [--demo] [--public-url URL]`: the organiser's
desk, a web app on this PC over the database `gameclock receive` fills (desk/__init__.py). It listens
on 127.0.0.1 (this PC only) unless --host says otherwise: `--host 0.0.0.0` opens it to the hall's
network (phones, the projector's PC). `--demo` serves a demo event from a new temporary database.

The web stack (Starlette, Jinja2, uvicorn, itsdangerous) is the `organiser` extra's: without it this
says so in one line (exit status 1).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from gameclock.organiser.store import StoreError, default_db_path

NEEDS = ("starlette", "jinja2", "uvicorn", "itsdangerous", "segno")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this PC only; 0.0.0.0: the hall's network)")
    parser.add_argument("--port", type=int, default=8017, help="the port (default 8017)")
    parser.add_argument("--public-url", metavar="URL", default=None,
                        help="the address phones open, for the players' QR codes (e.g. http://192.168.1.10:8017)")
    parser.add_argument("--demo", action="store_true", help="serve a demo event from a new temporary database")


def missing_modules() -> list[str]:
    import importlib.util

    return [m for m in NEEDS if importlib.util.find_spec(m) is None]


def startup_lines(host: str, port: int) -> list[str]:
    lines = [f"gameclock desk: open http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/ "
             "(the organiser's pages: /admin)"]
    if host in ("127.0.0.1", "localhost", "::1"):
        lines.append(f"  this PC only; to open it to the hall's network: gameclock desk --host 0.0.0.0 --port {port}")
    else:
        lines.append(f"  listening on {host}:{port}: phones and the projector's PC on the hall's network reach it "
                     "at this PC's address")
    return lines


def run(args: argparse.Namespace) -> int:
    missing = missing_modules()
    if missing:
        print(f"gameclock desk: needs {', '.join(missing)}: install the organiser's extra "
              "(pip install 'gameclock[organiser]', or sudo make install-pc)", file=sys.stderr)
        return 1
    if not 0 < args.port < 65536:
        print(f"gameclock desk: --port {args.port}: 1-65535", file=sys.stderr)
        return 1
    import uvicorn

    from gameclock.organiser.desk.app import create_app
    from gameclock.organiser.desk.auth import AuthError

    if args.demo:
        folder = Path(tempfile.mkdtemp(prefix="gameclock-desk-demo-"))
        db = folder / "demo.db"
        print(f"gameclock desk: demo database {db}", file=sys.stderr)
    else:
        db = Path(args.db) if args.db else default_db_path()
    try:
        app = create_app(db, demo=args.demo, public_url=args.public_url)
    except (StoreError, AuthError) as exc:
        print(f"gameclock desk: {exc}", file=sys.stderr)
        return 1
    for line in startup_lines(args.host, args.port):
        print(line, file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", proxy_headers=False)
    return 0
