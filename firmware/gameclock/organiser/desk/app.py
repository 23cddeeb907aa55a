"""The desk's web app (Starlette): `create_app(db_path)`; `gameclock desk` serves it with uvicorn.

Public pages are read-only and show no admin control. The organiser's pages are under /admin: a
session (a signed cookie, SessionMiddleware, valid while it carries the store's session epoch: a
logout ends every copy) after logging in with an account's name and password (the organiser's made at
first start, from this PC only: a loopback client under a loopback name; the others on the accounts
page), 303 to /login without one (a POST: 403); an arbiter's account gets 403 on the organiser's own
pages (web.py says which). Wrong passwords are throttled per account and known browser
(auth.LoginThrottle). Every POST needs the session's
CSRF token (403 otherwise) and is a small url-encoded form read with limits (413 over MAX_FORM,
415 for another type). Every byte from outside is hostile: path parts are length-checked and only
ever SQL parameters or escaped text; `next` is followed only to /admin paths.
"""
from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from gameclock.organiser.desk import accounts, admin, auth, clocks, eventpage, login, public, results, setup, site, wall
from gameclock.organiser.desk.live import Live
from gameclock.organiser.desk.web import SESSION_AGE, SESSION_COOKIE, Desk, SecurityHeaders, render
from gameclock.organiser.store import Store


# ------------------------------------------------------------------------------------------ the app
async def not_found(request: Request, exc: Exception) -> Response:
    code = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) and code != 404 else "Not found."
    try:
        return render(request, "message.html", {"error": detail}, status=code)
    except Exception:  # a session or template problem: plain text still says it
        return PlainTextResponse(str(detail), status_code=code)


def create_app(db_path: str | Path, *, secret_path: str | Path | None = None, demo: bool = False,
               public_url: str | None = None, interval: float = 0.2, stream_seconds: float = 300.0,
               https_only: bool = False, dock: Sequence[str] = (), admin_from_network: bool = False) -> Starlette:
    """The desk over the store at `db_path` (created if new, schema upgraded), with the session secret
    in `secret_path` (default beside the database, made at first start, 0600). `demo`: fill an empty
    store with the demo event first (demo.py). `public_url`: the address printed in the QR codes
    when none is set at the desk (eventpage.py; without either: the request's own host, unless it is this PC's). `interval`: the live poll; `stream_seconds`: an SSE
    stream's life before the browser reconnects. `dock`: the serial ports served inside the desk
    (`auto` or paths, as `gameclock receive --port`; desk/docking.py), from the app's start to its end."""
    if demo:
        from gameclock.organiser.desk.demo import build_demo

        build_demo(db_path)
    store = Store(db_path)
    secret = auth.load_or_create_secret(secret_path or auth.secret_path_for(db_path))
    auth.no_account_hash()   # made now (~50 ms), so the first login naming no account takes no longer than others
    env = Environment(loader=PackageLoader("gameclock.organiser.desk", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    templates = Jinja2Templates(env=env)
    service = None
    if dock:
        from gameclock.organiser.desk.docking import DockService

        service = DockService(store, list(dock))
    desk = Desk(store, templates, Live(store, interval), public_url, stream_seconds, admin_from_network,
                secret=secret, https_only=https_only)
    routes = [
        Route("/", public.index),
        Route("/e/{event}/standings", public.standings_page),
        Route("/e/{event}/crosstable", public.crosstable_page),
        Route("/e/{event}/final", public.final_page),
        Route("/e/{event}/pairings", public.latest_pairings),
        Route("/e/{event}/pairings/{round:int}", public.pairings_page),
        Route("/e/{event}/players", public.players_page),
        Route("/e/{event}/players/{pid}", public.player_page),
        # issue 28: find my table, a table's page (its QR code's), the QR codes to print
        Route("/e/{event}/find", public.find_page),
        Route("/e/{event}/pairings/{round:int}/table/{table:int}", public.table_page),
        Route("/e/{event}/qr/players", public.qr_players_page),
        Route("/e/{event}/qr/round/{n:int}", public.qr_round_page),
        Route("/e/{event}/projector", public.projector_page),
        # issue 28, the hall's wall: the projector's head (round, time, round clock, announcements) and its
        # tables with schools; the organiser's Start round and announcements; the static export of the public pages
        Route("/e/{event}/part/wall/head", wall.head_part),
        Route("/e/{event}/part/wall/{name}", wall.table_part),
        Route("/admin/e/{event}/round/{n:int}/start", wall.start_round, methods=["POST"]),
        Route("/admin/e/{event}/wall/add", wall.add_announcement, methods=["POST"]),
        Route("/admin/e/{event}/wall/remove", wall.remove_announcement, methods=["POST"]),
        Route("/admin/e/{event}/export/site", site.export_zip),
        Route("/e/{event}/part/{name}", public.fragment),
        Route("/e/{event}/stream", public.stream),
        Route("/fonts/{name}", public.font),
        Route("/setup", login.setup_page, methods=["GET", "POST"]),
        Route("/login", login.login_page, methods=["GET", "POST"]),
        Route("/logout", login.logout, methods=["POST"]),
        Route("/admin/accounts", accounts.accounts_page),
        Route("/admin/accounts/new", accounts.new_account, methods=["POST"]),
        Route("/admin/accounts/disable", accounts.disable_account, methods=["POST"]),
        Route("/admin/accounts/enable", accounts.enable_account, methods=["POST"]),
        Route("/admin/accounts/password", accounts.reset_password, methods=["POST"]),
        Route("/admin", admin.admin_home),
        Route("/admin/clocks", clocks.clocks_page),
        Route("/admin/clocks/enroll", clocks.enroll, methods=["POST"]),
        Route("/admin/clocks/code", clocks.code, methods=["POST"]),
        # issue 26: the table each clock serves (the clock's event follows the PC)
        Route("/admin/clocks/assign", clocks.assign, methods=["POST"]),
        Route("/admin/clocks/assign-order", clocks.assign_order, methods=["POST"]),
        Route("/admin/clocks/unassign", clocks.unassign, methods=["POST"]),
        Route("/admin/events/new", setup.new_event, methods=["GET", "POST"]),
        Route("/admin/e/{event}/fix", setup.fix_draft, methods=["POST"]),
        Route("/admin/e/{event}/options", setup.options_page, methods=["GET", "POST"]),
        # issue 28: the public pages' header and the desk's public address (the QR codes')
        Route("/admin/e/{event}/header", eventpage.set_header, methods=["POST"]),
        Route("/admin/e/{event}/public-url", eventpage.set_public_url, methods=["POST"]),
        # players during the event (issue 26): a late entry, one player's edit, withdrawal, reinstatement
        Route("/admin/e/{event}/players/new", setup.late_entry, methods=["GET", "POST"]),
        Route("/admin/e/{event}/players/{pid}", setup.player_page, methods=["GET", "POST"]),
        Route("/admin/e/{event}/players/{pid}/withdraw", setup.player_withdraw, methods=["POST"]),
        Route("/admin/e/{event}/players/{pid}/reinstate", setup.player_reinstate, methods=["POST"]),
        Route("/admin/e/{event}", admin.admin_event),
        Route("/admin/e/{event}/pair", admin.admin_pair, methods=["POST"]),
        Route("/admin/e/{event}/redraw", admin.admin_redraw, methods=["POST"]),
        Route("/admin/e/{event}/publish", admin.admin_publish, methods=["POST"]),
        Route("/admin/e/{event}/prizes", admin.admin_prizes),
        Route("/admin/e/{event}/round/{n:int}", admin.admin_round),
        Route("/admin/e/{event}/part/progress/{n:int}", admin.admin_round_part),
        Route("/admin/e/{event}/export/{fmt}", admin.admin_export),
        Route("/admin/results/{rid}", results.result_page),   # a clock's result, or a hand entry (issue 26)
        Route("/admin/results/{rid}/amend", admin.admin_amend, methods=["POST"]),
        Route("/admin/results/{rid}/withdraw", admin.admin_withdraw, methods=["POST"]),
        # issue 26, the results side: hand entry, wrong uploads, the results to look at
        Route("/admin/e/{event}/round/{n:int}/table/{t:int}", results.table_page),
        Route("/admin/e/{event}/round/{n:int}/table/{t:int}/hand", results.table_hand, methods=["POST"]),
        Route("/admin/e/{event}/delete", results.event_delete, methods=["POST"]),
        Route("/admin/results/{rid}/move", results.result_move, methods=["POST"]),
        Route("/admin/results/{rid}/aside", results.result_aside, methods=["POST"]),
        Route("/admin/results/{rid}/decide", results.result_decide, methods=["POST"]),
        Route("/admin/hand/{rid}/withdraw", results.hand_withdraw, methods=["POST"]),
        Route("/admin/uploads", results.uploads_page),
        Mount("/static", StaticFiles(packages=[("gameclock.organiser.desk", "static")]), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if service is not None:
            service.start()
        try:
            yield
        finally:
            if service is not None:
                service.stop()
            desk.poller.stop()
            desk.shared.close()
            store.close()

    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(SecurityHeaders),
                                Middleware(SessionMiddleware, secret_key=secret, session_cookie=SESSION_COOKIE,
                                           max_age=SESSION_AGE, same_site="strict", https_only=https_only)],
                    exception_handlers={HTTPException: not_found})
    app.state.desk = desk
    app.state.dock = service
    return app

