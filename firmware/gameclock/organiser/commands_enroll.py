"""`gameclock enroll --port PATH [--db FILE] [--replace]`: enroll a docked clock (SECURITY.md).

The clock and this PC agree a key (X25519, dock/enroll.py): it never crosses the wire. Both then
show the same 6-digit code; the arbiter confirms it on the clock (turn to YES, push) and the
organiser types it here. Only when both did is the key stored (here first, then on the clock).
A clock this PC already knows must prove its old key; `--replace` enrolls it anyway (a clock whose
key was lost or reset) and revokes the old key: results signed with it are refused from then on.
The codes differ only when another device is between the clock and this PC: nothing is stored.

One run, one enrollment, one code (issue 24): the run enrolls the first clock that says hello and ends
with that enrollment, saying how it ended (a device on the cable that makes the PC start again and again
gets nothing: every run is one guess at the code, and the organiser sees each one).
"""
from __future__ import annotations

import argparse
import logging
import sys
import time

from gameclock.dock.enroll import CODE_DIGITS, TEST_CODE_DIGITS, shown
from gameclock.dock.link import LineReader, Link, PortGone, open_port
from gameclock.dock.pcside import ReceiverEndpoint


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", required=True, help="the docked clock's serial port (e.g. /dev/ttyACM0)")
    parser.add_argument("--db", help="the results database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--replace", action="store_true",
                        help="enroll a clock this PC knows although it cannot prove its key; revokes that key")
    parser.add_argument("--timeout", type=float, default=180.0, metavar="S", help="give up after S seconds")
    parser.add_argument("-v", "--verbose", action="store_true")
    # tests only (hidden): a shorter comparison code makes a man in the middle's chance measurable
    # (tests/dock/test_mitm_pty.py). It cannot weaken a real enrollment: every clock shows 6 digits,
    # so the code the organiser types never equals a shorter one and nothing is stored (SECURITY.md).
    parser.add_argument("--code-digits", type=int, choices=range(TEST_CODE_DIGITS, CODE_DIGITS + 1),
                        default=CODE_DIGITS, help=argparse.SUPPRESS)


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
    if args.code_digits != CODE_DIGITS:
        print(f"gameclock enroll: TEST ONLY: a {args.code_digits}-digit code; no real clock (6 digits) can be "
              "enrolled this way", file=sys.stderr)
    endpoint = ReceiverEndpoint(store, source=args.port, enroll=True, replace=args.replace, push_pairings=False,
                                code_digits=args.code_digits)
    link = Link(port, endpoint)
    reader = LineReader(sys.stdin)
    asked = started = ""
    deadline = time.monotonic() + args.timeout
    try:
        link.start()
        while time.monotonic() < deadline:
            link.step(0.2)
            s = endpoint.session
            if s is not None and s.enrolled_now and s.kid == s.enrolled_now and s.key is not None:
                print(f"enrolled clock {s.serial} (key {s.kid})", flush=True)
                return 0
            if endpoint.last_error:
                print(f"gameclock enroll: {endpoint.last_error}", file=sys.stderr)
                return 1
            if endpoint.unproven:
                print(f"gameclock enroll: {endpoint.unproven}", file=sys.stderr)
                return 1
            if endpoint.enrolling is not None and not started:
                started = endpoint.enrolling.serial
                print(f"enrolling clock {started} (one enrollment this run)", flush=True)
            code = endpoint.enroll_code
            if code and code != asked:
                asked = code
                print(f"clock {s.serial if s else '?'}: this PC's code is {shown(code)}.\n"
                      "The clock shows a code too. If it is the same, choose YES on the clock and type the "
                      "code here (anything else cancels): ", end="", flush=True)
            if asked and endpoint.enrolling is not None and not endpoint.enrolling.organiser_ok:
                typed = reader.line()
                if typed is not None:
                    link.send(endpoint.organiser_code(time.monotonic_ns(), typed))
                elif reader.closed:
                    link.send(endpoint.organiser_code(time.monotonic_ns(), ""))
    except PortGone as exc:
        print(f"gameclock enroll: {exc}", file=sys.stderr)
        return 1
    finally:
        port.close()
        store.close()
    s = endpoint.session
    what = ("no clock said hello" if s is None else
            f"clock {s.serial}: the code was not confirmed on both sides" if asked else
            f"clock {s.serial} did not take part in the enrollment")
    print(f"gameclock enroll: {what} on {args.port} within {args.timeout:g} s", file=sys.stderr)
    return 1
