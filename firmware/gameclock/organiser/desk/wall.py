"""The hall's wall (issue 28): what the projector shows besides the rotation's tables -- its head (the
round, the time of day, the round clock once the organiser pressed "Start round", the announcements
the organiser typed) and the standings and pairings with each player's school -- and the organiser's
forms for them on the admin round page.

The head is rendered for each request (two small queries; a projector or two, not a hall of phones):
it carries the desk's time, so the projector's clock counts from the desk's, not its own PC's. The
standings and pairings with schools are shared per store stamp like every public fragment (hall.py).
The projector hears of a change through the live stream (`wall`: Store.live_stamp's wall trail).
"""
from __future__ import annotations

import time
from datetime import datetime
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from gameclock.organiser.desk import views
from gameclock.organiser.desk.hall import Fragment
from gameclock.organiser.desk.public import public_event, shared_response, shared_standings
from gameclock.organiser.desk.web import admin, back, desk_of, read_form, render_shared, the_event, who
from gameclock.organiser.said import words
from gameclock.organiser.store import ANNOUNCEMENT_MAX, Store, StoreError

WALL_PARTS = ("standings", "pairings")   # the projector's tables with schools (part_wall_NAME.html)


def schools(store: Store, event: str) -> dict[str, str]:
    """Player name -> school (the player list's campus) of an event the PC pairs; {} for one it does
    not (results only: no list). The standings and pairings name players by name (names are unique
    in an event: Store._names_taken), and a former name (aliases) keeps its school."""
    out: dict[str, str] = {}
    for p in store.event_players(event):
        if p.get("campus"):
            for name in [p["name"], *(p.get("aliases") or [])]:
                out.setdefault(str(name), str(p["campus"]))
    return out


def utc_offset_minutes() -> int:
    """This PC's offset from UTC now, in minutes (Thailand: 420): the projector shows the desk's time of day."""
    offset = datetime.now().astimezone().utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


def head(store: Store, event: str, now_ns: int) -> dict[str, Any]:
    """The projector's head at `now_ns` (ns since the Unix epoch): {"round": the latest round with
    pairings or None, "started_ms": when the organiser started it (ms since the epoch) or None,
    "now_ms", "elapsed_s": the round clock (None before the start), "offset_min": this PC's UTC
    offset, "announcements": [{"n", "text"}]}."""
    rnds = views.rounds(store, event)
    rnd = rnds[-1] if rnds else None
    started = store.round_started(event, rnd) if rnd is not None else None
    return {"round": rnd, "started_ms": None if started is None else started // 1_000_000,
            "now_ms": now_ns // 1_000_000,
            "elapsed_s": None if started is None else max(0, (now_ns - started) // 1_000_000_000),
            "offset_min": utc_offset_minutes(),
            "announcements": [{"n": a["n"], "text": a["text"]} for a in store.announcements(event)]}


def clock_text(seconds: int) -> str:
    """A round clock's text: 0:42:05 (hours unpadded, as desk.js writes it)."""
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def time_of_day(now_ms: int, offset_min: int) -> str:
    """The time of day at `now_ms` in the zone `offset_min` from UTC: 16:05 (as desk.js writes it)."""
    minutes = (now_ms // 60_000 + offset_min) % (24 * 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# ------------------------------------------------------------------------------------------ public
async def head_part(request: Request) -> Response:
    """The projector's head (module doc): never cached, it carries the desk's time."""
    event, _stamp, lang = await public_event(request)
    d = desk_of(request)
    data = await run_in_threadpool(head, d.store, event, time.time_ns())
    html = render_shared(d, "part_wall_head.html", lang, event, {
        "wall": data, "clock_text": clock_text, "time_of_day": time_of_day})
    return Response(html, media_type="text/html; charset=utf-8", headers={"cache-control": "no-store"})


async def table_part(request: Request) -> Response:
    """The projector's standings or pairings with the players' schools, shared per store stamp."""
    event, stamp, lang = await public_event(request)
    name = request.path_params["name"]
    if name not in WALL_PARTS:
        raise HTTPException(404)
    d = desk_of(request)
    if name == "standings":
        data = await shared_standings(d, event, stamp)

        def build() -> Fragment:
            return Fragment.of(render_shared(d, "part_wall_standings.html", lang, event,
                                             {"data": data, "schools": schools(d.store, event)}))
    else:
        def build() -> Fragment:
            rnds = views.rounds(d.store, event)
            pairs = views.pairings(d.store, event, rnds[-1]) if rnds else {"tables": [], "byes": []}
            return Fragment.of(render_shared(d, "part_wall_pairings.html", lang, event, {
                "data": pairs, "round": rnds[-1] if rnds else None, "schools": schools(d.store, event)}))
    frag: Fragment = await d.shared.get(("wall", event, name, lang), stamp, build)
    return shared_response(request, frag)


# ------------------------------------------------------------------------------------------ the organiser's
def admin_context(store: Store, event: str, rnd: int) -> dict[str, Any]:
    """What the admin round page shows of the wall: the announcements, when round `rnd` started."""
    started = store.round_started(event, rnd)
    return {"announcements": store.announcements(event), "announcement_max": ANNOUNCEMENT_MAX,
            "started_iso": None if started is None else datetime.fromtimestamp(started / 1e9).strftime("%H:%M:%S")}


def _round_page(store: Store, event: str, form: dict[str, str]) -> str:
    """The admin round page a wall form came from (its `round`), else the event's page."""
    value = form.get("round", "")
    if value.isascii() and value.isdigit() and len(value) <= 4 and int(value) in views.rounds(store, event):
        return f"/admin/e/{quote(event)}/round/{int(value)}"
    return f"/admin/e/{quote(event)}"


@admin
async def start_round(request: Request) -> Response:
    """"Start round": round n's clock on the projector counts from now (again from now when pressed again)."""
    event = the_event(request)
    rnd = request.path_params["n"]
    store = desk_of(request).store
    await read_form(request)   # the CSRF token checked
    if rnd not in views.rounds(store, event):
        raise HTTPException(404)
    await run_in_threadpool(store.start_round, event, rnd, time.time_ns(), who(request))
    return back(request, f"/admin/e/{quote(event)}/round/{rnd}", "success", words("round {round} started", round=rnd))


@admin
async def add_announcement(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    form = await read_form(request)
    url = _round_page(store, event, form)
    try:
        await run_in_threadpool(store.add_announcement, event, form.get("text", ""), who(request))
    except StoreError as exc:
        return back(request, url, "error", exc)
    return back(request, url, "success", words("the announcement is on the projector"))


@admin
async def remove_announcement(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    form = await read_form(request)
    url = _round_page(store, event, form)
    value = form.get("n", "")
    n = int(value) if value.isascii() and value.isdigit() and len(value) <= 12 else 0
    if not await run_in_threadpool(store.remove_announcement, event, n, who(request)):
        return back(request, url, "error", words("that announcement is not on the projector"))
    return back(request, url, "success", words("the announcement is off the projector"))
