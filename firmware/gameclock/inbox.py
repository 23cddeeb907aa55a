"""Every message that reaches the loop's inbox, in one place.

Adapters and worker threads never touch clock state: they stamp a message with a monotonic time in
integer nanoseconds (`at_ns`: the GPIO backend's edge time where there is one, else
`time.monotonic_ns()`) and put it on the loop's queue. The loop alone turns them into core events,
menu keys and screen changes (`gameclock.loop`).

    PlayerButton, PauseButton, Key, PushEdge   the buttons and the knob (device/, sim/)
    Pairing                                     a pairing from the organiser's PC (the dock thread)
    DockUpdate                                  the dock's status changed (the dock thread)
    DiskStatus                                  the journal's disk status changed (its writer thread)
    DisplaysShown                               the displays show the loop's first frame (their worker)
    Quit                                        leave the loop (a signal, the simulator's q)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gameclock.dock.clockside import DockStatus


@dataclass(frozen=True)
class Input:
    """Something an adapter saw, at `at_ns` (monotonic ns, same domain as time.monotonic_ns())."""
    at_ns: int


@dataclass(frozen=True)
class PlayerButton(Input):
    """A player's button went down (debounced). side: 0 left, 1 right."""
    side: int


@dataclass(frozen=True)
class PauseButton(Input):
    """The pause button went down (debounced)."""


@dataclass(frozen=True)
class Key(Input):
    """A semantic key: one of KEYS."""
    key: str


@dataclass(frozen=True)
class PushEdge(Input):
    """The knob's push button changed (debounced): down=True pressed, False released.
    `ClickTimer` turns these into CLICK / LONG_CLICK."""
    down: bool


@dataclass(frozen=True)
class Pairing(Input):
    """A pairing from the organiser's PC (the dock thread puts it here once its MAC checked out):
    {"event": str | None, "round": int, "table": int, "players": {"left": str | None, "right": ...},
    "level", "stage", "language", "preset": str | None} (the event's set-up, dock protocol 3), checked
    by the loop with gameclock.dock.pairing.check_pairing. The loop applies it at once when no game is
    under way, else holds it for the next game."""
    pairing: dict[str, Any]


@dataclass(frozen=True)
class Quit(Input):
    """Leave the loop (the simulator's `q`, end of a script, a signal)."""


@dataclass(frozen=True)
class DockUpdate(Input):
    """Loop input: the dock's status changed (stamped like every input, monotonic ns)."""
    status: DockStatus


@dataclass(frozen=True)
class DiskStatus(Input):
    """Put in the loop's inbox by the writer thread when its status changes, so the loop wakes and
    redraws (the loop ignores inputs it does not know; `compose` reads `journal.status`)."""
    status: str = ""


@dataclass(frozen=True)
class DisplaysShown(Input):
    """Put in the loop's inbox by the display worker once the loop's first frame is on the displays,
    so the loop wakes and its notify timer says READY=1 at once (`gameclock run`; the loop ignores
    inputs it does not know)."""
