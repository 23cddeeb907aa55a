"""Events the organiser's PC pairs itself (issue 16): the player list, each round drawn by the event's
pairing system (`organiser/pairing/`, `load_systems()`) as a draft, fixed by the organiser, then
published to the clocks (the `pairings` and `byes` tables the receiver pushes from) and the sheets.

    players = load_players("players.csv")            # CSV or tsh .t; EventError `FILE:LINE: ...`
    create_event(store, "xw-open", "xw10", players, rounds=7)
    draft = draw(store, "xw-open", seed=None)        # the next round's draft (Pair)
    draft = redraw(store, "xw-open")                  # round 1's draft again, a new seed (Redraw)
    publish(store, "xw-open")                         # -> the round published
    set_options(store, "mg", {"tiebreak": [["W", "X"]]}, reason="...", by="organiser")   # issue 25

Options (issue 25): each system declares the options it reads (`organiser/pairing/options.py`: name,
kind, range, help in English and Thai, when it may change). `parse_options` types `k=v` words by that
declaration and `create_event` checks typed values the same way (`check_options`); after creation
`set_options` (typed values) and `set_option_texts` (`k=v` words: `gameclock event set`, the desk's
form) change them, refused in one line when a published round has used the option, and keep each
change with who, when, before, after and why (`Store.set_event_options`, `option_changes`). The
options are stored typed (JSON) as the systems read them: `{"order": ["P3", "P1"]}`,
`{"tiebreak": [["W", "X"]]}`, `{"lots": {"P3 v P1": "P3"}}`. A system that declares no options (a
test's) takes them as given.

**The event owns its draw** (issue 25). The first Pair draws the event's lot (a round robin's pairing
numbers, the groups, a knockout's bracket: `pairing/model.py`'s module doc) with the draft's seed;
the draft keeps it, and publishing round 1 makes it the event's (`events.lot`). Every later round is
paired from that kept lot and the published rounds' results -- the boards really played, the
organiser's fixes of round 1 included (`edit` makes the lot follow them) -- never from a lot drawn
again: a new seed cannot change it. A Pair with a draft waiting pairs it again with the draft's own
seed (the same draft unless results changed); `redraw` (the desk's Redraw, `gameclock pair --seed N`
on a draft) draws a new seed only for a draft that draws something: round 1's (the lot), or a later
one deciding a tie by lot (a knockout stage, MR-12); any other is refused with what it continues. An
event whose round 1 was published before lots were kept (a store from before issue 25) has its lot
drawn again from round 1's stored seed, made to agree with round 1 as published, and kept from its
next Pair on. A draft says what it continues in words (`RoundDraft.words`, `Board.words`), which
`round_lines` prints and the desk says in Thai or English.

Player lists come from outside and are read strictly (the bad line named): a regular file of at most
MAX_FILE_BYTES, UTF-8, else windows-874 only when the text is really Thai (`textfile.py`).

CSV: a header row (case-insensitive, any order; `,` `;` or tab as in the header) with `id` and `name`,
optionally `latin` (the name in Latin script, for the sheets), `campus` (or `school`), `level`
(primary, secondary: XW-8), `team`, `board` (1-99: the player's board in the team, MR-11), `rating`
(0-9999) and `group`; other columns are ignored and said. An id is 1-16 letters, digits, `_ . -`
(the first a letter or digit); ids and names are unique in the event (names case-folded: the clocks
record names, and the standings and exports know players by them). At most MAX_PLAYERS players.

tsh `.t` (tsh's own line pattern, as `organiser/pairings.py` reads it): one player a line, `NAME RATING;`
("Srisuk, Somchai 1500;"), the id its line's number among the player lines from 1. A list with
opponents or scores is an event under way: refused (this reads a new event's list), and `; key values`
fields are ignored and said.

The games feeding a round (`games_of`) are the stored results of the event's published rounds
(`Store.summaries`: the organiser's hand entries and moved results included, held ones not), each
mapped to `model.Game` by the names the clocks recorded (a forfeit marked, `Game.forfeit`), and the
published byes (a win; XW-9's spread from the event's preset, 0 without one). Every published table must have
its result, with the players it was published with, before the next round is drawn: the error names
the missing tables.
"""
from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from gameclock.core.scoring import STAGES
from gameclock.dataerrors import display_path, printable, unsafe_char
from gameclock.dock.pairing import (
    LEVELS,
    MAX_GAME,
    MAX_ROUND,
    MAX_TABLE,
    PairingError,
    clean_event,
    clean_name,
    clean_setup,
)
from gameclock.organiser import counting, textfile
from gameclock.organiser.pairing import load_systems, model
from gameclock.organiser.pairing import options as opts
from gameclock.organiser.pairings import (  # the pairing files' strict readers
    _csv_row,
    _lines,
    tsh_player_lines,
)
from gameclock.organiser.said import SaidError, listed_words, said_of
from gameclock.organiser.store import StaleDraft, Store

MAX_FILE_BYTES = 1024 * 1024
MAX_PLAYERS = 2000
MAX_RATING = 9999
MAX_BOARD = 99
MAX_TEXT = 60        # campus, team, group
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,15}")
OPTION_KEY = re.compile(r"[a-z][a-z0-9_]{0,31}")
CSV_COLUMNS = ("id", "name", "latin", "campus", "level", "team", "board", "rating", "group")
ALIASES = {"school": "campus"}
BYE_WORDS = ("bye", "-")
MAX_REASON = 500     # an option change's reason, as an amendment's (desk/web.py)
NOT_GIVEN = "(not given)"
ALONE = "alone"  # a board's note: one competitor at a clock, not a bye (pairing/crossword.py's Sudoku)


class EventError(SaidError, ValueError):
    """An event, a player list or a round that cannot be used as asked: one line saying why (Words the
    desk says in its reader's language, for the errors a desk shows on an ordinary day: said.py)."""


@dataclass
class PlayerList:
    """The players of a list file in its order, how it was read, what was ignored (one line each)."""
    players: list[model.Player]
    encoding: str = textfile.UTF8
    ignored: list[str | model.Words] = field(default_factory=list)   # Words: the desk says them in Thai


# ------------------------------------------------------------------------------------------ player lists
def load_players(path: str | os.PathLike[str]) -> PlayerList:
    """The players of a CSV or tsh `.t` list (module doc). EventError `FILE:LINE: what` otherwise."""
    shown = printable(display_path(path))
    text, encoding = textfile.read_text(path, max_bytes=MAX_FILE_BYTES, error=EventError)
    return _read_players(text, encoding, shown, tsh=Path(path).suffix.lower() == ".t")


def read_players(data: bytes, shown: str, tsh: bool) -> PlayerList:
    """The players of a list's bytes from elsewhere (the desk's form), read as `load_players` reads a
    file: `shown` names it in the errors (`shown:LINE: what`); `tsh`: a tsh `.t` list, else CSV."""
    shown = printable(shown)
    if len(data) > MAX_FILE_BYTES:
        raise EventError(model.words("{list}: more than {n} bytes: not a player list", list=shown, n=MAX_FILE_BYTES))
    text, encoding = textfile.decode(data, shown, EventError)
    return _read_players(text, encoding, shown, tsh)


def _read_players(text: str, encoding: str, shown: str, tsh: bool) -> PlayerList:
    ignored: list[str | model.Words] = []
    try:
        players = _read_tsh(text, shown, ignored) if tsh else _read_csv(text, shown, ignored)
    except PairingError as exc:  # the shared readers' errors (a CSV quote, a bad name) say FILE:LINE already
        raise EventError(said_of(exc)) from None
    return PlayerList(players, encoding, ignored)


# the columns whose names an error says as Words (the desk's Thai for them); not "group", whose Thai key is
# the group stage's
SAID_COLUMNS = ("campus", "team", "board", "rating")


def _text(value: str, what: str, where: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(value.split())
    bad = unsafe_char(text)
    named = model.words(what) if what in SAID_COLUMNS else what
    if bad is not None or "#" in text:
        shown = printable(repr(text[:20]))
        raise EventError(model.words("{where}{what} {value} holds '#'", where=where, what=named, value=shown)
                         if bad is None else
                         model.words("{where}{what} {value} holds a control character ({char})", where=where,
                                     what=named, value=shown, char=bad[1]))
    if len(text) > limit:
        raise EventError(model.words("{where}{what} {value}... is longer than {n} characters", where=where, what=named,
                                     value=repr(text[:20]), n=limit))
    return text


def _whole(value: str, what: str, where: str, top: int) -> int:
    if not value:
        return 0
    if not re.fullmatch(r"\d{1,9}", value) or int(value) > top:
        raise EventError(model.words("{where}{what} {value} is not a whole number 0-{top}", where=where,
                                     what=model.words(what) if what in SAID_COLUMNS else what,
                                     value=printable(repr(value[:20])), top=top))
    return int(value)


class _Seen:
    """Ids and names seen so far (names case-folded), with their lines: each once in an event."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.names: dict[str, int] = {}

    def add(self, p: model.Player, line: int, where: str) -> None:
        if p.id.casefold() in self.ids:
            raise EventError(model.words("{where}id {id} given twice (line {line} has it)", where=where, id=p.id,
                                         line=self.ids[p.id.casefold()]))
        if p.name.casefold() in self.names:
            raise EventError(model.words("{where}{name} is listed twice (line {line}): the clocks and the standings "
                                         "know players by name; tell them apart (e.g. add a school)", where=where,
                                         name=p.name, line=self.names[p.name.casefold()]))
        self.ids[p.id.casefold()] = self.names[p.name.casefold()] = line
        if len(self.ids) > MAX_PLAYERS:
            raise EventError(model.words("{where}more than {n} players", where=where, n=MAX_PLAYERS))


def _read_csv(text: str, shown: str, ignored: list[str | model.Words]) -> list[model.Player]:
    header: list[str] | None = None
    cols: dict[str, int] = {}
    delimiter = ","
    seen = _Seen()
    players: list[model.Player] = []
    for line, raw in _lines(text):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        where = f"{shown}:{line}: "
        if header is None:
            delimiter = next((d for d in (",", ";", "\t") if d in raw), ",")
            header = [ALIASES.get(c.strip().lower(), c.strip().lower()) for c in _csv_row(raw, delimiter, where, None)]
            for i, name in enumerate(header):
                if name in cols:
                    raise EventError(model.words("{where}column {name} given twice", where=where, name=repr(name)))
                if name in CSV_COLUMNS:
                    cols[name] = i
            missing = [c for c in ("id", "name") if c not in cols]
            if missing:
                raise EventError(model.words("{where}no {columns} column: the header needs id,name (and any of {others})",
                                             where=where, columns=" + ".join(repr(c) for c in missing),
                                             others=", ".join(CSV_COLUMNS[2:])))
            unused = [name or f"{i + 1} (no name)" for i, name in enumerate(header) if name not in CSV_COLUMNS]
            if unused:
                ignored.append(model.words("ignored column {columns}" if len(unused) == 1 else "ignored columns {columns}",
                                           columns=", ".join(unused)))
            continue
        cells = _csv_row(raw, delimiter, where, header)
        if len(cells) > len(header):  # an unquoted separator in a name shifts every value after it
            raise EventError(model.words("{where}{n} values but the header has {columns} columns; a value holding the "
                                         "separator needs quotes: \"Srisuk, Somchai\"", where=where, n=len(cells),
                                         columns=len(header)))
        if len(cells) <= max(cols.values()):
            raise EventError(model.words("{where}{n} values but the header has {columns} columns", where=where,
                                         n=len(cells), columns=len(header)))

        def cell(name: str, cells: list[str] = cells) -> str:
            i = cols.get(name)
            return cells[i].strip() if i is not None else ""

        pid = cell("id")
        if not ID_RE.fullmatch(pid):
            raise EventError(model.words("{where}id {id} is not 1-16 letters, digits, _ . - (the first a letter or digit)",
                                         where=where, id=printable(repr(pid[:20]))) if pid
                             else model.words("{where}no id", where=where))
        if not cell("name"):
            raise EventError(model.words("{where}no name for player {id}", where=where, id=pid))
        level = cell("level").lower()
        if level and level not in LEVELS:
            raise EventError(model.words("{where}level {value} is not one of {levels}", where=where,
                                         value=printable(repr(cell("level")[:20])), levels=", ".join(LEVELS)))
        latin = cell("latin")
        p = model.Player(id=pid, name=_name(cell("name"), where), latin=_name(latin, where) if latin else "",
                         campus=_text(cell("campus"), "campus", where), level=level,
                         team=_text(cell("team"), "team", where), board=_whole(cell("board"), "board", where, MAX_BOARD),
                         rating=_whole(cell("rating"), "rating", where, MAX_RATING),
                         group=_text(cell("group"), "group", where))
        seen.add(p, line, where)
        players.append(p)
    if header is None:
        raise EventError(model.words("{list}: no header row (id, name, ...) and no players", list=shown))
    if len(players) < 2:
        raise EventError(model.words("{list}: {n} player: an event needs two or more" if len(players) == 1 else
                                     "{list}: {n} players: an event needs two or more", list=shown, n=len(players)))
    return players


def _name(value: str, where: str) -> str:
    """A name as the clocks keep it (`dock.pairing.clean_name`): no '#', no control characters."""
    try:
        return clean_name(value, where)
    except PairingError as exc:
        raise EventError(said_of(exc)) from None


def _read_tsh(text: str, shown: str, ignored: list[str | model.Words]) -> list[model.Player]:
    seen = _Seen()
    players: list[model.Player] = []
    unused: dict[str, None] = {}
    for line, where, body, fields in tsh_player_lines(text, shown, "NAME RATING; e.g. 'Srisuk, Somchai 1500;'",
                                                      EventError):
        name, opps, scores, extra = fields
        if opps or scores:
            raise EventError(model.words("{where}{name} has opponents or scores: this is an event under way; a new "
                                         "event's list has none", where=where, name=printable(name[:40])))
        rating_word = body.partition(";")[0].split()[-1]  # no opponents: the rating is the last word
        digits = re.match(r"\d*", rating_word)
        rating = int(digits.group()) if digits and 0 < len(digits.group()) <= 4 else MAX_RATING + 1
        if rating > MAX_RATING:
            raise EventError(model.words("{where}rating {value} is more than {top}", where=where,
                                         value=repr(printable(rating_word[:20])), top=MAX_RATING))
        unused.update((k, None) for k in extra)
        p = model.Player(id=str(len(players) + 1), name=_name(name, where), rating=rating)
        seen.add(p, line, where)
        players.append(p)
    ignored += [model.words("ignored tsh field {fields}" if len(unused) == 1 else "ignored tsh fields {fields}",
                            fields=", ".join(printable(k[:20]) for k in unused))] if unused else []
    if len(players) < 2:
        raise EventError(model.words("{list}: {n} player: an event needs two or more" if len(players) == 1 else
                                     "{list}: {n} players: an event needs two or more", list=shown, n=len(players)))
    return players


# ------------------------------------------------------------------------------------------ the event
def entrants(players: Sequence[model.Player], withdrawn: Iterable[str] = (),
             rounds: Sequence[Mapping[str, Any]] = (), options: Mapping[str, object] | None = None) -> opts.Entrants:
    """What an option's value is checked against (pairing/options.py): the players (list order, withdrawn
    ones too), who has withdrawn, the published rounds, the options as they will be."""
    return opts.Entrants(tuple(players), frozenset(withdrawn), tuple(rounds), dict(options or {}))


def event_entrants(store: Store, name: str, options: Mapping[str, object] | None = None) -> opts.Entrants:
    """`entrants` of a stored event: its players, withdrawals and published rounds."""
    return entrants(list(players_of(store, name).values()), withdrawn_of(store, name), published_rounds(store, name),
                    options)


def _option_words(items: Iterable[str]) -> dict[str, str]:
    """`k=v` words as {key: the value's text}, each key once (the text as given, stripped)."""
    out: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not OPTION_KEY.fullmatch(key):
            raise EventError(model.words("option {item}: give it as key=value (key: a-z, 0-9, _)",
                                         item=printable(repr(item[:40]))))
        if key in out:
            raise EventError(model.words("option {key} given twice", key=key))
        out[key] = value
    return out


def _typed(system: str, given: Mapping[str, object], who: opts.Entrants, text: bool) -> dict[str, object]:
    """The options `given` of a system that declares its options, each checked by its declaration, in the
    schema's order (MR-11's team order needs the boards): the texts parsed (`text`) or the typed values
    checked. None (an empty text): not given. EventError naming the option."""
    try:
        for key in given:
            opts.option_of(system, key)   # an unknown option first, as given, with the one meant
        out: dict[str, object] = {}
        for o in opts.options_of(system) or ():
            if o.name not in given:
                continue
            value = given[o.name]
            now = replace(who, options={**who.options, **{k: v for k, v in out.items() if v is not None}})
            out[o.name] = (o.parse(str(value), now) if text else None if value is None else o.check(value, now))
        return out
    except opts.OptionError as exc:
        raise EventError(said_of(exc)) from None


def parse_options(items: Iterable[str], system: str | None = None,
                  who: opts.Entrants | None = None) -> dict[str, object]:
    """`k=v` words as the system's options. A system that declares its options (pairing/options.py): each
    value typed and checked against `who` (the event's players), an empty value None (not given); any
    other system (or `system` None): v a whole number, true/false, else the text."""
    words = _option_words(items)
    if system is not None and opts.options_of(system) is not None:
        return _typed(system, words, who or entrants(()), text=True)
    return {key: (int(value) if re.fullmatch(r"-?\d{1,9}", value) else
                  {"true": True, "false": False}.get(value.lower(), _text(value, f"option {key}", "")))
            for key, value in words.items()}


def check_options(system: str, options: Mapping[str, object], who: opts.Entrants) -> dict[str, object]:
    """Typed options (a caller's dict: the desk's, a test's, the draw's) checked as the command line's
    are when the system declares its options; None values dropped. EventError naming the option."""
    if opts.options_of(system) is None:
        bad = [k for k in options if not isinstance(k, str) or not OPTION_KEY.fullmatch(k)]
        if bad:
            raise EventError(model.words("option {item}: a key is a-z, 0-9, _", item=printable(repr(str(bad[0])[:40]))))
        return {k: v for k, v in options.items() if v is not None}
    return {k: v for k, v in _typed(system, options, who, text=False).items() if v is not None}


def option_text(system: str, key: str, value: object, who: opts.Entrants | None = None) -> str:
    """An option's value as `--option` and the desk's form take it (read back the same against the
    event's players `who`); "" for None (not given)."""
    if value is None:
        return ""
    o = next((o for o in opts.options_of(system) or () if o.name == key), None)
    if o is not None:
        return o.text(value, who)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def create_event(store: Store, name: str, system: str, players: PlayerList, rounds: int = 0,
                 options: Mapping[str, object] | None = None, language: str | None = None,
                 preset: str | None = None, level: str | None = None) -> dict[str, Any]:
    """A new event in the store (the module doc); EventError for a bad name, system, set-up or option
    (typed values: `check_options`)."""
    words = name.split()
    if len(words) > 1:   # said here as Words for the desk (dock/pairing.py's own check below says it in English)
        raise EventError(model.words("event: event {name} has spaces: give it as one word (e.g. {example}); the clock's "
                                     "log keeps it as `event ID`", name=repr(name.strip()), example=repr("-".join(words))))
    try:
        event = clean_event(name, "event: ")
        setup = {k: clean_setup(k, v, f"--{k}: ") for k, v in (("language", language), ("preset", preset),
                                                               ("level", level))}
    except PairingError as exc:
        raise EventError(said_of(exc)) from None
    if event is None:
        raise EventError(model.words("event: give it a name (one word)"))
    systems = load_systems()
    if system not in systems:
        raise EventError(model.words("pairing system {system} is not one of {systems}", system=printable(repr(system[:40])),
                                     systems=", ".join(sorted(systems)) or "(none installed)"))
    if not 0 <= rounds <= MAX_ROUND:
        raise EventError(model.words("--rounds {rounds}: 0 (not said) to {max}", rounds=rounds, max=MAX_ROUND))
    checked = check_options(system, options or {}, entrants(players.players))
    ev = {"name": event, "system": system, "rounds": rounds, "options": checked, **setup}
    store.create_event(ev, [asdict(p) for p in players.players])
    return ev


# ------------------------------------------------------------------------------------------ options later
class ReasonNeeded(EventError):
    """An event under way (a round published) changes its options only with a reason."""


@dataclass(frozen=True)
class OptionsSet:
    """What `set_options` did: each option changed (key, before, after; None: not given), and the round
    of the draft drawn before the change (None: no draft), which the organiser should draw again."""
    changes: list[tuple[str, object, object]]
    draft_round: int | None


def set_options(store: Store, name: str, values: Mapping[str, object], reason: str = "",
                by: str = "organiser") -> OptionsSet:
    """Set the event's options after creation (issue 25), audited like amendments: `values` {key: the
    typed value, None: back to the default}, each checked as at creation, then refused if its
    declaration says it cannot change now (a lot once round 1 is published; a lot drawn at the venue
    once a published round has used it: pairing/options.py `When`). Once a round is published a
    `reason` is needed (ReasonNeeded). Kept with who (`by`), when, before, after and why
    (Store.set_event_options, one transaction). EventError naming the option; "change nothing" when
    every value is the one in effect."""
    ev = event_of(store, name)
    system = ev["system"]
    old = dict(ev["options"])
    new = {**old, **values}
    who = event_entrants(store, name, {k: v for k, v in new.items() if v is not None})
    if opts.options_of(system) is not None:
        typed = _typed(system, values, who, text=False)
    else:
        check_options(system, {k: v for k, v in values.items() if v is not None}, who)  # the keys' spelling
        typed = dict(values)
    return _set(store, name, ev, old, typed, who, reason, by)


def set_option_texts(store: Store, name: str, items: Iterable[str], reason: str = "",
                     by: str = "organiser") -> OptionsSet:
    """`set_options` from `k=v` words (`gameclock event set`, the desk's form): each text typed by the
    system's declaration (an empty text: back to the default); for a system declaring none, as
    `parse_options` reads them."""
    ev = event_of(store, name)
    system = ev["system"]
    words = _option_words(items)
    if not words:
        raise EventError(model.words("{event}: give the options to set: --option KEY=VALUE", event=name))
    if opts.options_of(system) is None:
        typed = {k: v if words[k] else None for k, v in parse_options([f"{k}={t}" for k, t in words.items()]).items()}
        return _set(store, name, ev, dict(ev["options"]), typed, event_entrants(store, name), reason, by)
    # the texts are read against the options as they will be: parse once for the merged view (MR-11's
    # teams read the boards given with them), then checked and set as typed values
    who = event_entrants(store, name, ev["options"])
    typed = _typed(system, words, who, text=True)
    return _set(store, name, ev, dict(ev["options"]), typed, replace(who, options={**ev["options"], **{
        k: v for k, v in typed.items() if v is not None}}), reason, by)


def _set(store: Store, name: str, ev: Mapping[str, Any], old: dict[str, object], values: Mapping[str, object],
         who: opts.Entrants, reason: str, by: str) -> OptionsSet:
    new = dict(old)
    for key, value in values.items():
        if value is None:
            new.pop(key, None)
        else:
            new[key] = value
    changes = [(k, old.get(k), new.get(k)) for k in values if old.get(k) != new.get(k)]
    if not changes:
        raise EventError(model.words("{event}: the options change nothing", event=name))
    declared = {o.name: o for o in opts.options_of(ev["system"]) or ()}
    for key, before, after in changes:
        if key in declared:
            why = declared[key].when.refuse(before, after, who)
            if why:
                raise EventError(model.words("option {key}: {why}", key=key, why=why))
    reason = " ".join(reason.split())
    if who.rounds and not reason:
        raise ReasonNeeded(model.words("{event}: round {round} is published: say why the options change", event=name,
                                       round=who.published))
    if len(reason) > MAX_REASON or unsafe_char(reason) is not None:
        raise EventError(model.words("the reason is at most {n} characters of text", n=MAX_REASON))
    store.set_event_options(name, old, new, changes, reason, by, published=len(who.rounds))
    draft = draft_of(store, name)
    return OptionsSet(changes, draft["round"] if draft else None)


def option_changes(store: Store, name: str) -> list[dict[str, Any]]:
    """The event's option changes, oldest first (Store.event_option_changes), each with its before and
    after as text ("before_text", "after_text": "(not given)" for none)."""
    system = event_of(store, name)["system"]
    who = event_entrants(store, name)
    return [{**e, "before_text": option_text(system, e["key"], e["before"], who) or NOT_GIVEN,
             "after_text": option_text(system, e["key"], e["after"], who) or NOT_GIVEN}
            for e in store.event_option_changes(name)]


def options_in_effect(store: Store, ev: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every option of the event's system (declared ones in order, then any other key it holds), for
    `gameclock event show` and the desk: {"name", "given", "value", "text" (as --option takes it),
    "option" (its declaration, None for an undeclared key)}."""
    system, held = ev["system"], ev["options"]
    who = event_entrants(store, ev["name"])
    rows = [{"name": o.name, "given": o.name in held, "value": held.get(o.name), "option": o,
             "text": option_text(system, o.name, held.get(o.name), who)} for o in opts.options_of(system) or ()]
    names = {r["name"] for r in rows}
    rows += [{"name": k, "given": True, "value": v, "option": None, "text": option_text(system, k, v)}
             for k, v in sorted(held.items()) if k not in names]
    return rows


# ------------------------------------------------------------------------------------------ players during
EDITABLE = ("name", "latin", "campus", "level", "rating")   # what a player's edit may change (issue 26)
# why a system keeping a lot (model.FOLLOWERS) takes no late entry once round 1 is published
LATE_REFUSALS = {
    "makruk-rr": "a round robin's pairing numbers were drawn in round 1 (MR-10): a late entry has no number in "
                 "the Berger table",
    "makruk-team": "a round robin's team numbers were drawn in round 1 (MR-11): a late entry has no place in "
                   "the Berger table",
    "makhos-groups": "the groups were drawn in round 1 (MH-7): their round robins have no place for a late entry",
}
KNOCKOUT_REFUSAL = "a knockout's bracket was drawn in round 1: a late entry has no place in it"


@dataclass(frozen=True)
class PlayerChanged:
    """What a change of the event's players did: a line each (English: `said`), the audit trail's new
    entries, and the round of a draft drawn before the change that should be paired again (None: none)."""
    said: list[model.Words]      # str() is the English; the desk says them in the page's language
    entries: list[int]
    draft_round: int | None


def late_entry_refusal(store: Store, name: str) -> str | None:
    """Why event `name` takes no late entry now (docs/rules.md §9), None when it does: a system whose
    later rounds follow the lot drawn in round 1 (a round robin's numbers, the groups, a knockout's
    bracket: `model.FOLLOWERS`) once round 1 is published. Before that a late entry is one more player
    (the draft is paired again, its lot with it)."""
    ev = event_of(store, name)
    load_systems()
    if ev["system"] not in model.FOLLOWERS or not published_rounds(store, name):
        return None
    return LATE_REFUSALS.get(ev["system"], KNOCKOUT_REFUSAL)


def _reason_for(name: str, reason: str, published: int) -> str:
    """The reason of a player change, folded: needed once a round is published (ReasonNeeded)."""
    reason = " ".join(reason.split())
    if published and not reason:
        raise ReasonNeeded(model.words("{event}: round {round} is published: say why the player changes", event=name,
                                       round=published))
    if len(reason) > MAX_REASON or unsafe_char(reason) is not None:
        raise EventError(model.words("the reason is at most {n} characters of text", n=MAX_REASON))
    return reason


def _held(store: Store, name: str, ref: str) -> tuple[dict[str, Any], dict[str, model.Player]]:
    """The store's row of the player `ref` (an id, a name, a Latin name) and the event's players."""
    players = players_of(store, name)
    pid = _player_ref(ref, players)
    if pid is None:
        raise EventError(model.words("{event}: give a player, not a bye", event=name))
    return next(p for p in store.event_players(name) if p["id"] == pid), players


def _draft_holding(store: Store, name: str, pid: str | None = None) -> int | None:
    """The round of the draft waiting (holding `pid` when given), or None."""
    draft = draft_of(store, name)
    if draft is None or pid is not None and not any(pid in (b["left"], b["right"]) for b in draft["boards"]):
        return None
    return int(draft["round"])


def withdrawn_words(after: int | None) -> model.Words | None:
    """"withdrawn after round N" ("before round 1" for N 0); None for a player who plays."""
    if after is None:
        return None
    return (model.words("withdrawn before round 1") if after == 0
            else model.words("withdrawn after round {round}", round=after))


def withdraw(store: Store, name: str, ref: str, reason: str = "", by: str = "organiser") -> PlayerChanged:
    """Player `ref` withdraws after the last published round: not paired from the next round on; the
    games played stay and count (the standings mark the player, `player_marks`); a result still due in
    the round under way is entered as the clock or the organiser gives it. A draft holding them must be
    paired again (publishing it is refused: `check_boards`). Audited (who, when, before None, after the
    round); a reason once a round is published. EventError for a player withdrawn already."""
    row, players = _held(store, name, ref)
    p = players[row["id"]]
    published = len(published_rounds(store, name))
    if row["withdrawn"]:
        raise EventError(model.words("{event}: {id} {name} has withdrawn already ({when})", event=name, id=p.id,
                                     name=p.name, when=withdrawn_words(row["withdrawn_after"]) or "?"))
    reason = _reason_for(name, reason, published)
    entries = store.change_player(name, p.id, {"withdrawn": False, "withdrawn_after": None},
                                  {"withdrawn": 1, "withdrawn_after": published}, [("withdrawn", None, published)],
                                  reason, by, published)
    return PlayerChanged([model.words("{id} {name} {when}", id=p.id, name=p.name,
                                      when=withdrawn_words(published) or "?")], entries,
                         _draft_holding(store, name, p.id))


def reinstate(store: Store, name: str, ref: str, reason: str = "", by: str = "organiser") -> PlayerChanged:
    """A withdrawal undone (a mistake, the player came back) while no round was published since it; after
    that the player missed a round and would be a late entry. Audited as `withdraw`."""
    row, players = _held(store, name, ref)
    p = players[row["id"]]
    published = len(published_rounds(store, name))
    if not row["withdrawn"]:
        raise EventError(model.words("{event}: {id} {name} has not withdrawn", event=name, id=p.id, name=p.name))
    after = row["withdrawn_after"]
    if after is not None and after != published:
        raise EventError(model.words("{event}: {id} {name} withdrew after round {after} and round {published} is "
                                     "published since: a withdrawal is undone only before the next round is published",
                                     event=name, id=p.id, name=p.name, after=after, published=published))
    reason = _reason_for(name, reason, published)
    entries = store.change_player(name, p.id, {"withdrawn": True, "withdrawn_after": after},
                                  {"withdrawn": 0, "withdrawn_after": None}, [("withdrawn", after, None)],
                                  reason, by, published)
    return PlayerChanged([model.words("{id} {name} plays on", id=p.id, name=p.name)], entries,
                         _draft_holding(store, name))


def _name_free(store: Store, name: str, new: str, pid: str | None) -> None:
    """EventError when `new` is (case-folded) the name or a former name of a player of the event other
    than `pid`: the clocks record names, and the standings and the next rounds know players by them."""
    for row in store.event_players(name):
        if row["id"] == pid:
            continue
        if row["name"].casefold() == new.casefold():
            raise EventError(model.words("{event}: the name {new} is taken: {name} is a player of the event ({id}); the "
                                         "clocks and the standings know players by name", event=name, new=new,
                                         name=row["name"], id=row["id"]))
        for old in row["aliases"]:
            if old.casefold() == new.casefold():
                raise EventError(model.words("{event}: the name {new} is taken: {old} is a former name of {id} {name} "
                                             "(the clocks recorded it)", event=name, new=new, old=old, id=row["id"],
                                             name=row["name"]))


def _field(key: str, value: object, where: str) -> object:
    """A player's field as the list reader takes it (`_read_csv`), from a form's text or a typed value."""
    if key == "rating":
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= MAX_RATING:
                raise EventError(model.words("{where}{what} {value} is not a whole number 0-{top}", where=where,
                                             what=model.words("rating"), value=value, top=MAX_RATING))
            return value
        return _whole(str(value).strip(), "rating", where, MAX_RATING)
    if not isinstance(value, str):
        raise EventError(f"{where}{key} {printable(repr(value))[:40]} is not text")
    if key == "name":
        if not value.strip():
            raise EventError(model.words("{where}no name", where=where))
        return _name(value, where)
    if key == "latin":
        return _name(value, where) if value.strip() else ""
    if key == "level":
        level = value.strip().lower()
        if level and level not in LEVELS:
            raise EventError(model.words("{where}level {value} is not one of {levels}", where=where,
                                         value=printable(repr(value[:20])), levels=", ".join(LEVELS)))
        return level
    return _text(value, key, where)


def player_from_texts(texts: Mapping[str, str], where: str = "") -> model.Player:
    """A late entry's player from texts (the desk's form, the command line): "id", "name", "latin",
    "campus", "level", "rating", "team", "board", "group" ("" or absent: none); the numbers read as the
    list reader reads them (EventError naming the field); the rest checked by `enter_late`."""
    def text(key: str) -> str:
        return str(texts.get(key) or "").strip()

    return model.Player(id=text("id"), name=text("name"), latin=text("latin"), campus=text("campus"),
                        level=text("level"), team=text("team"), group=text("group"),
                        board=_whole(text("board"), "board", where, MAX_BOARD),
                        rating=_whole(text("rating"), "rating", where, MAX_RATING))


def enter_late(store: Store, name: str, player: model.Player, reason: str = "",
               by: str = "organiser") -> PlayerChanged:
    """A late entry: `player` joins the event from the next round (its number: the published rounds + 1),
    checked as a list's player is (id, name, school, level, team, board, rating, group; the id and the
    name not taken, a former name included). The rounds missed score nothing: no game, no bye, no points
    (docs/rules.md §9). Refused, saying why, by a system keeping its lot once round 1 is published
    (`late_entry_refusal`). Audited ("late entry", None, the player); a reason once a round is published.
    A draft waiting should be paired again to seat them (`draft_round`)."""
    ev = event_of(store, name)
    why = late_entry_refusal(store, name)
    if why:
        raise EventError(model.words("{event}: no late entry: {why}", event=name, why=model.words(why)))
    where = f"{name}: "
    if not isinstance(player.id, str) or not ID_RE.fullmatch(player.id):
        raise EventError(model.words("{where}id {id} is not 1-16 letters, digits, _ . - (the first a letter or digit)",
                                     where=where, id=printable(repr(str(player.id)[:20]))))
    held = store.event_players(name)
    taken = next((p for p in held if p["id"].casefold() == player.id.casefold()), None)
    if taken is not None:
        raise EventError(model.words("{where}id {id} is taken ({name})", where=where, id=player.id, name=taken["name"]))
    if len(held) >= MAX_PLAYERS:
        raise EventError(model.words("{where}{n} players already", where=where, n=MAX_PLAYERS))
    checked = {k: _field(k, getattr(player, k), where) for k in EDITABLE}
    team, group = _text(player.team, "team", where), _text(player.group, "group", where)
    if isinstance(player.board, bool) or not isinstance(player.board, int) or not 0 <= player.board <= MAX_BOARD:
        raise EventError(model.words("{where}{what} {value} is not a whole number 0-{top}", where=where,
                                     what=model.words("board"), value=repr(player.board), top=MAX_BOARD))
    new = replace(player, **checked, team=team, group=group)  # type: ignore[arg-type]
    _name_free(store, name, new.name, None)
    published = len(published_rounds(store, name))
    reason = _reason_for(name, reason, published)
    entry = store.add_player(ev["name"], asdict(new), published + 1, reason, by, published)
    joins = (model.words("{id} {name} joins round {round}", id=new.id, name=new.name, round=published + 1)
             if not published else
             model.words("{id} {name} joins round {round} (round 1 missed: no points)", id=new.id, name=new.name,
                         round=published + 1) if published == 1 else
             model.words("{id} {name} joins round {round} (rounds 1-{last} missed: no points)", id=new.id,
                         name=new.name, round=published + 1, last=published))
    return PlayerChanged([joins], [entry], _draft_holding(store, name))


def edit_player(store: Store, name: str, ref: str, changes: Mapping[str, object], reason: str = "",
                by: str = "organiser") -> PlayerChanged:
    """Player `ref`'s name, Latin name, school (`campus`), level or rating changed (`changes`: those keys,
    values typed or as a form's text), each checked as the list reader checks it; only what differs
    changes (EventError "changes nothing" otherwise). A name is nobody else's name or former name; once a
    round is published the old name is kept as a former name (`aliases`): the clocks recorded it, and
    the standings, the next rounds and the exports read those results under the name now
    (`Store.names_now`). Each field changed is one audit entry (who, when, before, after, why); a
    reason once a round is published. A rating changed with a draft waiting: pair it again."""
    bad = [k for k in changes if k not in EDITABLE]
    if bad:
        raise EventError(model.words("{event}: {field} cannot be edited here ({fields})", event=name, field=str(bad[0]),
                                     fields=", ".join(EDITABLE)))
    row, players = _held(store, name, ref)
    p = players[row["id"]]
    where = f"{name}: {p.id}: "
    new = {k: _field(k, v, where) for k, v in changes.items()}
    changed = [k for k in EDITABLE if k in new and new[k] != row[k]]
    if not changed:
        raise EventError(model.words("{event}: the edit of {id} {name} changes nothing", event=name, id=p.id, name=p.name))
    published = len(published_rounds(store, name))
    before: dict[str, Any] = {k: row[k] for k in changed}
    after: dict[str, Any] = {k: new[k] for k in changed}
    if "name" in changed:
        _name_free(store, name, str(new["name"]), p.id)
        aliases = [a for a in row["aliases"] if a.casefold() != str(new["name"]).casefold()]
        if published and row["name"] not in aliases:
            aliases.append(row["name"])         # the clocks may have recorded it: results keep matching
        before["aliases"], after["aliases"] = row["aliases"], aliases
    reason = _reason_for(name, reason, published)
    entries = store.change_player(name, p.id, before, after, [(k, row[k], new[k]) for k in changed], reason, by,
                                  published)
    final = str(new.get("name", p.name))
    said = [model.words("{id} {name}: {field} {before} » {after}", id=p.id, name=p.name if k == "name" else final,
                        field=model.words(k), before=str(row[k]), after=str(new[k])) for k in changed]
    return PlayerChanged(said, entries, _draft_holding(store, name) if "rating" in changed else None)


def change_texts(what: str, value: object) -> str:
    """A player change's before or after value in words (English; a Note, which the desk says in Thai), for the
    trail."""
    if what == "withdrawn":
        if value is None:
            return model.note("plays")
        gone = withdrawn_words(int(value))  # type: ignore[call-overload]
        return model.Note(gone) if gone is not None else "–"
    if what == "late entry":
        if not isinstance(value, Mapping):
            return "–"
        return model.note("{id} {name}, joins round {round}", id=str(value.get("id")), name=str(value.get("name")),
                          round=str(value.get("joined")))
    return "–" if value is None or value == "" else str(value)


def player_changes(store: Store, name: str) -> list[dict[str, Any]]:
    """The audit trail of the event's players, oldest first (Store.player_changes: "n", "player", "what",
    "before", "after", "reason", "by", "at"), each with its before and after in words ("before_text",
    "after_text") and the player's name now ("name")."""
    event_of(store, name)
    names = {p["id"]: p["name"] for p in store.event_players(name)}
    return [{**e, "name": names.get(e["player"], ""), "before_text": change_texts(e["what"], e["before"]),
             "after_text": change_texts(e["what"], e["after"])} for e in store.player_changes(name)]


def player_marks(store: Store, name: str) -> dict[str, model.Words]:
    """{a player's name now: what the standings say beside it}: "withdrawn after round N", "joined in round
    N" (a late entry who missed a round), or both. Empty for an event the PC does not pair."""
    if store.event(name) is None:
        return {}
    out = {}
    for p in store.event_players(name):
        gone = withdrawn_words(p["withdrawn_after"]) if p["withdrawn"] else None
        # a player added before round 1 was published missed nothing: no mark
        joined = model.words("joined in round {round}", round=p["joined"]) if (p["joined"] or 0) > 1 else None
        if gone is not None and joined is not None:
            out[p["name"]] = model.words("{joined}, {withdrawn}", joined=joined, withdrawn=gone)
        elif gone is not None or joined is not None:
            out[p["name"]] = gone or joined  # type: ignore[assignment]
    return out


def event_of(store: Store, name: str) -> dict[str, Any]:
    ev = store.event(name)
    if ev is None:
        known = store.events()
        raise EventError(f"no event {printable(name)!r} in {store.name}"
                         + (f" (events: {', '.join(known)})" if known else " (gameclock event create)"))
    return ev


PLAYER_FIELDS = tuple(f.name for f in dataclass_fields(model.Player))


def player_of(row: Mapping[str, Any]) -> model.Player:
    """A player of `Store.event_players` as the pairing systems know them (the list's fields only)."""
    return model.Player(**{k: row[k] for k in PLAYER_FIELDS})


def players_of(store: Store, name: str) -> dict[str, model.Player]:
    """The event's players by id, in list order (withdrawn ones too, late entries last)."""
    return {p["id"]: player_of(p) for p in store.event_players(name)}


def withdrawn_of(store: Store, name: str) -> set[str]:
    return {p["id"] for p in store.event_players(name) if p["withdrawn"]}


def board_dict(b: model.Board) -> dict[str, Any]:
    """A board as the store keeps it (JSON): its words as `Words.as_json`, no preset key when none."""
    out = {k: v for k, v in asdict(b).items() if k not in ("words", "preset")}
    if b.words is not None:
        out["words"] = b.words.as_json()
    if b.preset is not None:
        out["preset"] = b.preset
    return out


def board_of(d: Mapping[str, Any]) -> model.Board:
    """A stored board (a draft's or a published round's; a board stored before issue 25 has no words)."""
    said = d.get("words")
    return model.Board(table=d["table"], left=d["left"], right=d["right"], game=d["game"], stage=d["stage"],
                       note=d["note"], words=None if said is None else model.Words.of_json(said),
                       preset=d.get("preset"))


def words_of(r: Mapping[str, Any]) -> list[model.Words]:
    """What a stored round continues, in words (`RoundDraft.words`); none for a round drawn before issue 25."""
    return [model.Words.of_json(w) for w in r.get("words") or []]


def _bye_spread(ev: Mapping[str, Any]) -> int:
    """XW-9: the spread a bye is worth at the event's level, from its preset (0 without one)."""
    if not ev.get("preset"):
        return 0
    from gameclock.rules.loader import RuleError, find_preset

    try:
        scoring = find_preset(ev["preset"]).scoring
    except (RuleError, LookupError, ValueError):
        return 0
    level = ev.get("level") or scoring.default_level
    return dict(scoring.bye_spread).get(level, 0) if level else 0


def games_of(store: Store, ev: Mapping[str, Any], players: Mapping[str, model.Player],
             published: Sequence[Mapping[str, Any]], missing_ok: bool = False) -> tuple[model.Game, ...]:
    """The games of the published rounds (module doc), by round and table; EventError naming the
    published tables without a result (`missing_ok`: the games there are, a round under way), and
    results whose players are not the table's.

    Sudoku (SU-2, SU-3; the record's `kind` "sudoku"): a result has no winner (its two competitors
    are not opponents), so it is complete when it has each seated competitor's final score, which
    goes into `left_score`/`right_score` (the points are a draw's, the same for both: nobody won).
    A competitor seated alone at a clock (a board noted ALONE) is not a bye: that table needs its
    result too, which names nobody (nothing is pushed to that clock; the arbiter starts it by hand)
    or only that competitor; their score is the named side's, else the side that scored (an empty
    seat scores nothing). It comes as a game with `right` None and no points."""
    from gameclock.organiser.standings.games import game_from_summary

    by_name = {p.name: pid for pid, p in players.items()}
    tables = {(r["round"], b["table"]): b for r in published for b in r["boards"]
              if b["right"] is not None or b["note"] == ALONE}
    out: list[model.Game] = []
    played: set[tuple[int, int]] = set()
    wrong: list[model.Words] = []
    for values in store.summaries(event=ev["name"]):
        g = game_from_summary(values)
        board = tables.get((g.round or 0, g.table or 0))
        if board is None:
            continue  # a result of no published table (a round loaded from a file, a mistyped table): not ours
        final = g.scores or {}
        if board["right"] is None:  # a Sudoku competitor alone at a clock (SU-1)
            named = [s for s in ("left", "right") if g.players.get(s)]
            if any(by_name.get(g.players[s] or "") != board["left"] for s in named):
                wrong.append(model.words("result {id} (round {round} table {table}) has {left} v {right}, published "
                                         "{published} alone", id=g.id, round=g.round or 0, table=g.table or 0,
                                         left=str(g.players.get("left")), right=str(g.players.get("right")),
                                         published=players[board["left"]].name))
                continue
            scored = [v for s in (named or ("left", "right")) if (v := final.get(s)) is not None]
            if not scored:
                continue  # no score yet: as good as no result
            out.append(model.Game(round=g.round or 0, left=board["left"], right=None, left_points=model.LOSS,
                                  table=g.table or 0, game=g.game, left_score=max(scored)))
            played.add((g.round or 0, g.table or 0))
            continue
        ids = {by_name.get(g.players.get("left") or ""), by_name.get(g.players.get("right") or "")}
        if ids != {board["left"], board["right"]}:
            wrong.append(model.words("result {id} (round {round} table {table}) has {left} v {right}, published "
                                     "{a} v {b}", id=g.id, round=g.round or 0, table=g.table or 0,
                                     left=str(g.players.get("left")), right=str(g.players.get("right")),
                                     a=players[board["left"]].name, b=players[board["right"]].name))
            continue
        left, right = by_name[g.players["left"] or ""], by_name[g.players["right"] or ""]
        if g.kind == "sudoku":
            left_score, right_score = final.get("left"), final.get("right")
            if left_score is None or right_score is None:
                continue  # a score missing: as good as no result
            out.append(model.Game(round=g.round or 0, left=left, right=right, left_points=model.DRAW,
                                  table=g.table or 0, game=g.game, left_score=left_score, right_score=right_score))
            played.add((g.round or 0, g.table or 0))
            continue
        result = g.result_for(g.players["left"] or "")
        if result is None:
            continue  # no outcome: as good as no result
        spread = (g.spread or {}).get("left") or 0
        out.append(model.Game(round=g.round or 0, left=left, right=right,
                              left_points={"win": model.WIN, "draw": model.DRAW, "loss": model.LOSS}[result],
                              spread=spread, table=g.table or 0, game=g.game,
                              left_time_ms=g.time_used_ms["left"], right_time_ms=g.time_used_ms["right"],
                              forfeit=g.forfeit))
        played.add((g.round or 0, g.table or 0))
    # issue 26: a result held for the organiser (organiser/counting.py) is not among the summaries: one whose
    # players are not its table's is named as before, and the others said where their table is missing
    held: dict[tuple[int, int], list[model.Words]] = {}
    for values, why in store.held(event=ev["name"]):
        g = game_from_summary(values)
        board = tables.get((g.round or 0, g.table or 0))
        if board is None:
            continue
        if why == counting.PLAYERS:
            if board["right"] is None:
                wrong.append(model.words("result {id} (round {round} table {table}) has {left} v {right}, published "
                                         "{published} alone", id=g.id, round=g.round or 0, table=g.table or 0,
                                         left=str(g.players.get("left")), right=str(g.players.get("right")),
                                         published=players[board["left"]].name))
            else:
                wrong.append(model.words("result {id} (round {round} table {table}) has {left} v {right}, published "
                                         "{a} v {b}", id=g.id, round=g.round or 0, table=g.table or 0,
                                         left=str(g.players.get("left")), right=str(g.players.get("right")),
                                         a=players[board["left"]].name, b=players[board["right"]].name))
        else:
            held.setdefault((g.round or 0, g.table or 0), []).append(
                model.words("result {id}: {why}", id=g.id, why=model.words(counting.WHY[why])))
    if wrong:
        raise EventError(model.words("{event}: {results}", event=ev["name"], results=listed_words(wrong, sep="; ")))
    missing = [model.words("round {round} table {table} ({held})", round=r, table=t,
                           held=listed_words(held[r, t], sep="; ")) if (r, t) in held
               else model.words("round {round} table {table}", round=r, table=t)
               for (r, t) in sorted(tables) if (r, t) not in played]
    if missing and not missing_ok:
        raise EventError(model.words("{event}: no result yet for {tables} (dock their clocks first)", event=ev["name"],
                                     tables=listed_words(missing)))
    bye = _bye_spread(ev)
    out += [model.Game(round=r["round"], left=b["left"], right=None, left_points=model.WIN, spread=bye,
                       table=b["table"]) for r in published for b in r["boards"]
            if b["right"] is None and b["note"] != ALONE]
    return tuple(sorted(out, key=lambda g: (g.round, g.table, g.game)))


def check_boards(boards: Sequence[model.Board], players: Mapping[str, model.Player], rnd: int,
                 withdrawn: Iterable[str] = (), same_players: Iterable[str] | None = None) -> None:
    """A round's boards as they can be published: tables 1-999 each once -- or the games of one match
    (MH-7: 4 games at one table), the same two players with other game numbers --, every player
    known, not withdrawn, at one table only; games 1-99; stages the clock knows. `same_players`: the players the
    round must hold, each once (the draft's, when the organiser fixes a table). EventError otherwise."""
    withdrawn = set(withdrawn)
    tables: dict[int, tuple[frozenset[str | None], set[int]]] = {}  # table -> (its pair, its games)
    seats: dict[str, int] = {}
    for b in boards:
        if not isinstance(b.table, int) or not 1 <= b.table <= MAX_TABLE:
            raise EventError(f"round {rnd}: table {b.table!r} is not 1-{MAX_TABLE}")
        pair = frozenset((b.left, b.right))
        if b.table in tables:
            if tables[b.table][0] != pair or b.game in tables[b.table][1]:
                raise EventError(f"round {rnd}: table {b.table} given twice")
            tables[b.table][1].add(b.game)
            continue  # the next game of the match at that table: its players are seated already
        tables[b.table] = (pair, {b.game})
        if not isinstance(b.game, int) or not 1 <= b.game <= MAX_GAME:
            raise EventError(f"round {rnd} table {b.table}: game {b.game!r} is not 1-{MAX_GAME}")
        if b.stage not in STAGES:
            raise EventError(f"round {rnd} table {b.table}: stage {b.stage!r} is not one of {', '.join(STAGES)}")
        for pid in (b.left, b.right):
            if pid is None:
                continue
            if pid not in players:
                raise EventError(f"round {rnd} table {b.table}: no player {pid!r} in the event")
            if pid in withdrawn:
                raise EventError(model.words("round {round} table {table}: {id} {name} has withdrawn", round=rnd,
                                             table=b.table, id=pid, name=players[pid].name))
            if pid in seats:
                raise EventError(model.words("round {round}: {id} {name} is at table {a} and table {b}", round=rnd, id=pid,
                                             name=players[pid].name, a=seats[pid], b=b.table))
            seats[pid] = b.table
    if same_players is not None:
        lost = [pid for pid in same_players if pid not in seats]
        if lost:
            raise EventError(model.words("round {round}: {players} is at no table (every player of the draft once)"
                                         if len(lost) == 1 else
                                         "round {round}: {players} are at no table (every player of the draft once)",
                                         round=rnd, players=", ".join(f"{pid} {players[pid].name}" for pid in lost)))
        new = sorted(set(seats) - set(same_players))
        if new:
            raise EventError(model.words("round {round}: {players} is not in the draft" if len(new) == 1 else
                                         "round {round}: {players} are not in the draft", round=rnd, players=", ".join(new)))


def published_rounds(store: Store, name: str) -> list[dict[str, Any]]:
    return [r for r in store.event_rounds(name) if r["state"] == "published"]


def draft_of(store: Store, name: str) -> dict[str, Any] | None:
    """The event's round waiting to be published, or None."""
    return next((r for r in store.event_rounds(name) if r["state"] == "draft"), None)


# ------------------------------------------------------------------------------------------ draft versions
@dataclass(frozen=True)
class DraftDiff:
    """What changed in an event's draft since a page showed version `shown` (issue 26): the round it was
    a draft of, its version now (None: no draft of that round any more), whether that round is published
    since, each step after `shown` ({"version", "kind", "what": lines, "by", "at"}) and each table whose
    pair changed (table, as shown, now: "Anan v Boon", "Anan v bye", "" for no table)."""
    round: int
    shown: int
    now: int | None
    published: bool
    steps: list[dict[str, Any]]
    tables: list[tuple[int, str, str]]

    def lines(self) -> list[str]:
        """The difference in English, a line each: the steps (what, who), then the tables."""
        out = [f"round {self.round} was published meanwhile"] if self.published else []
        out += [f"{w} ({s['by']})" for s in self.steps for w in s["what"] or [s["kind"]]]
        out += [f"table {t}: {a or '(none)'} » {b or '(none)'}" for t, a, b in self.tables]
        return out


class DraftChanged(EventError):
    """A page acting on a draft version it showed that is not the draft now: nothing was done; `diff`
    says what changed since (the desk shows it; the message is one line)."""

    def __init__(self, diff: DraftDiff) -> None:
        what = "; ".join(diff.lines()[:6]) or "drawn again"
        shown = f"version {diff.shown}, now {diff.now}" if diff.now is not None else f"version {diff.shown}"
        super().__init__(model.words("the draft of round {round} changed since the page showed it ({shown}): {what}",
                                     round=diff.round, shown=shown, what=what))
        self.diff = diff


def _table_texts(boards: Iterable[Mapping[str, Any]], names: Mapping[str, str]) -> dict[int, str]:
    """{table: "Anan v Boon"} (a match's first game; "Anan v bye") of stored boards: Notes, which the desk
    says in its reader's language."""
    out: dict[int, str] = {}
    for b in sorted(boards, key=lambda b: (b["table"], b["game"])):
        if b["table"] not in out:
            right = model.words("bye") if b["right"] is None else names.get(b["right"], b["right"])
            out[b["table"]] = model.note("{left} v {right}", left=names.get(b["left"], b["left"]), right=right)
    return out


def draft_diff(store: Store, name: str, shown: int, upto: int | None = None) -> DraftDiff:
    """What changed in the event's draft since version `shown` (to version `upto`, default: the draft
    now, or the round as published)."""
    versions = store.draft_versions(name)
    seen = next((v for v in versions if v["version"] == shown), None)
    draft = draft_of(store, name)
    rnd = seen["round"] if seen is not None else draft["round"] if draft is not None else 0
    rounds = {r["round"]: r for r in store.event_rounds(name)}
    now_round = rounds.get(rnd)
    published = now_round is not None and now_round["state"] == "published"
    now = None if now_round is None or published else now_round["version"]
    if upto is not None:
        now = upto
    steps = [{k: v[k] for k in ("version", "kind", "what", "by", "at")} for v in versions
             if v["round"] == rnd and v["version"] > shown and (now is None or v["version"] <= now)]
    names = {p["id"]: p["name"] for p in store.event_players(name)}
    at = next((v["boards"] for v in versions if v["version"] == now), None) if upto is not None else None
    before = _table_texts(seen["boards"] if seen else [], names)
    after = _table_texts(at if at is not None else now_round["boards"] if now_round else [], names)
    tables = [(t, before.get(t, ""), after.get(t, "")) for t in sorted(set(before) | set(after))
              if before.get(t) != after.get(t)]
    return DraftDiff(rnd, shown, now, published, steps, tables)


def draft_edits(store: Store, name: str) -> DraftDiff | None:
    """The organiser's edits of the draft waiting since the system drew it (what Pair again or Redraw
    would replace): a DraftDiff from the last drawn version to the draft now; None without a draft."""
    draft = draft_of(store, name)
    if draft is None:
        return None
    drawn = [v for v in store.draft_versions(name) if v["round"] == draft["round"] and v["kind"] == "draw"]
    return draft_diff(store, name, drawn[-1]["version"] if drawn else draft["version"])


LOT_PAIRED = ("makruk-rr", "makruk-team", "makhos-groups")   # later rounds follow round 1's lot, not results


def pairs_from_results(store: Store, name: str) -> bool:
    """Whether the event's later rounds are paired from the results so far (a Swiss, XW-10, Sudoku's final,
    a knockout's next stage), not from the lot drawn in round 1 alone (a round robin, the groups' tables)."""
    return event_of(store, name)["system"] not in LOT_PAIRED


def paired_after(store: Store, name: str, rnd: int) -> list[dict[str, Any]]:
    """The event's rounds after round `rnd` that are paired already (published, or the draft waiting):
    their pairings were drawn from the results as they were (an amendment of round `rnd` changes what
    they would be). [] for an event the PC does not pair."""
    if store.event(name) is None:
        return []
    return [r for r in store.event_rounds(name) if r["round"] > rnd]


def kept_lot(ev: Mapping[str, Any], published: Sequence[Mapping[str, Any]],
             players: Mapping[str, model.Player]) -> Mapping[str, Any] | None:
    """The lot the event keeps (module doc): the store's, else -- round 1 published before lots were kept
    -- drawn again from round 1's seed by its system and made to agree with round 1 as published. None
    while round 1 is not published, and for systems that keep no lot (no `model.FOLLOWERS` entry)."""
    if ev.get("lot") is not None:
        return dict(ev["lot"])
    follow = model.FOLLOWERS.get(ev["system"])
    first = next((r for r in published if r["round"] == 1), None)
    pair = load_systems().get(ev["system"])
    if follow is None or first is None or pair is None:
        return None
    state = model.EventState(players=tuple(players.values()), rounds=ev["rounds"], options=dict(ev["options"]))
    try:
        drawn = pair(state, 1, first["seed"]).lot
        if drawn is None:
            return None
        return follow(state, drawn, [board_of(b) for b in first["boards"]])
    except model.PairingError as exc:
        raise EventError(f"{ev['name']}: round 1 was published before gameclock kept the event's lot, and its lot "
                         f"cannot be drawn again from its seed {first['seed']}: {exc}") from None


def draw(store: Store, name: str, seed: int | None = None, by: str = "organiser",
         version: int | None = None) -> dict[str, Any]:
    """The next round's draft by the event's system, from the lot the event keeps and the published
    rounds' results, stored (a draft before is replaced) and returned as `Store.event_rounds` gives it.
    `seed` None: the waiting draft's own seed (Pair again: the same draft unless results changed), or a
    new random one (stored and shown, so the draw can be redone and checked). A seed only draws what the
    round draws itself: round 1's lot, a knockout tie's lot; never a lot the event keeps. `by`: who (the
    draft's version trail); `version`: the draft's version the caller showed (a page): DraftChanged when
    the draft waiting is another now (the organiser's edits it would replace unseen)."""
    ev = event_of(store, name)
    before = draft_of(store, name)
    if version is not None and (before is None or before["version"] != version):
        raise DraftChanged(draft_diff(store, name, version))
    published = published_rounds(store, name)
    rnd = len(published) + 1
    if ev["rounds"] and rnd > ev["rounds"]:
        raise EventError(model.words("{event}: all {rounds} rounds are published", event=name, rounds=ev["rounds"]))
    if rnd > MAX_ROUND:
        raise EventError(model.words("{event}: round {round} is more than the clocks take ({max})", event=name, round=rnd,
                                     max=MAX_ROUND))
    players = players_of(store, name)
    out = withdrawn_of(store, name)
    lot = kept_lot(ev, published, players)
    if lot is not None and ev.get("lot") is None:
        store.keep_lot(name, lot)          # a store from before issue 25: the lot kept from now on
    state = model.EventState(players=tuple(p for pid, p in players.items() if pid not in out),
                             games=games_of(store, ev, players, published), rounds=ev["rounds"],
                             options=dict(ev["options"]), lot=lot)
    pair = load_systems().get(ev["system"])
    if pair is None:
        raise EventError(f"{name}: its pairing system {ev['system']!r} is not installed on this PC")
    again = before is not None and seed is None
    if seed is None:
        seed = before["seed"] if before is not None else random.SystemRandom().randrange(1, 10**9)
    try:
        draft = pair(state, rnd, seed)
    except model.EventOver as exc:
        if exc.lot is not None and exc.lot != lot:
            store.keep_lot(name, exc.lot)  # what this last draw decided (a final by lot): kept, shown
        raise EventError(model.words("{event}: {why}", event=name, why=said_of(exc))) from None
    except model.PairingError as exc:
        raise EventError(model.words("{event}: round {round} ({system}, seed {seed}): {why}", event=name, round=rnd,
                                     system=ev["system"], seed=seed, why=said_of(exc))) from None
    boards = sorted(draft.boards, key=lambda b: (b.table, b.game))
    check_boards(boards, players, rnd, out)
    what = (model.note("paired again (seed {seed})", seed=seed) if again else
            model.note("drawn again (seed {seed})", seed=seed) if before is not None else
            model.note("drawn (seed {seed})", seed=seed))
    try:
        store.put_draft(name, rnd, ev["system"], seed, [board_dict(b) for b in boards], list(draft.notes),
                        lot=draft.lot, words=[w.as_json() for w in draft.words], what=[what], by=by,
                        version=None if before is None else before["version"])
    except StaleDraft:
        raise DraftChanged(draft_diff(store, name, before["version"] if before else 0)) from None
    result = draft_of(store, name)
    assert result is not None, "put_draft stored it"
    return result


def knockout_of(store: Store, name: str, upto: int | None = None) -> Any:
    """The event's knockout as far as its published rounds' results go (`pairing.knockout.Bracket`:
    its matches by stage with their games and outcomes, `champion`, `over`; `knockout.placings(br)`
    gives the places decided), from the bracket the event keeps; nothing is drawn here (a tie due for
    its lot is `knockout.LotDue` until the next Pair draws it). `upto`: as it was after that round (the
    standings' --round). None when the event is not a knockout or its round 1 is not published yet (no
    bracket kept). A round under way counts the results in so far; EventError for a result whose players
    are not its table's."""
    from gameclock.organiser.pairing import knockout

    ev = event_of(store, name)
    load_systems()
    fmt = knockout.FORMATS.get(ev["system"])
    if fmt is None:
        return None
    published = [r for r in published_rounds(store, name) if upto is None or r["round"] <= upto]
    players = players_of(store, name)
    lot = kept_lot(ev, published, players)
    if lot is None:
        return None
    out = withdrawn_of(store, name)
    state = model.EventState(players=tuple(p for pid, p in players.items() if pid not in out),
                             games=games_of(store, ev, players, published, missing_ok=True), rounds=ev["rounds"],
                             options=dict(ev["options"]), lot=lot)
    try:
        return knockout.bracket(state, fmt, model.lot_seed(lot), draw_lots=False)
    except model.PairingError as exc:
        raise EventError(f"{name}: {exc}") from None


def redrawable(store: Store, name: str, draft: Mapping[str, Any] | None = None) -> bool:
    """Whether a Redraw (a new seed) may draw the waiting draft again: round 1's (its lot is not kept
    yet), or a later one that draws a lot of its own (a knockout's tie). False without a draft."""
    draft = draft if draft is not None else draft_of(store, name)
    if draft is None:
        return False
    if draft["round"] == 1:
        return True
    return draft.get("lot") is not None and draft["lot"] != event_of(store, name).get("lot")


def redraw(store: Store, name: str, seed: int | None = None, by: str = "organiser",
           version: int | None = None) -> dict[str, Any]:
    """The waiting draft drawn again with a new random seed (or `seed`): only when `redrawable`; else an
    EventError saying what the draft continues (a new seed would change nothing there). `by`, `version`:
    as `draw`'s."""
    draft = draft_of(store, name)
    if version is not None and (draft is None or draft["version"] != version):
        raise DraftChanged(draft_diff(store, name, version))
    if draft is None:
        raise EventError(model.words("{event}: no draft to redraw (gameclock pair {event} draws the next round)",
                                     event=name))
    if not redrawable(store, name, draft):
        kept = words_of(draft)
        said: model.Words = (model.Words("; ".join(f"{{w{i}}}" for i in range(len(kept))),
                                         tuple((f"w{i}", w) for i, w in enumerate(kept))) if kept else
                             model.words("the lot kept since round 1") if draft.get("lot") is not None
                             else model.words("paired from the results so far"))
        raise EventError(model.words("{event}: round {round} draws nothing a new seed could change ({said}): a Redraw "
                                     "is for round 1's draft and for a knockout stage whose ties lots decide",
                                     event=name, round=draft["round"], said=said))
    if seed is None:
        while seed is None or seed == draft["seed"]:
            seed = random.SystemRandom().randrange(1, 10**9)
    return draw(store, name, seed, by=by, version=draft["version"])


def _player_ref(ref: str, players: Mapping[str, model.Player]) -> str | None:
    """A player named on the command line by id or by name (case-folded); None for `bye`."""
    if ref.strip().lower() in BYE_WORDS:
        return None
    if ref in players:
        return ref
    hits = [pid for pid, p in players.items() if ref.strip().casefold() in (p.name.casefold(), p.latin.casefold(),
                                                                            pid.casefold())]
    if len(hits) != 1:
        raise EventError(model.words("no player {ref} in the event (give the id)", ref=printable(repr(ref[:40]))))
    return hits[0]


def edit(store: Store, name: str, swaps: Sequence[tuple[int, int]] = (),
         fixes: Sequence[tuple[int, str, str]] = (), exchanges: Sequence[tuple[str, str]] = (),
         by: str = "organiser", version: int | None = None) -> dict[str, Any]:
    """The draft with tables swapped (the two pairs change tables, in order, a match's games with it),
    players exchanged (P and Q change seats: every game of their matches, a bye too; issue 26) and
    tables set (table T becomes LEFT v RIGHT, or LEFT's bye, every game of a match there; a table not in
    the draft is added), all applied, then checked once: every player of the draft at one table, nobody
    else. When who meets whom changed: round 1's draft makes its lot follow (`model.FOLLOWERS`); a draft
    continuing a kept lot is refused (its pairs are the lot's). Stored as the draft's next version (the
    seed kept; `by` who) and returned. `version`: the version the caller showed (DraftChanged when the
    draft is another now)."""
    draft = draft_of(store, name)
    if version is not None and (draft is None or draft["version"] != version):
        raise DraftChanged(draft_diff(store, name, version))
    if draft is None:
        raise EventError(model.words("{event}: no draft to change (gameclock pair {event} draws the next round)",
                                     event=name))
    players = players_of(store, name)
    rnd = draft["round"]
    boards: dict[int, list[model.Board]] = {}
    for b in draft["boards"]:
        boards.setdefault(b["table"], []).append(board_of(b))
    before = [pid for bs in boards.values() for pid in (bs[0].left, bs[0].right) if pid is not None]
    notes = list(draft["notes"])
    told = len(notes)
    for t1, t2 in swaps:
        for t in (t1, t2):
            if t not in boards:
                raise EventError(model.words("round {round}: no table {table} in the draft (tables {tables})", round=rnd,
                                             table=t, tables=", ".join(map(str, sorted(boards)))))
        if t1 == t2:
            raise EventError(model.words("round {round}: --swap {a} {b}: two different tables", round=rnd, a=t1, b=t2))
        boards[t1], boards[t2] = ([replace(b, table=t1) for b in boards[t2]], [replace(b, table=t2) for b in boards[t1]])
        notes.append(model.note("tables {a} and {b} swapped by the organiser", a=t1, b=t2))
    for p_ref, q_ref in exchanges:
        p, q = _player_ref(p_ref, players), _player_ref(q_ref, players)
        if p is None or q is None:
            raise EventError(model.words("round {round}: exchange two players (a bye is a seat: exchange its player)",
                                         round=rnd))
        if p == q:
            raise EventError(model.words("round {round}: {p} and {q}: two different players", round=rnd, p=p, q=q))
        seated = {pid for bs in boards.values() for b in bs for pid in (b.left, b.right)}
        for x in (p, q):
            if x not in seated:
                raise EventError(model.words("round {round}: {id} {name} is at no table of the draft (pair it again to "
                                             "seat a late entry)", round=rnd, id=x, name=players[x].name))
        seat = {p: q, q: p}
        for t, bs in boards.items():
            if any(b.left in seat or b.right in seat for b in bs):
                boards[t] = [replace(b, left=seat.get(b.left, b.left), words=None,
                                     right=None if b.right is None else seat.get(b.right, b.right)) for b in bs]
        notes.append(model.note("{p} and {q} exchanged by the organiser", p=p, q=q))
    for table, left_ref, right_ref in fixes:
        if not 1 <= table <= MAX_TABLE:
            raise EventError(model.words("round {round}: table {table} is not 1-{max}", round=rnd, table=table,
                                         max=MAX_TABLE))
        left, right = _player_ref(left_ref, players), _player_ref(right_ref, players)
        if left is None:
            raise EventError(model.words("round {round} table {table}: the left player cannot be a bye (give LEFT bye)",
                                         round=rnd, table=table))
        if left == right:
            raise EventError(model.words("round {round} table {table}: {player} cannot play themself", round=rnd,
                                         table=table, player=left))
        old = boards.get(table) or [model.Board(table, left, right)]
        first = old[0]
        # every game of the match there: game 1 LEFT v RIGHT, the others' sides as they alternated
        boards[table] = [replace(b, table=table, left=left if b.left == first.left or right is None else right,
                                 right=right if b.left == first.left else left, words=None,
                                 note="bye" if right is None else (b.note if b.right is not None else ""))
                         for b in (old if right is not None else old[:1])]
        notes.append(model.note("table {table} set by the organiser: {left} v {right}", table=table, left=left,
                                right=right or model.words("bye")))
    ordered = [b for t in sorted(boards) for b in sorted(boards[t], key=lambda b: b.game)]
    check_boards(ordered, players, rnd, withdrawn_of(store, name), same_players=before)
    lot = draft.get("lot")
    if _meetings(ordered) != _meetings(board_of(b) for b in draft["boards"]) and lot is not None:
        lot = _follow(store, name, rnd, lot, ordered, players)
    try:
        store.put_draft(name, rnd, draft["system"], draft["seed"], [board_dict(b) for b in ordered], notes,
                        edited=True, lot=lot, words=draft.get("words"), what=notes[told:], by=by,
                        version=draft["version"])
    except StaleDraft:
        raise DraftChanged(draft_diff(store, name, draft["version"])) from None
    result = draft_of(store, name)
    assert result is not None
    return result


def _meetings(boards: Iterable[model.Board]) -> set[frozenset[str | None]]:
    """Who meets whom on `boards` (a bye: the player and None)."""
    return {frozenset((b.left, b.right)) for b in boards}


def _follow(store: Store, name: str, rnd: int, lot: Mapping[str, Any], boards: Sequence[model.Board],
            players: Mapping[str, model.Player]) -> Mapping[str, Any]:
    """The draft's lot made to agree with its boards as fixed (`edit`): only the draft drawing the lot."""
    ev = event_of(store, name)
    if ev.get("lot") is not None:
        raise EventError(model.words("round {round} continues the lot kept since round 1 (the event's draw): who meets "
                                     "whom is the lot's; swap tables, or set a table to the same two players the other "
                                     "way round", round=rnd))
    follow = model.FOLLOWERS.get(ev["system"])
    if follow is None:
        return lot
    out = withdrawn_of(store, name)
    state = model.EventState(players=tuple(p for pid, p in players.items() if pid not in out), rounds=ev["rounds"],
                             options=dict(ev["options"]))
    try:
        return follow(state, lot, boards)
    except model.PairingError as exc:
        raise EventError(f"round {rnd}: {exc}") from None


def level_for(ev: Mapping[str, Any], *players: model.Player) -> str | None:
    """The XW-8 level a table is played at: the event's, else its players' when they share one."""
    if ev.get("level"):
        return str(ev["level"])
    levels = {p.level for p in players}
    return levels.pop() if len(levels) == 1 and "" not in levels else None


def publish(store: Store, name: str, version: int | None = None) -> dict[str, Any]:
    """The draft published: its tables into `pairings` (names, the event's language and preset, the
    level, each board's stage and game) and its byes into `byes`, for the clocks at docking. Returns
    the round as published. `version`: the draft's version the caller showed (a page): DraftChanged,
    saying what changed since, when the draft is another now; the version read is published or
    nothing (another desk changing it meanwhile: DraftChanged)."""
    ev = event_of(store, name)
    draft = draft_of(store, name)
    if version is not None and (draft is None or draft["version"] != version):
        raise DraftChanged(draft_diff(store, name, version))
    if draft is None:
        raise EventError(model.words("{event}: no draft to publish (gameclock pair {event} draws the next round)",
                                     event=name))
    players = players_of(store, name)
    rnd = draft["round"]
    boards = [board_of(b) for b in draft["boards"]]
    check_boards(boards, players, rnd, withdrawn_of(store, name))
    rows, byes = [], []
    pushed: set[int] = set()
    for b in sorted(boards, key=lambda b: (b.table, b.game)):
        if b.table in pushed:
            continue  # a match's later games: the clock goes on to them (Next game), from the first's number
        pushed.add(b.table)
        left = players[b.left]
        if b.right is None:
            # a bye is a win (XW-9); a Sudoku competitor seated "alone" at a clock is not (SU-1: the
            # round is solved, not played against the other): no bye, and nothing to push -- the
            # arbiter starts that clock by hand
            if b.note != ALONE:
                byes.append({"event": name, "round": rnd, "player": left.name})
            continue
        right = players[b.right]
        rows.append({"event": name, "round": rnd, "table": b.table,
                     "players": {"left": left.name, "right": right.name}, "level": level_for(ev, left, right),
                     "stage": b.stage, "language": ev.get("language"), "preset": b.preset or ev.get("preset"),
                     "game": b.game})
    try:
        store.publish_round(name, rnd, rows, byes, version=draft["version"])
    except StaleDraft:
        raise DraftChanged(draft_diff(store, name, draft["version"])) from None
    return next(r for r in store.event_rounds(name) if r["round"] == rnd)


def round_of(store: Store, name: str, rnd: int | None = None) -> dict[str, Any]:
    """Round `rnd` of the event (None: the last published one). EventError if there is none."""
    rounds = store.event_rounds(name)
    if rnd is None:
        published = [r for r in rounds if r["state"] == "published"]
        if not published:
            raise EventError(f"{name}: no round published yet (gameclock pair {name} --publish)")
        return published[-1]
    for r in rounds:
        if r["round"] == rnd:
            return r
    raise EventError(f"{name}: no round {rnd}")


# ------------------------------------------------------------------------------------------ text
def player_text(p: model.Player) -> str:
    """`12 สมชาย ใจดี (Somchai Jaidee)`."""
    return f"{p.id} {p.name}" + (f" ({p.latin})" if p.latin and p.latin != p.name else "")


def round_lines(name: str, r: Mapping[str, Any], players: Mapping[str, model.Player]) -> list[str]:
    """A round as lines for the terminal: the heading with system and seed, a table a line, the notes."""
    state = "DRAFT" if r["state"] == "draft" else "published"
    out = [f"{name} round {r['round']} ({state}; system {r['system']}, seed {r['seed']})"]
    out += [f"  draw: {w}" for w in words_of(r)]
    for b in r["boards"]:
        extra = [f"G{b['game']}"] if b["game"] != 1 else []
        extra += [b["stage"]] if b["stage"] != "qualifying" else []
        extra += [b["note"]] if b["note"] and b["note"] != "bye" else []
        right = "bye" if b["right"] is None else player_text(players[b["right"]])
        out.append(f"  table {b['table']:>3}: {player_text(players[b['left']])} v {right}"
                   + (f"  [{' '.join(extra)}]" if extra else ""))
    out += [f"  note: {n}" for n in r["notes"]]
    return out
