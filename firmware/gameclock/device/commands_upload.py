"""`gameclock upload --port PATH --state-dir DIR`: the clock's side of docking, from a shell.

Does what the device does when docked (PROTOCOL.md): says hello, sends every result in the state
folder's outbox, moves each to sent/ only when the PC's ack verifies, and exits 0 once nothing is
left. It waits (and keeps saying hello) while the PC is away or has not enrolled this clock yet;
`--timeout` gives up with exit 1. A pairing the PC pushes is printed. Do not run it beside a
running `gameclock run` on the same state folder and port: the device's own dock thread does this.

`--enroll` lets the person at this shell answer an enrollment (SECURITY.md): when `gameclock enroll`
on the PC starts one, the comparison code is printed and `yes` typed here confirms it (the clock's
knob does this on the device). Without it an enrollment is never confirmed and times out.
`--forget-key` removes the clock's dock key (results waiting in the outbox are signed with whatever
key the clock holds when they are sent).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import threading
import time
from typing import Any

from gameclock.device.identity import clock_serial
from gameclock.dock.clockside import ClockEndpoint, DockStatus
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import LineReader, Link, PortGone, open_port
from gameclock.persist.outbox import Outbox

log = logging.getLogger(__name__)
REOPEN_S = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", required=True, help="the serial port (/dev/ttyGS0 on a Pi docked by USB)")
    parser.add_argument("--state-dir", required=True, help="the clock's state folder (its outbox/)")
    parser.add_argument("--serial", help="the clock's serial (default: this machine's, as `gameclock run` uses)")
    parser.add_argument("--timeout", type=float, default=0.0, metavar="S",
                        help="give up after S seconds with exit 1 (default: wait for ever)")
    parser.add_argument("--stay", action="store_true", help="keep serving after everything is sent")
    parser.add_argument("--enroll", action="store_true",
                        help="answer an enrollment's comparison code here (type yes when the PC shows the same)")
    parser.add_argument("--forget-key", action="store_true", help="remove the clock's dock key and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every protocol step")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(message)s")
    keys = KeyStore(args.state_dir)
    if args.forget_key:
        keys.drop_pending()  # and a key an enrollment left aside (keystore.py)
        try:
            os.unlink(keys.path)
            print(f"{keys.path}: removed; the clock is no longer enrolled")
        except FileNotFoundError:
            print(f"{keys.path}: no key (the clock was not enrolled)")
        return 0
    outbox = Outbox(args.state_dir)
    try:
        outbox.prepare()
    except OSError as exc:
        print(f"gameclock upload: {args.state_dir}: {exc}", file=sys.stderr)
        return 2
    serial = args.serial or clock_serial()
    shown: dict[str, str | None] = {"text": None}  # the status line printed last

    def status(st: DockStatus) -> None:
        text = st.text() or "waiting for the PC"
        if text != shown["text"]:
            shown["text"] = text
            print(text, flush=True)

    def pairing(p: dict[str, Any]) -> None:
        print("pairing: " + json.dumps(p, ensure_ascii=False), flush=True)

    endpoint = ClockEndpoint(serial, outbox, keys, on_pairing=pairing, on_status=status)
    reader = LineReader(sys.stdin) if args.enroll else None
    asked = ""
    deadline = time.monotonic() + args.timeout if args.timeout > 0 else None
    stop = threading.Event()
    while True:
        try:
            port = open_port(args.port)
        except OSError as exc:
            if deadline is not None and time.monotonic() >= deadline:
                print(f"gameclock upload: {exc}", file=sys.stderr)
                return 1
            log.warning("%s", exc)
            time.sleep(REOPEN_S)
            continue
        link = Link(port, endpoint)
        try:
            link.start()
            while True:
                link.step(0.2)
                code = endpoint.status.code
                if code and code != asked:
                    asked = code
                    print("type yes if the PC shows the same code: " if reader else
                          "(run with --enroll to answer it here)", flush=True)
                if reader is not None and code == asked and code:
                    typed = reader.line()
                    if typed is not None or reader.closed:
                        endpoint.answer_enroll(code, (typed or "").strip().lower() == "yes")
                if endpoint.status.done and not args.stay:
                    print(f"all sent: {endpoint.status.sent} result(s) this time, "
                          f"{len(outbox.sent())} in sent/", flush=True)
                    return 0
                if deadline is not None and time.monotonic() >= deadline:
                    print(f"gameclock upload: gave up after {args.timeout:g} s: "
                          f"{endpoint.status.text() or 'no PC answered on ' + args.port}; "
                          f"{len(outbox.pending())} result(s) still waiting", file=sys.stderr)
                    return 1
        except PortGone as exc:
            log.warning("%s: reopening", exc)
            time.sleep(REOPEN_S)
        except KeyboardInterrupt:
            stop.set()
            return 130
        finally:
            port.close()
