"""The desk's web app (Starlette): `create_app(db_path)`; `gameclock desk` serves it with uvicorn.

Public pages are read-only and show no admin control. The organiser's pages are under /admin: a
session (a signed cookie, SessionMiddleware) after logging in with the password set at first start
(from this PC only: a loopback client), 303 to /login without one. Every POST needs the session's
CSRF token (403 otherwise) and is a small url-encoded form read with limits (413 over MAX_FORM,
415 for another type). Every byte from outside is hostile: path parts are length-checked and only
ever SQL parameters or escaped text; `next` is followed only to /admin paths.
"""
from __future__ import annotations

import asyncio
import io
import json
import re
import time
import zipfile
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gameclock.organiser import event as events
from gameclock.organiser.desk import auth, charts, i18n, views
from gameclock.organiser.desk.live import Live
from gameclock.organiser.store import Store, StoreError

MAX_FORM = 64 * 1024        # bytes of a POSTed form
MAX_FIELDS = 50
MAX_PATH_PART = 80          # an event name, a result id, a player id in a path
SESSION_COOKIE = "gameclock_desk"
SESSION_AGE = 12 * 3600     # a tournament day
LANG_COOKIE = "gameclock_lang"
FONTS = {"Loma.ttf", "Loma-Bold.ttf"}
LOOPBACK = {"127.0.0.1", "::1", "localhost"}
SAFE_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:\d{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?")
NEXT_RE = re.compile(r"/admin(/[A-Za-z0-9_.\-/%]{0,200})?")
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; font-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
USER = "organiser"
AMEND_OUTCOMES = ("left", "right", "draw")
MAX_REASON = 500


class SecurityHeaders:
    """Adds the CSP and friends to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"same-origin"), (b"x-frame-options", b"DENY")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Desk:
    """The app's state: the store, the live poller, the templates, the login throttle."""

    def __init__(self, store: Store, templates: Jinja2Templates, live: Live, public_url: str | None,
                 stream_seconds: float):
        self.store, self.templates, self.live = store, templates, live
        self.public_url = public_url.rstrip("/") if public_url else None
        self.stream_seconds = stream_seconds
        self.throttle = auth.Throttle()


# ------------------------------------------------------------------------------------------ helpers
def desk_of(request: Request) -> Desk:
    d: Desk = request.app.state.desk
    return d


def part(request: Request, name: str) -> str:
    """A path parameter, refused (404) when empty, too long or holding control characters."""
    value = str(request.path_params.get(name, ""))
    if not value or len(value) > MAX_PATH_PART or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise HTTPException(404)
    return value


def the_event(request: Request) -> str:
    name = part(request, "event")
    if name not in views.event_names(desk_of(request).store):
        raise HTTPException(404)
    return name


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not isinstance(token, str) or not token:
        token = request.session["csrf"] = auth.new_token()
    return token


def password_hash(request: Request) -> str | None:
    return desk_of(request).store.setting(auth.PASSWORD_KEY)


def logged_in(request: Request) -> bool:
    stored = password_hash(request)
    return (stored is not None and request.session.get("user") == USER
            and request.session.get("pwv") == stored[-16:])


def require_admin(request: Request) -> Response | None:
    """None when the organiser is logged in; else the 303 to the login page."""
    if logged_in(request):
        return None
    return RedirectResponse(f"/login?next={quote(request.url.path)}", status_code=303)


async def read_form(request: Request) -> dict[str, str]:
    """A POSTed url-encoded form, bounded, with the session's CSRF token checked (HTTPException 403,
    413, 415, 400). The first value of each field."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/x-www-form-urlencoded":
        raise HTTPException(415, "a form is sent url-encoded")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_FORM):
        raise HTTPException(413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            raise HTTPException(413)
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, "not a form") from None
    form: dict[str, str] = {}
    for k, v in pairs:
        form.setdefault(k, v)
    if not auth.same_token(form.get("csrf"), request.session.get("csrf")):
        raise HTTPException(403, "Refused: the form's token is missing or wrong (reload the page).")
    return form


def lang_for(request: Request, event_language: str | None = None) -> str:
    q = request.query_params.get("lang")
    return i18n.pick(q, request.cookies.get(LANG_COOKIE), event_language)


def render(request: Request, template: str, ctx: dict[str, Any], *, event: str | None = None,
           status: int = 200) -> Response:
    d = desk_of(request)
    ev = d.store.event(event) if event else None
    lang = lang_for(request, ev.get("language") if ev else None)
    context = {"lang": lang, "t": lambda text: i18n.tr(text, lang), "event": event,
               "csrf": csrf_token(request), "admin": template.startswith("admin"),
               "logged_in": logged_in(request), "path": request.url.path, **ctx}
    response = d.templates.TemplateResponse(request, template, context, status_code=status)
    q = request.query_params.get("lang")
    if q in i18n.LANGUAGES:
        response.set_cookie(LANG_COOKIE, q, max_age=365 * 86400, samesite="lax", httponly=True)
    return response


def base_url(request: Request) -> str:
    """Where phones reach the desk: --public-url, else this request's own scheme and host when the
    Host header is a plain host name or address (else a relative link)."""
    d = desk_of(request)
    if d.public_url:
        return d.public_url
    host = request.headers.get("host", "")
    return f"{request.url.scheme}://{host}" if SAFE_HOST.fullmatch(host) else ""


# ------------------------------------------------------------------------------------------ public
async def index(request: Request) -> Response:
    return render(request, "index.html", {"events": views.event_names(desk_of(request).store)})


async def standings_page(request: Request) -> Response:
    event = the_event(request)
    data = await run_in_threadpool(views.standings, desk_of(request).store, event)
    return render(request, "standings.html", {"data": data}, event=event)


async def pairings_page(request: Request) -> Response:
    event = the_event(request)
    rnd = request.path_params["round"]
    data = views.pairings(desk_of(request).store, event, rnd)
    if not data["tables"] and not data["byes"]:
        raise HTTPException(404)
    return render(request, "pairings.html", {"data": data, "round": rnd,
                                             "rounds": views.rounds(desk_of(request).store, event)}, event=event)


async def players_page(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    base = base_url(request)
    rows = []
    import segno  # the organiser's extra (pyproject): the QR codes

    for p in views.players(store, event):
        url = f"{base}/e/{quote(event)}/players/{quote(p['id'])}"
        qr = segno.make(url, error="m").svg_inline(scale=2, title=p["name"])
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
    seconds = int(every) if every.isdigit() and 3 <= int(every) <= 120 else 12
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


async def stream(request: Request) -> Response:
    """Server-sent events for one event's pages: `hello` at once, then `result` (data: the result's
    id, round, table), `standings` after a result or an amendment, `pairings`, `clocks`. The stream
    ends after `stream_seconds` (the browser reconnects by itself: `retry`)."""
    event = the_event(request)
    d = desk_of(request)
    live = d.live

    async def events_out():
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
                elif kind == "amendment":
                    kinds.append("standings")
                else:
                    kinds.append(kind)
            for kind in dict.fromkeys(kinds):
                yield f"event: {kind}\ndata: {{}}\n\n"
                quiet = time.monotonic()
            if time.monotonic() - quiet > 15:
                yield ": keep-alive\n\n"
                quiet = time.monotonic()

    return StreamingResponse(events_out(), media_type="text/event-stream",
                             headers={"cache-control": "no-store", "x-accel-buffering": "no"})


async def font(request: Request) -> Response:
    name = str(request.path_params["name"])
    if name not in FONTS:
        raise HTTPException(404)
    data = (resources.files("gameclock") / "fonts" / name).read_bytes()
    return Response(data, media_type="font/ttf", headers={"cache-control": "public, max-age=86400"})


# ------------------------------------------------------------------------------------------ login
def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


async def setup_page(request: Request) -> Response:
    """First start: set the organiser's password (only while none is set, only from this PC)."""
    store = desk_of(request).store
    if store.setting(auth.PASSWORD_KEY) is not None:
        return RedirectResponse("/login", status_code=303)
    if _client(request) not in LOOPBACK:
        return render(request, "message.html", {"message": "Only the organiser's PC can open these pages."},
                      status=403)
    error = None
    if request.method == "POST":
        form = await read_form(request)
        pw, again = form.get("password", ""), form.get("again", "")
        if pw != again:
            error = "The two passwords differ."
        else:
            try:
                hashed = await run_in_threadpool(auth.hash_password, pw)
            except auth.AuthError as exc:
                error = str(exc)
            else:
                store.set_setting(auth.PASSWORD_KEY, hashed, only_if_unset=True)
                return RedirectResponse("/login", status_code=303)
    return render(request, "setup.html", {"error": error}, status=400 if error else 200)


async def login_page(request: Request) -> Response:
    d = desk_of(request)
    stored = d.store.setting(auth.PASSWORD_KEY)
    if stored is None:
        return RedirectResponse("/setup", status_code=303)
    nxt = request.query_params.get("next", "/admin")
    nxt = nxt if NEXT_RE.fullmatch(nxt) else "/admin"
    error, status = None, 200
    if request.method == "POST":
        form = await read_form(request)
        nxt = form.get("next", "/admin")
        nxt = nxt if NEXT_RE.fullmatch(nxt) else "/admin"
        client = _client(request)
        if d.throttle.blocked(client):
            error, status = "Too many tries: wait a minute.", 429
        elif await run_in_threadpool(auth.verify_password, form.get("password", ""), stored):
            d.throttle.succeeded(client)
            request.session.clear()
            request.session.update({"user": USER, "pwv": stored[-16:], "csrf": auth.new_token()})
            return RedirectResponse(nxt, status_code=303)
        else:
            d.throttle.failed(client)
            error, status = "Wrong password.", 401
    return render(request, "login.html", {"error": error, "next": nxt}, status=status)


async def logout(request: Request) -> Response:
    await read_form(request)
    request.session.clear()
    return RedirectResponse("/", status_code=303)


# ------------------------------------------------------------------------------------------ admin
Handler = Callable[[Request], Awaitable[Response]]


def admin(handler: Handler) -> Handler:
    """The organiser's pages: 303 to the login page without a session."""
    async def guarded(request: Request) -> Response:
        refused = require_admin(request)
        if refused is not None:
            return refused
        return await handler(request)
    guarded.__name__ = handler.__name__
    return guarded


@admin
async def admin_home(request: Request) -> Response:
    store = desk_of(request).store
    return render(request, "admin_home.html", {"events": views.event_names(store), "paired": store.events()})


@admin
async def admin_event(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    setup = views.event_setup(store, event)
    times = views.round_times(store, event)
    return render(request, "admin_event.html", {
        "setup": setup, "rounds": views.rounds(store, event), "message": request.query_params.get("msg"),
        "round_chart": Markup(charts.round_times(times, i18n.tr("Time used per round", lang_for(request)))),
        "formats": ("tsh", "trf", "csv", "jsonl")}, event=event)


@admin
async def admin_pair(request: Request) -> Response:
    event = the_event(request)
    await read_form(request)
    try:
        r = await run_in_threadpool(events.draw, desk_of(request).store, event)
        msg = f"round {r['round']}: draft drawn (seed {r['seed']})"
    except (events.EventError, StoreError) as exc:
        msg = str(exc)
    return RedirectResponse(f"/admin/e/{quote(event)}?msg={quote(msg[:300])}", status_code=303)


@admin
async def admin_publish(request: Request) -> Response:
    event = the_event(request)
    await read_form(request)
    try:
        r = await run_in_threadpool(events.publish, desk_of(request).store, event)
        msg = f"round {r['round']} published"
    except (events.EventError, StoreError, ValueError) as exc:
        msg = str(exc)
    return RedirectResponse(f"/admin/e/{quote(event)}?msg={quote(msg[:300])}", status_code=303)


@admin
async def admin_round(request: Request) -> Response:
    event = the_event(request)
    rnd = request.path_params["n"]
    store = desk_of(request).store
    if rnd not in views.rounds(store, event):
        raise HTTPException(404)
    return render(request, "admin_round.html", {"round": rnd, "tables": views.progress(store, event, rnd)},
                  event=event)


@admin
async def admin_round_part(request: Request) -> Response:
    event = the_event(request)
    rnd = request.path_params["n"]
    store = desk_of(request).store
    if rnd not in views.rounds(store, event):
        raise HTTPException(404)
    return render(request, "admin_part_progress.html", {"round": rnd, "tables": views.progress(store, event, rnd)},
                  event=event)


@admin
async def admin_clocks(request: Request) -> Response:
    return render(request, "admin_clocks.html", {"clocks": views.clocks(desk_of(request).store)})


@admin
async def admin_result(request: Request) -> Response:
    rid = part(request, "rid")
    data = views.result(desk_of(request).store, rid)
    if data is None:
        raise HTTPException(404)
    return _result_page(request, data)


def _result_page(request: Request, data: dict[str, Any], error: str | None = None, status: int = 200) -> Response:
    rec = data["record"]
    names = {s: (rec.get("players") or {}).get(s) or s for s in ("left", "right")}
    lang = lang_for(request)
    chart = charts.move_times(data["sides"], names, i18n.tr("Move times", lang))
    return render(request, "admin_result.html", {"r": data, "names": names, "chart": Markup(chart),
                                                 "seconds": charts.seconds, "error": error,
                                                 "outcomes": AMEND_OUTCOMES}, event=rec.get("event"),
                  status=status)


def _score(value: str) -> int | None:
    value = value.strip()
    if not value:
        return None
    if not re.fullmatch(r"-?\d{1,5}", value):
        raise ValueError("a score is a whole number")
    return int(value)


@admin
async def admin_amend(request: Request) -> Response:
    """An amendment: what the result should be (outcome, final scores) and the reason, kept beside the
    signed record (Store.add_amendment); the record itself never changes."""
    rid = part(request, "rid")
    store = desk_of(request).store
    form = await read_form(request)
    data = views.result(store, rid)
    if data is None:
        raise HTTPException(404)
    reason = " ".join(form.get("reason", "").split())
    changes: dict[str, Any] = {}
    try:
        if form.get("outcome") in AMEND_OUTCOMES:
            changes["outcome"] = form["outcome"]
        elif form.get("outcome", ""):
            raise ValueError("the outcome is left, right or draw")
        scores = {s: _score(form.get(f"score_{s}", "")) for s in ("left", "right")}
        if any(v is not None for v in scores.values()):
            changes["scores.final"] = scores
        if not reason:
            raise ValueError("An amendment needs a reason.")
        if len(reason) > MAX_REASON or any(ord(c) < 32 for c in reason):
            raise ValueError(f"the reason is at most {MAX_REASON} characters of text")
        store.add_amendment(rid, changes, reason, USER)
    except ValueError as exc:
        return _result_page(request, data, str(exc), status=400)
    return RedirectResponse(f"/admin/results/{quote(rid)}", status_code=303)


@admin
async def admin_export(request: Request) -> Response:
    from gameclock.organiser.exports import ExportError
    from gameclock.organiser.exports.commands import FORMATS, export_outputs
    from gameclock.rules.loader import RuleError

    event = the_event(request)
    fmt = request.path_params["fmt"]
    if fmt not in FORMATS:
        raise HTTPException(404)
    store = desk_of(request).store
    try:
        outputs = await run_in_threadpool(export_outputs, store, fmt, event)
    except (ExportError, RuleError, StoreError) as exc:
        return PlainTextResponse(f"gameclock export {fmt}: {exc}\n", status_code=409)
    if len(outputs) == 1:
        name, data = outputs[0].name, outputs[0].data
        media = {"jsonl": "application/jsonl", "csv": "text/csv"}.get(fmt, "text/plain")
    else:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for o in outputs:
                z.writestr(o.name, o.data)
        name, data, media = f"{event}-{fmt}.zip", buf.getvalue(), "application/zip"
    ascii_name = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    return Response(data, media_type=media, headers={
        "content-disposition": f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name)}"})


# ------------------------------------------------------------------------------------------ the app
async def not_found(request: Request, exc: Exception) -> Response:
    code = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) and code != 404 else "Not found."
    try:
        return render(request, "message.html", {"message": detail}, status=code)
    except Exception:  # a session or template problem: plain text still says it
        return PlainTextResponse(str(detail), status_code=code)


def create_app(db_path: str | Path, *, secret_path: str | Path | None = None, demo: bool = False,
               public_url: str | None = None, interval: float = 0.2, stream_seconds: float = 300.0,
               https_only: bool = False) -> Starlette:
    """The desk over the store at `db_path` (created if new, schema upgraded), with the session secret
    in `secret_path` (default beside the database, made at first start, 0600). `demo`: fill an empty
    store with the demo event first (demo.py). `public_url`: the address printed in the players' QR
    codes (default: the request's own host). `interval`: the live poll; `stream_seconds`: an SSE
    stream's life before the browser reconnects."""
    if demo:
        from gameclock.organiser.desk.demo import build_demo

        build_demo(db_path)
    store = Store(db_path)
    secret = auth.load_or_create_secret(secret_path or auth.secret_path_for(db_path))
    env = Environment(loader=PackageLoader("gameclock.organiser.desk", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    templates = Jinja2Templates(env=env)
    desk = Desk(store, templates, Live(store, interval), public_url, stream_seconds)
    routes = [
        Route("/", index),
        Route("/e/{event}/standings", standings_page),
        Route("/e/{event}/pairings/{round:int}", pairings_page),
        Route("/e/{event}/players", players_page),
        Route("/e/{event}/players/{pid}", player_page),
        Route("/e/{event}/projector", projector_page),
        Route("/e/{event}/part/{name}", fragment),
        Route("/e/{event}/stream", stream),
        Route("/fonts/{name}", font),
        Route("/setup", setup_page, methods=["GET", "POST"]),
        Route("/login", login_page, methods=["GET", "POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/admin", admin_home),
        Route("/admin/clocks", admin_clocks),
        Route("/admin/e/{event}", admin_event),
        Route("/admin/e/{event}/pair", admin_pair, methods=["POST"]),
        Route("/admin/e/{event}/publish", admin_publish, methods=["POST"]),
        Route("/admin/e/{event}/round/{n:int}", admin_round),
        Route("/admin/e/{event}/part/progress/{n:int}", admin_round_part),
        Route("/admin/e/{event}/export/{fmt}", admin_export),
        Route("/admin/results/{rid}", admin_result),
        Route("/admin/results/{rid}/amend", admin_amend, methods=["POST"]),
        Mount("/static", StaticFiles(packages=[("gameclock.organiser.desk", "static")]), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()

    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(SecurityHeaders),
                                Middleware(SessionMiddleware, secret_key=secret, session_cookie=SESSION_COOKIE,
                                           max_age=SESSION_AGE, same_site="strict", https_only=https_only)],
                    exception_handlers={HTTPException: not_found})
    app.state.desk = desk
    return app
