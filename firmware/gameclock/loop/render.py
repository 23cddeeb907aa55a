"""What the loop shows and sounds: both screens composed from the mode the loop is in (menu, result
entry, the clock), the captions and info line the simulator prints, and a beep for each new alert."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from PIL import Image

from gameclock.core import clock as core
from gameclock.core.display import format_remaining
from gameclock.gamelog import preset_scoring
from gameclock.loop.base import SIDES, LoopBase, log  # noqa: F401
from gameclock.loop.sinks import Frame  # noqa: F401
from gameclock.record import known_level
from gameclock.ui import messages, screens
from gameclock.ui.enrollscreen import render_enroll
from gameclock.ui.text import tr


class Render(LoopBase):
    frame_view: dict[str, Any] | None = None  # the view the clock screens were last drawn from (tests, the sim)

    def refresh(self, now_ns: int) -> None:
        """Render both screens; show them if anything changed; beep new alerts."""
        frame = self.compose(now_ns)
        k = frame.key()
        if k != self._last_frame:
            self._last_frame = k
            self.frame = frame
            self.display.show(frame)

    def compose(self, now_ns: int) -> Frame:
        code = self.enroll_asking()
        if code:  # the enrollment question on both screens (either side faces the arbiter)
            img = render_enroll(code, self.enroll_yes, self.settings.language)
            choice = "NO [YES]" if self.enroll_yes else "[NO] YES"
            cap = f"ENROL THIS CLOCK? CODE {code[:3]} {code[3:]}  {choice}"
            return Frame(img, img.copy(), (cap, cap), "enrolment: turn the knob to choose, push to answer",
                         self.shown_message())
        if self.state is None and not self.menu.is_open:
            self.menu.open_presets()
        lang = self.settings.language
        game_view: dict[str, Any] | None = None
        if self.state is not None:
            game_view = core.view(self.state, max(self.state.now_ns, self._rel(now_ns)))
            game_view["lang"] = lang  # the screens' words in the clock's language (ui/text.py)
            self._beep_new(game_view)
            if self.settings.players:  # the ready and paused screens show the names (ui/screens.py)
                game_view["players"] = dict(self.settings.players)
            level = self.level_shown()
            if level:  # XW-8: the level is part of the game's set-up, shown at ready and paused
                game_view["level"] = level
            if self.state.phase == core.READY and not self.events:
                # issue 15: what the game at ready will be played with (a pairing's set-up, shown
                # before the first press): the screens may draw it; the sim's info line prints it
                game_view["setup"] = self.setup_view()
            extra = self.extra_shown()
            if extra:  # MH-3 (issue 15): "+5:00" on the side given extra time in this move
                game_view["extra"] = extra
        shown = self.screen_message(now_ns)  # after the beeps: an alert's words show in this frame
        if self.menu.is_open:
            mv = self.menu.view()
            left = screens.render_menu(mv)
            pid = self.menu.selected_preset()
            preview: dict[str, Any] | None
            if pid is not None:
                preview = self._preview(pid)
                info = f"MENU {mv['title']} {mv['index'] + 1}/{len(mv['items'])}: {pid}"
            else:
                preview = game_view
                info = f"MENU {mv['title']}: {mv['items'][mv['index']] if mv['items'] else ''}"
            right = screens.render(preview, 1) if preview else Image.new("1", (128, 64))
            if shown:
                right = screens.draw_message(right, shown)
            right_cap = self._side_caption(preview, 1) if preview else ""
            return Frame(left, right, (info, right_cap), self._info(game_view), self.shown_message())
        # no game yet: the preset menu opened above (it is never locked before a game)
        assert game_view is not None, "a game on the clock when no menu is open"
        if self.result is not None:
            frame = self._compose_result(game_view, now_ns)
            return replace(frame, right=screens.draw_message(frame.right, shown)) if shown else frame
        v = game_view
        if shown:  # a message or refusal on both displays for a few seconds (issue 15)
            v = dict(v, message=shown)
        tag = self.dock_tag()
        if tag:
            v = dict(v, dock=tag)
        notice = self.notice_tag()
        if notice:
            v = dict(v, notice=notice)
        self.frame_view = v
        return Frame(screens.render(v, 0), screens.render(v, 1),
                     (self._side_caption(v, 0), self._side_caption(v, 1)), self._info(v),
                     self.shown_message())

    def level_shown(self) -> str:
        """XW-8: the level the game's caps will use, for the screens ("PRIMARY"), "LEVEL?" when the
        preset has caps of several levels and none is set (the result cannot be confirmed without
        it), "" when the preset has no choice of level."""
        scoring = preset_scoring(self.preset)
        if len(scoring.caps) < 2:
            return ""
        level = known_level(scoring, self.settings.level or None) or scoring.default_level
        return level.upper() if level else "LEVEL?"

    def extra_shown(self) -> dict[str, str]:
        """MH-3: {side: "+5:00"} for a side given extra time in the move under way (each extension its
        option's time), so both players see it was given and how much."""
        st = self.state
        c = st.control if st is not None else None
        if st is None or c is None or not c.extension_options:
            return {}
        out = {}
        for i, name in enumerate(SIDES):
            n, option = core.extra_this_move(st, i), st.sides[i].ext_option
            if n > 0 and option is not None:
                out[name] = "+" + format_remaining(n * c.extension_options[option].time_ns)
        return out

    def notice_tag(self) -> str:
        """A trouble with the clock's own state, for both OLEDs' status line: the disk's ("DISK FULL",
        "DISK READ-ONLY": what is written waits in memory), else one found at start ("SETTINGS RESET",
        "LAST GAME UNREADABLE") until the arbiter's next key."""
        status = self.journal.status if self.journal is not None else ""
        return status or self.start_notice

    def shown_message(self) -> str:
        """The message line: the journal's disk trouble first ("DISK FULL", "DISK READ-ONLY"; the
        writer keeps everything in memory meanwhile), then the loop's own message."""
        status = self.journal.status if self.journal is not None else ""
        dock = self.dock_status.text() if self.dock_status is not None and not self._running() else ""
        start = self.start_notice if not status else ""
        return " | ".join(m for m in (status, start, self.message, self.next_text(), dock) if m)

    def screen_message(self, now_ns: int) -> str:
        """The loop's message as the displays show it (ui/messages.py, in the clock's language) for
        MESSAGE_NS from when it was last set (a message set again while up starts its time again); ""
        after that (the text line keeps the sentence).
        `message_until` is the wake that takes it off the screens."""
        if self._message_fresh or self.message != self._message_seen:  # new, or said again: 4 s from now
            self._message_fresh = False
            self._message_seen, self._message_at = self.message, now_ns
        words = messages.short(self.message)
        if not words or now_ns - self._message_at >= screens.MESSAGE_NS:
            self.message_until = None
            return ""
        self.message_until = self._message_at + screens.MESSAGE_NS
        return tr(words, self.settings.language)

    def _preview(self, preset_id: str) -> dict[str, Any]:
        p = self.preset_by_id(preset_id)
        v = core.view(core.new_game(p.control_for(0), label=p.short), 0)
        v["lang"] = self.settings.language
        return v

    @staticmethod
    def _side_caption(v: dict[str, Any], side: int) -> str:
        name = SIDES[side]
        s = v["sides"][name]
        mark = " ▶" if screens.is_running(v, name) else ""
        flag = " FLAG" if s.get("flagged") else ""
        count = screens.count_text(v)  # both displays show the count (MR-4..MR-8, MH-6)
        return f"{name.upper()} {s['display']}{mark}{flag}" + (f" {count}" if count else "")

    def _info(self, v: dict[str, Any] | None) -> str:
        if v is None or self.preset is None:
            return "choose a preset: knob turns, push starts"
        running = v["running"] or "-"
        moves = f"{v['sides']['left']['moves']}/{v['sides']['right']['moves']}"
        tb = f" tie-break {self.tiebreak}" if self.tiebreak else ""
        setup = v.get("setup")
        shown = (f" | set-up: level {setup['level'] or 'auto'}, stage {setup['stage']}, language "
                 f"{setup['language']}") if setup else ""  # issue 15: before the first press
        return (f"{self.preset.id} ({self.preset.name}) game {self.game_no}{tb} | {v['state']} "
                f"| running: {running} | moves {moves}{shown}")

    def _beep_new(self, v: dict[str, Any]) -> None:
        for alert in v["alerts"]:
            k = tuple(sorted(alert.items()))
            if k in self._seen_alerts:
                continue
            self._seen_alerts.add(k)
            text = screens.alert_text(alert)
            self.beeps.append(text)
            self.buzzer.beep(alert, text)
            if alert.get("kind") == "arbiter-call":  # MR-13: told on the displays too, not a beep only
                left = format_remaining(int(alert.get("remaining_ms") or 0) * 1_000_000)
                self.message = f"arbiter call: {alert.get('side')} has {left} left (MR-13)"
