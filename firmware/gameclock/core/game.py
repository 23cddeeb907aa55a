"""One game folded from its log: THE fold that replay, the power-cut restore and the records use, so
the live game (the loop applies the same events and lines as they come) and every replay of its log
agree exactly.

    state, entry = fold(control, scoring, log)           # a parsed `core.log.Log`
    state, entry = fold(control, scoring, log, at_ns)    # only the lines up to at_ns (ns)

Clock events go to `core.clock.apply`; result-entry lines (score, outcome, confirm, ...) to
`core.result.apply_entry`, which sees whether the game is over at that line and the game's XW-8 set-up
(the log's `level` and `stage` headers). Other lines a layer above kept (a journal's checkpoints) are
passed over. Lines are taken in the order they stand in the log. A line the clock or the result entry
refuses raises `FoldError` naming it: a scenario reports it, a restore cuts the journal there.
"""
from __future__ import annotations

from . import clock as core
from .control import Control
from .events import Event
from .log import Log
from .result import RESULT_VERBS, Entry, EntryError, apply_entry
from .scoring import Scoring


class FoldError(ValueError):
    """A line of the log refused by the clock or the result entry: `line` (1-based) and why."""

    def __init__(self, line: int, reason: str):
        super().__init__(reason)
        self.line, self.reason = line, reason


def fold(control: Control, scoring: Scoring, log: Log, at_ns: int | None = None,
         label: str = "") -> tuple[core.Clock, Entry]:
    """(clock state, result Entry) after the log's lines up to `at_ns` (all by default), in line order.
    `control` is the game's (the preset's for the log's tie-break step, MH-4)."""
    state = core.new_game(control, label=label, game=log.game, tiebreak=log.tiebreak)
    entry = Entry()
    level, stage = log.header.get("level"), log.header.get("stage", "qualifying")
    # (line, ns, a clock event or the words of another line)
    items: list[tuple[int, int, Event | list[str]]] = [
        (line, ev.at_ns, ev) for ev, line in zip(log.events, log.lines, strict=True)]
    items += [(line, at, words) for line, at, words in log.extra]
    for line, at, item in sorted(items, key=lambda x: x[0]):
        if at_ns is not None and at > at_ns:
            break
        try:
            if isinstance(item, list):
                if item[0] not in RESULT_VERBS:
                    continue  # a line for another layer (a journal's checkpoint, wallclock, closed)
                state = core.advance(state, max(at, state.now_ns))
                over = state.phase in (core.FLAGGED, core.FINISHED)
                entry = apply_entry(entry, item, over, scoring, core.view(state), level, stage)
            else:
                state = core.apply(state, item)
        except (core.Rejected, EntryError) as exc:
            raise FoldError(line, str(exc)) from None
    return state, entry
