"""The organiser's pages for a bad day's results (issue 26, `web.admin`): a table's page and its hand
entry (a dead clock's game: organiser/handentry.py, Store.put_hand_result), a hand entry's page and its
withdrawal, a wrong upload moved to its real event, round and table or set aside (an amendment:
organiser/amendments.py, the signed record untouched), a clock's result held under a hand entry
decided, an event without real games deleted, and the results to look at (held, set aside,
conflicting, refused). Every change names who (`web.who`), when and why, and is refused in one line
when it cannot be done (400: what was entered; 409: the store has something else there now)."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from gameclock.organiser import amendments, counting, handentry
from gameclock.organiser.desk import charts, views
from gameclock.organiser.desk.admin import _result_page, admin_result
from gameclock.organiser.desk.web import (
    MAX_REASON,
    admin,
    back,
    desk_of,
    organiser,
    part,
    read_form,
    render,
    the_event,
    who,
)
from gameclock.organiser.said import words
from gameclock.organiser.store import HAND_PREFIX, StoreError

SIDES = ("left", "right")
OUTCOMES = ("left", "right", "draw")


def _reason(form: dict[str, str], what: str = "This") -> str:
    reason = " ".join(form.get("reason", "").split())
    if not reason:
        raise ValueError(f"{what} needs a reason.")   # a fixed sentence per `what` (desk/i18n.py)
    if len(reason) > MAX_REASON or any(ord(c) < 32 for c in reason):
        raise ValueError(words("the reason is at most {n} characters of text", n=MAX_REASON))
    return reason


def _number(text: str, what: str, top: int = 999) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= top):
        raise ValueError(words("{what}: a whole number from 1", what=words(what)))
    return int(text)


# ------------------------------------------------------------------------------------------ a table
def _table_of(request: Request) -> tuple[str, int, int, dict[str, Any]]:
    event = the_event(request)
    rnd, table = request.path_params["n"], request.path_params["t"]
    data = views.table_page(desk_of(request).store, event, rnd, table)
    if data is None:
        raise HTTPException(404)
    return event, rnd, table, data


@admin
async def table_page(request: Request) -> Response:
    """A table of a round: its games as published, what counts there (a clock's result, a hand entry),
    what waits for the organiser, the hand entries' trail, and the hand entry form."""
    event, rnd, table, data = _table_of(request)
    return _table_response(request, event, data, {})


def _table_response(request: Request, event: str, data: dict[str, Any], form: dict[str, str],
                    error: object = None, status: int = 200) -> Response:
    game = form.get("game") or request.query_params.get("game") or ""
    games = data["games"]
    chosen = next((g for g in games if str(g["game"]) == game), None) or next(
        (g for g in games if not g["results"]), games[0])
    return render(request, "admin_table.html", {"data": data, "g": chosen, "form": form, "error": error,
                                                "outcomes": OUTCOMES, "max_reason": MAX_REASON}, event=event,
                  status=status)


def entered_of(kind: str, form: dict[str, str], alone: bool) -> handentry.Entered:
    """What the form entered, by the game's scoring kind (ValueError for a value that is not one)."""
    sides = ("left",) if alone else SIDES
    absent = form.get("absent", "").strip() or None
    if absent is not None and absent not in SIDES:
        raise ValueError("a forfeit names the side that did not come: left or right")
    scores = {s: handentry.parse_score(form.get(f"score_{s}", ""), f"score {s}") for s in sides}
    overtime = {s: handentry.parse_clock_time(form.get(f"overtime_{s}", ""), f"overtime {s}") or 0 for s in sides}
    time_left = {s: handentry.parse_clock_time(form.get(f"timeleft_{s}", ""), f"time left {s}") for s in sides}
    correct: dict[str, bool | None] = {}
    for s in sides:
        v = form.get(f"correct_{s}", "")
        if v not in ("", "yes", "no"):
            raise ValueError(words("correct {side}: yes or no", side=words(s)))
        correct[s] = None if v == "" else v == "yes"
    outcome = form.get("outcome", "").strip() or None
    if outcome is not None and outcome not in OUTCOMES:
        raise ValueError("the outcome is left, right or draw")
    reason = form.get("result_reason", "").strip() or None
    material = {s: (form.get(f"material_{s}", "").strip() or None) for s in sides}
    drawloss = form.get("drawloss", "").strip() or None
    if drawloss is not None and drawloss not in SIDES:
        raise ValueError("the draw is given by left or right")
    return handentry.Entered(scores=scores, overtime_ms=overtime, time_left_ms=time_left, correct=correct,
                             material=material, outcome=outcome, reason=reason,
                             drawloss=drawloss if kind == "makhos" and outcome == "draw" else None,
                             level=form.get("level", "").strip() or None, absent=absent)


def _hand(store: Any, event: str, rnd: int, table: int, data: dict[str, Any], form: dict[str, str],
          by: str) -> str:
    """Store the form's hand entry; returns its id. ValueError (the form), StoreError (the store now)."""
    from gameclock.rules.loader import RuleError, find_preset

    g = next((x for x in data["games"] if str(x["game"]) == form.get("game", str(data["games"][0]["game"]))), None)
    if g is None:
        raise ValueError("no such game at this table")
    preset_id = g["preset"] or form.get("preset", "").strip()
    if not preset_id:
        raise ValueError("the table has no preset: choose the one its game was played by")
    try:
        preset = find_preset(preset_id)
    except RuleError as exc:
        raise ValueError(words("preset {preset}: {error}", preset=preset_id, error=str(exc))) from None
    reason = _reason(form, "A hand entry")
    seat = handentry.Seat(event, rnd, table, {"left": g["left"], "right": g["right"]}, g["game"], g["stage"])
    entered = entered_of(preset.scoring.kind, form, g["right"] is None)
    rec = handentry.hand_record(preset, seat, entered)
    replaces = form.get("replaces", "").strip() or None
    return str(store.put_hand_result(rec, reason, by, replaces=replaces))


@admin
async def table_hand(request: Request) -> Response:
    """The hand entry of a table's game (organiser/handentry.py): scored as the clock scores the same
    entry, kept as the organiser's record with who, when and why (Store.put_hand_result)."""
    event, rnd, table, data = _table_of(request)
    form = await read_form(request)
    store = desk_of(request).store
    try:
        await run_in_threadpool(_hand, store, event, rnd, table, data, form, who(request))
    except ValueError as exc:
        return _table_response(request, event, data, form, exc, status=400)
    except StoreError as exc:
        data = views.table_page(store, event, rnd, table) or data
        return _table_response(request, event, data, form, exc, status=409)
    return back(request, f"/admin/e/{quote(event)}/round/{rnd}", "success",
                words("round {round} table {table}: the hand entry is saved", round=rnd, table=table))


# ------------------------------------------------------------------------------------------ a hand entry
async def result_page(request: Request) -> Response:
    """`/admin/results/ID`: a clock's result (admin.admin_result), or an organiser's hand entry (`hand:N`:
    its own page)."""
    rid = part(request, "rid")
    if rid.startswith(HAND_PREFIX):
        return await _hand_page(request)
    return await admin_result(request)


@admin
async def _hand_page(request: Request) -> Response:
    return hand_page(request, part(request, "rid"))


def hand_page(request: Request, hid: str, error: object = None, status: int = 200) -> Response:
    data = views.hand_result(desk_of(request).store, hid)
    if data is None:
        raise HTTPException(404)
    return render(request, "admin_hand.html", {"h": data, "error": error, "max_reason": MAX_REASON,
                                               "seconds": charts.seconds}, event=data["event"], status=status)


@admin
async def hand_withdraw(request: Request) -> Response:
    """Withdraw a hand entry (entered at the wrong table, or the clock's result is taken): a new row of
    its game's trail with the reason, never a deletion."""
    hid = part(request, "rid")
    store = desk_of(request).store
    form = await read_form(request)
    h = store.hand_result(hid)
    if h is None:
        raise HTTPException(404)
    try:
        store.withdraw_hand_result(hid, _reason(form, "A withdrawal"), who(request))
    except (ValueError, StoreError) as exc:
        return hand_page(request, hid, exc, status=400)
    return back(request, f"/admin/e/{quote(h['event'])}/round/{h['round']}/table/{h['table']}", "success",
                words("the hand entry {id} is withdrawn", id=hid))


# ------------------------------------------------------------------------------------------ wrong uploads
def _signed(request: Request) -> tuple[str, dict[str, Any]]:
    rid = part(request, "rid")
    if rid.startswith(HAND_PREFIX):
        raise HTTPException(404)
    data = views.result(desk_of(request).store, rid)
    if data is None:
        raise HTTPException(404)
    return rid, data


def _result_error(request: Request, data: dict[str, Any], error: object, status: int) -> Response:
    return _result_page(request, data, error, status=status)


@admin
async def result_move(request: Request) -> Response:
    """Move a signed result to the event, round and table it was really played at (a clock set to the
    wrong event or table), with that table's players as published (`swap`: they sat the other way
    round): an amendment on top of the one in effect, with the reason; refused when that game has a
    result already, or the round has no such table."""
    rid, data = await _signed_request(request)
    form = data.pop("_form")
    store = desk_of(request).store
    try:
        event = form.get("event", "").strip()
        if event not in views.move_targets(store):
            raise ValueError(words("no event {event} here", event=event[:40]))
        rnd, table = _number(form.get("round", ""), "round", 99), _number(form.get("table", ""), "table")
        game = data["record"].get("game") or 1
        seat = next((g for g in views.seats(store, event, rnd, table) if g["game"] == game), None)
        if seat is None:
            raise ValueError(words("round {round} of {event} has no table {table}", round=rnd, event=event, table=table)
                             if game == 1 else words("round {round} of {event} has no table {table} game {game}",
                                                     round=rnd, event=event, table=table, game=game))
        left, right = seat["left"], seat["right"]
        if form.get("swap"):
            left, right = right, left
        reason = _reason(form, "A move")
        changes = amendments.on_top(data["amended"], {"event": event, "round": rnd, "table": table,
                                                      "players.left": left, "players.right": right},
                                    unset=(amendments.ASIDE,))
        if not amendments.changed(data["current"], amendments.effective(data["record"], [
                {"n": 0, "at": "", "by": "", "reason": "", "changes": changes}])):
            raise ValueError("The result counts there already.")
        store.add_amendment(rid, changes, reason, who(request))
    except ValueError as exc:
        return _result_error(request, data, exc, 400)
    except StoreError as exc:
        return _result_error(request, data, exc, 409)
    return back(request, f"/admin/results/{quote(rid)}", "success",
                words("{result} now counts at round {round} table {table} of {event}", result=rid, round=rnd,
                      table=table, event=event))


async def _signed_request(request: Request) -> tuple[str, dict[str, Any]]:
    rid, data = _signed(request)
    data["_form"] = await read_form(request)
    return rid, data


@admin
async def result_aside(request: Request) -> Response:
    """Set a signed result aside: it counts nowhere (a test game, a duplicate); put back by withdrawing
    that amendment."""
    rid, data = await _signed_request(request)
    form = data.pop("_form")
    try:
        if data["current"].get(amendments.ASIDE):
            raise ValueError("The result is set aside already.")
        changes = amendments.on_top(data["amended"], {amendments.ASIDE: True})
        desk_of(request).store.add_amendment(rid, changes, _reason(form, "Setting a result aside"), who(request))
    except ValueError as exc:
        return _result_error(request, data, exc, 400)
    except StoreError as exc:
        return _result_error(request, data, exc, 409)
    return back(request, f"/admin/results/{quote(rid)}", "success",
                words("{result} is set aside: it counts nowhere", result=rid))


@admin
async def result_decide(request: Request) -> Response:
    """A clock's result arrived for a game entered by hand (held, organiser/counting.py HAND): `keep`
    hand -- the clock's result is set aside --, or clock -- the hand entry is withdrawn and the
    clock's counts. Either with the reason, each an entry of its own trail."""
    rid, data = await _signed_request(request)
    form = data.pop("_form")
    store = desk_of(request).store
    try:
        keep = form.get("keep", "")
        if keep not in ("hand", "clock"):
            raise ValueError("keep the hand entry or the clock's result")
        current = data["current"]
        at = (current.get("event"), current.get("round"), current.get("table"), data["record"].get("game") or 1)
        hand = next((h for h in store.hand_results(at[0], at[1]) if counting.slot(h["summary"]) == at), None)
        if hand is None or current.get(amendments.ASIDE):
            raise ValueError("No hand entry counts for this result's game: nothing to decide.")
        reason = _reason(form, "A decision")
        if keep == "hand":
            store.add_amendment(rid, amendments.on_top(data["amended"], {amendments.ASIDE: True}), reason, who(request))
        else:
            store.withdraw_hand_result(hand["id"], reason, who(request))
    except ValueError as exc:
        return _result_error(request, data, exc, 400)
    except StoreError as exc:
        return _result_error(request, data, exc, 409)
    return back(request, "/admin/uploads", "success",
                words("{result}: the hand entry is kept", result=rid) if keep == "hand"
                else words("{result}: the clock's result counts", result=rid))


@admin
async def uploads_page(request: Request) -> Response:
    """The results to look at (views.uploads), with the clock that sent each."""
    data = await run_in_threadpool(views.uploads, desk_of(request).store)
    return render(request, "admin_uploads.html", {"u": data, "max_reason": MAX_REASON})


@organiser
async def event_delete(request: Request) -> Response:
    """Delete an event that has no real games (Store.delete_event: kept whole, with who and why);
    refused, saying why, while a result counts or is held in it."""
    event = the_event(request)
    form = await read_form(request)
    try:
        desk_of(request).store.delete_event(event, _reason(form, "Deleting an event"), who(request))
    except ValueError as exc:
        return render(request, "message.html", {"error": exc}, event=event, status=400)
    except StoreError as exc:
        return render(request, "message.html", {"error": exc}, event=event, status=409)
    return back(request, "/admin", "success", words("{event} is deleted (kept in the deleted events)", event=event))
