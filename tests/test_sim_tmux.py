"""`make sim` for real, in a detached tmux session of 80x24 (a terminal's usual size): choose makruk-45
with the knob keys, start, see both clocks at 45:00, and see a press switch the running side; the
picture stays whole (issue 27: the sim needed 134 columns and garbled at 80 without saying so). A
terminal too small for it says the size the sim needs.

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

    def start(self, cols: int = 80, rows: int = 24) -> None:
        self.tmux("new-session", "-d", "-s", self.target, "-x", str(cols), "-y", str(rows), "-c", str(ROOT),
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
        whole(text)
        # the left player's button starts the right clock (chess clock)
        pane.keys("z")
        text = pane.wait(lambda t: re.search(r"RIGHT 4\d:\d\d ▶", t), "the right clock to run")
        assert re.search(r"LEFT 45:00(?! ▶)", text)
        # the right player's press switches the clocks
        pane.keys("m")
        text = pane.wait(lambda t: re.search(r"LEFT 4\d:\d\d ▶", t), "the left clock to run")
        assert re.search(r"RIGHT 4\d:\d\d(?! ▶)", text)
        assert "moves 0/1" in text
        whole(text)
        pane.keys("q")
        pane.wait(lambda t: "SIM-EXITED 0" in t, "the sim to quit", timeout=10)
    finally:
        pane.kill()


def whole(text: str) -> None:
    """The sim's picture as drawn, nothing wrapped or scrolled away: the title on the first line, both
    screens framed (a top, 8 rows of pixels at half resolution, a bottom; the frames' corners in line),
    the captions under them, the key legend at the end."""
    lines = text.splitlines()
    assert lines[0].startswith(" gameclock sim"), text
    assert lines[1].startswith("┌") and lines[1].count("┌") == 2, text
    bottom = next(i for i, line in enumerate(lines) if line.startswith("└"))
    assert bottom == 1 + 8 + 1, text  # 64x32 pixels, 4 rows of them a braille line
    assert all(line.startswith("│") and line.count("│") == 4 for line in lines[2:bottom]), text
    assert lines[bottom].index("└", 1) == lines[1].index("┌", 1)
    assert re.match(r" (LEFT|MENU) ", lines[bottom + 1]) and "RIGHT" in lines[bottom + 1], text
    assert any(line.startswith(" keys: z left player") for line in lines), text
    assert "terminal" not in lines[0]  # 80x24 holds it: no size complaint


def test_a_terminal_too_small_says_the_size_the_sim_needs():
    assert shutil.which("tmux"), "tmux is missing: install it (sudo apt-get install tmux) or run `make sysdeps`"
    pane = Pane()
    try:
        pane.start(60, 16)
        text = pane.wait(lambda t: "too small" in t, "the size the sim needs")
        m = re.match(r" terminal 60x16 too small: the sim needs (\d+)x(\d+)", text.splitlines()[0])
        assert m and int(m.group(1)) <= 80 and int(m.group(2)) <= 24, text  # 80x24 is enough
        pane.keys("q")
        pane.wait(lambda t: "SIM-EXITED 0" in t, "the sim to quit", timeout=10)
    finally:
        pane.kill()
