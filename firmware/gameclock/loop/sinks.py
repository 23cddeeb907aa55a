"""What the loop hands its sinks (`Frame`), and the shapes of what it drives or reads: the sinks,
the timers, the presets, the result records' outbox and sequence, the journal, the dock and the
settings store (Protocols: any object with these methods will do; the loop never imports the
real ones, which live in gameclock.persist, gameclock.device and gameclock.rules)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image, ImageChops

from gameclock.core.control import Control
from gameclock.core.events import Event
from gameclock.ui.menu import Settings

Record = dict[str, Any]  # a result record (gameclock.record.build_record)


@dataclass(frozen=True)
class Frame:
    """What both displays show. Images: 128x64 mode "1", not drawn on once shown (the display sink
    compares the next frame's with them). Captions: plain text under each screen."""
    left: Image.Image
    right: Image.Image
    captions: tuple[str, str]
    info: str
    message: str = ""

    def texts(self) -> tuple[tuple[str, str], str, str]:
        """Everything but the pictures: the captions, the info line, the message."""
        return self.captions, self.info, self.message

    def key(self) -> tuple[bytes, bytes, tuple[str, str], str, str]:
        """The whole frame as comparable values (tests, tools). The loop compares frames with
        `same_image` and `texts` instead: packing both images costs ~30 us a frame (issue 27)."""
        return (self.left.tobytes(), self.right.tobytes(), *self.texts())


def same_image(a: Image.Image | None, b: Image.Image | None) -> bool:
    """Whether two mode "1" images have the same pixels (a pixel is lit if not 0: Pillow keeps 1 or
    255). Compared in C, a few microseconds: Pillow packs a mode "1" image into bytes pixel by pixel
    (`tobytes`, ~15 us a screen on a PC), too slow to do for every frame twice (issue 27, the Pi's budget)."""
    if a is b:
        return True
    if a is None or b is None or a.size != b.size or a.mode != b.mode:
        return False
    return ImageChops.logical_xor(a, b).getbbox() is None


class DisplaySink(Protocol):
    def show(self, frame: Frame) -> None: ...


class BuzzerSink(Protocol):
    def beep(self, alert: dict[str, Any], text: str) -> None: ...


class Outbox(Protocol):
    """Where confirmed result records go (gameclock.persist: the journal's outbox)."""

    def put(self, record: Record) -> bool: ...


class RecordSequence(Protocol):
    """The result records' sequence numbers (gameclock.persist: the journal's game number)."""

    def allocate(self) -> int: ...


class MemoryOutbox(list[Record]):
    """The outbox when none is given (simulator, tests): confirmed records in memory only."""

    def put(self, record: Record) -> bool:
        self.append(record)
        return True


class Timer(Protocol):
    """Something the loop wakes for besides the clock (watchdog ping, buzzer pattern steps).
    Times are monotonic ns; both methods run on the loop thread. A timer whose firing never changes
    the screens has a class attribute `visible = False`: the running loop does not redraw for it."""

    def next_wake(self) -> int | None: ...

    def fire(self, now_ns: int) -> None: ...


class LoopPreset(Protocol):
    """A preset as the loop uses it: gameclock.rules.loader.Preset, or ui.menu.CustomPreset. The loop
    reads a rule file's other tables (scoring, counts, event, standings, tiebreak_games) with getattr:
    the custom preset has none of them."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def short(self) -> str: ...

    def control_for(self, tiebreak: int = 0) -> Control: ...


class GameJournal(Protocol):
    """What the loop journals (gameclock.persist.journal.Journal): each game's file, its accepted core
    events and result-entry lines; `status` is the disk's trouble ("DISK FULL", "" when none)."""

    @property
    def status(self) -> str: ...

    def begin_game(self, header: dict[str, Any], at_ns: int) -> int: ...

    def event(self, ev: Event) -> None: ...

    def extra(self, at_ns: int, words: list[str]) -> None: ...

    def checkpoint(self, at_ns: int) -> None: ...


class Dock(Protocol):
    """The dock thread (gameclock.device.dock.DockThread): busy while a clock runs (no upload starts)."""

    def set_busy(self, busy: bool) -> None: ...

    def answer_enroll(self, code: str, yes: bool) -> None: ...


class SettingsStore(Protocol):
    """Where the settings are kept (gameclock.persist.settings.SettingsStore, settings.json)."""

    def load(self) -> Settings: ...

    def save(self, settings: Settings) -> None: ...
