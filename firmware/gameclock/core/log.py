"""Event logs: the text a person writes for a scenario and the device journals during a game.

    # comments allowed, also after an event
    preset crossword          # header: which rule file; `game N` (in the match), `tiebreak K` (MH-4)
    0 start left              # SECONDS EVENT [ARGS]: seconds from the log's zero, to the nanosecond
    61.25 press left

Events: start SIDE | press SIDE | pause | resume | extend SIDE MINUTES (or M:SS) | retract SIDE |
adjust SIDE [-]M:SS[.f] | moves SIDE N (the arbiter sets a side's moves made) |
undo | finish. Times never go backwards. Parsing is all-or-nothing: any bad line raises LogError
naming the line, and no event of the log is returned.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .control import NS_PER_MIN, NS_PER_S, SIDES
from .events import (
    Adjust,
    CountEnd,
    CountStart,
    CountStop,
    Event,
    Extend,
    Finish,
    Pause,
    Press,
    Resume,
    Retract,
    SetMoves,
    Start,
    Undo,
)


class LogError(ValueError):
    """A bad log line: `source:line: what is wrong`."""

    def __init__(self, source: str, line_no: int, message: str):
        super().__init__(f"{source}:{line_no}: {message}")
        self.source, self.line_no, self.message = source, line_no, message


@dataclass
class Log:
    """A parsed log: header directives, and the events with the line each came from."""

    header: dict[str, str] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)   # lines[i] is the line number of events[i]
    extra: list[tuple[int, int, list[str]]] = field(default_factory=list)  # (line, ns, words)

    @property
    def preset(self) -> str | None:
        return self.header.get("preset")

    @property
    def game(self) -> int:
        return int(self.header.get("game", "1"))

    @property
    def tiebreak(self) -> int:
        """MH-4: 0 for a game of the match, k for the k-th extra game after a tied match."""
        return int(self.header.get("tiebreak", "0"))


_SECONDS = re.compile(r"^(\d+)(?:\.(\d{1,9}))?$")
_CLOCK = re.compile(r"^(-)?(?:(\d+):)?(\d+):([0-5]\d)(?:\.(\d{1,9}))?$")
_MINUTES = re.compile(r"^(\d+)(?:\.(\d{1,9}))?$")
# header name -> (pattern of the rest of the line, usage)
HEADERS = {
    "preset": (r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$", "preset ID"),
    "game": (r"^[1-9]\d*$", "game N"),              # the game's number in its match (MH-7: 1-4)
    "tiebreak": (r"^(0|[1-9]\d{0,2})$", "tiebreak K"),  # MH-4: the k-th extra game after a tied match
    "event": (r"^\S+$", "event ID"),                 # the tournament's event (division)
    "round": (r"^[1-9]\d*$", "round N"),
    "table": (r"^[1-9]\d*$", "table N"),
    "level": (r"^[a-z][a-z0-9_-]*$", "level NAME"),   # XW-8 caps: primary | secondary
    "stage": (r"^(qualifying|last|final)$", "stage qualifying|last|final"),
    "player": (r"^(left|right)\s+\S.*$", "player SIDE NAME"),
    "clock": (r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", "clock SERIAL"),  # the clock that kept the journal
}


def parse_seconds(text: str) -> int:
    """'61.25' -> 61_250_000_000 ns, exactly (no floating point)."""
    m = _SECONDS.match(text)
    if not m:
        raise ValueError(f"bad time {text!r} (seconds from the start, e.g. 61.25)")
    frac = (m.group(2) or "").ljust(9, "0")
    return int(m.group(1)) * NS_PER_S + int(frac or 0)


def format_seconds(ns: int) -> str:
    """61_250_000_000 ns -> '61.25' (the inverse of parse_seconds)."""
    whole, frac = divmod(ns, NS_PER_S)
    return f"{whole}.{frac:09d}".rstrip("0").rstrip(".") if frac else str(whole)


def parse_clock_time(text: str) -> int:
    """'3:18', '-0:05', '1:02:03.5' -> ns. Seconds must be 00-59."""
    m = _CLOCK.match(text)
    if not m:
        raise ValueError(f"bad clock time {text!r} (write M:SS or H:MM:SS, seconds 00-59)")
    sign, h, mnt, sec, frac = m.groups()
    ns = ((int(h or 0) * 60 + int(mnt)) * 60 + int(sec)) * NS_PER_S + int((frac or "").ljust(9, "0") or 0)
    return -ns if sign else ns


def format_clock_time(ns: int) -> str:
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    whole, frac = divmod(ns, NS_PER_S)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    text = f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
    if frac:
        text += f".{frac:09d}".rstrip("0")
    return sign + text


def parse_minutes(text: str) -> int:
    """Extra time: whole or decimal minutes ('5', '10', '0.5') or a clock time ('0:10', '1:30.5')."""
    if ":" in text:
        ns = parse_clock_time(text)
        if ns < 0:
            raise ValueError(f"bad extra time {text!r} (must be positive)")
        return ns
    m = _MINUTES.match(text)
    if not m:
        raise ValueError(f"bad minutes {text!r} (e.g. 5, 10, or a time such as 0:30)")
    return int(m.group(1)) * NS_PER_MIN + int((m.group(2) or "").ljust(9, "0") or 0) * 60


def _side(text: str) -> int:
    if text not in SIDES:
        raise ValueError(f"bad side {text!r} (left or right)")
    return SIDES.index(text)


def _args(words: list[str], n: int, usage: str) -> list[str]:
    if len(words) != n:
        raise ValueError(f"usage: {usage}")
    return words


def _event(at: int, verb: str, args: list[str]) -> Event:
    if verb == "start":
        (side,) = _args(args, 1, "start SIDE")
        return Start(at, _side(side))
    if verb == "press":
        (side,) = _args(args, 1, "press SIDE")
        return Press(at, _side(side))
    if verb in ("pause", "resume", "undo", "finish"):
        _args(args, 0, verb)
        return {"pause": Pause, "resume": Resume, "undo": Undo, "finish": Finish}[verb](at)
    if verb == "extend":
        side, minutes = _args(args, 2, "extend SIDE MINUTES")
        return Extend(at, _side(side), parse_minutes(minutes))
    if verb == "retract":
        (side,) = _args(args, 1, "retract SIDE")
        return Retract(at, _side(side))
    if verb == "adjust":
        side, remaining = _args(args, 2, "adjust SIDE M:SS")
        return Adjust(at, _side(side), parse_clock_time(remaining))
    if verb == "moves":
        side, moves = _args(args, 2, "moves SIDE N")
        if not moves.isdigit() or len(moves) > 3:
            raise ValueError(f"moves: {moves!r} is not a number of moves 0-999")
        return SetMoves(at, _side(side), int(moves))
    if verb == "count":
        return _count(at, args)
    raise KeyError(verb)


COUNT_USAGE = ("count board SIDE | count pieces SIDE attacker=MATERIAL on_board=N | count makhos SIDE | "
               "count end | count stop")


def _count(at: int, args: list[str]) -> Event:
    """MR-4 board's honour, MR-6 pieces' honour, MH-6 Makhos count; end (MH-6) and stop.

    `count reset` is what logs written before the second edition of MH-6 say for a man's move or a
    capture: it is read as `count end` (the count ends; it never restarted by itself in the rules)."""
    if args in (["end"], ["reset"], ["stop"]):
        return CountStop(at) if args[0] == "stop" else CountEnd(at)
    if len(args) == 2 and args[0] in ("board", "makhos"):
        return CountStart(at, args[0], _side(args[1]))
    if len(args) == 4 and args[0] == "pieces":
        opts = dict(a.split("=", 1) for a in args[2:] if "=" in a)
        if set(opts) != {"attacker", "on_board"} or not opts["on_board"].isdigit() \
                or not re.fullmatch(r"[RNSMrnsm]+", opts["attacker"]):
            raise ValueError(f"usage: {COUNT_USAGE} (MATERIAL in letters R N S M, e.g. attacker=RR)")
        return CountStart(at, "pieces", _side(args[1]), opts["attacker"].upper(), int(opts["on_board"]))
    raise ValueError(f"usage: {COUNT_USAGE}")


EVENT_VERBS = ("start", "press", "pause", "resume", "extend", "retract", "adjust", "moves", "undo", "finish",
               "count")


def parse_log(text: str, source: str = "<log>", extra_verbs: tuple[str, ...] = ()) -> Log:
    """Parse a whole log. `extra_verbs` are kept (unparsed) in `Log.extra` for layers above the clock."""
    log = Log()
    last = 0
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        head = words[0]
        try:
            if head in HEADERS:
                if log.events or log.extra:
                    raise ValueError(f"'{head}' must come before the first event")
                pattern, usage = HEADERS[head]
                rest = line[len(head):].strip()
                if not re.match(pattern, rest):
                    raise ValueError(f"usage: {usage}")
                key = head if head != "player" else f"player.{rest.split()[0]}"
                if key in log.header:
                    raise ValueError(f"'{head}' given twice")
                log.header[key] = rest if head != "player" else rest.split(None, 1)[1]
                continue
            if len(words) < 2:
                raise ValueError(f"expected 'SECONDS EVENT ...' or a header ({', '.join(HEADERS)})")
            at = parse_seconds(head)
            if at < last:
                raise ValueError(f"time goes backwards ({head} s after {format_seconds(last)} s)")
            verb, args = words[1], words[2:]
            if verb in extra_verbs:
                log.extra.append((no, at, words[1:]))
                last = at
                continue
            if verb not in EVENT_VERBS:
                raise ValueError(f"unknown event {verb!r} (known: {', '.join(EVENT_VERBS + extra_verbs)})")
            log.events.append(_event(at, verb, args))
            log.lines.append(no)
            last = at
        except ValueError as exc:
            raise LogError(source, no, str(exc)) from None
    return log


def format_event(ev: Event) -> str:
    """One log line for an event (the journal writes these)."""
    at = format_seconds(ev.at_ns)
    if isinstance(ev, (Start, Press, Retract)):
        return f"{at} {type(ev).__name__.lower()} {SIDES[ev.side]}"
    if isinstance(ev, Extend):
        whole, rest = divmod(ev.time_ns, NS_PER_MIN)
        amount = str(whole) if not rest else format_clock_time(ev.time_ns)  # exact either way
        return f"{at} extend {SIDES[ev.side]} {amount}"
    if isinstance(ev, Adjust):
        return f"{at} adjust {SIDES[ev.side]} {format_clock_time(ev.remaining_ns)}"
    if isinstance(ev, SetMoves):
        return f"{at} moves {SIDES[ev.side]} {ev.moves}"
    if isinstance(ev, CountStart):
        extra = f" attacker={ev.attacker} on_board={ev.on_board}" if ev.kind == "pieces" else ""
        return f"{at} count {ev.kind} {SIDES[ev.side]}{extra}"
    if isinstance(ev, (CountEnd, CountStop)):
        return f"{at} count {'end' if isinstance(ev, CountEnd) else 'stop'}"
    return f"{at} {type(ev).__name__.lower()}"
