"""What each page of the desk shows, as plain data for its template: built from the store and the
organiser's own modules (`standings.commands.event_standings`, `event.py`), never re-derived here.
No HTTP in this module: app.py calls these functions and renders their results.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from gameclock.organiser import amendments, counting
from gameclock.organiser import event as events
from gameclock.organiser.desk import i18n
from gameclock.organiser.standings.commands import StandingsError, event_standings
from gameclock.organiser.standings.games import Game, game_from_record, game_from_summary
from gameclock.organiser.standings.table import Standings, _cell
from gameclock.organiser.store import Store
from gameclock.organiser.summary import summary_of

# A table's progress, in the order a round goes through them (docs: what the PC can know); issue 26:
# LOOK, a result is there the organiser must look at before it counts (organiser/counting.py: not the
# table's players, two results for one game); HAND, its result was entered by hand at the desk
WAITING, PLAYING, CONFIRMED, UPLOADED, LOOK, HAND = "waiting", "playing", "confirmed", "uploaded", "look", "hand"
STATES = (WAITING, PLAYING, CONFIRMED, LOOK, UPLOADED, HAND)
DONE = (UPLOADED, HAND)
# what the round page says about the states (progress's docstring says why)
ROUND_NOTE = ("A result being entered at a table shows as playing: a clock tells the PC about its results "
              "only when docked, and only once both players have confirmed them.")


def event_names(store: Store) -> list[str]:
    """Every event the desk can show: those the PC pairs and those results or pairings carry."""
    names = set(store.events()) | set(store.result_events())
    names |= {p["event"] for p in store.pairings() if p["event"] is not None}
    return sorted(names)


def standings(store: Store, event: str, rnd: int | None = None, games: list[Game] | None = None) -> dict[str, Any]:
    """The event's standings as `gameclock standings` prints them: {"tables": [{"method", "rules",
    "head", "rows": [{"place", "player", "cells"}], "notes"}], "error": one line or None}. `games`: the
    event's games when the caller holds them (eventgames.py), else read from the store."""
    try:
        tables = event_standings(store, event, rnd, games=games)
    except (StandingsError, ValueError) as exc:
        return {"tables": [], "error": str(exc)}
    marks = events.player_marks(store, event)
    return {"tables": [_table(st, marks) for st in tables], "error": None}


def _table(st: Standings, marks: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A standings table for the pages; `marks`: what to say beside a player's name (event.player_marks:
    "withdrawn after round 1", "joined in round 2": model.Words, said in the page's language)."""
    teams = any(r.team for r in st.rows)
    head = ["Place", "Player"] + (["Team"] if teams else []) + st.columns
    # each column's format looked up once, not once a cell (issue 28: 5,000 rows at every result)
    shown = [(c, st.formats.get(c, _cell)) for c in st.columns]
    none = [False] * len(st.columns)
    marks = marks or {}
    rows = [{"place": r.place, "player": r.player, "team": r.team or "", "rank": r.rank,
             "mark": marks.get(r.player),
             "cells": [fmt(r.values.get(c)) for c, fmt in shown],
             "provisional": [c in r.provisional for c in st.columns] if r.provisional else list(none)}
            for r in st.rows]
    return {"method": st.method, "rules": st.rules, "head": head, "columns": st.columns, "teams": teams,
            "rows": rows, "notes": st.notes}


def final_standings(store: Store, event: str) -> dict[str, Any] | None:
    """The event's final standings (`standings/final.py`) for the final standings page and the prize
    list: {"fc": the Classification, "figures": its figures' names in order, "groups", "levels": whether
    any row has one, "sections": [{"level", "group", "rows"}] (one printed page each: a level, a group),
    "campus": player id -> school, "latin": player id -> the name in Latin script}. None for an event the PC does not pair (results only)."""
    from gameclock.organiser.standings.final import classify

    fc = classify(store, event)
    if fc is None:
        return None
    figures = list(dict.fromkeys(k for r in fc.rows for k in r.figures))
    plist = store.event_players(event)
    sections: dict[tuple[str, str], list[Any]] = {}
    for r in fc.rows:
        sections.setdefault((r.level, r.group), []).append(r)
    return {"fc": fc, "figures": figures, "groups": any(r.group for r in fc.rows),
            "levels": any(r.level for r in fc.rows),
            "sections": [{"level": level, "group": group, "rows": rows} for (level, group), rows in sections.items()],
            "campus": {p["id"]: p["campus"] for p in plist},
            "latin": {p["id"]: p["latin"] for p in plist if p["latin"] and p["latin"] != p["name"]}}


def players(store: Store, event: str) -> list[dict[str, Any]]:
    """The event's list (events the PC pairs), in list order."""
    return store.event_players(event)


def player(store: Store, event: str, pid: str) -> dict[str, Any] | None:
    return next((p for p in store.event_players(event) if p["id"] == pid), None)


def player_games(store: Store, event: str, name: str) -> list[dict[str, Any]]:
    """The player's games in the event, by round: round, table, side, opponent, result, scores."""
    out = []
    for values in store.summaries(event=event):
        g = game_from_summary(values)
        side = g.side_of(name)
        if side is None:
            continue
        other = "right" if side == "left" else "left"
        out.append({"id": g.id, "round": g.round, "table": g.table, "opponent": g.players.get(other) or "",
                    "result": g.result_for(name), "score": _pair(g.scores, side, other),
                    "spread": (g.spread or {}).get(side), "amended": g.amended is not None,
                    "hand": g.hand is not None, "forfeit": g.forfeit,
                    "time_ms": g.time_used_ms.get(side)})     # the player's own time used (issue 28: the card)
    for b in store.byes(event):
        if b["player"] == name:
            out.append({"id": None, "round": b["round"], "table": None, "opponent": None, "result": "bye",
                        "score": "", "spread": None, "amended": False, "hand": False, "forfeit": False,
                        "time_ms": None})
    return sorted(out, key=lambda x: (x["round"] or 0, x["table"] or 0))


def _pair(values: Mapping[str, int | None] | None, side: str, other: str) -> str:
    if not values or values.get(side) is None:
        return ""
    return f"{values.get(side)}-{values.get(other)}"


def rounds(store: Store, event: str) -> list[int]:
    """The rounds with pairings (published or loaded from a file), ascending."""
    return sorted({p["round"] for p in store.pairings() if p["event"] == event})


def pairings(store: Store, event: str, rnd: int) -> dict[str, Any]:
    """Round `rnd`'s tables as pushed to the clocks, and its byes: {"tables": [{"table", "left",
    "right", "game", "stage", "label", "result"}], "byes": [name]}. `label`: what the board is when it is
    more than a game of the round ("final", "third place": the published round's note; a file's stage
    `final`), else ""; `result` (issue 28: the public pairings show each table's result once in): the
    result that counts, {"score": "412-388" left first or "", "winner": left | right | draw | None}, or
    None while the game is played."""
    notes = {(b["table"], b["game"]): b["note"] for r in store.event_rounds(event)
             if r["round"] == rnd and r["state"] == "published" for b in r["boards"]}
    results: dict[tuple[int, int], Game] = {}
    for values in store.summaries(event=event, round=rnd):
        g = game_from_summary(values)
        if g.table is not None:
            results[(g.table, g.game or 1)] = g

    def label(p: Mapping[str, Any]) -> str:
        note = notes.get((p["table"], p.get("game") or 1), "")
        return note if note in PAIRING_LABELS else "final" if p.get("stage") == "final" else ""

    def result(p: Mapping[str, Any]) -> dict[str, Any] | None:
        g = results.get((p["table"], p.get("game") or 1))
        return None if g is None else {"score": _pair(g.scores, "left", "right"), "winner": g.winner}

    tables = [{"table": p["table"], "left": p["players"]["left"], "right": p["players"]["right"],
               "game": p.get("game"), "stage": p.get("stage"), "label": label(p), "result": result(p)}
              for p in store.pairings() if p["event"] == event and p["round"] == rnd]
    byes = [b["player"] for b in store.byes(event) if b["round"] == rnd]
    return {"tables": tables, "byes": byes}


PAIRING_LABELS = ("final", "third place")   # a board's notes the public pairings show (pairing/crossword.py)


def progress(store: Store, event: str, rnd: int) -> list[dict[str, Any]]:
    """Each table of round `rnd` with its state, the missing boards (not uploaded) first, then by
    table. What the PC can know: `uploaded` (its result is stored), `confirmed` (the table's clock
    said at its last hello that it holds results not yet sent: confirmed at the board), `playing`
    (the table's clock said hello since the round's pairings were loaded, so it has them), else
    `waiting`. Amended results are `uploaded` too (`amended` says so).

    There is no "result in" (a result entered on the clock, not yet confirmed by both players): the
    PC hears of a table only when its clock docks, and a hello (dock/PROTOCOL.md; the `clocks` row)
    carries `pending`, the results in the clock's outbox, and a result goes into the outbox only once
    both players confirmed it (loop/result_mode.py `_save_result`; CL-5). Nothing a clock sends says a
    game ended or a result is being entered, so the PC cannot tell that state from `playing`; it is
    not shown rather than guessed (the round page says so: ROUND_NOTE). `pending` also counts a
    result of an earlier game the clock has not sent yet, so `confirmed` is the clock's word that it
    holds a confirmed result, most likely this round's."""
    tab = pairings(store, event, rnd)["tables"]
    published = next((r.get("published_at") for r in store.event_rounds(event) if r["round"] == rnd), None)
    results: dict[int, list[Game]] = {}
    for values in store.summaries(event=event, round=rnd):
        g = game_from_summary(values)
        if g.table is not None:
            results.setdefault(g.table, []).append(g)
    held: dict[int, list[tuple[Game, str]]] = {}
    for values, why in store.held(event=event, round=rnd):
        g = game_from_summary(values)
        if g.table is not None:
            held.setdefault(g.table, []).append((g, why))
    clocks: dict[int, dict[str, Any]] = {}
    for c in store.clocks():
        if c["event"] == event and c["round"] == rnd and c["table"] is not None and c["last_seen"]:
            if c["table"] not in clocks or c["last_seen"] > clocks[c["table"]]["last_seen"]:
                clocks[c["table"]] = c
    out = []
    for t in tab:
        games = results.get(t["table"], [])
        waits = held.get(t["table"], [])
        clock = clocks.get(t["table"])
        since = published or ""
        if games:
            state = HAND if any(g.hand is not None for g in games) else UPLOADED
        elif waits:
            state = LOOK
        elif clock is not None and (clock.get("pending") or 0) > 0:
            state = CONFIRMED
        elif clock is not None and clock["last_seen"] >= since:
            state = PLAYING
        else:
            state = WAITING
        out.append({**t, "state": state, "results": [g.id for g in games],
                    "outcome": _outcome_text(games[-1]) if games else "",
                    "amended": any(g.amended is not None for g in games),
                    "held": [{"id": g.id, "why": counting.WHY[why]} for g, why in waits],
                    "clock": clock["serial"] if clock else None, "last_seen": clock["last_seen"] if clock else None})
    return sorted(out, key=lambda x: (x["state"] in DONE, x["state"] != LOOK, x["table"]))


class Outcome(NamedTuple):
    """A game's result to say in words (i18n.say_outcome: "Anan wins 412-388", "อนันต์ ชนะ 412-388")."""
    winner: str | None   # the winner's name; None for a draw or a game without a result
    draw: bool
    score: str           # "412-388" (left-right), or ""

    def __str__(self) -> str:
        return i18n.say_outcome(self, "en")


def _outcome_text(g: Game) -> Outcome:
    names = {"left": g.players.get("left") or "?", "right": g.players.get("right") or "?"}
    score = f"{g.scores['left']}-{g.scores['right']}" if g.scores and g.scores.get("left") is not None else ""
    return Outcome(names.get(g.winner or ""), g.winner == "draw", score)


def latest_results(store: Store, event: str, limit: int = 10) -> list[dict[str, Any]]:
    """The event's results stored last, newest first."""
    out = []
    for values in store.latest_results(event, limit):
        g = game_from_summary(values)
        out.append({"id": g.id, "round": g.round, "table": g.table, "left": g.players.get("left") or "",
                    "right": g.players.get("right") or "", "winner": g.winner,
                    "score": _pair(g.scores, "left", "right"), "text": _outcome_text(g),
                    "amended": g.amended is not None, "hand": g.hand is not None})
    return out


def clocks(store: Store) -> list[dict[str, Any]]:
    """Every clock the PC knows, last contact first (never docked last)."""
    rows = store.clocks()
    return sorted(rows, key=lambda c: c["last_seen"] or "", reverse=True)


def result(store: Store, rid: str) -> dict[str, Any] | None:
    """A stored result for its page: the signed record as it is; its game as the standings read it
    (the amendment in effect applied, organiser/amendments.py) and as the clock signed it; the
    audit trail, oldest first, each entry with what it changed from what (`changed`: [(field,
    from, to)], the values in effect before and after it); the values in effect now (`current`)."""
    stored = store.result(rid)
    if stored is None:
        return None
    rec = stored["record"]
    trail = store.amendments(rid)
    entry = amendments.in_effect(trail)
    g = game_from_summary(amendments.apply(summary_of(rec), entry))
    signed = game_from_record(rec)
    audit = []
    for i, a in enumerate(trail):
        before, after = amendments.effective(rec, trail[:i]), amendments.effective(rec, trail[:i + 1])
        audit.append({**a, "withdraws": a["changes"].get(amendments.WITHDRAWS),
                      "in_effect": entry is not None and entry["n"] == a["n"],
                      "changed": [(field, _shown(field, old, signed), _shown(field, new, signed))
                                  for field, old, new in amendments.changed(before, after)]})
    sides = rec.get("sides") or {}
    current = amendments.effective(rec, trail)
    return {"stored": stored, "record": rec, "game": g, "outcome": _outcome_text(g),
            "where": where_it_counts(store, rid, rec, current),
            "signed_outcome": _outcome_text(signed), "amended": entry, "current": current,
            "sides": {s: sides.get(s) or {} for s in ("left", "right")},
            "corrections": rec.get("corrections") or [], "counting": rec.get("counting"),
            "entries": rec.get("entries") or [], "amendments": audit}


# the amended fields as the result page names them (i18n.tr translates)
FIELD_NAMES = {"outcome": "Outcome", "draw_counts_as_loss_for": "Draw given by", "scores.final": "Final score",
               "scores.spread": "Spread", "scores.game_points": "Game points",
               # issue 26: where it counts (a wrong upload moved or set aside)
               "event": "Event", "round": "Round", "table": "Table", "players.left": "Left player",
               "players.right": "Right player", "aside": "Set aside"}


def _shown(field: str, value: Any, g: Game) -> str:
    """An amended field's value for people: a side as its player's name, a pair as `left / right`."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return f"{value.get('left')} / {value.get('right')}"
    if field in ("outcome", "draw_counts_as_loss_for") and value in ("left", "right"):
        return g.players.get(value) or str(value)
    return str(value)


def event_setup(store: Store, event: str) -> dict[str, Any] | None:
    """An event the PC pairs, for its set-up page: the event, its players, its rounds (each board
    with the players' names and what it is in words, `said`: model.Words or None; each round's `said`:
    what it draws or continues), the draft waiting to be published (or None) and whether a Redraw may
    draw it again (`redrawable`: round 1's, or one deciding a knockout tie by lot)."""
    ev = store.event(event)
    if ev is None:
        return None
    plist = store.event_players(event)
    names = {p["id"]: p["name"] for p in plist}
    rnds = []
    for r in store.event_rounds(event):
        tables = [{**b, "left_name": names.get(b["left"], b["left"]),
                   "right_name": names.get(b["right"], "") if b["right"] else None,
                   "said": events.board_of(b).words} for b in r["boards"]]
        rnds.append({**r, "said": events.words_of(r), "tables": tables,
                     "match_column": any(t["said"] or t["note"] not in ("", "bye") for t in tables)})
    draft = events.draft_of(store, event)
    marks = events.player_marks(store, event)
    return {"event": ev, "players": [{**p, "mark": marks.get(p["name"])} for p in plist], "rounds": rnds,
            "draft": draft, "redrawable": draft is not None and events.redrawable(store, event, draft),
            "changes": events.player_changes(store, event)}


def amend_warning(store: Store, data: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any] | None:
    """What an amendment of a round older than the last paired one changes (issue 26), for the result
    page to say before it is stored: {"round": the result's round, "later": the rounds paired after it
    ({"round", "state"}), "from_results": whether the event's system pairs later rounds from the results
    (a round robin's follow the lot drawn in round 1), "changed": [(field, from, to)] as the trail says
    them}. None when no later round is paired (or the event is not one the PC pairs)."""
    rec = data["record"]
    event, rnd = rec.get("event"), rec.get("round")
    if not isinstance(event, str) or not isinstance(rnd, int):
        return None
    later = events.paired_after(store, event, rnd)
    if not later:
        return None
    signed = game_from_record(rec)
    current = data["current"]
    return {"round": rnd, "later": [{"round": r["round"], "state": r["state"]} for r in later],
            "from_results": events.pairs_from_results(store, event),
            "changed": [(field, _shown(field, old, signed), _shown(field, new, signed))
                        for field, old, new in amendments.changed(current, {**current, **changes})]}


def round_times(store: Store, event: str, games: list[Game] | None = None) -> list[dict[str, Any]]:
    """Time used per round: each round's mean time used a game (both sides, ms) and its longest. `games`:
    the event's games when the caller holds them (eventgames.py), else read from the store."""
    per: dict[int, list[int]] = {}
    for g in games if games is not None else (game_from_summary(v) for v in store.summaries(event=event)):
        if g.round is not None:
            per.setdefault(g.round, []).append(sum(g.time_used_ms.values()))
    return [{"round": r, "games": len(v), "mean_ms": sum(v) // len(v), "max_ms": max(v)} for r, v in sorted(per.items())]


def standings_order(data: Mapping[str, Any]) -> list[str]:
    """The players of `standings(...)`'s tables in their order (each once)."""
    return list(dict.fromkeys(r["player"] for st in data["tables"] for r in st["rows"]))


RESULT_LETTERS = {"en": {"win": "W", "draw": "D", "loss": "L", "bye": "B"},
                  "th": {"win": "ช", "draw": "ส", "loss": "พ", "bye": "บ"}}   # ชนะ เสมอ แพ้ บาย


def crosstable(store: Store, event: str, names: list[str], lang: str = "en") -> dict[str, Any]:
    """Who met whom: for each player (in `names`' order: the standings') and round, a cell: the result
    letters (W, D, L, in game order when a round is a match of several games: MH-7, MR-1; B for a bye)
    and the opponent's number in this order ("W4"), the player's score first where the games have
    scores ("350-300"), and the result ("win", "draw", "loss", "bye", "mixed"). Amended results count
    as amended (`Store.summaries`). {"rounds": [1..last], "rows": [{"n", "player", "cells"}]}. The
    letters are the reader's language's (`RESULT_LETTERS`: Thai ช ส พ บ)."""
    index = {n: i + 1 for i, n in enumerate(names)}
    games: dict[str, dict[int, list[tuple[int, str, str | None, str]]]] = {n: {} for n in names}
    last = 0
    for values in store.summaries(event=event):
        g = game_from_summary(values)
        if g.round is None:
            continue
        for side in ("left", "right"):
            me = g.players.get(side)
            if me is None or me not in games:
                continue
            other = "right" if side == "left" else "left"
            res = g.result_for(me) or ""
            games[me].setdefault(g.round, []).append((g.game, res, g.opponent(me), _pair(g.scores, side, other)))
            last = max(last, g.round)
    byes = {(b["player"], b["round"]) for b in store.byes(event) if b["player"] in games}
    last = max([last, *(r for _, r in byes)])
    letters = RESULT_LETTERS.get(lang, RESULT_LETTERS["en"])

    def cell(name: str, rnd: int) -> dict[str, str]:
        if (name, rnd) in byes:
            return {"text": letters["bye"], "score": "", "result": "bye"}
        played = sorted(games[name].get(rnd, []), key=lambda x: x[0])
        if not played:
            return {"text": "", "score": "", "result": ""}
        opponents = list(dict.fromkeys(str(index.get(o or "", "?")) for _, _, o, _ in played))
        results = {r for _, r, _, _ in played}
        return {"text": "".join(letters.get(r, "?") for _, r, _, _ in played) + "/".join(opponents),
                "score": " ".join(s for _, _, _, s in played if s),
                "result": results.pop() if len(results) == 1 else "mixed"}

    rounds = list(range(1, last + 1))
    return {"rounds": rounds,
            "rows": [{"n": index[n], "player": n, "cells": [cell(n, r) for r in rounds]} for n in names]}


# ------------------------------------------------------------------------------------------ issue 26
# a table's page (its games as published, what counts there, the hand entry form's set-up), where a
# result counts, and the results to look at (held, set aside, conflicting, refused)

def seats(store: Store, event: str, rnd: int, table: int) -> list[dict[str, Any]]:
    """The games at table `table` of round `rnd` as published, in game order: {"game", "left", "right"
    (names; right None for a Sudoku competitor seated alone), "stage", "preset", "level"}: from the
    round the PC published (its boards), else from the pairings loaded for it (a file). [] when the
    round has no such table."""
    ev = store.event(event)
    rounds = [r for r in store.event_rounds(event) if r["round"] == rnd and r["state"] == "published"] if ev else []
    if ev is not None and rounds:
        plist = events.players_of(store, event)
        out = []
        for b in rounds[0]["boards"]:
            if b["table"] != table or (b["right"] is None and b["note"] != events.ALONE):
                continue
            left, right = plist[b["left"]], plist[b["right"]] if b["right"] is not None else None
            level = events.level_for(ev, left, *([right] if right else []))
            out.append({"game": b["game"], "left": left.name, "right": right.name if right else None,
                        "stage": b["stage"], "preset": b.get("preset") or ev.get("preset"), "level": level})
        return sorted(out, key=lambda x: x["game"])
    return [{"game": p.get("game") or 1, "left": p["players"]["left"], "right": p["players"]["right"],
             "stage": p.get("stage") or "qualifying", "preset": p.get("preset"), "level": p.get("level")}
            for p in store.pairings() if p["event"] == event and p["round"] == rnd and p["table"] == table]


def public_table(store: Store, event: str, rnd: int, table: int) -> list[dict[str, Any]]:
    """Table `table` of round `rnd` for its public page (issue 28: the table's QR code): its games as
    published (`seats`), each with the players' card ids ("left_id", "right_id": None for a name the
    list does not hold) and the results that count there in words ("results"). [] when there is none."""
    games = seats(store, event, rnd, table)
    if not games:
        return []
    ids = {p["name"]: p["id"] for p in store.event_players(event)}
    here = [game_from_summary(v) for v in store.summaries(event=event, round=rnd)]
    return [{**g, "left_id": ids.get(g["left"]), "right_id": ids.get(g["right"] or ""),
             "results": [_outcome_text(x) for x in here if x.table == table and (x.game or 1) == g["game"]]}
            for g in games]


def table_page(store: Store, event: str, rnd: int, table: int) -> dict[str, Any] | None:
    """Table `table` of round `rnd` for its page: its games as published (`seats`), each with the
    results that count for it and those held there (why), the hand entries' trail of the table, and
    the preset each game is scored by (its kind, reasons and levels: the hand entry form's fields).
    None when the round has no such table."""
    games = seats(store, event, rnd, table)
    if not games:
        return None
    counting_here = [game_from_summary(v) for v in store.summaries(event=event, round=rnd)]
    held_here = [(game_from_summary(v), why) for v, why in store.held(event=event, round=rnd)]
    for g in games:
        g["results"] = [{"id": x.id, "text": _outcome_text(x), "hand": x.hand, "amended": x.amended is not None}
                        for x in counting_here if x.table == table and x.game == g["game"]]
        g["held"] = [{"id": x.id, "text": _outcome_text(x), "why": counting.WHY[why], "kind": why}
                     for x, why in held_here if x.table == table and x.game == g["game"]]
        g["hand"] = next((r["hand"] for r in g["results"] if r["hand"] is not None), None)
        g["signed"] = [r["id"] for r in g["results"] if r["hand"] is None]
        g["scoring"] = _scoring_of(g["preset"])
    return {"event": event, "round": rnd, "table": table, "games": games,
            "trail": store.hand_trail(event, rnd, table)}


def _scoring_of(preset_id: str | None) -> dict[str, Any] | None:
    """What a hand entry of a game of preset `preset_id` asks (its [scoring] kind, the reasons the
    clock offers, XW-8's levels), or None when the preset is not on this PC."""
    from gameclock.organiser import handentry
    from gameclock.rules.loader import RuleError, find_preset

    if not preset_id:
        return None
    try:
        preset = find_preset(preset_id)
    except (RuleError, LookupError, ValueError):
        return None
    sc = preset.scoring
    return {"preset": preset.id, "name": preset.name, "kind": sc.kind, "reasons": handentry.reasons(sc.kind),
            "levels": [name for name, _, _ in sc.caps], "default_level": sc.default_level}


def hand_result(store: Store, hid: str) -> dict[str, Any] | None:
    """A hand entry for its page: the row (Store.hand_result: the trail of its game, whether it is in
    effect) and its result in words."""
    h = store.hand_result(hid)
    if h is None:
        return None
    rec = h["record"]
    h["text"] = _outcome_text(game_from_record(rec)) if rec else None
    for row in h["trail"]:
        row["text"] = _outcome_text(game_from_record(row["record"])) if row["record"] else None
    return h


def where_it_counts(store: Store, rid: str, rec: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, Any]:
    """Where a signed result counts now (its amendment in effect applied): {"event", "round", "table",
    "players", "aside", "held": why it is held there (None: it counts), "events": the events it may
    move to, "unknown": its event is none of them (a clock's event setting wrong: a phantom event),
    "signed_at": where the clock sent it}."""
    why = None
    if not current.get(amendments.ASIDE) and current.get("event") is not None:
        why = next((counting.WHY[w] for v, w in store.held(event=current["event"], round=current.get("round"))
                    if v[counting.I_ID] == rid), None)
    targets = move_targets(store)
    return {"event": current.get("event"), "round": current.get("round"), "table": current.get("table"),
            "players": {s: current.get(f"players.{s}") for s in ("left", "right")},
            "aside": bool(current.get(amendments.ASIDE)), "held": why, "events": targets,
            "unknown": current.get("event") not in targets,
            "signed_at": {k: rec.get(k) for k in ("event", "round", "table")}}


def move_targets(store: Store) -> list[str]:
    """The events a result may be moved to: those with tables (the PC pairs them, or pairings were loaded)."""
    return sorted(set(store.events()) | {p["event"] for p in store.pairings() if p["event"] is not None})


def uploads(store: Store) -> dict[str, Any]:
    """The results to look at, for the desk's page (issue 26): `decide` a clock's result held under a
    hand entry (both shown), `held` the other held results (why), `unknown` results of events the PC
    neither pairs nor has pairings for (a clock's event setting wrong: its phantom event), `aside` the
    results set aside, `conflicts` (same id, other content), `refused` (newest first) and the events
    `deleted`. Each with the clock (serial) and where it came from."""
    hands = {counting.slot(h["summary"]): h for h in store.hand_results()}
    decide, held = [], []
    for values, why in store.held():
        g = game_from_summary(values)
        stored = store.result(g.id)
        row = {"id": g.id, "game": g, "text": _outcome_text(g), "why": counting.WHY[why], "kind": why,
               "serial": stored["serial"] if stored else None, "source": stored["source"] if stored else None,
               "received_at": stored["received_at"] if stored else None}
        if why == counting.HAND:
            h = hands.get(counting.slot(values))
            row["hand"] = h
            row["hand_text"] = _outcome_text(game_from_summary(h["summary"])) if h else None
            decide.append(row)
        else:
            held.append(row)
    paired = set(move_targets(store))
    unknown = []
    for name in store.result_events():
        if name in paired:
            continue
        for values in store.summaries(event=name):
            g = game_from_summary(values)
            stored = store.result(g.id)
            unknown.append({"id": g.id, "event": name, "round": g.round, "table": g.table, "text": _outcome_text(g),
                            "serial": stored["serial"] if stored else None,
                            "source": stored["source"] if stored else None,
                            "received_at": stored["received_at"] if stored else None})
    aside = []
    for values, entry in store.set_aside():
        g = game_from_summary(values)
        stored = store.result(g.id)
        aside.append({"id": g.id, "game": g, "text": _outcome_text(g), "entry": entry,
                      "serial": stored["serial"] if stored else None})
    refused = list(reversed(store.refusals()))
    return {"decide": decide, "held": held, "unknown": unknown, "aside": aside, "conflicts": store.conflicts(),
            "refused": [{**r, "meaning": REFUSALS.get(r["reason"])} for r in refused[:REFUSALS_SHOWN]],
            "refused_more": max(0, len(refused) - REFUSALS_SHOWN),
            "deleted": store.deleted_events()}


REFUSALS_SHOWN = 200   # the newest refusals the page lists (receive's log and the store keep every one)
# what each refusal the receiver keeps means (dock/pcside.py's `nak`, commands_import.py's `Refused`), said on the
# results-to-look-at page in its reader's language; the stored detail is the receiver's log line, in English
REFUSALS = {
    "bad-signature": "the signature does not match the result: not signed by this clock, or changed on the way",
    "unenrolled": "the clock is not enrolled on this PC (no key for it): enroll it on the clocks page",
    "revoked": "signed with a key of the clock revoked here (it was enrolled again since)",
    "wrong-clock": "a result of another clock than the one that sent it",
    "bad-record": "not a result record the PC can read",
    "bad-id": "the result's id is not the record's",
    "bad-json": "an imported line that is not a JSON object",
    "bad-line": "an imported line missing what a result needs",
    "bad-hand": "an imported hand entry the PC cannot read",
    "hand-conflict": "an imported hand entry that conflicts with one on this PC",
    "storage": "the PC could not store it (its database)",
}
