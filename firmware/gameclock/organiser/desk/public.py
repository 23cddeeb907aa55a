"""The public pages: read-only, no admin control (events, standings, pairings, players with QR
codes, a player's games, the projector, the live stream and its fragments, the fonts)."""
from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from gameclock.organiser.desk import charts, i18n, views
from gameclock.organiser.desk.web import (
    FONTS,
    Desk,
    base_url,
    desk_of,
    lang_of_page,
    part,
    render,
    the_event,
)


# ------------------------------------------------------------------------------------------ public
async def index(request: Request) -> Response:
    return render(request, "index.html", {"events": views.event_names(desk_of(request).store)})


async def standings_page(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    data = await run_in_threadpool(views.standings, store, event)
    times = await run_in_threadpool(views.round_times, store, event)
    chart = charts.round_times(times, i18n.tr("Time used per round", lang_of_page(request, event)))
    return render(request, "standings.html", {"data": data, "round_chart": Markup(chart), "times": times,
                                              "seconds": charts.seconds}, event=event)


async def final_page(request: Request) -> Response:
    """The event's final standings (views.final_standings): places by its system, medals, what is
    provisional; a note for an event the PC does not pair."""
    event = the_event(request)
    data = await run_in_threadpool(views.final_standings, desk_of(request).store, event)
    return render(request, "final.html", {"data": data}, event=event)


async def crosstable_page(request: Request) -> Response:
    """Who met whom, in standings order (views.crosstable)."""
    event = the_event(request)
    store = desk_of(request).store
    data = await run_in_threadpool(views.standings, store, event)
    table = await run_in_threadpool(views.crosstable, store, event, views.standings_order(data))
    # "empty", not "error": render shows a page's `error` as a refusal's notice (web.render)
    return render(request, "crosstable.html", {"table": table, "empty": data["error"] is not None}, event=event)


async def pairings_page(request: Request) -> Response:
    event = the_event(request)
    rnd = request.path_params["round"]
    data = views.pairings(desk_of(request).store, event, rnd)
    if not data["tables"] and not data["byes"]:
        raise HTTPException(404)
    return render(request, "pairings.html", {"data": data, "round": rnd,
                                             "rounds": views.rounds(desk_of(request).store, event)}, event=event)


async def latest_pairings(request: Request) -> Response:
    """The public menu's Pairings: the latest round's (404 before any is published)."""
    event = the_event(request)
    rnds = views.rounds(desk_of(request).store, event)
    if not rnds:
        raise HTTPException(404)
    return RedirectResponse(f"/e/{quote(event)}/pairings/{rnds[-1]}", status_code=303)


async def players_page(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    base = base_url(request)
    rows = []
    import segno  # the organiser's extra (pyproject): the QR codes

    for p in views.players(store, event):
        url = f"{base}/e/{quote(event)}/players/{quote(p['id'])}"
        qr = segno.make(url, error="m").svg_inline(scale=3, title=p["name"])
        rows.append({**p, "url": url, "qr": Markup(qr)})
    return render(request, "players.html", {"players": rows}, event=event)


async def player_page(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    p = views.player(store, event, part(request, "pid"))
    if p is None:
        raise HTTPException(404)
    return render(request, "player.html", {"player": p, "games": views.player_games(store, event, p["name"])},
                  event=event)


async def projector_page(request: Request) -> Response:
    event = the_event(request)
    every = request.query_params.get("every", "")
    # ASCII digits only: str.isdigit() takes "²", which int() refuses (a 500)
    seconds = int(every) if re.fullmatch(r"[0-9]{1,3}", every) and 3 <= int(every) <= 120 else 12
    return render(request, "projector.html", {"every": seconds}, event=event)


async def fragment(request: Request) -> Response:
    """The live areas' contents (the pages re-fetch them on a change): standings, pairings, results."""
    event = the_event(request)
    store = desk_of(request).store
    name = request.path_params["name"]
    if name == "standings":
        ctx: dict[str, Any] = {"data": await run_in_threadpool(views.standings, store, event)}
    elif name == "pairings":
        rnds = views.rounds(store, event)
        ctx = {"data": views.pairings(store, event, rnds[-1]) if rnds else {"tables": [], "byes": []},
               "round": rnds[-1] if rnds else None}
    elif name == "results":
        ctx = {"results": views.latest_results(store, event)}
    else:
        raise HTTPException(404)
    return render(request, f"part_{name}.html", ctx, event=event)


MAX_STREAMS_A_CLIENT = 16   # live pages open at once from one address


class CountedStream(StreamingResponse):
    """A stream that gives its place back (`release`) when it ends, however it ends: its last event,
    the browser gone (Starlette cancels the stream), or a failure before its first byte. Starlette
    calls a handler's response as soon as the handler returns it, so a place taken by the handler is
    always given back here."""

    def __init__(self, content: AsyncIterator[str], release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def take_stream_place(d: Desk, client: str) -> Callable[[], None] | None:
    """A place among the client's MAX_STREAMS_A_CLIENT streams, counted at once: the function that
    gives it back (once), or None when all are taken. No await between the check and the count: the
    event loop runs one handler at a time up to its next await, so requests that come together are
    counted one by one (issue 24, B8: the count was raised only once the stream began, after the
    handler's check, and 132 of 300 streams opened together passed a cap of 16)."""
    if d.streams.get(client, 0) >= MAX_STREAMS_A_CLIENT:
        return None
    d.streams[client] = d.streams.get(client, 0) + 1
    given_back = False

    def release() -> None:
        nonlocal given_back
        if given_back:
            return
        given_back = True
        d.streams[client] -= 1
        if not d.streams[client]:
            del d.streams[client]
    return release


async def stream(request: Request) -> Response:
    """Server-sent events for one event's pages: `hello` at once, then `result` (data: the result's
    id, round, table), `standings` after a result, an amendment or a player's change, `amendment`, `pairings`
    (a draft, a publication, a player's change), `clocks`. The stream
    ends after `stream_seconds` (the browser reconnects by itself: `retry`)."""
    event = the_event(request)
    d = desk_of(request)
    live = d.live
    client = request.client.host if request.client else "?"
    release = take_stream_place(d, client)
    if release is None:
        # a page has one stream; this many from one address is a runaway or an attack (each wakes
        # every poll for stream_seconds). 429: the browser's EventSource stops asking.
        raise HTTPException(429, "Too many live pages open from this address.")

    async def _events():
        live.poll(force=True)
        version = live.version
        yield f"retry: 2000\nevent: hello\ndata: {json.dumps({'event': event})}\n\n"
        end = time.monotonic() + d.stream_seconds
        quiet = time.monotonic()
        while time.monotonic() < end:
            await asyncio.sleep(live.interval)
            live.poll()
            changes = live.since(version)
            kinds: list[str] = []
            for v, change in changes:
                version = v
                kind = change["kind"]
                if kind == "result":
                    if change.get("event") != event:
                        continue
                    data = {k: change.get(k) for k in ("id", "round", "table")}
                    yield f"event: result\ndata: {json.dumps(data)}\n\n"
                    kinds.append("standings")
                elif kind == "amendment":  # the standings change, and the result's line says "amended"
                    kinds += ["standings", "amendment"]
                elif kind == "players":    # a name, a withdrawal, a late entry: in the standings and the pairings
                    kinds += ["standings", "pairings"]
                else:
                    kinds.append(kind)
            for kind in dict.fromkeys(kinds):
                yield f"event: {kind}\ndata: {{}}\n\n"
                quiet = time.monotonic()
            if time.monotonic() - quiet > 15:
                yield ": keep-alive\n\n"
                quiet = time.monotonic()

    return CountedStream(_events(), release, media_type="text/event-stream",
                         headers={"cache-control": "no-store", "x-accel-buffering": "no"})


async def font(request: Request) -> Response:
    name = str(request.path_params["name"])
    if name not in FONTS:
        raise HTTPException(404)
    data = (resources.files("gameclock") / "fonts" / name).read_bytes()
    return Response(data, media_type="font/ttf", headers={"cache-control": "public, max-age=86400"})


