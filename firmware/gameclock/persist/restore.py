"""Bringing an unfinished game back after a crash or power cut (CL-6), and the loop's journal timer.

`attach(loop, state_dir, ...)` is what `gameclock run` does at start (app.build_daemon), and the
crash drill the same way: open the journal (folders, writer thread, sequence counter), hang it on
the loop (`loop.journal`: every accepted event is journaled), add the checkpoint timer, and restore
the newest game if its journal is not closed.

Restoring (`restore`): the game's lines are folded again exactly as `gameclock replay` folds a log
(core events into the clock, result-entry lines into core.result's Entry), then the clock is
advanced to the time of the last good line -- the last checkpoint or event, at most CHECKPOINT_NS
of running time before the crash -- and, if a side was running, paused there with a `pause` event
that is journaled like any other. The loop's session time is set so that it continues from that
instant (`Loop.restore_game`: session ns == the game's ns from now on). The screen says
"restored: paused at L 12:34 | R 8:02 - check the times" until the next key.

A game that is over comes back in its result entry (`Loop.restore_game`: the entry folded from its
lines, the wall-clock start and end from its `wallclock` lines). One whose result both players had
confirmed, but whose journal was not closed yet (the crash came between the confirmation and the
outbox write), has its record built and stored again: the same sequence number, so the same id,
so the outbox keeps one file.
"""
from __future__ import annotations

import logging
import os
import queue
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from gameclock.core import clock as core
from gameclock.core.control import Control
from gameclock.core.events import Event, Pause, Start
from gameclock.core.result import RESULT_VERBS, Entry
from gameclock.inbox import DiskStatus, Input

from .fsio import FileSystem
from .journal import CHECKPOINT_NS, EDGE_GRACE_NS, Journal, Recovered
from .rebuild import fold, rebuild
from .writer import Call, Writer

log = logging.getLogger(__name__)


class Preset(Protocol):
    """What the fold needs of a preset (rules.loader.Preset, ui.menu.CustomPreset); `scoring` is
    read when it has one."""

    @property
    def short(self) -> str: ...

    def control_for(self, tiebreak: int = 0) -> Control: ...


class JournaledLoop(Protocol):
    """What `attach`, `restore` and the checkpoint timer use of the loop (gameclock.loop.Loop).
    `journal`, `outbox` and `sequence` are only set here: read back they are the loop's business."""

    state: core.Clock | None
    start_notice: str  # a trouble found at start, on both OLEDs until the arbiter's next key

    @property
    def zero_ns(self) -> int | None: ...

    @property
    def timers(self) -> list[Any]: ...

    @property
    def settings_store(self) -> object: ...

    @property
    def journal(self) -> object: ...

    @journal.setter
    def journal(self, value: Journal) -> None: ...

    @property
    def outbox(self) -> object: ...

    @outbox.setter
    def outbox(self, value: JournalResults) -> None: ...

    @property
    def sequence(self) -> object: ...

    @sequence.setter
    def sequence(self, value: JournalResults) -> None: ...

    def preset_by_id(self, preset_id: str) -> Any: ...

    def restore_game(self, preset: Any, game_no: int, state: core.Clock, events: Sequence[Event],
                     entry: Entry | None = None, entries: Sequence[tuple[int, list[str]]] = (),
                     message: str = "", started_wall: float | None = None,
                     ended_wall: float | None = None, header: Mapping[str, str] | None = None) -> None: ...

    def apply(self, kind: type[Event], at_ns: int, /, **fields: Any) -> bool: ...


def _zero_ns(loop: JournaledLoop) -> int:
    """The loop's session start (monotonic ns): set when the loop is made."""
    zero_ns = loop.zero_ns
    assert zero_ns is not None, "the loop sets zero_ns in __post_init__"
    return zero_ns


class CheckpointTimer:
    """A loop Timer: while a side runs, a `checkpoint` line every `interval_ns` of running time
    (counted from the journal's last line), so a crash loses at most that much of the running
    side's time (plus `grace_ns`).

    Firing advances the loop's clock state to the checkpoint's instant, so the journal's times never
    go backwards and replaying it gives the live state exactly. That instant is `grace_ns` in the
    past (the timer fires `grace_ns` after it): a button's edge is stamped by its adapter and reaches
    the loop's inbox some milliseconds later, and an edge stamped before the instant but handled
    after it could only be applied at the instant (Loop.apply never goes back), charged late. With
    the grace every edge that reaches the inbox within `grace_ns` of its stamp is charged at its
    stamp (CL-1); a later one (the adapter stalled) is applied at the checkpoint, still live == replay."""

    def __init__(self, loop: JournaledLoop, journal: Journal, interval_ns: int | None = None,
                 grace_ns: int = EDGE_GRACE_NS):
        self.loop, self.journal = loop, journal
        self.interval_ns = journal.checkpoint_ns if interval_ns is None else interval_ns
        self.grace_ns = grace_ns
        self.fired = 0
        self.visible = False  # a checkpoint changes nothing on the screens (the loop does not redraw)

    def next_wake(self) -> int | None:
        st, j = self.loop.state, self.journal
        if st is None or j.file is None or j.last_at is None or st.phase != core.RUNNING:
            return None
        return _zero_ns(self.loop) + j.last_at + self.interval_ns + self.grace_ns

    def fire(self, now_ns: int) -> None:
        loop = self.loop
        if loop.state is None:
            return
        t = max(now_ns - self.grace_ns - _zero_ns(loop), loop.state.now_ns)
        loop.state = core.advance(loop.state, t)
        self.journal.checkpoint(t)
        self.fired += 1


def describe(v: dict[str, Any]) -> str:
    left, right = v["sides"]["left"]["display"], v["sides"]["right"]["display"]
    return f"L {left} | R {right}"


def restore(loop: JournaledLoop, journal: Journal, rec: Recovered | None) -> str | None:
    """Put the unfinished game of `rec` back on `loop` (see the module doc). Returns the message shown,
    or None when there is nothing to restore (no journal, or the newest game is closed)."""
    if rec is None or rec.closed is not None:
        return None
    preset_id = rec.log.preset
    if not preset_id:
        log.error("journal %s: no preset line: not restored", rec.path)
        loop.start_notice = "LAST GAME UNREADABLE"
        return None
    try:
        preset = loop.preset_by_id(preset_id)
    except (StopIteration, KeyError):
        log.error("journal %s: preset %r is not on this clock any more: not restored", rec.path, preset_id)
        loop.start_notice = "LAST GAME NOT RESTORED"
        return None
    state, entry = fold(preset, rec, preset.short)
    at = rec.last_ns
    state = core.advance(state, max(at, state.now_ns))
    at = state.now_ns
    running = state.phase == core.RUNNING
    if state.phase in (core.FLAGGED, core.FINISHED):
        what = "result entry" + (" (confirmed)" if entry.final else "")
        message = f"restored: {what} - check it"
    elif state.phase == core.READY:
        message = "restored: game at ready"
    else:
        message = f"restored: paused at {describe(core.view(state))} - check the times"
    journal.continue_game(rec, at)  # first: a result saved again closes this game's journal
    journal.restored = {"seq": rec.seq, "paused": running, "events": len(rec.log.events)}
    # Log.extra's times are parse_seconds' integer ns (core.log annotates them float)
    entries = [(int(t), list(words)) for _, t, words in rec.log.extra if words[0] in RESULT_VERBS]
    start = next((ev.at_ns for ev in rec.log.events if isinstance(ev, Start)), None)
    loop.restore_game(preset, rec.log.game, state, rec.log.events, entry, entries, message,
                      started_wall=None if start is None else journal.wall_at(start),
                      ended_wall=journal.wall_at(state.seg_start_ns)
                      if state.phase in (core.FLAGGED, core.FINISHED) else None, header=rec.log.header)
    if running:
        loop.apply(Pause, _zero_ns(loop) + at)
    now = loop.state  # restore_game set it, the pause (if any) applied to it
    assert now is not None, "restore_game sets the loop's state"
    v = core.view(now)
    log.warning("journal: restored game %06d (%s game %d) at %s s, %s: left %d ms, right %d ms%s",
                rec.seq, preset_id, rec.log.game, f"{at / 1e9:.3f}", v["state"],
                v["sides"]["left"]["remaining_ms"], v["sides"]["right"]["remaining_ms"],
                " (it was running: paused)" if running else "")
    return message


class JournalResults:
    """The loop's `outbox` and `sequence` under `gameclock run`. `put(record)` hands the record to the
    journal writer: outbox/ durably, then the game's journal closed (`closed result ID`), in that
    order, never on the loop thread. `allocate()` is the open game's sequence number: the record and
    its journal share it, and a record built again after a crash gets the same id. Reading and
    acknowledging (the dock's side) go to the Outbox itself."""

    def __init__(self, journal: Journal, on_durable: Callable[[str], None] | None = None):
        self.journal = journal
        self.outbox = journal.outbox
        self.on_durable = on_durable  # (writer thread) a record is on the card: wake the loop to say SAVED
        self._durable: set[str] = set()

    def put(self, record: Mapping[str, object]) -> bool:
        rid = str(record.get("id"))
        self.journal.put_result(record)
        self.journal.writer.submit(Call(lambda fs: self._mark_durable(rid), f"durable {rid}"))
        return True

    def _mark_durable(self, rid: str) -> None:
        # runs on the writer thread after the record's own write (the writer keeps submission order)
        self._durable.add(rid)
        if self.on_durable is not None:
            self.on_durable(self.journal.status)

    def durable(self, rid: str) -> bool:
        """The record `rid` is in outbox/ on the card (not only in the writer's queue)."""
        return rid in self._durable

    def allocate(self) -> int:
        if self.journal.seq is not None:
            return self.journal.seq
        return self.journal.counter().allocate()  # no game journal open: a number of its own

    def pending(self) -> list[str]:
        return self.outbox.pending()

    def read(self, rid: str) -> dict[str, Any]:
        return self.outbox.read(rid)

    def mark_sent(self, rid: str) -> bool:
        return self.outbox.mark_sent(rid)


def attach(loop: JournaledLoop, state_dir: str | os.PathLike[str], *,
           on_status: Callable[[str], None] | None = None, fs: FileSystem | None = None,
           checkpoint_ns: int | None = None) -> tuple[Journal, str | None]:
    """Journal `loop`'s games in `state_dir` and restore an unfinished one. `on_status(status)` is
    called from the writer thread when the disk's status changes (wire it to wake the loop).
    Returns (the journal, the restore message or None)."""
    writer = Writer(fs, on_status=on_status)
    journal = Journal(state_dir, fs=writer.fs, writer=writer,
                      checkpoint_ns=CHECKPOINT_NS if checkpoint_ns is None else checkpoint_ns).open()
    loop.journal = journal
    loop.timers.append(CheckpointTimer(loop, journal))
    journal.outbox.rebuild = rebuild  # a damaged record is built again from its journal (issue 13)
    loop.outbox = loop.sequence = JournalResults(journal, on_status)  # the loop's result records (CL-5)
    store = loop.settings_store
    if hasattr(store, "attach"):  # settings.json written by the writer thread too
        store.attach(writer)
    try:
        rec = journal.recover()
    except OSError as exc:
        log.error("journal: cannot read the last game (%s): not restored", exc)
        loop.start_notice = "LAST GAME UNREADABLE"  # said on the screens, not only in the log
        rec = None
    return journal, restore(loop, journal, rec)


def wake_loop(inbox: queue.SimpleQueue[Input] | queue.Queue[Input]) -> Callable[[str], None]:
    """An `on_status` for `attach`: a DiskStatus input into the loop's inbox."""
    return lambda status: inbox.put(DiskStatus(time.monotonic_ns(), status))
