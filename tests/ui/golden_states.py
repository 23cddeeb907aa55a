"""Golden screens of the clock's states that are not a preset's clock (issue 15): the menus, the
corrections, the result entry and review, docking and enrollment, the ready screen with a pairing's
set-up. Each is what the real loop (`gameclock.loop.Loop`) composes on its two displays after real
inputs -- buttons, knob keys, a pairing, a dock status -- at chosen instants, in English or in Thai
(the loop's `Settings.language`): nothing is drawn by hand here.

`screen_states(lang)` -> [(state, [(caption, left image, right image)])], in golden order. Each state
is one golden PNG (`golden/states/<state>.png`, `golden/th/states/<state>.png`), one row per caption.

    ready        a pairing pushed from the PC (players, level, stage): crossword at ready, before the
                 first press; makruk-45 at ready with the pairing's names
    preset-menu  the clock's start: the groups page (left; the right shows nothing yet), a group's
                 page (Makruk) with its first preset highlighted (right: its ready screen)
    game-menu    makruk-45 paused after 3 presses (the right side resumes: its counts first), the
                 menu unlocked by the arbiter's 3 s hold; the same page turned down to End game
    confirm      End game's question: No highlighted, then Yes
    corrections  makruk-45: Undo, Left, Right; makhos-move-2x5 after the arbiter gave right 2x5:00 in
                 this move: "Take back right extra" first, and the next extra turned to
    time-edit    makruk-45: Right's time digit by digit, the cursor on the minutes' units (issue 27), then
                 back on the tens turned to 1, on to the units
    pieces       makruk-45: PIECES RIGHT (the lone king's side), R2 entered: From 5 to 8; an empty
                 entry: Enter the pieces
    settings     the SETTINGS page with a pairing's event ("Event:", its name a line of its own: issue 26) and
                 names; turned down to Language; the event the PC named in Thai (ครอสเวิร์ด-ม.ปลาย-2568: an
                 English page with Thai takes the Thai rows)
    result-entry crossword after End game: Left score being entered (4, then 3: the cursor on the
                 ones); makruk-45: the items; the pieces editor (Left, R1 N1, the cursor on S)
    result-review crossword 437-398 (left confirmed, right asked), and a page's time later (a review longer
                 than a screen shows its next page: issue 27); makruk-45 saved; then docked, all sent
    docked       ready with the dock sending (DOCK 1/3); after the upload: DOCK OK; crossword with the
                 pairing's level and stage, sending (issue 27: the dock's status was dropped beside them)
    dock-error   ready with the PC's error as the clock says it (fixed words by its code, never the
                 PC's own: issue 24 B5): a protocol version to update (DOCK UPDATE), any other (DOCK ERROR)
    enroll       the enrollment question, NO chosen; YES chosen
"""
from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from gameclock.dock.clockside import DockStatus
from gameclock.inbox import DockUpdate, Input, Key, Pairing, PauseButton, PlayerButton, PushEdge
from gameclock.loop import Loop
from gameclock.loop.result_mode import REVIEW_PAGE_NS
from gameclock.rules.loader import load_presets
from gameclock.ui import menu as menus
from gameclock.ui.keys import BACK, CLICK, DOWN, UP

S = 1_000_000_000
ZERO = 1_000 * S
Row = tuple[str, Image.Image, Image.Image]
PAIRING = {"event": "OPEN", "round": 3, "table": 12, "players": {"left": "Anan S.", "right": "Boonmee K."},
           "level": "primary", "stage": "last", "language": None, "preset": None}
PAIRING_TH = dict(PAIRING, players={"left": "อนันต์ ศรีสุข", "right": "บุญมี ใจดี"})
THAI_EVENT = "ครอสเวิร์ด-ม.ปลาย-2568"  # the desk's suggested name of an upper secondary Crossword event (issue 26)


class _Sink:
    def __init__(self) -> None:
        self.frames: list[Any] = []

    def show(self, frame: Any) -> None:
        self.frames.append(frame)

    def beep(self, alert: Any, text: str) -> None:
        pass


class Drive:
    """A loop at a chosen time: `at(s)` moves the clock to `s` seconds, `send` puts inputs in, `row`
    takes what the two displays show now."""

    def __init__(self, lang: str, presets: Sequence[Any]):
        self.now = ZERO
        self.sink = _Sink()
        self.loop = Loop(queue.SimpleQueue(), presets, self.sink, self.sink, clock=lambda: self.now,
                         settings=menus.Settings(language=lang))
        self.loop.pump(self.now)

    def at(self, s: float) -> Drive:
        self.now = ZERO + int(s * S)
        return self

    def send(self, *make: Callable[[int], Input]) -> Drive:
        for m in make:
            self.loop.pump(self.now, [m(self.now)])
            self.now += 10_000_000  # 10 ms between inputs
        self.loop.pump(self.now)
        return self

    def keys(self, *keys: str) -> Drive:
        return self.send(*[(lambda t, k=k: Key(t, k)) for k in keys])

    def press(self, side: int) -> Drive:
        return self.send(lambda t: PlayerButton(t, side))

    def pause(self) -> Drive:
        return self.send(lambda t: PauseButton(t))

    def unlock(self) -> Drive:
        """The arbiter's 3 s hold on the knob (the game paused): the game menu opens."""
        self.loop.pump(self.now, [PushEdge(self.now, True)])
        self.now += 3 * S + 1
        self.loop.pump(self.now)
        self.loop.pump(self.now, [PushEdge(self.now, False)])
        self.now += 5 * S  # the "menu unlocked" message has gone
        self.loop.pump(self.now)
        return self

    def row(self, caption: str) -> Row:
        self.loop.refresh(self.now)
        f = self.loop.frame
        return caption, f.left.copy(), f.right.copy()


def _game(lang: str, presets: Sequence[Any], preset_id: str, pairing: dict[str, Any] | None = None) -> Drive:
    d = Drive(lang, presets)
    d.loop.start_preset(preset_id)
    if pairing is not None:
        d.send(lambda t: Pairing(t, pairing))
    d.at(10)
    d.loop.pump(d.now)
    return d


def _played(d: Drive) -> Drive:
    """At ready: left starts right's clock at 1 s, right presses at 6 s, left at 9 s, paused at 10 s
    (right's clock was running: right resumes)."""
    d.at(11).press(0).at(16).press(1).at(19).press(0).at(20).pause()
    return d


def _menu_at(d: Drive, label: str) -> Drive:
    """Turn the knob until the highlighted item starts with `label` (English, the menu's own words)."""
    for _ in range(20):
        sel = d.loop.menu.selected()
        if sel is not None and sel[0].startswith(label):
            return d
        d.keys(DOWN)
    raise AssertionError(f"no menu item {label!r}")


def _entry_at(d: Drive, kind: str) -> Drive:
    """Turn the knob in the result entry until its item of `kind` is highlighted (not editing)."""
    r = d.loop.result
    assert r is not None, "the result entry is open"
    if r.editing:
        d.keys(BACK)
    for _ in range(10):
        if r.items[r.index].kind == kind:
            return d
        d.keys(DOWN if r.index < next(i for i, it in enumerate(r.items) if it.kind == kind) else UP)
    raise AssertionError(f"no result item {kind!r}")


def screen_states(lang: str = "en", presets: Sequence[Any] | None = None) -> list[tuple[str, list[Row]]]:
    presets = load_presets() if presets is None else presets
    pairing = PAIRING_TH if lang == "th" else PAIRING
    out: list[tuple[str, list[Row]]] = []

    # ready, with a pairing's set-up (issue 15: shown before the first press)
    rows = [_game(lang, presets, "crossword", pairing).row("crossword, pairing R3 T12 (primary, last)"),
            _game(lang, presets, "makruk-45", pairing).row("makruk-45, the pairing's names")]
    out.append(("ready", rows))

    # the start screen: the groups, then the Makruk group's page
    d = Drive(lang, presets)
    rows = [d.row("the groups")]
    d.keys(DOWN, CLICK)
    rows.append(d.row("Makruk's page (right: its ready screen)"))
    out.append(("preset-menu", rows))

    # the game menu of a paused game, unlocked
    d = _played(_game(lang, presets, "makruk-45")).unlock()
    rows = [d.row("makruk-45 paused: the right side resumes")]
    _menu_at(d, "End game")
    rows.append(d.row("turned down to End game"))
    out.append(("game-menu", rows))

    d.keys(CLICK)
    rows = [d.row("End the game? No first")]
    d.keys(DOWN)
    rows.append(d.row("Yes"))
    out.append(("confirm", rows))

    # corrections: makruk-45; makhos with the extra time given in this move (MH-3)
    d = _played(_game(lang, presets, "makruk-45")).unlock()
    _menu_at(d, "Corrections").keys(CLICK)
    rows = [d.row("makruk-45")]
    m = _game(lang, presets, "makhos-move-2x5")
    m.at(11).press(0).at(16).press(1).at(19).press(0).at(20).pause().unlock()
    _menu_at(m, "Corrections").keys(CLICK)
    _menu_at(m, "Extra right").keys(CLICK, DOWN, CLICK)  # the arbiter gives right 2x5:00 (Yes)
    m.at(40).unlock()
    _menu_at(m, "Corrections").keys(CLICK)
    rows.append(m.row("makhos-move-2x5: right given +5:00"))
    _menu_at(m, "Extra right")
    rows.append(m.row("the next extra for right"))
    out.append(("corrections", rows))

    # a side's time digit by digit: Right 0:44:54 -> the minutes' tens turned to 1, then the units
    _menu_at(d, "Right").keys(CLICK)
    rows = [d.row("Right 0:44:54, cursor on the minutes' units")]
    d.keys(BACK, UP, UP, UP, CLICK)
    rows.append(d.row("back to the tens, turned to 1, on the units"))
    out.append(("time-edit", rows))

    # the PIECES page (MR-6): the lone king's side is right's, the side on move
    d = _played(_game(lang, presets, "makruk-45")).unlock()
    _menu_at(d, "Pieces count: right").keys(CLICK)
    rows = [d.row("nothing entered yet")]
    d.keys(DOWN, DOWN)
    rows.append(d.row("K+2R v K: From 5 to 8"))
    out.append(("pieces", rows))

    # the settings, with a pairing's names
    d = _game(lang, presets, "makruk-45", pairing)
    d.keys(CLICK)
    _menu_at(d, "Settings").keys(CLICK)
    rows = [d.row("the pairing's event, round, table")]
    _menu_at(d, "Language")
    rows.append(d.row("turned down to Language"))
    d = _game(lang, presets, "makruk-45", dict(pairing, event=THAI_EVENT))
    d.keys(CLICK)
    _menu_at(d, "Settings").keys(CLICK)
    rows.append(d.row("the event the PC named in Thai"))
    out.append(("settings", rows))

    # result entry: crossword's scores digit by digit; makruk's items and pieces
    c = _played(_game(lang, presets, "crossword", pairing)).unlock()  # the pairing's level: XW-8's caps
    _menu_at(c, "End game").keys(CLICK, DOWN, CLICK)
    rows = [c.row("crossword: Left score, the hundreds")]
    c.keys(*[DOWN] * 4, CLICK, *[DOWN] * 3)
    rows.append(c.row("4 kept, 3 on the tens"))
    k = _played(_game(lang, presets, "makruk-45")).unlock()
    _menu_at(k, "End game").keys(CLICK, DOWN, CLICK)
    k.keys(BACK)  # out of the result's edit: the list
    rows.append(k.row("makruk-45: the items"))
    k.keys(DOWN, CLICK, DOWN, CLICK, DOWN, CLICK)
    rows.append(k.row("Left's pieces: R1 N1, on S"))
    out.append(("result-entry", rows))

    # the review: crossword 437-398, left confirmed; makruk saved
    c.keys(CLICK, *[DOWN] * 7, CLICK)                   # 437 kept: Right score, editing
    c.keys(*[DOWN] * 3, CLICK, UP, CLICK, UP, UP, CLICK)  # 3, 0 -> 9, 0 -> 8: 398 kept: the review
    c.press(0)
    rows = [c.row("crossword 437-398: left confirmed")]
    c.now += REVIEW_PAGE_NS  # the loop's wake turns the page (loop/result_mode.py)
    c.loop.pump(c.now)
    rows.append(c.row(f"{REVIEW_PAGE_NS // S} s later (Thai: its next page)"))
    k.keys(CLICK, CLICK, CLICK)                         # Left: K+RN (P, the last letter, keeps it)
    k.keys(CLICK, CLICK, CLICK, CLICK, CLICK)           # Right: K only
    _entry_at(k, "outcome").keys(CLICK, CLICK)          # the outcome as the knob offers it first: the review
    k.press(0).press(1)
    rows.append(k.row("makruk-45: saved"))
    k.send(lambda t: DockUpdate(t, DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=1, done=True)))
    rows.append(k.row("saved, then docked: all sent"))
    out.append(("result-review", rows))

    # docked at ready: sending, then all sent
    d = _game(lang, presets, "makruk-45")
    d.send(lambda t: DockUpdate(t, DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=1,
                                              waiting=2)))
    rows = [d.row("sending 1 of 3")]
    d.send(lambda t: DockUpdate(t, DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=3,
                                              done=True)))
    rows.append(d.row("all sent"))
    c = _game(lang, presets, "crossword", pairing)  # issue 27: beside the level and the stage too
    c.send(lambda t: DockUpdate(t, DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=1, waiting=2)))
    rows.append(c.row("crossword, pairing (primary, last): sending"))
    out.append(("docked", rows))

    # the PC's error: the status line's fixed words (dock/clockside.py ERRORS)
    rows = []
    for error in ("UPDATE PC", "PC ERROR"):
        d = _game(lang, presets, "makruk-45")
        d.send(lambda t, error=error: DockUpdate(t, DockStatus(docked=False, pc="pc", error=error)))
        rows.append(d.row(error.lower()))
    out.append(("dock-error", rows))

    # enrollment: the comparison code, NO then YES
    d = _game(lang, presets, "makruk-45")
    d.send(lambda t: DockUpdate(t, DockStatus(docked=True, pc="pc", code="123456")))
    rows = [d.row("NO chosen first")]
    d.keys(DOWN)
    rows.append(d.row("YES chosen"))
    out.append(("enroll", rows))
    return out
