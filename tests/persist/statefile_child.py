"""The child process of test_state_file_limits.py: reads one kind of state file the way the clock does
at start, and prints what came of it as one JSON line.

    python statefile_child.py KIND STATE_DIR

It measures the peak resident memory (VmHWM) just before and just after the read, so the parent can
tell a bounded read from one that took the file whole, and it collects the log lines (WARNING and up)
the read wrote. KIND: settings, sequence, journal, outbox, dock-key (dock.key and dock.key.new), identity.
"""
from __future__ import annotations

import json
import logging
import os
import queue
import sys
from pathlib import Path


def hwm_kb() -> int:
    """The process's peak resident memory so far, kB (Linux: /proc/self/status VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


class _Null:
    def show(self, frame: object) -> None:
        pass

    def beep(self, alert: object, text: str) -> None:
        pass


def main(kind: str, state: str) -> dict:
    lines = Lines()
    logging.getLogger().addHandler(lines)
    logging.getLogger().setLevel(logging.WARNING)
    out: dict = {}
    if kind == "settings":
        from gameclock.persist.settings import SettingsStore
        from gameclock.ui.menu import Settings
        store = SettingsStore(state)
        before = hwm_kb()
        settings = store.load()
        after = hwm_kb()
        out = {"notice": store.notice, "defaults": settings == Settings(), "kept_aside": store.kept_aside}
    elif kind in ("sequence", "journal"):
        from gameclock.loop import Loop
        from gameclock.persist.restore import attach
        from gameclock.rules.loader import load_presets
        loop = Loop(queue.SimpleQueue(), load_presets(), _Null(), _Null())
        before = hwm_kb()
        journal, restored = attach(loop, state)  # what `gameclock run` does at start
        after = hwm_kb()
        out = {"restored": restored, "start_notice": loop.start_notice, "last": journal.counter().last,
               "stored": journal.counter().stored}
        journal.close()
    elif kind == "outbox":
        from gameclock.persist.outbox import Outbox
        from gameclock.persist.rebuild import rebuild
        rid = sys.argv[3]
        outbox = Outbox(state, rebuild=rebuild)  # as the clock's dock reads it (restore.attach gives the rebuild)
        before = hwm_kb()
        try:
            out = {"id": outbox.read(rid)["id"]}
        except ValueError as exc:
            out = {"error": type(exc).__name__}
        after = hwm_kb()
    elif kind == "dock-key":
        from gameclock.dock.keystore import KeyStore
        keys = KeyStore(state)
        before = hwm_kb()
        out = {"key": None if keys.key is None else keys.key.hex(),
               "pending": None if keys.pending is None else keys.pending.hex()}
        after = hwm_kb()
    elif kind == "identity":
        from gameclock.device.identity import clock_serial
        before = hwm_kb()
        serial = clock_serial(state)
        after = hwm_kb()
        out = {"serial": serial, "empty_root_serial": clock_serial(os.path.join(state, "nothing-here"))}
    else:
        raise SystemExit(f"unknown kind {kind!r}")
    out.update(grew_kb=after - before, log=lines.lines)
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2])), flush=True)
