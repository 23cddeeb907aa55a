"""The options each pairing system declares (issue 25): one schema that `gameclock event create/set`
(organiser/event.py, commands_event.py), the desk's options form (desk/options.py) and docs/rules.md's
table of options all read. A system's code reads its options from `EventState.options`; every option
it reads is declared here (tests/pairing/test_options_schema.py greps the systems for them).

    opts = options_of("makruk-rr")                  # its Options in order; None: a system declaring none
    opt = option_of("makruk-rr", "order")           # OptionError naming it (and the one meant) if unknown
    value = opt.parse("P3,P1,P4,P2", who)           # the text of --option / a form field -> the typed value
    value = opt.check(["P3", "P1", "P4", "P2"], who)  # a typed value checked and normalised
    opt.text(value)                                 # -> "P3,P1,P4,P2", as --option takes it
    opt.when.refuse(old, new, who)                  # why it cannot change now, or None

`who` (Entrants) is what a value is checked against: the event's players, who has withdrawn, the
published rounds (their boards), the event's options as they will be. Every error is an OptionError,
one line starting `option NAME: `.

Values as stored (the events table's `options`, JSON) and as the systems read them:

- int: a JSON integer in the option's range; bool: true / false; choice: one of the option's words;
- players: a list of player ids, each once, every player not withdrawn among them (a round robin's
  `order` may keep a withdrawn player's number: their opponents have a bye);
- teams: a list of team codes (MR-11's complete teams), each once, all of them;
- player-lists: a list of lists of player ids, each list 2 or more, a player in one list only;
- matches: an object {"A v B": A}: the match of A and B, and the player the option names (the lot's
  winner, the player who gives the draw first), written first.

Text (`--option NAME=TEXT`, a form's field): a whole number; true/false (yes/no, on/off, 1/0); a word;
lists separated by commas or new lines (players also by spaces): `order=P3,P1,P4,P2`; a tie-break
list's ids joined by `-` (or `+`, spaces; ids holding `-` are told apart by the event's ids):
`tiebreak=W-X,Y-Z`; a match `WINNER>LOSER`: `lots=P3>P1,P4>P2` (or the winner and the loser in turn,
`lots=P3,P1,P4,P2`), `gives_first=P7>P2` (or `P7` alone: P7's match in the last published round).
An empty text is "not given": the system's default.

When an option may change (`When`): a lot drawn for the event (an order, seeds, groups, the lot's
seed, the first colour) only until round 1 is published (it drew that round, and every later round
continues it); the committee's later decisions (tie-break games, a lot drawn at the venue, the
coin-toss winner's choice) until a published round has used them; the rest for the rounds to come.

`python -m gameclock.organiser.pairing.options` prints docs/rules.md's table (`markdown()`).
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from gameclock.organiser.pairing.crossword import SU_FINALISTS, SU_QUALIFYING
from gameclock.organiser.pairing.makhos import KO_GAMES
from gameclock.organiser.pairing.model import PairingError, Player, Words, words
from gameclock.organiser.pairing.roundrobin import teams_of
from gameclock.organiser.said import SaidError

Kind = Literal["int", "bool", "choice", "players", "teams", "player-lists", "matches"]
MAX_SEED = 999_999_999           # a lot's seed, as the draw's seeds are (1 to 10**9 - 1)
MAX_ITEMS = 5000                 # ids in one option's list (an event has at most 2000 players)
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
DOC_BEGIN = "<!-- the options table: generated from organiser/pairing/options.py (markdown()) -->"
DOC_END = "<!-- end of the options table -->"


class OptionError(SaidError, ValueError):
    """An option or its value that cannot be used: one line, `option NAME: why` (Words for the desk's
    reader where the desk shows it on an ordinary day: organiser/said.py)."""


# ------------------------------------------------------------------------------------------ what a value meets
@dataclass(frozen=True)
class Entrants:
    """What an option's value is checked against. `players`: the event's, in list order (withdrawn
    ones too); `withdrawn`: their ids; `rounds`: the published rounds oldest first, as
    Store.event_rounds gives them ({"round", "boards": [{"table", "left", "right", "game", "note"}]});
    `options`: the event's options as they will be (MR-11's teams need the boards)."""
    players: tuple[Player, ...]
    withdrawn: frozenset[str] = frozenset()
    rounds: tuple[Mapping[str, Any], ...] = ()
    options: Mapping[str, object] = field(default_factory=dict)

    @cached_property
    def _ids(self) -> dict[str, str]:
        """Every id and its case-folded spelling -> the id (ids are unique case-folded: event.py)."""
        out = {p.id.casefold(): p.id for p in self.players}
        out.update({p.id: p.id for p in self.players})
        return out

    def id_of(self, token: str) -> str | None:
        return self._ids.get(token) or self._ids.get(token.casefold())

    @property
    def active(self) -> list[str]:
        return [p.id for p in self.players if p.id not in self.withdrawn]

    @property
    def published(self) -> int:
        """The last published round's number (0: none yet)."""
        return max((int(r["round"]) for r in self.rounds), default=0)

    def boards(self) -> list[tuple[int, Mapping[str, Any]]]:
        """(round, board) of every published board, oldest first."""
        return [(int(r["round"]), b) for r in self.rounds for b in r["boards"]]


def _says(value: object) -> str:
    """A value in an error: a text quoted (and cut), anything else as it is."""
    return repr(value[:40]) if isinstance(value, str) else repr(value)[:60]


def _split(text: str, spaces: bool) -> list[str]:
    """The items of a list's text: separated by commas and new lines (and spaces when `spaces`)."""
    return [t for t in re.split(r"[,\s]+" if spaces else r"[,\r\n]+", text) if t.strip()]


# ------------------------------------------------------------------------------------------ when it may change
@dataclass(frozen=True)
class When:
    """When an option may change: words for the docs and the desk, and `refuse(old, new, who)`: why the
    change from `old` to `new` (None: not given) cannot be made now, or None."""
    text: str
    text_th: str
    refuse: Callable[[object, object, Entrants], str | None]


def before_round_1(what: str) -> When:
    """A lot drawn for the event: it drew round 1, and every later round continues it."""
    return When("until round 1 is published", "จนกว่าจะประกาศการจับคู่รอบที่ 1",
                lambda old, new, who: f"round 1 is published: {what} cannot change" if who.rounds else None)


def until_round(n: int, what: str) -> When:
    def refuse(old: object, new: object, who: Entrants) -> str | None:
        return f"round {n} is published: {what}" if who.published >= n else None
    return When(f"until round {n} is published", f"จนกว่าจะประกาศการจับคู่รอบที่ {n}", refuse)


ANY_TIME = When("any time (for the rounds not published yet)", "ได้ทุกเมื่อ (มีผลกับรอบที่ยังไม่ประกาศ)",
                lambda old, new, who: None)


def _matches(value: object) -> dict[frozenset[str], str]:
    """A matches value as {the two players: the player named}."""
    out: dict[frozenset[str], str] = {}
    for key, named in (value or {}).items() if isinstance(value, Mapping) else ():
        a, _, b = str(key).partition(" v ")
        out[frozenset((a, b))] = str(named)
    return out


def _changed(old: object, new: object) -> list[tuple[str, str]]:
    """The matches whose entry differs between two matches values (added, changed, dropped), as sorted pairs."""
    was, now = _matches(old), _matches(new)
    pairs = [tuple(sorted(k)) for k in set(was) | set(now) if was.get(k) != now.get(k)]
    return sorted((a, b) for a, b in pairs)


def _lot_used(old: object, new: object, who: Entrants) -> str | None:
    """MR-12, MH-8, seed 003: a lot decides a tied match; once a published round has one of its players
    play on after their last game together, the lot has been used and cannot change."""
    for a, b in _changed(old, new):
        met = [rnd for rnd, bd in who.boards() if {bd["left"], bd["right"]} == {a, b}]
        if not met:
            continue
        later = [rnd for rnd, bd in who.boards() if rnd > max(met) and {a, b} & {bd["left"], bd["right"]}]
        if later:
            return (f"{a} v {b}: round {min(later)} is published with the match's winner playing on: its lot "
                    "cannot change now")
    return None


def _giving_published(old: object, new: object, who: Entrants) -> str | None:
    """MH-8: the toss winner's choice sets who starts game 7 (the first draw-giving game)."""
    for a, b in _changed(old, new):
        for rnd, bd in who.boards():
            if {bd["left"], bd["right"]} == {a, b} and int(bd.get("game") or 1) > KO_GAMES:
                return (f"{a} v {b}: game {KO_GAMES + 1} is published (round {rnd}): who gives the draw first "
                        "cannot change now")
    return None


def _third_place_taken_back(old: object, new: object, who: Entrants) -> str | None:
    if old is True and new is not True:
        for rnd, bd in who.boards():
            if str(bd.get("note") or "").startswith("third place"):
                return f"round {rnd} is published with the third-place match: it cannot be taken back"
    return None


def _qualifying_rounds(old: object, new: object, who: Entrants) -> str | None:
    """SU-1, SU-4: the rounds published as qualifying ones stay so; the final, once out, stays."""
    was = old if isinstance(old, int) else SU_QUALIFYING
    now = new if isinstance(new, int) else SU_QUALIFYING
    if who.published > was:
        return f"round {was + 1}, the final, is published: the qualifying rounds cannot change"
    if now < who.published:
        return f"round {who.published} is published as a qualifying round: give {who.published} or more"
    return None


QUALIFYING_KEY = "qualifying_rounds"    # (keys named once: the guards read the event's other options)
BOARDS_KEY = "boards"


def _final_published(old: object, new: object, who: Entrants) -> str | None:
    rounds = who.options.get(QUALIFYING_KEY)
    qualifying = rounds if isinstance(rounds, int) else SU_QUALIFYING
    if who.published > qualifying:
        return f"round {qualifying + 1}, the final, is published: its finalists cannot change"
    return None


# ------------------------------------------------------------------------------------------ an option
@dataclass(frozen=True)
class Option:
    """One option a system declares: its name, the kind of value (module doc), what it does and what
    the system does without it (English and Thai), when it may change, and the kind's bounds."""
    name: str
    kind: Kind
    help: str
    help_th: str
    default: str              # what the system does when it is not given
    default_th: str
    when: When
    low: int = 0
    high: int | Callable[[Entrants], int] = 0
    high_text: tuple[str, str] = ("", "")   # (English, Thai) words for a `high` that depends on the event
    choices: tuple[str, ...] = ()
    withdrawn_ok: bool = False             # players: a withdrawn player's id may stay in the list
    alone: bool = False                    # matches: an id alone names that player's last published match
    example: str = ""

    @property
    def pair_words(self) -> str:
        return "GIVER>OPPONENT" if self.alone else "WINNER>LOSER"

    def error(self, why: str | Words) -> OptionError:
        return OptionError(words("option {name}: {why}", name=self.name, why=why))

    def top(self, who: Entrants) -> int:
        return self.high(who) if callable(self.high) else self.high

    # ---------------------------------------------------------------- text -> value
    def parse(self, text: str, who: Entrants) -> object:
        """The typed value of `text` (a field's or `--option`'s), checked; None for an empty text."""
        text = text.strip()
        if not text:
            return None
        if self.kind == "int":
            return self.check(int(text) if re.fullmatch(r"-?\d{1,12}", text) else text, who)
        if self.kind == "bool":
            word = text.lower()
            return self.check(True if word in TRUE_WORDS else False if word in FALSE_WORDS else text, who)
        if self.kind == "choice":
            return self.check(text.lower() if text.lower() in self.choices else text, who)
        if self.kind in ("players", "teams"):
            return self.check(self._bounded(_split(text, spaces=self.kind == "players")), who)
        if self.kind == "player-lists":
            return self.check([self._group(g.strip(), who) for g in self._bounded(_split(text, spaces=False))], who)
        return self._check_pairs(self._pairs(text, who), who)

    def _bounded(self, items: list[str]) -> list[str]:
        if len(items) > MAX_ITEMS:
            raise self.error(f"more than {MAX_ITEMS} items")
        return [i.strip() for i in items]

    def _group(self, text: str, who: Entrants) -> list[str]:
        """A tie-break list's ids: joined by + or spaces, or by - (read against the event's ids, since
        an id may hold a -)."""
        if re.search(r"[+\s]", text):
            return [t for t in re.split(r"[+\s]+", text) if t]
        parts = text.split("-")
        # ways[i]: the readings of parts[i:] as ids joined by -, at most two kept (one is all we need)
        ways: list[list[list[str]]] = [[] for _ in parts] + [[[]]]
        for i in range(len(parts) - 1, -1, -1):
            for j in range(i + 1, len(parts) + 1):
                pid = who.id_of("-".join(parts[i:j]))
                if pid is not None:
                    ways[i] += [[pid, *rest] for rest in ways[j]][:2 - len(ways[i])]
        if len(ways[0]) == 1:
            return ways[0][0]
        if ways[0]:
            raise self.error(f"{text[:40]!r} reads two ways: join its ids with + instead")
        return parts   # no reading: check() names the first part that is not a player

    def _pairs(self, text: str, who: Entrants) -> list[tuple[str, str]]:
        """`A>B` items (or, for lots, ids in turn; for gives_first, an id alone) as (named, other)."""
        items = self._bounded(_split(text, spaces=False))
        if self.alone and all(">" not in i for i in items) and len(items) == 1 and " " not in items[0]:
            return [self._current_match(items[0], who)]
        if any(">" in i for i in items):
            pairs = []
            for item in items:
                a, gt, b = item.partition(">")
                if not gt or not a.strip() or not b.strip() or ">" in b:
                    raise self.error(f"{item[:40]!r}: give it as {self.pair_words}")
                pairs.append((a.strip(), b.strip()))
            return pairs
        ids = [t for i in items for t in i.split()]
        if self.alone or len(ids) % 2:
            raise self.error(f"{len(ids)} ids: give each lot as WINNER>LOSER (or the winner and the loser in turn: "
                             "an even count)" if not self.alone else f"give it as {self.example}")
        return list(zip(ids[::2], ids[1::2], strict=True))

    def _current_match(self, token: str, who: Entrants) -> tuple[str, str]:
        pid = self._player(token, who)
        for _, bd in reversed(who.boards()):
            if pid in (bd["left"], bd["right"]) and bd["right"] is not None:
                return pid, bd["right"] if bd["left"] == pid else bd["left"]
        raise self.error(f"{pid} has no published game yet: give {pid}>OPPONENT")

    # ---------------------------------------------------------------- a typed value checked
    def _player(self, token: object, who: Entrants) -> str:
        pid = who.id_of(token) if isinstance(token, str) else None
        if pid is None:
            raise self.error(words("{token} is not a player of the event", token=str(token)[:40]))
        return pid

    def check(self, value: object, who: Entrants) -> object:
        """`value` as it is stored (module doc), checked against `who`: OptionError if it cannot be."""
        if self.kind == "int":
            top = self.top(who)
            if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= top:
                raise self.error(words("{value} is not a whole number from {low} to {top}", value=_says(value),
                                       low=self.low, top=top))
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self.error(words("{value} is not true or false", value=_says(value)))
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise self.error(words("{value} is not one of {choices}", value=_says(value), choices=", ".join(self.choices)))
            return value
        if self.kind == "players":
            return self._check_players(value, who)
        if self.kind == "teams":
            return self._check_teams(value, who)
        if self.kind == "player-lists":
            return self._check_lists(value, who)
        if not isinstance(value, Mapping):
            raise self.error(f"give it as {self.example}")
        pairs = []
        for key, named in value.items():
            a, v, b = str(key).partition(" v ")
            if not v:
                raise self.error(f"{str(key)[:40]!r} is not a match 'A v B'")
            pid = self._player(named, who)
            ids = {self._player(a, who), self._player(b, who)}
            if pid not in ids:
                raise self.error(f"{key}: {pid} is not one of them")
            pairs.append((pid, (ids - {pid}).pop() if len(ids) == 2 else pid))
        return self._check_pairs(pairs, who)

    def _list(self, value: object, what: str) -> list[str]:
        if not isinstance(value, list | tuple) or not all(isinstance(i, str) for i in value):
            raise self.error(f"give it as {what}: {self.example}")
        return list(value)

    def _check_players(self, value: object, who: Entrants) -> list[str]:
        ids = [self._player(t, who) for t in self._list(value, "player ids")]
        seen: set[str] = set()
        for pid in ids:
            if pid in seen:
                raise self.error(words("{id} is listed twice", id=pid))
            seen.add(pid)
            if pid in who.withdrawn and not self.withdrawn_ok:
                raise self.error(words("{id} has withdrawn", id=pid))
        missing = [pid for pid in who.active if pid not in seen]
        if missing:
            raise self.error(f"{len(ids)} ids for the event's {len(who.active)} players: {', '.join(missing)} "
                             f"{'is' if len(missing) == 1 else 'are'} missing")
        return ids

    def _check_teams(self, value: object, who: Entrants) -> list[str]:
        boards = who.options.get(BOARDS_KEY, 2)
        try:
            teams, _ = teams_of([p for p in who.players if p.id not in who.withdrawn],
                                boards if isinstance(boards, int) and not isinstance(boards, bool) else 2)
        except PairingError as exc:
            raise self.error(str(exc)) from None
        codes = {p.team: p.team for p in who.players if p.team}
        codes.update({t.casefold(): t for t in list(codes)})
        out: list[str] = []
        for token in self._list(value, "team codes"):
            team = codes.get(token) or codes.get(token.casefold())
            if team is None:
                raise self.error(f"{token[:40]} is not a team of the event")
            if team not in teams:
                raise self.error(f"team {team} is not a team: it has not every board (MR-11)")
            if team in out:
                raise self.error(f"team {team} is listed twice")
            out.append(team)
        missing = [t for t in sorted(teams) if t not in out]
        if missing:
            raise self.error(f"{len(out)} teams for the event's {len(teams)}: {', '.join(missing)} "
                             f"{'is' if len(missing) == 1 else 'are'} missing")
        return out

    def _check_lists(self, value: object, who: Entrants) -> list[list[str]]:
        if not isinstance(value, list | tuple):
            raise self.error(f"give it as lists of player ids: {self.example}")
        out: list[list[str]] = []
        where: dict[str, int] = {}
        for k, group in enumerate(value):
            ids = [self._player(t, who) for t in self._list(group, "lists of player ids")]
            if len(ids) < 2:
                raise self.error(f"{ids[0] if ids else 'an empty list'} alone: a tie-break list has 2 or more players")
            for pid in ids:
                if pid in where:
                    raise self.error(f"{pid} is listed twice" if where[pid] == k else f"{pid} is in two lists")
                if pid in who.withdrawn:
                    raise self.error(f"{pid} has withdrawn")
                where[pid] = k
            out.append(ids)
        return out

    def _check_pairs(self, pairs: Sequence[tuple[str, str]], who: Entrants) -> dict[str, str]:
        out: dict[str, str] = {}
        seen: set[frozenset[str]] = set()
        for a, b in pairs:
            pa, pb = self._player(a, who), self._player(b, who)
            if pa == pb:
                raise self.error(f"{pa}>{pb}: two different players")
            match = frozenset((pa, pb))
            if match in seen:
                x, y = sorted(match)
                raise self.error(f"{x} and {y}'s match is given twice")
            seen.add(match)
            out[f"{pa} v {pb}"] = pa
        return out

    # ---------------------------------------------------------------- value -> text
    def text(self, value: object, who: Entrants | None = None) -> str:
        """The value as --option and the form take it (parse(text(v), who) == v); "" for None. A tie-break
        list's ids are joined by - unless an id holds one (in the value, or among `who`'s players: the
        reading must stay the only one), then by +."""
        if value is None:
            return ""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind in ("players", "teams") and isinstance(value, list | tuple):
            return ",".join(map(str, value))
        if self.kind == "player-lists" and isinstance(value, list | tuple):
            ids = [str(i) for g in value for i in g] + [p.id for p in (who.players if who else ())]
            joiner = "+" if any("-" in i for i in ids) else "-"
            return ",".join(joiner.join(map(str, g)) for g in value)
        if self.kind == "matches" and isinstance(value, Mapping):
            return ",".join(f"{named}>{(set(str(k).split(' v ')) - {named} or {named}).pop()}"
                            for k, named in value.items())
        return str(value)

    def value_text(self, lang: str = "en") -> str:
        """What the value is, in words (docs/rules.md, the desk)."""
        th = lang == "th"
        if self.kind == "int":
            if callable(self.high):
                top = self.high_text[1 if th else 0]
            else:
                top = str(self.high)
            return f"จำนวนเต็ม {self.low} ถึง {top}" if th else f"a whole number from {self.low} to {top}"
        if self.kind == "bool":
            return "true หรือ false" if th else "true or false"
        if self.kind == "choice":
            return (" หรือ " if th else " or ").join(self.choices)
        words = {
            "players": ("player ids, every player once, in order", "รหัสผู้เล่น ครบทุกคน คนละครั้ง ตามลำดับ"),
            "teams": ("team codes, every team once, in order", "รหัสทีม ครบทุกทีม ทีมละครั้ง ตามลำดับ"),
            "player-lists": ("lists of player ids, a list's ids joined by - or +",
                             "รายชื่อหลายชุด แต่ละชุดเป็นรหัสผู้เล่นคั่นด้วย - หรือ +"),
            "matches": ("matches, each WINNER>LOSER (or the winner and the loser in turn)",
                        "คู่แข่งขัน แต่ละคู่เป็น ผู้ชนะ>ผู้แพ้ (หรือผู้ชนะและผู้แพ้สลับกันไป)") if not self.alone else
                       ("matches, each GIVER>OPPONENT, or an id alone (that player's match now)",
                        "คู่แข่งขัน แต่ละคู่เป็น ผู้ต่อก่อน>คู่แข่ง หรือรหัสผู้เล่นคนเดียว (คู่ที่กำลังแข่ง)"),
        }[self.kind]
        return f"{words[1 if th else 0]}: {self.example}"


# ------------------------------------------------------------------------------------------ the systems' options
LOT_SEED = Option(
    "lot_seed", "int",
    "The lot's seed: the same seed draws the same lot (when the lot is not given itself)",
    "เลขตั้งต้นของการจับสลาก: เลขเดียวกันได้ผลจับสลากเดียวกัน (เมื่อไม่ได้กำหนดผลจับสลากเอง)",
    "the draw's seed", "เลขสุ่มของการจับคู่", before_round_1("the lot it drew"), 0, MAX_SEED)
ORDER = Option(
    "order", "players",
    "The lot drawn at the venue: the ids in pairing-number order, every player once (MR-10: the lot pairs "
    "round 1, the Berger table the rest; a withdrawn player's number gives their opponents a bye)",
    "ผลการจับสลากที่สนาม: รหัสผู้เล่นเรียงตามหมายเลขประกบคู่ ครบทุกคน คนละครั้ง (MR-10: จับสลากรอบแรก "
    "รอบต่อไปเรียงสับเปลี่ยนตามตาราง Berger; หมายเลขของผู้ที่ถอนตัว คู่แข่งได้บาย)",
    "drawn by lot (lot_seed)", "จับสลาก (lot_seed)", before_round_1("the lot it drew"),
    withdrawn_ok=True, example="P3,P1,P4,P2")
COLOURS = Option(
    "colours", "choice",
    "Who starts each game (MR-10): toss, a coin toss each round (seed 001 §5(3)), drawn from the kept lot's "
    "seed; berger, White as the Berger table gives it (colours alternate)",
    "ผู้เริ่มเดินแต่ละกระดาน (MR-10): toss เสี่ยงเหรียญทุกรอบ (seed 001 ข้อ 5(3)) ตามเลขตั้งต้นของการจับสลาก; "
    "berger ฝ่ายขาวตามตาราง Berger (สลับสีกันไป)",
    "toss", "toss", ANY_TIME, choices=("toss", "berger"))
TEAM_ORDER = Option(
    "order", "teams",
    "The lot drawn at the venue: the team codes in pairing-number order, every team once (MR-11)",
    "ผลการจับสลากที่สนาม: รหัสทีมเรียงตามหมายเลขประกบคู่ ครบทุกทีม ทีมละครั้ง (MR-11)",
    "drawn by lot (lot_seed)", "จับสลาก (lot_seed)", before_round_1("the lot it drew"), example="Red,Blue,Green")
BOARDS = Option(
    "boards", "int",
    "Boards a team plays (MR-11: 2); a player's board is the list's board column",
    "จำนวนกระดานของแต่ละทีม (MR-11: 2) กระดานของผู้เล่นดูจากคอลัมน์ board ในรายชื่อ",
    "2", "2", before_round_1("the teams it paired"), 1, 99)
assert BOARDS.name == BOARDS_KEY
SEEDS = Option(
    "seeds", "players",
    "The bracket by seeds: every player's id once, best first (1 v 4, 2 v 3; 1 v 8, 4 v 5, 2 v 7, 3 v 6 ...)",
    "จัดสายตามมือวาง: รหัสผู้เล่นทุกคน คนละครั้ง เรียงจากมือวางอันดับ 1 (1 พบ 4, 2 พบ 3; 1 พบ 8, 4 พบ 5, "
    "2 พบ 7, 3 พบ 6 ...)",
    "drawn by lot (lot_seed)", "จับสลาก (lot_seed)", before_round_1("the bracket it drew"),
    example="P1,P2,P3,P4,P5,P6,P7,P8")
FIRST_ROUND = Option(
    "first_round", "int",
    "The event's round the knockout starts from: games before it are not the bracket's",
    "รอบที่เริ่มการแข่งขันแบบแพ้คัดออก: เกมก่อนรอบนี้ไม่นับในสาย",
    "1", "1", before_round_1("the bracket it drew"), 1, 99)
THIRD_PLACE = Option(
    "third_place", "bool",
    "A match for third place between the semi-finals' losers",
    "แข่งขันชิงอันดับที่ 3 ระหว่างผู้แพ้รอบรองชนะเลิศ",
    "false (no third-place match)", "false (ไม่มีการชิงอันดับที่ 3)",
    When("any time; switched off only until the third-place match is published",
         "ได้ทุกเมื่อ แต่ปิดได้เฉพาะก่อนประกาศคู่ชิงอันดับที่ 3", _third_place_taken_back))
LOTS = Option(
    "lots", "matches",
    "Lots drawn at the venue for tied matches, WINNER>LOSER each (MR-12; MH-8; seed 003)",
    "ผลจับสลากที่สนามของคู่ที่เสมอกัน แต่ละคู่เป็น ผู้ชนะ>ผู้แพ้ (MR-12; MH-8; seed 003)",
    "drawn by the lot seed", "จับสลากตาม lot_seed",
    When("until a published round plays on from that match", "จนกว่าจะประกาศรอบที่ผู้ชนะคู่นั้นแข่งต่อ", _lot_used),
    example="P3>P1,P4>P2")
GIVES_FIRST = Option(
    "gives_first", "matches",
    "The coin-toss winner's choice before the draw-giving games (MH-8): who gives the draw first, "
    "GIVER>OPPONENT each, or an id alone for that player's match now",
    "สิทธิ์ของผู้ชนะการเสี่ยงทายก่อนกระดานผลัดกันต่อเสมอเป็นแพ้ (MH-8): ใครต่อก่อน แต่ละคู่เป็น ผู้ต่อก่อน>คู่แข่ง "
    "หรือรหัสผู้เล่นคนเดียวสำหรับคู่ที่กำลังแข่ง",
    "the coin toss's winner gives first", "ผู้ชนะการเสี่ยงทายต่อก่อน",
    When(f"until the match's game {KO_GAMES + 1} is published", f"จนกว่าจะประกาศกระดานที่ {KO_GAMES + 1} ของคู่นั้น",
         _giving_published),
    alone=True, example="P7>P2")
GROUPS = Option(
    "groups", "int",
    "Groups drawn by lot when the list gives none (MH-7): dealt in turn, sizes differing by one at most",
    "จำนวนกลุ่มที่แบ่งโดยการจับสลาก เมื่อรายชื่อไม่ได้กำหนดกลุ่ม (MH-7) แจกทีละคน ขนาดกลุ่มต่างกันไม่เกินหนึ่ง",
    "1", "1", before_round_1("the groups it drew"), 1, lambda who: max(1, len(who.active) // 2),
    high_text=("half the players", "ครึ่งหนึ่งของจำนวนผู้เล่น"))
TIEBREAK = Option(
    "tiebreak", "player-lists",
    "Tie-break games the committee orders after the round robins: the tied players' lists; every two of a "
    "list play 4 more games at 20:00 a side (MH-7 (3))",
    "การแข่งขันตัดสินผลเสมอที่คณะกรรมการสั่งหลังจบการแข่งขันแบบพบกันหมด: รายชื่อผู้ที่มีคะแนนเท่ากัน "
    "ทุกคู่ในรายชื่อแข่งอีก 4 กระดาน ฝ่ายละ 20 นาที (MH-7 ค.(3))",
    "none", "ไม่มี", ANY_TIME, example="W-X,Y-Z")
TABLE_GROUP = Option(
    "table_group", "int",
    "Tables per group for the change-over after games 2 and 4 (XW-10): the winners of a group's tables meet, "
    "and the losers",
    "จำนวนโต๊ะต่อกลุ่มสำหรับการสลับคู่หลังเกมที่ 2 และ 4 (XW-10): ผู้ชนะในกลุ่มโต๊ะเดียวกันพบกัน ผู้แพ้พบกัน",
    "2", "2", until_round(5, "the change-overs are paired"), 2, 1000)
KOTH_ROUNDS = Option(
    "koth_rounds", "int",
    "Qualifying games paired King of the Hill at the end: 1 (game 6) or 2 (games 5 and 6; seed 000 §2)",
    "จำนวนเกมท้ายรอบคัดเลือกที่จับคู่แบบ King of the Hill: 1 (เกมที่ 6) หรือ 2 (เกมที่ 5 และ 6; seed 000 §2)",
    "1", "1", until_round(5, "game 5 is paired"), 1, 2)
QUALIFYING_ROUNDS = Option(
    QUALIFYING_KEY, "int",
    "Qualifying rounds before the final (SU-1)", "จำนวนรอบคัดเลือกก่อนรอบชิงชนะเลิศ (SU-1)",
    str(SU_QUALIFYING), str(SU_QUALIFYING),
    When("until the final is published, and never fewer than the rounds published",
         "จนกว่าจะประกาศรอบชิงชนะเลิศ และต้องไม่น้อยกว่าจำนวนรอบที่ประกาศแล้ว", _qualifying_rounds), 1, 20)
FINALISTS = Option(
    "finalists", "int",
    "Competitors in the final: the top N of the qualifying totals, all tied at the last place too (SU-4)",
    "จำนวนผู้เข้ารอบชิงชนะเลิศ: N อันดับแรกของคะแนนรวมรอบคัดเลือก ผู้ที่คะแนนเท่ากันที่อันดับสุดท้ายเข้ารอบทั้งหมด (SU-4)",
    str(SU_FINALISTS), str(SU_FINALISTS),
    When("until the final is published", "จนกว่าจะประกาศรอบชิงชนะเลิศ", _final_published), 1, 1000)
FULL_MARKS = Option(
    "full_marks", "int",
    "The qualifying rounds' full marks, for the medals: seed 000 §2's bands are percentages of it (gold 80-100, "
    "silver 70-79, bronze 60-69, below 60 a certificate; the final standings, organiser/standings/final.py)",
    "คะแนนเต็มของรอบคัดเลือก ใช้ตัดสินรางวัล: เกณฑ์ของ seed 000 §2 เป็นร้อยละของคะแนนเต็ม (เหรียญทอง 80-100 "
    "เหรียญเงิน 70-79 เหรียญทองแดง 60-69 ต่ำกว่า 60 ได้เกียรติบัตร)",
    "no medals", "ไม่ตัดสินรางวัล",
    When("any time (it changes the medals only)", "ได้ทุกเมื่อ (มีผลกับรางวัลเท่านั้น)", lambda old, new, who: None),
    1, 100_000)
INITIAL_COLOUR = Option(
    "initial_colour", "choice",
    "The initial colour drawn by lot before round 1 (C.04.3 E): the colour of the top-ranked player in round 1",
    "สีเริ่มต้นที่จับสลากก่อนรอบแรก (C.04.3 E): สีของผู้เล่นอันดับสูงสุดในรอบแรก",
    "read from round 1, else drawn by the draw's seed", "ดูจากรอบแรก หรือจับสลากตามเลขสุ่มของการจับคู่",
    before_round_1("the colour it drew"), choices=("white", "black"))

KNOCKOUT = (SEEDS, LOT_SEED, FIRST_ROUND, THIRD_PLACE, LOTS)
SCHEMA: dict[str, tuple[Option, ...]] = {
    "xw10": (TABLE_GROUP, KOTH_ROUNDS),
    "sudoku": (QUALIFYING_ROUNDS, FINALISTS, FULL_MARKS),
    "makruk-rr": (ORDER, LOT_SEED, COLOURS),
    "makruk-team": (BOARDS, TEAM_ORDER, LOT_SEED),
    "makruk-ko": KNOCKOUT,
    "makhos-groups": (GROUPS, LOT_SEED, TIEBREAK),
    "makhos-ko": (*KNOCKOUT, GIVES_FIRST),
    "makhos-ko-003": KNOCKOUT,
    "dutch": (INITIAL_COLOUR,),
}


def options_of(system: str) -> tuple[Option, ...] | None:
    """The options `system` declares, in order; None for a system that declares none (a test's own
    system, a plug-in: its options are taken as given)."""
    return SCHEMA.get(system)


def names(system: str) -> list[str]:
    return [o.name for o in SCHEMA.get(system, ())]


def option_of(system: str, name: str) -> Option:
    """The option `name` of `system`; OptionError naming the one meant (or listing them) if it has none."""
    for o in SCHEMA.get(system, ()):
        if o.name == name:
            return o
    known = sorted(names(system))
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
    if close:
        raise OptionError(words("option {name} is not an option of {system}: did you mean {meant}?", name=name,
                                system=system, meant=close[0]))
    raise OptionError(words("option {name} is not an option of {system} (its options: {known})", name=name,
                            system=system, known=", ".join(known)) if known else
                      words("option {name} is not an option of {system} (it has none)", name=name, system=system))


# ------------------------------------------------------------------------------------------ docs/rules.md
def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown() -> str:
    """docs/rules.md's table of every system's options (between DOC_BEGIN and DOC_END), one row each."""
    lines = ["| system | option | value (`--option NAME=VALUE`) | not given | may change | what it does |",
             "|---|---|---|---|---|---|"]
    for system, opts in SCHEMA.items():
        for o in opts:
            value = o.value_text()
            if o.example:
                head, _, example = value.rpartition(": ")
                value = f"{head}: `{example}`"
            lines.append(f"| `{system}` | `{o.name}` | {_cell(value)} | {_cell(o.default)} | {_cell(o.when.text)} "
                         f"| {_cell(o.help)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
