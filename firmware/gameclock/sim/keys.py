"""The simulator's fingers: keyboard keys (or a script) drive edges on gpiozero MockFactory pins.

Nothing here talks to the loop directly except `quit`: a key becomes pin edges, the real adapters
(buttons.py, encoder.py) see those edges through gpiozero exactly as on a Pi and enqueue inputs.

Key map (terminal):
  z                 left player's button        m             right player's button
  space             pause button                j  Left  Up   knob one detent counter-clockwise (UP)
  k  Right  Down    knob one detent clockwise (DOWN)
  Enter             knob push (a short click)   l             knob long push (held 1 s)
  h                 knob held 3.2 s: the arbiter's unlock gesture (the game paused)
  Backspace  b  Esc back button                 q             quit

A tap holds the button down for `TAP_S` (80 ms, longer than the debounce window, like a finger).
With a lever wiring (`players.input = "lever"`), z throws the lever into the right position (the
left player's press: the right clock runs) and m into the left one; the lever stays where it is.

Script (`--script`): whitespace-separated tokens, `#` starts a comment. A token is an action name
(left right pause knob_left knob_right push long_push hold_push back quit), a single key character
from the map above, or a wait: `1.5s` or `300ms`. A script's finger does one thing at a time: an
action that holds a button (a tap 80 ms, `long_push` 1 s, `hold_push` 3.2 s) is released before the
next step starts, and the finger stays lifted 50 ms (`PinDriver.act(action, hold=...)`, `LIFT_S`),
so `pause hold_push knob_right push` unlocks the menu and then moves in it. (Before, the next step
ran at once: a turn or a push fell inside the 3.2 s hold, the push's 80 ms release let the held knob
go, and the 3 s unlock never completed; a push right after a release fell in its debounce window.)
The keyboard is not serialised: a person's own fingers do that.
"""
from __future__ import annotations

import os
import re
import select
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

TAP_S = 0.08
LONG_S = 1.0
HOLD_S = 3.2  # longer than the 3 s unlock hold
# A script's finger is lifted this long after a release before its next step: longer than the buttons'
# debounce windows (device/buttons.py DEBOUNCE_NS 30 ms, the knob's push 20 ms), else a press right after
# a release falls in the release's window and is dropped as chatter.
LIFT_S = 0.05

ACTIONS = ("left", "right", "pause", "knob_left", "knob_right", "push", "long_push", "hold_push",
           "back", "quit")

# terminal input (after escape-sequence decoding) -> action
KEYMAP: dict[str, str] = {
    "z": "left", "Z": "left",
    "m": "right", "M": "right",
    " ": "pause",
    "j": "knob_left", "J": "knob_left", "LEFT": "knob_left", "UP": "knob_left",
    "k": "knob_right", "K": "knob_right", "RIGHT": "knob_right", "DOWN": "knob_right",
    "\r": "push", "\n": "push",
    "l": "long_push", "L": "long_push",
    "h": "hold_push", "H": "hold_push",
    "\x7f": "back", "\x08": "back", "b": "back", "B": "back", "ESC": "back",
    "q": "quit", "Q": "quit", "\x03": "quit",
}

LEGEND = ("z left player | m right player | space pause | j/← knob left | k/→ knob right",
          "Enter push | l long push | h hold 3 s (arbiter: unlock the menu of a paused game)",
          "Backspace/b back | q quit")

_ESCAPES = {"A": "UP", "B": "DOWN", "C": "RIGHT", "D": "LEFT"}


def decode(data: str) -> tuple[list[str], str]:
    """Split terminal input into keys (single characters, or UP/DOWN/LEFT/RIGHT/ESC).

    Returns (keys, rest): `rest` is an incomplete escape sequence to be completed by more input
    (the caller decides after a short wait that a lone ESC is the Esc key)."""
    keys: list[str] = []
    i = 0
    while i < len(data):
        ch = data[i]
        if ch != "\x1b":
            keys.append(ch)
            i += 1
            continue
        if i + 1 >= len(data):
            return keys, data[i:]
        if data[i + 1] in "[O":
            m = re.match(r"\x1b[\[O][0-9;]*([A-Za-z~])", data[i:])
            if m is None:
                if re.fullmatch(r"\x1b[\[O][0-9;]*", data[i:]):
                    return keys, data[i:]
                keys.append("ESC")
                i += 1
                continue
            name = _ESCAPES.get(m.group(1))
            if name:
                keys.append(name)
            i += m.end()
        else:
            keys.append("ESC")
            i += 1
    return keys, ""


class DrivenPin(Protocol):
    """What the driver needs of a pin: gpiozero's MockPin drive_low() / drive_high()."""

    def drive_low(self) -> None: ...

    def drive_high(self) -> None: ...


class PinDriver:
    """Drives MockPins (pull-up buttons: pressed = low) and the encoder's A/B pins."""

    def __init__(self, pins: Mapping[str, DrivenPin], on_quit: Callable[[], None], *, tap_s: float = TAP_S,
                 long_s: float = LONG_S, hold_s: float = HOLD_S):
        # name -> gpiozero MockPin: left right (or lever_left lever_right) pause knob_a knob_b
        # knob_push back
        self._pins = pins
        self._on_quit = on_quit
        self._tap_s = tap_s
        self.long_s = long_s
        self.hold_s = hold_s
        self.lever = "lever_left" in pins
        self._lock = threading.Lock()

    def act(self, action: str, hold: Callable[[float], object] | None = None) -> None:
        """Do `action`. A button it presses is released after its time (a tap, a long push, the 3.2 s
        hold): by a timer thread (the keyboard: the reader goes on reading), or, given `hold` (a
        sleep, e.g. an Event's wait), here after `hold(seconds)` returns, and the finger stays lifted
        `LIFT_S`: the caller's next action comes after the release, as a finger's would (`run_script`)."""
        if action == "quit":
            self._on_quit()
        elif action == "knob_right":
            self._turn(("knob_a", "knob_b"))
        elif action == "knob_left":
            self._turn(("knob_b", "knob_a"))
        elif action in ("left", "right") and self.lever:
            self._throw("lever_right" if action == "left" else "lever_left")
        elif action in ("long_push", "hold_push", "push", "left", "right", "pause", "back"):
            pin = "knob_push" if action in ("long_push", "hold_push", "push") else action
            self._hold(pin, self.busy_s(action), hold)
        else:
            raise ValueError(f"unknown action {action!r}")

    def busy_s(self, action: str) -> float:
        """Seconds `action` keeps a button pressed (0 for a knob turn, a lever throw, quit)."""
        if action == "long_push":
            return self.long_s
        if action == "hold_push":
            return self.hold_s
        if action in ("push", "pause", "back") or (action in ("left", "right") and not self.lever):
            return self._tap_s
        return 0.0

    def _throw(self, to: str) -> None:
        """The lever into position `to`: the other contact opens, then this one closes (and stays)."""
        other = "lever_left" if to == "lever_right" else "lever_right"
        with self._lock:
            self._pins[other].drive_high()
            self._pins[to].drive_low()

    def _turn(self, order: tuple[str, str]) -> None:
        """One detent: first, second low; first, second high (clockwise: A low, B low, A high, B high)."""
        first, second = (self._pins[n] for n in order)
        with self._lock:
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()

    def _hold(self, name: str, seconds: float, hold: Callable[[float], object] | None) -> None:
        pin = self._pins[name]
        with self._lock:
            pin.drive_low()
        if hold is not None:
            hold(seconds)
            self._release(pin)
            hold(LIFT_S)
            return
        timer = threading.Timer(seconds, self._release, (pin,))
        timer.daemon = True
        timer.start()

    def _release(self, pin: DrivenPin) -> None:
        with self._lock:
            pin.drive_high()


def parse_script(text: str) -> list[tuple[str, float | str]]:
    """Script text -> [("act", action) | ("wait", seconds)]; raises ValueError on a bad token."""
    steps: list[tuple[str, float | str]] = []
    for line in text.splitlines():
        for token in line.split("#", 1)[0].split():
            m = re.fullmatch(r"(\d+(?:\.\d*)?)(ms|s)", token)
            if m:
                value = float(m.group(1))
                steps.append(("wait", value / 1000 if m.group(2) == "ms" else value))
            elif token in ACTIONS:
                steps.append(("act", token))
            elif token in KEYMAP:
                steps.append(("act", KEYMAP[token]))
            elif token in ("space", "enter"):
                steps.append(("act", KEYMAP[" " if token == "space" else "\r"]))
            else:
                raise ValueError(f"script: unknown token {token!r}")
    return steps


def run_script(steps: Iterable[tuple[str, float | str]], driver: PinDriver,
               stop: threading.Event, *, settle_s: float = 0.3) -> None:
    """Play a script (in its own thread: the waits are the simulated human's, not the loop's); each
    action's button is released before the next step (`PinDriver.act`'s `hold`: one finger, one thing at
    a time); quit at the end, after `settle_s` so the last release is drawn."""
    for kind, value in steps:
        if stop.is_set():
            return
        if kind == "wait":
            stop.wait(float(value))
        else:
            action = str(value)
            driver.act(action, hold=stop.wait)  # returns once the button is released
            if action == "quit":
                return
    stop.wait(settle_s)
    driver.act("quit")


def read_keys(fd: int, driver: PinDriver, stop: threading.Event, *, esc_wait_s: float = 0.05,
              quit_at_eof: bool = True, on_key: Callable[[str], None] | None = None) -> None:
    """Read terminal input from `fd` (a TTY in cbreak mode, or a pipe) and act on each key."""
    pending = ""
    while not stop.is_set():
        ready, _, _ = select.select([fd], [], [], esc_wait_s if pending else 0.2)
        if not ready:
            if pending:  # a lone ESC (or a cut-off sequence): the Esc key
                pending = ""
                _act_key("ESC", driver, on_key)
            continue
        chunk = os.read(fd, 1024)
        if not chunk:
            if quit_at_eof:
                stop.wait(0.3)
                driver.act("quit")
            return
        keys, pending = decode(pending + chunk.decode("utf-8", "replace"))
        for key in keys:
            _act_key(key, driver, on_key)


def _act_key(key: str, driver: PinDriver, on_key: Callable[[str], None] | None) -> None:
    action = KEYMAP.get(key)
    if action is None:
        return
    if on_key is not None:
        on_key(action)
    driver.act(action)
