"""`make sim` for real, in a detached tmux session: choose makruk-45 with the knob keys, start, see
both clocks at 45:00, and see a press switch the running side.

Fails (does not skip) without tmux: `make test` installs it (`make sysdeps`).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = "makruk-45"
MENU_RE = re.compile(r"MENU MAKRUK (\d+)/(\d+): (\S+)")
GROUP_RE = re.compile(r"MENU PRESET: (\w[^|\n]*?)\s*(?:\||$)", re.MULTILINE)


class Pane:
    def __init__(self):
        self.socket = f"gameclock-test-{os.getpid()}"  # a private tmux server
        self.target = "sim"

    def tmux(self, *args: str, check: bool = True) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=check, capture_output=True,
                              text=True, timeout=10).stdout

    def start(self) -> None:
        self.tmux("new-session", "-d", "-s", self.target, "-x", "200", "-y", "60", "-c", str(ROOT),
                  "sh -c 'make sim; echo SIM-EXITED $?; sleep 60'")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.target, *keys)

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.target)

    def wait(self, predicate, what: str, timeout: float = 20.0) -> str:
        """Poll the pane until predicate(text) is true (bounded)."""
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.text()
            if predicate(text):
                return text
            if "SIM-EXITED" in text:
                break
            time.sleep(0.1)
        raise AssertionError(f"waited for {what}; the pane shows:\n{text}")

    def kill(self) -> None:
        self.tmux("kill-server", check=False)


def test_make_sim_under_tmux():
    assert shutil.which("tmux"), "tmux is missing: install it (sudo apt-get install tmux) or run `make sysdeps`"
    pane = Pane()
    try:
        pane.start()
        text = pane.wait(lambda t: GROUP_RE.search(t), "the preset menu")
        # issue 15: the PRESET page lists the groups; turn the knob to Makruk (k: one detent clockwise)
        for _ in range(8):
            if GROUP_RE.search(text).group(1) == "Makruk":
                break
            shown = GROUP_RE.search(text).group(1)
            pane.keys("k")
            text = pane.wait(lambda t, shown=shown: (n := GROUP_RE.search(t)) and n.group(1) != shown,
                             "the knob to turn")
        assert GROUP_RE.search(text).group(1) == "Makruk", text
        pane.keys("Enter")  # the group's presets, the usual first: makruk-45
        text = pane.wait(lambda t: MENU_RE.search(t), "the Makruk presets")
        m = MENU_RE.search(text)
        assert m.group(3) == TARGET, text
        pane.keys("Enter")  # push: a game at ready
        text = pane.wait(lambda t: "LEFT 45:00" in t and "RIGHT 45:00" in t, "both clocks at 45:00")
        assert "▶" not in text and "| ready |" in text
        # the left player's button starts the right clock (chess clock)
        pane.keys("z")
        text = pane.wait(lambda t: re.search(r"RIGHT 4\d:\d\d ▶", t), "the right clock to run")
        assert re.search(r"LEFT 45:00(?! ▶)", text)
        # the right player's press switches the clocks
        pane.keys("m")
        text = pane.wait(lambda t: re.search(r"LEFT 4\d:\d\d ▶", t), "the left clock to run")
        assert re.search(r"RIGHT 4\d:\d\d(?! ▶)", text)
        assert "moves 0/1" in text
        pane.keys("q")
        pane.wait(lambda t: "SIM-EXITED 0" in t, "the sim to quit", timeout=10)
    finally:
        pane.kill()
