"""The organiser's event set-up from the web: a new event with its player list (/admin/events/new),
the options of its pairing system (/admin/e/{event}/options: a field per option the system declares,
organiser/pairing/options.py), fixes to a round's draft (/admin/e/{event}/fix: swap two tables,
exchange two players, set a table), and the players during the event (issue 26:
/admin/e/{event}/players/{pid} edits one, withdraws or reinstates them; /admin/e/{event}/players/new a
late entry), each through `organiser/event.py`'s own functions, as `gameclock event create`, `gameclock
event set`, `gameclock event player|late` and `gameclock pair --swap/--exchange/--set-table` call them.
A list is read by event.py's strict reader (`read_players`): the same one-line errors naming the line.
A refused form stores nothing (`create_event` writes the event and its players in one transaction).

A form acting on the draft carries the draft's version the page showed (`version`): a draft changed
since (another tab, another arbiter) is refused, nothing done, with what changed (`draft_changed`, 409).

The list comes as a file upload (multipart/form-data: at most MAX_LIST_BODY bytes, read here, 413
otherwise; then parsed by Starlette's parser over python-multipart, at most one file and MAX_PARTS
fields, 400 otherwise) or pasted into the form's text box (url-encoded, the same bound). Either way
the CSRF token is checked (403).
"""
from __future__ import annotations

import re
from collections.abc import AsyncGenerator
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request
from starlette.responses import Response

from gameclock.dock.pairing import LEVELS, MAX_ROUND, MAX_TABLE
from gameclock.organiser import event as events
from gameclock.organiser.desk import auth, i18n
from gameclock.organiser.desk.web import (
    MAX_FIELDS,
    MAX_REASON,
    back,
    desk_of,
    lang_of_page,
    organiser,
    part,
    read_body,
    read_form,
    render,
    the_event,
    who,
)
from gameclock.organiser.said import Words, words
from gameclock.organiser.store import StoreError
from gameclock.organiser.textfile import UTF8

# a list of MAX_FILE_BYTES pasted: Thai text is 3 bytes a letter in UTF-8 and 9 once url-encoded
MAX_LIST_BODY = 3 * events.MAX_FILE_BYTES
MAX_PARTS = 20
MAX_FIELD = 200     # characters of any field but the list and the options
MAX_OPTIONS = 40_000  # characters of the options (a long order: 2000 ids of up to 16 characters)
FORMATS = ("csv", "tsh")


# ------------------------------------------------------------------------------------------ forms
async def parse_multipart(request: Request, body: bytes) -> tuple[dict[str, str], dict[str, tuple[str, bytes]]]:
    """A multipart/form-data body (already read, bounded) as (fields: the first value of each, files:
    name -> (filename, bytes)), parsed by Starlette's MultiPartParser (python-multipart). HTTPException
    400 for a malformed form, more than one file or more than MAX_PARTS fields."""
    if not re.search(r";\s*boundary=", request.headers.get("content-type", ""), re.I):
        raise HTTPException(400, "a multipart form without its boundary")

    async def chunks() -> AsyncGenerator[bytes, None]:
        yield body

    parser = MultiPartParser(request.headers, chunks(), max_files=1, max_fields=MAX_PARTS,
                             max_part_size=MAX_LIST_BODY)
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise HTTPException(400, f"not a form: {exc.message}") from None
    fields: dict[str, str] = {}
    files: dict[str, tuple[str, bytes]] = {}
    try:
        for name, value in form.multi_items():
            if isinstance(value, str):
                fields.setdefault(name, value)
            elif name not in files:
                files[name] = (value.filename or "", await value.read())
    finally:
        await form.close()
    return fields, files


async def read_list_form(request: Request) -> tuple[dict[str, str], tuple[str, bytes] | None]:
    """The new-event form (fields, the uploaded list as (filename, bytes) or None), bounded, CSRF-checked:
    multipart/form-data (a file upload) or url-encoded (the list pasted). 413, 415, 400, 403."""
    ctype = request.headers.get("content-type", "")
    if ctype.split(";")[0].strip().lower() != "multipart/form-data":
        return await read_form(request, limit=MAX_LIST_BODY), None
    body = await read_body(request, MAX_LIST_BODY)
    fields, files = await parse_multipart(request, body)
    if len(fields) > MAX_FIELDS:
        raise HTTPException(400, "too many fields")
    if not auth.same_token(fields.get("csrf"), request.session.get("csrf")):
        raise HTTPException(403, "Refused: the form's token is missing or wrong (reload the page).")
    upload = files.get("file")
    return fields, upload if upload is not None and (upload[0] or upload[1]) else None


# ------------------------------------------------------------------------------------------ a new event
def choices() -> dict[str, Any]:
    """What the new-event form offers: the pairing systems, the presets (id, name), the levels."""
    from gameclock.organiser.pairing import load_systems
    from gameclock.organiser.pairing.options import options_of
    from gameclock.rules.loader import RuleError, load_presets

    try:
        presets = [(p.id, p.name) for p in load_presets()]
    except RuleError:
        presets = []
    systems = sorted(load_systems())
    return {"systems": systems, "presets": presets, "levels": LEVELS, "languages": i18n.LANGUAGES,
            "formats": FORMATS, "max_round": MAX_ROUND, "max_options": MAX_OPTIONS,
            "system_options": {s: options_of(s) or () for s in systems}}


def _rounds(value: str) -> int:
    value = value.strip()
    if not value:
        return 0
    if not re.fullmatch(r"\d{1,3}", value) or int(value) > MAX_ROUND:
        raise events.EventError(words("rounds {value}: a whole number 0 (not said) to {max}", value=repr(value[:10]),
                                      max=MAX_ROUND))
    return int(value)


def create(store: Any, form: dict[str, str], upload: tuple[str, bytes] | None,
           pasted: str = "the pasted list") -> tuple[dict[str, Any], list[Words]]:
    """The event of a form: (the event as created, what to tell the organiser: the players, how the
    list was read, what it ignored). EventError / StoreError say why not. `pasted`: what the errors
    call a pasted list (in the page's language)."""
    for k, v in form.items():
        top = MAX_OPTIONS if k == "options" else MAX_FIELD
        if k != "players" and len(v) > top:
            raise events.EventError(words("{field}: at most {n} characters", field=k[:20], n=top))
    if upload is not None:
        filename, data = upload
        shown = re.sub(r"[^\w.\- ]", "_", filename.replace("\\", "/").rsplit("/", 1)[-1])[:60] or "upload"
        tsh = shown.lower().endswith(".t")
    else:
        data = form.get("players", "").encode("utf-8")
        shown = pasted
        if form.get("format", "csv") not in FORMATS:
            raise events.EventError(words("the list's format is one of {formats}", formats=", ".join(FORMATS)))
        tsh = form.get("format") == "tsh"
    if not data.strip():
        raise events.EventError(words("no player list: choose its file or paste it"))
    players = events.read_players(data, shown, tsh=tsh)
    # the options' words as `gameclock event create --option` takes them, typed by the system's declaration
    options = events.parse_options(form.get("options", "").split(), form.get("system", ""),
                                   events.entrants(players.players))
    ev = events.create_event(store, form.get("name", "").strip(), form.get("system", ""), players,
                             rounds=_rounds(form.get("rounds", "")), options=options,
                             language=form.get("language") or None, preset=form.get("preset") or None,
                             level=form.get("level") or None)
    notes = [words("{list}: read as {encoding} (Thai), not UTF-8", list=shown, encoding=players.encoding)
             ] if players.encoding != UTF8 else []
    notes += [words("{list}: {note}", list=shown, note=note) for note in players.ignored]
    return ev, [words("event {name} created: {n} players, system {system}", name=ev["name"], n=len(players.players),
                      system=ev["system"]), *notes]


def _new_page(request: Request, form: dict[str, str], error: object = None, status: int = 200) -> Response:
    return render(request, "admin_new_event.html", {**choices(), "form": form, "error": error}, status=status)


@organiser
async def new_event(request: Request) -> Response:
    if request.method == "GET":
        return _new_page(request, {"format": "csv"})
    form, upload = await read_list_form(request)
    pasted = i18n.tr("the pasted list", lang_of_page(request, None))
    try:
        ev, said = await run_in_threadpool(create, desk_of(request).store, form, upload, pasted)
    except (events.EventError, StoreError) as exc:
        kept = {k: v for k, v in form.items() if k != "csrf"}
        return _new_page(request, kept, exc, status=400)
    return back(request, f"/admin/e/{quote(ev['name'])}", "success", said[0], said[1:])


# ------------------------------------------------------------------------------------------ the options
def options_view(store: Any, event: str) -> dict[str, Any] | None:
    """The options of an event the PC pairs, for its pages: {"system", "rows" (events.options_in_effect,
    each with its form field's name), "trail" (events.option_changes)}; None for another event."""
    ev = store.event(event)
    if ev is None:
        return None
    rows = [{**r, "field": f"o_{r['name']}"} for r in events.options_in_effect(store, ev)]
    return {"system": ev["system"], "rows": rows, "declared": any(r["option"] is not None for r in rows),
            "trail": events.option_changes(store, event)}


def set_from_form(store: Any, event: str, form: dict[str, str], by: str) -> events.OptionsSet:
    """The options form (a field `o_NAME` per option the system declares: its text as `--option NAME=`
    takes it, empty for not given; a reason) through event.set_option_texts: the same checks and audit
    as `gameclock event set`, recorded as set `by` that person. Only the fields sent are read; a field holding the value in effect changes
    nothing."""
    view = options_view(store, event)
    if view is None or not view["declared"]:
        raise events.EventError(words("{event}: its system declares no options to set here", event=event))
    items = []
    for r in view["rows"]:
        if r["option"] is None or r["field"] not in form:
            continue
        text = form[r["field"]]
        if len(text) > MAX_OPTIONS:
            raise events.EventError(words("option {name}: at most {n} characters", name=r["name"], n=MAX_OPTIONS))
        items.append(f"{r['name']}={text}")
    reason = form.get("reason", "")
    if len(reason) > MAX_REASON:
        raise events.EventError(words("the reason is at most {n} characters of text", n=MAX_REASON))
    return events.set_option_texts(store, event, items, reason, by=by)


def said_changes(event: str, done: events.OptionsSet, system: str, who: Any = None) -> list[Words]:
    """What a change of options did: `order: (not given) » P3,P1; ...`, then the draft to pair again."""
    changes = [words("{option}: {before} » {after}", option=k,
                     before=events.option_text(system, k, b, who) or words(events.NOT_GIVEN),
                     after=events.option_text(system, k, a, who) or words(events.NOT_GIVEN)) for k, b, a in done.changes]
    # the changes in one line: a template of their places (`{c0}; {c1}`), the same in every language
    said = [Words("; ".join(f"{{c{i}}}" for i in range(len(changes))), tuple((f"c{i}", c) for i, c in enumerate(changes)))]
    if done.draft_round is not None:
        said.append(words("the draft of round {round} was drawn before: pair it again", round=done.draft_round))
    return said


def _options_page(request: Request, event: str, fields: dict[str, str] | None = None, error: object = None,
                  status: int = 200) -> Response:
    view = options_view(desk_of(request).store, event)
    if view is None:
        raise HTTPException(404)
    values = {r["field"]: r["text"] for r in view["rows"]}
    values.update({k: v for k, v in (fields or {}).items() if k != "csrf"})
    return render(request, "admin_options.html", {"view": view, "values": values, "error": error,
                                                  "max_options": MAX_OPTIONS, "max_reason": MAX_REASON},
                  event=event, status=status)


@organiser
async def options_page(request: Request) -> Response:
    """GET: the form with the values in effect. POST: set them (set_from_form); refused: the form again
    as typed with the one-line reason (400); done: the event's page saying what changed."""
    event = the_event(request)
    if request.method == "GET":
        return _options_page(request, event)
    form = await read_form(request)
    store = desk_of(request).store
    try:
        done = await run_in_threadpool(set_from_form, store, event, form, who(request))
    except (events.EventError, StoreError) as exc:
        return _options_page(request, event, form, exc, status=400)
    said = said_changes(event, done, events.event_of(store, event)["system"], events.event_entrants(store, event))
    return back(request, f"/admin/e/{quote(event)}", "success", said[0], said[1:])


# ------------------------------------------------------------------------------------------ the draft
def _table(value: str, what: str) -> int:
    value = value.strip()
    if not re.fullmatch(r"\d{1,4}", value) or not 1 <= int(value) <= MAX_TABLE:
        raise events.EventError(words("{what} {value} is not a table 1-{max}", what=words(what), value=repr(value[:10]),
                                      max=MAX_TABLE))
    return int(value)


def version_of(form: dict[str, str]) -> int | None:
    """The draft's version a form's page showed (None: the form has none: no check, as the CLI)."""
    value = form.get("version", "").strip()
    if not value:
        return None
    if not value.isdigit() or len(value) > 12:
        raise HTTPException(400, "the draft's version is a number")
    return int(value)


def fix(store: Any, event: str, form: dict[str, str], by: str = "organiser") -> dict[str, Any]:
    """The organiser's fix of the draft (event.edit): swap tables A and B, exchange players P and Q (one
    step, checked as one), or set TABLE to LEFT v RIGHT; on the version the page showed, as `by`."""
    action = form.get("action")
    version = version_of(form)
    if action == "swap":
        return events.edit(store, event, swaps=[(_table(form.get("a", ""), "table"),
                                                 _table(form.get("b", ""), "table"))], by=by, version=version)
    if action == "exchange":
        p, q = form.get("p", "").strip(), form.get("q", "").strip()
        if not p or not q or len(p) > MAX_FIELD or len(q) > MAX_FIELD:
            raise events.EventError(words("give the two players to exchange (ids or names)"))
        return events.edit(store, event, exchanges=[(p, q)], by=by, version=version)
    if action == "set":
        left, right = form.get("left", "").strip(), form.get("right", "").strip()
        if not left or len(left) > MAX_FIELD or len(right) > MAX_FIELD:
            raise events.EventError(words("give the left player (an id or a name) and the right one (or bye)"))
        return events.edit(store, event, fixes=[(_table(form.get("table", ""), "table"), left, right or "bye")],
                           by=by, version=version)
    raise HTTPException(400, "swap, exchange or set")


def draft_changed(request: Request, event: str, diff: events.DraftDiff) -> Response:
    """The refusal of a form acting on a draft version its page showed that is not the draft now: what
    changed since (each step: what, who, when; each table: as shown » now), nothing done (409)."""
    return render(request, "admin_draft_changed.html", {"diff": diff}, event=event, status=409)


@organiser
async def fix_draft(request: Request) -> Response:
    event = the_event(request)
    form = await read_form(request)
    url = f"/admin/e/{quote(event)}"
    try:
        r = await run_in_threadpool(fix, desk_of(request).store, event, form, who(request))
    except events.DraftChanged as exc:
        return draft_changed(request, event, exc.diff)
    except (events.EventError, StoreError) as exc:
        return back(request, url, "error", exc)
    return back(request, url, "success", words("round {round}: draft changed", round=r["round"]))


# ------------------------------------------------------------------------------------------ players
PLAYER_FORM = ("name", "latin", "campus", "level", "rating")   # the edit form's fields (event.EDITABLE)
LATE_FORM = ("id", *PLAYER_FORM, "team", "board", "group")


def said_players(done: events.PlayerChanged) -> tuple[Words, list[Words]]:
    """What a player change did (the event page's success notice: one line of its changes) and what to
    do next (a notice: the draft drawn before, to pair again)."""
    line = Words("; ".join(f"{{c{i}}}" for i in range(len(done.said))), tuple((f"c{i}", w) for i, w in enumerate(done.said)))
    notes = [] if done.draft_round is None else [
        words("the draft of round {round} was drawn before: pair it again", round=done.draft_round)]
    return line, notes


def _player_row(store: Any, event: str, pid: str) -> dict[str, Any]:
    row = next((p for p in store.event_players(event) if p["id"] == pid), None) if store.event(event) else None
    if row is None:
        raise HTTPException(404)
    return row


def _player_page(request: Request, event: str, row: dict[str, Any], fields: dict[str, str] | None = None,
                 error: object = None, status: int = 200) -> Response:
    store = desk_of(request).store
    values = {k: str(row[k]) if k != "rating" else str(row[k] or "") for k in PLAYER_FORM}
    values.update({k: v for k, v in (fields or {}).items() if k in (*PLAYER_FORM, "reason")})
    trail = [e for e in events.player_changes(store, event) if e["player"] == row["id"]]
    return render(request, "admin_player.html", {
        "p": row, "values": values, "error": error, "levels": LEVELS, "trail": trail, "max_reason": MAX_REASON,
        "gone": events.withdrawn_words(row["withdrawn_after"]) if row["withdrawn"] else None,
        "published": len(events.published_rounds(store, event))}, event=event, status=status)


def _checked_form(form: dict[str, str], keys: tuple[str, ...]) -> None:
    for k in (*keys, "reason"):
        if len(form.get(k, "")) > (MAX_REASON if k == "reason" else MAX_FIELD):
            raise events.EventError(words("{field}: at most {n} characters", field=k,
                                          n=MAX_REASON if k == "reason" else MAX_FIELD))


@organiser
async def player_page(request: Request) -> Response:
    """GET: a player of the event (their fields, whether they withdrew, their changes) with the edit form
    and Withdraw / Reinstate. POST: the edit (event.edit_player: the fields sent, only what differs
    changes; a name kept matching the clocks' results), as the person logged in; refused: the form again
    as typed with the one-line reason (400); done: the event's page saying what changed."""
    event = the_event(request)
    store = desk_of(request).store
    row = _player_row(store, event, part(request, "pid"))
    if request.method == "GET":
        return _player_page(request, event, row)
    form = await read_form(request)
    try:
        _checked_form(form, PLAYER_FORM)
        changes = {k: form[k] for k in PLAYER_FORM if k in form}
        done = await run_in_threadpool(events.edit_player, store, event, row["id"], changes, form.get("reason", ""),
                                       who(request))
    except (events.EventError, StoreError) as exc:
        return _player_page(request, event, row, form, exc, status=400)
    said, notes = said_players(done)
    return back(request, f"/admin/e/{quote(event)}", "success", said, notes)


async def _withdrawal(request: Request, step: Any) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    row = _player_row(store, event, part(request, "pid"))
    form = await read_form(request)
    try:
        _checked_form(form, ())
        done = await run_in_threadpool(step, store, event, row["id"], form.get("reason", ""), who(request))
    except (events.EventError, StoreError) as exc:
        return _player_page(request, event, row, form, exc, status=400)
    said, notes = said_players(done)
    return back(request, f"/admin/e/{quote(event)}", "success", said, notes)


@organiser
async def player_withdraw(request: Request) -> Response:
    """Withdraw the player (event.withdraw): not paired from the next round, past games kept, audited."""
    return await _withdrawal(request, events.withdraw)


@organiser
async def player_reinstate(request: Request) -> Response:
    """Undo a withdrawal before the next round is published (event.reinstate), audited."""
    return await _withdrawal(request, events.reinstate)


def _late_page(request: Request, event: str, fields: dict[str, str] | None = None, error: object = None,
               status: int = 200) -> Response:
    store = desk_of(request).store
    published = len(events.published_rounds(store, event))
    return render(request, "admin_late.html", {
        "values": {k: v for k, v in (fields or {}).items() if k != "csrf"}, "error": error, "levels": LEVELS,
        "refusal": events.late_entry_refusal(store, event), "joins": published + 1, "published": published,
        "max_reason": MAX_REASON}, event=event, status=status)


@organiser
async def late_entry(request: Request) -> Response:
    """GET: the late-entry form, with the round the player joins and what the rounds missed give (or why
    the event takes no late entry). POST: event.enter_late, as the person logged in; refused: the form
    again with the reason (400)."""
    event = the_event(request)
    store = desk_of(request).store
    if store.event(event) is None:
        raise HTTPException(404)
    if request.method == "GET":
        return _late_page(request, event)
    form = await read_form(request)
    try:
        _checked_form(form, LATE_FORM)
        player = events.player_from_texts({k: form.get(k, "") for k in LATE_FORM}, f"{event}: ")
        done = await run_in_threadpool(events.enter_late, store, event, player, form.get("reason", ""), who(request))
    except (events.EventError, StoreError) as exc:
        return _late_page(request, event, form, exc, status=400)
    said, notes = said_players(done)
    return back(request, f"/admin/e/{quote(event)}", "success", said, notes)
