"""A pairing as the clock keeps it (pushed by the organiser's PC over the dock): `check_pairing` and the
checks it shares with the organiser's pairing files (names, events, whole numbers, the event's set-up).
Light: the clock imports this, the organiser's `organiser/pairings.py` builds on it.

The event's set-up (issue 15), each optional (None: the clock keeps its own setting): `level` (XW-8's
cap level, `LEVELS`), `stage` (XW-8, `core.scoring.STAGES`), `language` (the clock's words,
`ui.text.LANGUAGES`) and `preset` (the id of a preset the clock knows: the next game's time control;
only its form is checked here, the clock checks it knows it).

The game's number in its match (issue 16, dock protocol 4), optional: `game` (1-`MAX_GAME`; the
organiser's published round says it, e.g. game 2 of a Makhos match: the clock's next game is G2)."""
from __future__ import annotations

import re
from typing import Any

from gameclock.core.scoring import STAGES
from gameclock.dataerrors import printable, unsafe_char
from gameclock.ui.text import LANGUAGES

SIDES = ("left", "right")
MAX_NAME = 120   # the dock protocol's limit (messages._players)
MAX_EVENT = 64
MAX_ROUND = 99   # the clock's menu takes rounds 1-99 and tables 1-999 (ui/menu.py FIELDS)
MAX_TABLE = 999
MAX_GAME = 99    # a game's number in its match (MH-7 plays 4, MH-8's continuations a few more)
LEVELS = ("primary", "secondary")  # XW-8's levels, as the clock's Level setting offers them (ui/menu.py)
PRESET_ID = re.compile(r"[a-z0-9][a-z0-9_.+-]{0,63}")  # rules.loader.PRESET_ID_RE, at most 64 characters
SETUP_KEYS = ("level", "stage", "language", "preset")  # the event's set-up a pairing may carry
SETUP_CHOICES: dict[str, tuple[str, ...]] = {"level": LEVELS, "stage": STAGES, "language": LANGUAGES}


class PairingError(ValueError):
    """A pairing file (or a pairing) that cannot be used: one line, `FILE:LINE: what is wrong`."""


def _bad_text(text: str) -> str | None:
    if "#" in text:
        return "holds '#'"
    bad = unsafe_char(text)  # C0, C1, DEL, line separators, bidi overrides (U+202E): the screens and logs
    if bad is not None:
        return f"holds a control character ({bad[1]})"
    return None


def clean_name(name: object, where: str = "") -> str:
    """A player's name as the clock keeps it: spaces folded to one, at most MAX_NAME characters."""
    if not isinstance(name, str):
        raise PairingError(f"{where}player name {name!r} is not text")
    text = " ".join(name.split())
    problem = _bad_text(text)
    if problem:
        raise PairingError(f"{where}player name {printable(repr(text))} {problem} (the clock's log cannot keep it)")
    if len(text) > MAX_NAME:
        raise PairingError(f"{where}player name {text[:20]!r}... is longer than {MAX_NAME} characters")
    return text


def clean_event(event: object, where: str = "") -> str | None:
    """The event (division) as one word, or None."""
    if event is None:
        return None
    if not isinstance(event, str):
        event = str(event)
    text = event.strip()
    if not text:
        return None
    if len(text.split()) > 1:
        raise PairingError(f"{where}event {text!r} has spaces: give it as one word (e.g. "
                           f"{'-'.join(text.split())!r}); the clock's log keeps it as `event ID`")
    problem = _bad_text(text)
    if problem:
        raise PairingError(f"{where}event {printable(repr(text))} {problem}")
    if len(text) > MAX_EVENT:
        raise PairingError(f"{where}event {text[:20]!r}... is longer than {MAX_EVENT} characters")
    return text


def whole_number(value: object, what: str, where: str = "", maximum: int | None = None) -> int:
    """A whole number from 1 (to `maximum` when given: the organiser's files give MAX_ROUND, MAX_TABLE; the
    clock checks its menu's ranges itself), an int or its digits. PairingError naming the range otherwise."""
    if isinstance(value, bool):
        raise PairingError(f"{where}{what} {value!r} is not a whole number")
    if isinstance(value, int):
        n = value
    else:
        text = str(value).strip()
        if not re.fullmatch(r"\d+", text):
            shown = printable(repr(text[:20]) + ("..." if len(text) > 20 else ""))
            raise PairingError(f"{where}{what} {shown} is not a whole number" if text
                               else f"{where}{what} is empty")
        if len(text) > 18:  # int() of 4,300 digits and more is a ValueError of its own
            raise PairingError(f"{where}{what} {text[:12]}... ({len(text)} digits) is out of range"
                               + (f" (1-{maximum}, as the clock's menu takes it)" if maximum is not None else ""))
        n = int(text)
    if n < 1:
        raise PairingError(f"{where}{what} {n} is not 1 or more")
    if maximum is not None and n > maximum:
        shown_n = str(n) if len(str(n)) <= 30 else f"{str(n)[:12]}... ({len(str(n))} digits)"
        raise PairingError(f"{where}{what} {shown_n} is out of range (1-{maximum}, as the clock's menu takes it)")
    return n


def clean_setup(key: str, value: object, where: str = "") -> str | None:
    """One set-up value of a pairing (`SETUP_KEYS`), or None when not given (None or blank). Words are
    taken in any case ("Primary"); a preset id as written (lower case). PairingError names the
    choices."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise PairingError(f"{where}{key} {printable(repr(value)[:20])} is not text")
    text = value.strip()
    if not text:
        return None
    if key == "preset":
        if not PRESET_ID.fullmatch(text):
            raise PairingError(f"{where}preset {printable(repr(text[:20]))} is not a preset id (lower-case letters, "
                               "digits and _ . + -, at most 64; e.g. crossword)")
        return text
    choices = SETUP_CHOICES[key]
    word = text.lower()
    if word not in choices:
        raise PairingError(f"{where}{key} {printable(repr(text[:20]))} is not one of {', '.join(choices)}")
    return word


def check_pairing(obj: object) -> dict[str, Any]:
    """One pairing (e.g. from the dock) as the clock keeps it, checked: event one word or None, round
    and table whole numbers from 1, both players' names (None or "" allowed: not known), and the
    event's set-up (`SETUP_KEYS`: kept only when given, a null or blank value is absent). The names'
    spaces are folded to one. Any other key is refused. PairingError says what is wrong."""
    if not isinstance(obj, dict):
        raise PairingError(f"a pairing is an object, not {type(obj).__name__}")
    missing = [k for k in ("event", "round", "table", "players") if k not in obj]
    if missing:
        raise PairingError(f"pairing without {', '.join(missing)}")
    extra = sorted(str(k) for k in obj if k not in ("event", "round", "table", "players", "game", *SETUP_KEYS))
    if extra:
        raise PairingError(f"pairing with unknown {printable(', '.join(extra))[:60]}")
    players = obj["players"]
    if not isinstance(players, dict) or set(players) != set(SIDES):
        raise PairingError(f"pairing players must be {{left, right}}, not {players!r}")
    names = {s: None if players[s] is None else clean_name(players[s]) for s in SIDES}
    setup = {k: clean_setup(k, obj.get(k)) for k in SETUP_KEYS}
    game = obj.get("game")
    if game is not None:
        game = whole_number(game, "game", maximum=MAX_GAME)
    return {"event": clean_event(obj["event"]), "round": whole_number(obj["round"], "round"),
            "table": whole_number(obj["table"], "table"),
            "players": {s: names[s] or None for s in SIDES},
            **{k: v for k, v in setup.items() if v is not None},
            **({"game": game} if game is not None else {})}


def setup_text(p: dict[str, Any]) -> str:
    """A pairing's set-up as words for the message line and logs: "crossword primary final th" ("": none),
    and the game's number in its match when the pairing gives it ("makhos G2")."""
    words = [str(p[k]) for k in ("preset", "level", "stage", "language") if p.get(k)]
    return " ".join(words + ([f"G{p['game']}"] if p.get("game") else []))
