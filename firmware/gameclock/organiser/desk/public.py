"""The public pages: read-only, no admin control (events, standings, pairings, the players' list, find
my table, a player's card and a table's page with their QR codes and the sheets of them to print, the
projector, the live stream and its fragments, the fonts)."""
from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Callable, Hashable
from importlib import resources
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from gameclock.organiser.desk import charts, find, i18n, phone, qr, views
from gameclock.organiser.desk.hall import Fragment
from gameclock.organiser.desk.web import (
    FONTS,
    LANG_COOKIE,
    Desk,
    desk_of,
    lang_for,
    part,
    render,
    render_shared,
    the_event,
)


# ------------------------------------------------------------------------------------------ public
async def index(request: Request) -> Response:
    """The events; in the events' language when they all have the same (a Thai school's desk: Thai by
    default, issue 28), else the reader's choice or English."""
    store = desk_of(request).store
    names = views.event_names(store)
    langs = {(store.event(n) or {}).get("language") for n in names}
    return render(request, "index.html", {"events": names}, language=langs.pop() if len(langs) == 1 else None)


async def standings_page(request: Request) -> Response:
    """The standings: the shared fragment (computed once per store stamp and language: hall.py) inside
    the page, and the time used per round. A reader with no notice waiting (a phone in the hall: the
    public pages show nothing else of a session) gets the page rendered once for all, with its ETag
    and gzip; one with a notice, the page rendered for them."""
    event, stamp, lang = await public_event(request)
    d = desk_of(request)
    part_now = await shared_fragment(d, event, "standings", lang, stamp)
    # the time used per round: a result moves it little, and it costs as much as the standings (every result
    # read): computed at most every TIMES_AGE seconds, not at every result
    times = await d.shared.get(("round times", event), stamp,
                               lambda: views.round_times(d.store, event, d.games.games(d.store, event)), TIMES_AGE)
    ctx = {"standings_part": Markup(part_now.body.decode("utf-8")), "standings_etag": part_now.etag, "times": times,
           "seconds": charts.seconds}
    if notices_waiting(request):
        chart = charts.round_times(times, i18n.tr("Time used per round", lang))
        return render(request, "standings.html", {**ctx, "round_chart": Markup(chart)}, event=event)

    def build() -> Fragment:
        chart = charts.round_times(times, i18n.tr("Time used per round", lang))
        return Fragment.of(render_shared(d, "standings.html", lang, event, {**ctx, "round_chart": Markup(chart)}))
    # the page is its parts': rendered again when they change, not at every stamp (a parent's page load
    # asks at the newest; `times` is kept alive by this entry's build, so its id names it)
    page: Fragment = await d.shared.get(("page standings", event, lang), (part_now.etag, id(times)), build)
    return shared_response(request, page)


def notices_waiting(request: Request) -> bool:
    """Whether the request's session has notices waiting for its next page (web.notify)."""
    key = request.session.get("notices") if "session" in request.scope else None
    return isinstance(key, str) and key in desk_of(request).notices


async def final_page(request: Request) -> Response:
    """The event's final standings (views.final_standings): places by its system, medals, what is
    provisional; a note for an event the PC does not pair."""
    event = the_event(request)
    data = await run_in_threadpool(views.final_standings, desk_of(request).store, event)
    return render(request, "final.html", {"data": data}, event=event)


async def crosstable_page(request: Request) -> Response:
    """Who met whom, in standings order (views.crosstable)."""
    event, stamp, lang = await public_event(request)
    d = desk_of(request)
    data = await shared_standings(d, event, stamp)
    table = await run_in_threadpool(views.crosstable, d.store, event, views.standings_order(data), lang)
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


async def shared_index(d: Desk, event: str, stamp: Hashable) -> find.Index:
    """The event's players and their tables this round (find.py) at `stamp`, built once whoever asks."""
    index: find.Index = await d.shared.get(("find", event), stamp, lambda: find.build(d.store, event))
    return index


async def players_page(request: Request) -> Response:
    """The players in alphabetical order with their school and table this round, each a link to their card
    (issue 28: no QR code drawn here, /qr/players prints them): rendered once per store stamp and language
    for every reader without a notice waiting, as the standings page."""
    event, stamp, lang = await public_event(request)
    d = desk_of(request)
    ctx = {"index": await shared_index(d, event, stamp)}
    if notices_waiting(request):
        return render(request, "players.html", ctx, event=event)
    page: Fragment = await d.shared.get(
        ("page players", event, lang), stamp, lambda: Fragment.of(render_shared(d, "players.html", lang, event, ctx)))
    return shared_response(request, page)


async def find_page(request: Request) -> Response:
    """Find my table: `?q=` part of a name (Thai or Latin), a school; each player found with their table
    this round, opponent, side and a link to their card (find.py). A GET form: no script needed."""
    event, stamp, _lang = await public_event(request)
    index = await shared_index(desk_of(request), event, stamp)
    q = request.query_params.get("q", "")[:find.MAX_QUERY]
    found = index.search(q)
    return render(request, "find.html", {"q": q, "found": found, "searched": bool(q.strip()), "round": index.round,
                                         "more": len(found) >= find.MAX_FOUND}, event=event)


async def player_page(request: Request) -> Response:
    """The player's card (issue 28): place, points and tie-breaks from the same shared standings the
    standings page shows (phone.card), then every game with opponent, score, result and time used; the card's
    QR code (qr.py: at the public address)."""
    event, stamp, _lang = await public_event(request)
    d = desk_of(request)
    p = views.player(d.store, event, part(request, "pid"))
    if p is None:
        raise HTTPException(404)
    data = await shared_standings(d, event, stamp)
    base, address_set = qr.target(request)   # the card's own QR code (qr.py: at the public address)
    return render(request, "player.html", {"player": p, "games": views.player_games(d.store, event, p["name"]),
                                           "card": phone.card(data, p["name"]), "clock": phone.clock,
                                           "qr": qr.svg(qr.card_url(base, event, p["id"])) if base else None,
                                           "address_set": address_set, "base": base},
                  event=event)


async def qr_players_page(request: Request) -> Response:
    """The players' QR codes to print (issue 28): one per card, alphabetical, with the name and school."""
    event, stamp, _lang = await public_event(request)
    d = desk_of(request)
    index = await shared_index(d, event, stamp)
    base, address_set = qr.target(request)
    cards = [{"entry": e, "qr": qr.svg(qr.card_url(base, event, e.pid)) if base else None}
             for e in index.entries if e.pid is not None]
    return render(request, "qr_sheet.html", {"cards": cards, "address_set": address_set, "base": base,
                                             "kind": "players"}, event=event)


async def qr_round_page(request: Request) -> Response:
    """A round's tables' QR codes to print (issue 28), each to the table's page, with its players."""
    event = the_event(request)
    rnd = request.path_params["n"]
    data = views.pairings(desk_of(request).store, event, rnd)
    if not data["tables"]:
        raise HTTPException(404)
    base, address_set = qr.target(request)
    tables = {t["table"]: t for t in data["tables"]}   # a match's games share their table: one code a table
    cards = [{"table": t, "qr": qr.svg(qr.table_url(base, event, rnd, t["table"])) if base else None}
             for t in sorted(tables.values(), key=lambda t: t["table"])]
    return render(request, "qr_sheet.html", {"cards": cards, "address_set": address_set, "base": base,
                                             "kind": "tables", "round": rnd}, event=event)


async def table_page(request: Request) -> Response:
    """A table of a round (its QR code's page): its games as published, who starts, the players' cards,
    the results that count there."""
    event = the_event(request)
    store = desk_of(request).store
    rnd, table = request.path_params["round"], request.path_params["table"]
    games = await run_in_threadpool(views.public_table, store, event, rnd, table)
    if not games:
        raise HTTPException(404)
    return render(request, "table.html", {"games": games, "round": rnd, "table": table}, event=event)


async def projector_page(request: Request) -> Response:
    event = the_event(request)
    every = request.query_params.get("every", "")
    # ASCII digits only: str.isdigit() takes "²", which int() refuses (a 500)
    seconds = int(every) if re.fullmatch(r"[0-9]{1,3}", every) and 3 <= int(every) <= 120 else 12
    return render(request, "projector.html", {"every": seconds}, event=event)


FRAGMENTS = ("standings", "pairings", "results")   # the live areas' contents (part_NAME.html)
TIMES_AGE = 10.0   # seconds the standings page's time used per round may be behind the results


async def public_event(request: Request) -> tuple[str, Hashable, str]:
    """(the event of the path, the store's stamp now, the page's language) for a public page; 404 for
    an event the desk does not show. The stamp is read on a worker thread; the event names and the
    event's own language are shared per stamp (hall.Shared), so a page load asks the store once."""
    d = desk_of(request)
    name = part(request, "event")
    stamp = d.poller.fresh_stamp() or await run_in_threadpool(d.store.live_stamp)
    names = await d.shared.get(("event names",), stamp, lambda: frozenset(views.event_names(d.store)), fresh=True)
    if name not in names:
        raise HTTPException(404)
    ev = await d.shared.get(("event", name), stamp, lambda: d.store.event(name), fresh=True)
    return name, stamp, lang_for(request, ev.get("language") if ev else None)


async def shared_standings(d: Desk, event: str, stamp: Hashable) -> dict[str, Any]:
    """The event's standings (views.standings) at `stamp`, computed once whoever asks (hall.Shared)."""
    data: dict[str, Any] = await d.shared.get(
        ("standings", event), stamp, lambda: views.standings(d.store, event, games=d.games.games(d.store, event)),
        fresh=True)
    return data


def _fragment_context(d: Desk, event: str, name: str) -> dict[str, Any]:
    """What part_NAME.html shows (the pairings and results; the standings are shared apart)."""
    if name == "pairings":
        rnds = views.rounds(d.store, event)
        return {"data": views.pairings(d.store, event, rnds[-1]) if rnds else {"tables": [], "byes": []},
                "round": rnds[-1] if rnds else None}
    return {"results": views.latest_results(d.store, event)}


async def shared_fragment(d: Desk, event: str, name: str, lang: str, stamp: Hashable) -> Fragment:
    """A live area's contents in `lang` at `stamp`: rendered once (with its gzip and ETag) for every
    page and stream that asks (hall.py), on the hall's workers."""
    if name == "standings":
        data = await shared_standings(d, event, stamp)

        def build() -> Fragment:
            # the names link to the players' cards (issue 28; an event of results only has no list: no link)
            ids = {p["name"]: p["id"] for p in d.store.event_players(event)}
            return Fragment.of(render_shared(d, "part_standings.html", lang, event,
                                             {"data": data, "ids": ids, "shown_cells": phone.shown_cells,
                                              # the names in the notes kept whole (thaiwrap.words_html)
                                              "names": frozenset(views.standings_order(data))}))
        # rendered once per standings computed (one may serve several stamps: hall.Shared's `fresh`); the
        # entry's build holds `data`, so no other object has its id while the entry is kept (a change of the
        # players, whose ids the build reads, is a new stamp's standings: a new `data`)
        frag: Fragment = await d.shared.get(("part", event, name, lang), ("data", id(data)), build)
        return frag

    def build_part() -> Fragment:
        return Fragment.of(render_shared(d, f"part_{name}.html", lang, event, _fragment_context(d, event, name)))
    frag = await d.shared.get(("part", event, name, lang), stamp, build_part, fresh=True)
    return frag


def _tokens(header: str) -> list[tuple[str, str]]:
    """A comma-separated header's items as (value, its parameters), lower-cased: `gzip;q=0` -> ("gzip", "q=0")."""
    out = []
    for item in header.split(","):
        value, _, params = item.strip().partition(";")
        out.append((value.strip().lower(), params.replace(" ", "").lower()))
    return out


def takes_gzip(request: Request) -> bool:
    """Whether the client accepts gzip (Accept-Encoding names it, or *, without q=0)."""
    return any(v in ("gzip", "*") and params not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
               for v, params in _tokens(request.headers.get("accept-encoding", "")))


def shared_response(request: Request, frag: Fragment) -> Response:
    """A shared page or fragment as served: 304 when the client holds it already (If-None-Match: its ETag), gzip
    when the client takes it; `no-cache`: the browser keeps it and asks again each time (desk.js)."""
    headers = {"etag": frag.etag, "vary": "Accept-Encoding", "cache-control": "no-cache"}
    held = request.headers.get("if-none-match", "")
    if held and any(v.removeprefix("w/") in (frag.etag, "*") for v, _ in _tokens(held)):
        response = Response(status_code=304, headers=headers)
    elif takes_gzip(request):
        response = Response(frag.gz, media_type="text/html; charset=utf-8",
                            headers={**headers, "content-encoding": "gzip"})
    else:
        response = Response(frag.body, media_type="text/html; charset=utf-8", headers=headers)
    q = request.query_params.get("lang")
    if q in i18n.LANGUAGES:   # as render does: the reader's choice kept
        response.set_cookie(LANG_COOKIE, q, max_age=365 * 86400, samesite="lax", httponly=True)
    return response


async def fragment(request: Request) -> Response:
    """The live areas' contents (the pages re-fetch them on a change): standings, pairings, results;
    the same bytes for every reader of a language until the store changes (hall.py)."""
    event, stamp, lang = await public_event(request)
    name = request.path_params["name"]
    if name not in FRAGMENTS:
        raise HTTPException(404)
    return shared_response(request, await shared_fragment(desk_of(request), event, name, lang, stamp))


MAX_STREAMS_A_CLIENT = 16   # live pages open at once from one address
KEEP_ALIVE = 15.0           # seconds of a quiet stream before a comment line keeps it open
# seconds at least between two `standings` events of a stream (issue 28): each asks the page to fetch the
# standings again; results coming 5 a second to 200 phones were 1,000 fetches a second, the desk's event
# loop busy with them. One event after the spacing covers every result before it (the page fetches the
# newest); the `result` events still come at once.
STANDINGS_SPACING = 0.5


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
    (a draft, a publication, a player's change), `clocks`; each event's data carries `v`, the live
    version it tells of. The stream waits on the desk's one poller (hall.Poller: its own bounded
    queue, no poll of its own) and ends after `stream_seconds` (the browser reconnects by itself:
    `retry`). The pages fetch the shared fragments on an event (desk.js)."""
    event, _stamp, _lang = await public_event(request)
    d = desk_of(request)
    live = d.live
    client = request.client.host if request.client else "?"
    release = take_stream_place(d, client)
    if release is None:
        # a page has one stream; this many from one address is a runaway or an attack (each wakes
        # every poll for stream_seconds). 429: the browser's EventSource stops asking.
        raise HTTPException(429, "Too many live pages open from this address.")

    async def _events():
        # the poller's place first, then the store's state: a change after that look wakes this stream
        listener = d.poller.listen()
        try:
            await run_in_threadpool(live.poll, True)
            version = live.version
            yield f"retry: 2000\nevent: hello\ndata: {json.dumps({'event': event, 'v': version})}\n\n"
            end = time.monotonic() + d.stream_seconds
            quiet = time.monotonic()
            told = float("-inf")    # time.monotonic() of the last `standings` event
            owed = False            # a `standings` event waiting for STANDINGS_SPACING
            while (left := end - time.monotonic()) > 0:
                wait = min(left, max(0.0, KEEP_ALIVE - (time.monotonic() - quiet)))
                if owed:
                    wait = min(wait, max(0.0, told + STANDINGS_SPACING - time.monotonic()))
                try:
                    await asyncio.wait_for(listener.queue.get(), wait)
                except TimeoutError:
                    if owed and time.monotonic() - told >= STANDINGS_SPACING:
                        owed, told, quiet = False, time.monotonic(), time.monotonic()
                        yield f"event: standings\ndata: {json.dumps({'v': version})}\n\n"
                    elif time.monotonic() - quiet >= KEEP_ALIVE:
                        yield ": keep-alive\n\n"
                        quiet = time.monotonic()
                    continue
                while not listener.queue.empty():   # the newest version covers those before it
                    listener.queue.get_nowait()
                kinds: list[str] = []
                for v, change in live.since(version):
                    version = v
                    kind = change["kind"]
                    if kind == "result":
                        if change.get("event") != event:
                            continue
                        data = {k: change.get(k) for k in ("id", "round", "table")}
                        yield f"event: result\ndata: {json.dumps({**data, 'v': v})}\n\n"
                        kinds.append("standings")
                    elif kind == "amendment":  # the standings change, and the result's line says "amended"
                        kinds += ["standings", "amendment"]
                    elif kind == "players":    # a name, a withdrawal, a late entry: in the standings and the pairings
                        kinds += ["standings", "pairings"]
                    else:
                        kinds.append(kind)
                for kind in dict.fromkeys(kinds):
                    if kind == "standings":
                        if time.monotonic() - told < STANDINGS_SPACING:
                            owed = True     # told after the spacing, with the version then
                            continue
                        owed, told = False, time.monotonic()
                    yield f"event: {kind}\ndata: {json.dumps({'v': version})}\n\n"
                    quiet = time.monotonic()
        finally:
            d.poller.leave(listener)

    return CountedStream(_events(), release, media_type="text/event-stream",
                         headers={"cache-control": "no-store", "x-accel-buffering": "no"})


async def font(request: Request) -> Response:
    name = str(request.path_params["name"])
    if name not in FONTS:
        raise HTTPException(404)
    data = (resources.files("gameclock") / "fonts" / name).read_bytes()
    return Response(data, media_type="font/ttf", headers={"cache-control": "public, max-age=86400"})


