"""The organiser's amendments of results (issue 17): "an organiser's amendment needs a reason and is
kept beside the signed original, never replacing it". The store keeps them in its `amendments`
table (docs/receiver-db.md), an audit trail that only grows; the signed record never changes. What
the standings, the exports and the desk read is the result with the amendment in effect applied to
its summary, in one place: the store hands summaries out that way (`Store.summaries`,
`Store.latest_results` call `apply`), so every reader counts the same result.

An entry of the trail is one of

- an amendment: `changes` {PATH: value}, PATHs of the summary (organiser/summary.py) among FIELDS:
  what the result should be, whole (`changes_for` writes it: the organiser's outcome and final
  scores, and what follows from them by the rules: XW-6 / MR-9 / MH-7 game points, XW-8 spread);
- a withdrawal: `changes` {"withdraws": N}: amendment N no longer counts (`withdrawal`).

The amendment in effect is the latest amendment not withdrawn (`in_effect`): withdrawing the one in
effect restores what was in effect before it, the signed record when there was none.

Where a result counts is part of it (issue 26, a wrong upload): an amendment may also set PLACE --
the event, round and table the result was really played at, and that table's players (a clock set
to the wrong event or table recorded the wrong ones, or none) -- or `aside` (True: the result counts
nowhere, a test game, a clock's result the organiser's hand entry was kept over). Since an amendment
is the whole result as it counts, a new one is written on top of the one in effect (`on_top`): a
score amendment of a moved result keeps it where it was moved, a move keeps the amended scores.
Putting a result back is withdrawing the amendment that moved it or set it aside.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameclock.core.scoring import capped_spread, game_points
from gameclock.organiser import summary

# the summary paths an amendment may set, and where each is in a summary
# where the result counts (issue 26): the paths a move sets, the summary's own
PLACE: tuple[str, ...] = ("event", "round", "table", "players.left", "players.right")
FIELDS: tuple[str, ...] = ("outcome", "draw_counts_as_loss_for", "scores.final", "scores.spread",
                           "scores.game_points") + PLACE
INDEX = {p: summary.PATHS.index(p) for p in FIELDS}
ASIDE = "aside"                      # True: the result counts nowhere (not a summary path)
AUDITED: tuple[str, ...] = FIELDS + (ASIDE,)   # what the trail shows changing, in this order
WITHDRAWS = "withdraws"
OUTCOMES = ("left", "right", "draw")
SIDES = ("left", "right")
# a summary handed out with an amendment applied has one more value after the PATHS' values: `mark`
MARK = len(summary.PATHS)


def is_withdrawal(changes: Mapping[str, Any]) -> bool:
    return WITHDRAWS in changes


def check(changes: Mapping[str, Any]) -> None:
    """ValueError unless `changes` is an amendment (FIELDS only, something set) or a withdrawal."""
    if not changes:
        raise ValueError("an amendment changes something")
    if is_withdrawal(changes):
        n = changes[WITHDRAWS]
        if len(changes) != 1 or not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"a withdrawal names one amendment by its number, got {dict(changes)!r:.80}")
        return
    other = sorted(set(changes) - set(AUDITED))
    if other:
        raise ValueError(f"an amendment sets {', '.join(AUDITED)}; not {', '.join(other)}")
    outcome = changes.get("outcome")
    if outcome is not None and outcome not in OUTCOMES:
        raise ValueError(f"the outcome is left, right or draw, not {outcome!r:.20}")
    if ASIDE in changes and changes[ASIDE] is not True:
        raise ValueError("a result is set aside with aside: true (put back: withdraw that amendment)")
    if "event" in changes and not (isinstance(changes["event"], str) and changes["event"].strip()):
        raise ValueError("a result moves to an event named by a word")
    for key in ("round", "table"):
        v = changes.get(key, 1)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise ValueError(f"a result moves to a {key} from 1, not {v!r:.20}")
    for key in ("players.left", "players.right"):
        if key in changes and not isinstance(changes[key], str):
            raise ValueError(f"a moved result's {key} is a name")
    if any(p in changes for p in PLACE) and not all(p in changes for p in PLACE):
        # a move says where, whole: the table and the players seated there (never a name changed alone)
        raise ValueError(f"a move sets {', '.join(PLACE)} together")


def withdrawal(n: int) -> dict[str, int]:
    """The changes of an entry withdrawing amendment `n`."""
    return {WITHDRAWS: n}


def in_effect(entries: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The amendment in effect among a result's entries (oldest first, `Store.amendments`): the latest
    amendment no later entry withdraws; None when there is none (the signed result stands)."""
    withdrawn = {e["changes"][WITHDRAWS] for e in entries if is_withdrawal(e["changes"])}
    for e in reversed(entries):
        if not is_withdrawal(e["changes"]) and e["n"] not in withdrawn:
            return e
    return None


def places(changes: Mapping[str, Any]) -> bool:
    """Whether an amendment's changes say where the result counts: moved (PLACE) or set aside."""
    return ASIDE in changes or any(p in changes for p in PLACE)


def is_aside(entry: Mapping[str, Any] | None) -> bool:
    """Whether the amendment in effect `entry` sets its result aside."""
    return entry is not None and entry["changes"].get(ASIDE) is True


def on_top(entry: Mapping[str, Any] | None, changes: Mapping[str, Any], unset: tuple[str, ...] = ()) -> dict[str, Any]:
    """A new amendment's whole changes: `changes` over those of the amendment in effect (`entry`, None:
    the signed record stands), less the keys `unset` (a move takes a result out of the aside)."""
    base = {} if entry is None else {k: v for k, v in entry["changes"].items() if k != WITHDRAWS}
    out = {**base, **changes}
    for key in unset:
        out.pop(key, None)
    return out


def mark(entry: Mapping[str, Any]) -> dict[str, Any]:
    """What a reader learns of the amendment in effect: its number, when, who, why."""
    return {"n": entry["n"], "at": entry["at"], "by": entry["by"], "reason": entry["reason"]}


def apply(values: Sequence[Any], entry: Mapping[str, Any] | None) -> list[Any]:
    """A result's summary as the standings and exports read it: `values` (the signed record's summary)
    with the amendment `entry`'s changes set, and its `mark` appended (at MARK); `values` as they are
    when `entry` is None. A `scores.final` side given as null keeps the record's (amendments written
    before `changes_for` named only the side that changed)."""
    out = list(values[:MARK])
    if entry is None:
        return out
    for path, value in entry["changes"].items():
        i = INDEX.get(path)
        if i is None:
            continue
        if path == "scores.final" and isinstance(value, Mapping) and isinstance(out[i], Mapping):
            value = {s: out[i].get(s) if value.get(s) is None else value.get(s) for s in SIDES}
        out[i] = value
    out.append(mark(entry))
    return out


def effective(record: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The AUDITED fields of `record` as they count with `entries` (a prefix of the trail, say): {path:
    value}; `aside` True or False."""
    entry = in_effect(entries)
    values = apply(summary.summary_of(record), entry)
    return {**{p: values[INDEX[p]] for p in FIELDS}, ASIDE: is_aside(entry)}


def changes_for(record: Mapping[str, Any], outcome: str | None, final: Mapping[str, int | None] | None,
                win_draw_loss: tuple[int, int, int], cap: int | None) -> dict[str, Any]:
    """The amendment that makes `record`'s result `outcome` ("left", "right", "draw"; None for a
    Sudoku record, whose two competitors are not opponents) with the final scores `final` ({"left",
    "right"}; None for a kind without scores), whole:

    - `outcome`; MH-8's `draw_counts_as_loss_for` cleared when the record had one (the organiser's
      outcome is the outcome);
    - `scores.final`;
    - XW-8 (crossword kind): `scores.spread`, own final minus the other's, the winner's cut down to
      `cap` (the record's `scores.cap`, else the preset's for its level and stage; None: no cap),
      the loser's its negative;
    - XW-6, MR-9, MH-7: `scores.game_points` from `outcome` by the preset's win / draw / loss.

    ValueError for an outcome or scores the record's kind cannot have."""
    kind = record.get("kind")
    out: dict[str, Any] = {}
    if kind == "sudoku":
        if outcome is not None:
            raise ValueError("a Sudoku result has no winner (SU-4 ranks the competitors' points)")
    else:
        if outcome not in OUTCOMES:
            raise ValueError("the outcome is left, right or draw")
        out["outcome"] = outcome
        if record.get("draw_counts_as_loss_for") is not None:
            out["draw_counts_as_loss_for"] = None
        win, draw, loss = win_draw_loss
        out["scores.game_points"] = {s: game_points(outcome, s, win, draw, loss) for s in SIDES}
    if final is not None:
        if any(not isinstance(final.get(s), int) or isinstance(final.get(s), bool) for s in SIDES):
            raise ValueError("both final scores are whole numbers")
        if kind in ("makruk", "makhos"):
            raise ValueError(f"a {kind} result has no scores")
        left, right = int(final["left"] or 0), int(final["right"] or 0)
        out["scores.final"] = {"left": left, "right": right}
        if kind == "crossword":
            out["scores.spread"] = {"left": capped_spread(left, right, cap), "right": capped_spread(right, left, cap)}
    elif kind in ("crossword", "sudoku"):
        raise ValueError("both final scores are needed")
    return out


def for_record(record: Mapping[str, Any], outcome: str | None,
               final: Mapping[str, int | None] | None) -> dict[str, Any]:
    """`changes_for` with the rules of the record's preset (this PC's rules folder, as the standings
    read it): its win / draw / loss game points, and the XW-8 cap the record's `scores.cap` names (the
    preset's for the record's level and stage when the record has none). ValueError when the preset
    cannot be read."""
    from gameclock.rules.loader import RuleError, find_preset

    pid = (record.get("preset") or {}).get("id") or ""
    try:
        scoring = find_preset(pid).scoring
    except RuleError as exc:
        raise ValueError(f"preset {pid!r} of the result: {exc}") from None
    scores = record.get("scores") or {}
    if "cap" in scores:
        cap = scores["cap"]
    elif record.get("kind") == "crossword":
        cap = scoring.cap(record.get("level"), record.get("stage") or "qualifying")
    else:
        cap = None
    return changes_for(record, outcome, final, (scoring.win_points, scoring.draw_points, scoring.loss_points), cap)


def changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """(path, from, to) for each of AUDITED whose value differs, in AUDITED order."""
    return [(p, before.get(p), after.get(p)) for p in AUDITED if before.get(p) != after.get(p)]
