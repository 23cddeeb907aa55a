"""The menu model: pages of items moved through with semantic keys. Pure: no time, no pins, no pixels.

`Menu.key(key)` takes UP/DOWN/CLICK/LONG_CLICK/BACK and returns an `Action` for the loop to carry
out (start a preset, new game, next game, end game, close the menu) or None. The loop locks the
menu while a game runs (`locked=True`): it then refuses to open (the players' clocks are never
one knob turn away from a menu).

Pages: "presets" (the start screen: the event presets; CLICK starts a game at ready), and "game"
(Resume, New game, Next game of the preset's sequence, Choose preset, End game).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from gameclock.ui.keys import BACK, CLICK, DOWN, LONG_CLICK, UP

# Action kinds
START = "start"        # start a new game with preset_id (game 1)
NEW_GAME = "new_game"  # the same preset and game number, from the start
NEXT_GAME = "next_game"  # the next game of the preset's sequence
FINISH = "finish"      # end the game (core Finish)
CLOSE = "close"        # back to the clock screens


@dataclass(frozen=True)
class Action:
    kind: str
    preset_id: str | None = None


@dataclass
class Page:
    name: str
    title: str
    items: list[tuple[str, object]]  # (label, Action or the name of a page to open)
    index: int = 0


@dataclass
class Menu:
    """presets: (id, label) in display order."""
    presets: Sequence[tuple[str, str]]
    locked: bool = False
    _stack: list[Page] = field(default_factory=list)
    _preset_hint: str | None = None  # the game's preset, highlighted when "Choose preset" opens

    @property
    def is_open(self) -> bool:
        return bool(self._stack)

    def open_presets(self, selected: str | None = None) -> bool:
        """The start screen: the preset list (alone on the stack: BACK stays here)."""
        if self.locked:
            return False
        self._stack = [self._presets_page(selected)]
        return True

    def open_game_menu(self, *, preset_id: str | None, started: bool, over: bool,
                       has_next: bool) -> bool:
        """The menu of a game that is not running (ready, paused, flagged or finished)."""
        if self.locked:
            return False
        items: list[tuple[str, object]] = [("Resume", Action(CLOSE)), ("New game", Action(NEW_GAME))]
        if has_next:
            items.append(("Next game", Action(NEXT_GAME)))
        items.append(("Choose preset", "presets"))
        if started and not over:
            items.append(("End game", Action(FINISH)))
        self._stack = [Page("game", "GAME", items)]
        self._preset_hint = preset_id
        return True

    def close(self) -> None:
        self._stack = []

    def key(self, key: str) -> Action | None:
        if not self._stack:
            return None
        page = self._stack[-1]
        if key == UP:
            page.index = max(0, page.index - 1)
        elif key == DOWN:
            page.index = min(len(page.items) - 1, page.index + 1)
        elif key == CLICK:
            if not page.items:
                return None
            target = page.items[page.index][1]
            if isinstance(target, Action):
                return target
            if target == "presets":
                self._stack.append(self._presets_page(self._preset_hint))
        elif key == BACK:
            if len(self._stack) > 1:
                self._stack.pop()
            elif page.name == "game":
                return Action(CLOSE)
        elif key == LONG_CLICK:
            if self._stack[0].name == "game":
                return Action(CLOSE)
        return None

    def selected(self) -> tuple[str, object] | None:
        """The highlighted item (label, target), None if closed or empty."""
        if not self._stack or not self._stack[-1].items:
            return None
        page = self._stack[-1]
        return page.items[page.index]

    def selected_preset(self) -> str | None:
        """The highlighted preset id on the presets page, else None."""
        item = self.selected()
        if item and isinstance(item[1], Action) and item[1].kind == START:
            return item[1].preset_id
        return None

    def view(self) -> dict:
        """What the menu screen draws: {"title", "items": [label], "index", "page"}."""
        if not self._stack:
            return {"title": "", "items": [], "index": 0, "page": None}
        page = self._stack[-1]
        return {"title": page.title, "items": [label for label, _ in page.items],
                "index": page.index, "page": page.name}

    def _presets_page(self, selected: str | None) -> Page:
        items: list[tuple[str, object]] = [(label, Action(START, pid)) for pid, label in self.presets]
        index = next((i for i, (pid, _) in enumerate(self.presets) if pid == selected), 0)
        return Page("presets", "PRESET", items, index)
