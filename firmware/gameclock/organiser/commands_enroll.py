"""`gameclock enroll --port PATH [--db FILE]`: hand a docked clock its dock key.

Waits for the clock's hello, makes a new 32-byte key, stores it in the database (before sending it,
so the PC can never lack a key a clock holds), sends it, and waits for the clock to say hello again
under the new key. A clock that already holds a key this PC knows gets a new one signed with the
old; a clock holding a key this PC does not know refuses, and the arbiter clears it on the clock
(`gameclock upload --forget-key --state-dir ...`, or removing `dock.key` from its state folder).
"""
from __future__ import annotations

import argparse
import logging
import sys
import time

from gameclock.dock.link import Link, PortGone, open_port
from gameclock.dock.pcside import ReceiverEndpoint


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", required=True, help="the docked clock's serial port (e.g. /dev/ttyACM0)")
    parser.add_argument("--db", help="the results database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S", help="give up after S seconds")
    parser.add_argument("-v", "--verbose", action="store_true")


def run(args: argparse.Namespace) -> int:
    from gameclock.organiser.store import Store, StoreError, default_db_path

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(message)s")
    try:
        store = Store(args.db or default_db_path())
        port = open_port(args.port)
    except (StoreError, OSError) as exc:
        print(f"gameclock enroll: {exc}", file=sys.stderr)
        return 2
    endpoint = ReceiverEndpoint(store, source=args.port, enroll=True, push_pairings=False)
    link = Link(port, endpoint)
    deadline = time.monotonic() + args.timeout
    try:
        while time.monotonic() < deadline:
            link.step(0.5)
            s = endpoint.session
            if s is not None and s.enrolled_now and s.kid == s.enrolled_now and s.key is not None:
                print(f"enrolled clock {s.serial} (key {s.kid})")
                return 0
            if endpoint.last_error:
                print(f"gameclock enroll: {endpoint.last_error}", file=sys.stderr)
                return 1
    except PortGone as exc:
        print(f"gameclock enroll: {exc}", file=sys.stderr)
        return 1
    finally:
        port.close()
        store.close()
    what = "no clock said hello" if endpoint.session is None else \
        f"clock {endpoint.session.serial} did not confirm its new key"
    print(f"gameclock enroll: {what} on {args.port} within {args.timeout:g} s", file=sys.stderr)
    return 1
