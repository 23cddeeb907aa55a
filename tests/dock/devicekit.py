"""A real clock end for the dock tests across ptys (issue 26): the clock's loop thread and its dock thread
wired as `gameclock run` and `gameclock sim --dock` wire them (device/dock.py `DockThread` on the port, the
loop's `info_snapshot` for its hellos, pairings through the loop's inbox), on a temp state folder holding the
clock's key, with the settings the arbiter left on it.

    clock = DeviceClock(path, tmp_path / "clock-1", "00000000c10c0001", key)   # opens PATH, says hello
    clock.wait(lambda info: info["round"] == 2)     # the loop applied a pairing (its record info)
    clock.close()

On a pty whose master the test holds (tests/browser/deskround.py `Dock`: `gameclock receive` on the slaves),
give the clock the master: `DeviceClock("pty", folder, serial, key, opener=lambda _: FdPort(os.dup(master)))`.
The clock stays docked until `close()`, so a round published meanwhile reaches it (issue 26).

`info()` is the loop's record info as the dock thread reads it (event, round, table, players: what a result
record would carry); `settings()` a copy of the loop's settings taken on the loop's own thread.
"""
from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameclock.device.dock import DockThread
from gameclock.dock.keystore import KeyStore
from gameclock.dock.link import FdPort, open_port
from gameclock.inbox import Input, PlayerButton, Quit
from gameclock.loop import Loop
from gameclock.persist.outbox import Outbox
from gameclock.rules.loader import load_presets
from gameclock.ui import menu as menus

PRESETS = load_presets()


class _Sink:
    def show(self, frame: Any) -> None:
        self.frame = frame

    def beep(self, alert: Any, text: str) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class _Call(Input):
    """Run `fn` on the loop's thread (a test reading the settings the loop owns)."""
    fn: Callable[[], None] = lambda: None


class DeviceClock:
    """A clock with `serial` and `key` on the dock port at `path`, at ready with `preset` (its own settings:
    `settings`, default the factory's: Event 1, round 1, table 1)."""

    def __init__(self, path: str, state: Path, serial: str, key: bytes | None,
                 settings: menus.Settings | None = None, preset: str = "crossword",
                 opener: Callable[[str], FdPort] = open_port):
        state.mkdir(parents=True, exist_ok=True)
        if key is not None:
            KeyStore(state).set(key)
        self.outbox = Outbox(state)
        self.outbox.prepare()
        self.inbox: queue.Queue[Input] = queue.Queue()
        self.sink = _Sink()
        self.loop = Loop(self.inbox, PRESETS, self.sink, self.sink, settings=settings or menus.Settings(),
                         clock_serial=serial, outbox=self.outbox)
        self.loop.new_game(preset, 1)
        self._handle = self.loop.handle
        self.loop.handle = self._handle_call  # type: ignore[method-assign]
        self.error: BaseException | None = None
        self.dock = DockThread(path, state, serial, self.outbox, self.inbox.put, info=lambda: self.loop.info_snapshot,
                               opener=opener)
        self.loop.dock = self.dock
        self._thread = threading.Thread(target=self._run, name=f"loop {serial}", daemon=True)
        self._thread.start()
        self.dock.start()

    def _handle_call(self, item: Input) -> None:
        if isinstance(item, _Call):
            item.fn()
        else:
            self._handle(item)

    def _run(self) -> None:
        try:
            self.loop.run()
        except BaseException as exc:  # the test asserts none
            self.error = exc

    def info(self) -> dict[str, Any]:
        return dict(self.loop.info_snapshot)

    def on_loop(self, fn: Callable[[], Any], timeout: float = 5.0) -> Any:
        """`fn()` run on the loop's thread; its value."""
        box: list[Any] = []
        done = threading.Event()

        def call() -> None:
            box.append(fn())
            done.set()
        self.inbox.put(_Call(time.monotonic_ns(), call))
        assert done.wait(timeout), "the loop did not take the call"
        return box[0]

    def settings(self) -> menus.Settings:
        return self.on_loop(lambda: dataclasses.replace(self.loop.settings))

    def press(self, side: int) -> None:
        """A player's button (at ready the first press starts the other side's clock: a game under way)."""
        self.inbox.put(PlayerButton(time.monotonic_ns(), side))

    def wait(self, done: Callable[[dict[str, Any]], bool], seconds: float = 20.0, what: str = "") -> dict[str, Any]:
        """The record info once `done(info)`; AssertionError after `seconds`."""
        end = time.monotonic() + seconds
        while True:
            info = self.info()
            if done(info):
                return info
            assert self.error is None and self._thread.is_alive(), f"the loop died: {self.error!r}"
            assert time.monotonic() < end, f"{what or 'not done'} within {seconds} s: {info} {self.dock.endpoint.status}"
            time.sleep(0.05)

    def close(self) -> None:
        self.dock.close()
        self.inbox.put(Quit(time.monotonic_ns()))
        self._thread.join(5)
