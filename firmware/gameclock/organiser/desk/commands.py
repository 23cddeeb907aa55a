"""`gameclock desk [--db FILE] [--host ADDR] [--port N] [--dock auto|PATH ...] [--demo] [--public-url URL]`:
the organiser's desk, a web app on this PC over the database `gameclock receive` fills (desk/__init__.py).
It listens on 127.0.0.1 (this PC only) unless --host says otherwise: `--host 0.0.0.0` opens it to the
hall's network (phones, the projector's PC; `--public-url` the address their QR codes carry). `--dock`
also serves the dock in the desk's process, as `gameclock receive --port` does (desk/docking.py), so the
clocks page shows the docked clocks and enrolls them; not while `gameclock receive` serves the same
ports. (`--port` is the web page's port: the serial ports are `--dock`.) `--demo` serves a demo event
from a new temporary database.

`gameclock desk --new-password NAME [--db FILE]`: a new password for the desk's account NAME, typed
twice on this terminal (not echoed); that account's sessions end. The way back in for an organiser who
forgot theirs: whoever can run it on this PC can read the database anyway. It serves nothing.

The web stack (Starlette, Jinja2, uvicorn, itsdangerous) is the `organiser` extra's: without it this
says so in one line (exit status 1).
"""
from __future__ import annotations

import argparse
import contextlib
import getpass
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from gameclock.organiser.store import StoreError, default_db_path

NEEDS = ("starlette", "jinja2", "uvicorn", "itsdangerous", "segno", "python_multipart")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this PC only; 0.0.0.0: the hall's network)")
    parser.add_argument("--port", type=int, default=8017, help="the port (default 8017)")
    parser.add_argument("--public-url", metavar="URL", default=None,
                        help="the address phones open, for the players' QR codes (e.g. http://192.168.1.10:8017)")
    parser.add_argument("--dock", action="append", default=[], metavar="auto|PATH",
                        help="also serve the dock here: a clock's serial port, or auto to find docked clocks by "
                             "USB id; again for more (default: none; stop gameclock receive first)")
    parser.add_argument("--demo", action="store_true", help="serve a demo event from a new temporary database")
    parser.add_argument("--new-password", metavar="NAME", default=None,
                        help="set a new password for the desk's account NAME (typed twice here; its sessions end), "
                             "then stop: for an organiser who forgot theirs")
    parser.add_argument("--admin-from-network", action="store_true",
                        help="open the organiser's pages (login, /admin) to other machines too; by default "
                             "only this PC (the hall's network is plain HTTP: a password there is readable)")


def missing_modules() -> list[str]:
    import importlib.util

    return [m for m in NEEDS if importlib.util.find_spec(m) is None]


def startup_lines(host: str, port: int, public_url: str | None = None, dock: list[str] | None = None) -> list[str]:
    lines = [f"gameclock desk: open http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/ "
             "(the organiser's pages: /admin)"]
    if host in ("127.0.0.1", "localhost", "::1"):
        lines.append(f"  this PC only; to open it to the hall's network: gameclock desk --host 0.0.0.0 --port {port} "
                     f"--public-url http://THIS-PC-ADDRESS:{port} (the address in the players' QR codes)")
    else:
        lines.append(f"  listening on {host}:{port}: phones and the projector's PC on the hall's network reach it "
                     "at this PC's address")
        lines.append(f"  the players' QR codes carry {public_url}" if public_url else
                     f"  the players' QR codes carry the address each page was opened with; to fix it: "
                     f"--public-url http://THIS-PC-ADDRESS:{port}")
        lines.append("  the organiser's pages (login, /admin) open on this PC only (--admin-from-network: "
                     "from the hall's network too, where the password travels readable)")
    if dock:
        lines.append(f"  serving the dock on {', '.join(dock)} (gameclock receive must not serve these ports too)")
    return lines


def new_password(db: Path, name: str, ask: Callable[[str], str] = getpass.getpass) -> int:
    """`--new-password NAME`: the account's new password, asked twice with `ask` (no echo), hashed and
    stored with a new session epoch, the change kept in the accounts' trail as made on this terminal."""
    from gameclock.organiser.desk import auth
    from gameclock.organiser.store import Store

    if not db.is_file():
        print(f"gameclock desk: {db}: no such database (give --db FILE)", file=sys.stderr)
        return 1
    try:
        with Store(db) as store:
            account = store.account(name)
            if account is None:
                known = ", ".join(a["name"] for a in store.accounts()) or "none yet: open the desk for its first start"
                print(f"gameclock desk: no account {name!r} (accounts: {known})", file=sys.stderr)
                return 1
            password = ask(f"new password for {account['name']}: ")
            if ask("the same again: ") != password:
                print("gameclock desk: the two passwords differ; nothing changed", file=sys.stderr)
                return 1
            hashed = auth.hash_password(password)
            store.set_account_password(account["name"], hashed, auth.new_epoch(), f"{getpass.getuser()} (terminal)")
    except (StoreError, auth.AuthError) as exc:
        print(f"gameclock desk: {exc}", file=sys.stderr)
        return 1
    print(f"gameclock desk: a new password for {account['name']}; its sessions have ended", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.new_password is not None:
        return new_password(Path(args.db) if args.db else default_db_path(), args.new_password)
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

    with contextlib.ExitStack() as stack:
        if args.demo:  # a demo's database lives as long as the desk: removed when it stops
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="gameclock-desk-demo-")))
            db = folder / "demo.db"
            print(f"gameclock desk: demo database {db} (removed when the desk stops)", file=sys.stderr)
        else:
            db = Path(args.db) if args.db else default_db_path()
        try:
            app = create_app(db, demo=args.demo, public_url=args.public_url, dock=args.dock,
                             admin_from_network=args.admin_from_network)
        except (StoreError, AuthError) as exc:
            print(f"gameclock desk: {exc}", file=sys.stderr)
            return 1
        for line in startup_lines(args.host, args.port, args.public_url, args.dock):
            print(line, file=sys.stderr)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", proxy_headers=False)
    return 0
