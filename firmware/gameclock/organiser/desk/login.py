"""First start (the password, from this PC only), logging in (throttled: auth.LoginThrottle says how
nobody can lock the organiser out) and out."""
from __future__ import annotations

import asyncio

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gameclock.organiser.desk import auth
from gameclock.organiser.desk.web import (
    NEXT_RE,
    USER,
    away_from_the_pc,
    desk_of,
    logged_in,
    on_this_pc,
    read_form,
    render,
    session_epoch,
)

# ------------------------------------------------------------------------------------------ login
MAX_CHECKS = 2      # passwords checked at once (scrypt: ~50 ms and 16 MiB each); more wait their turn
CHECK_TURN_S = 0.01  # how often a waiting check looks for its turn
TOO_MANY = "Too many tries: wait a minute."
TOO_MANY_UNKNOWN = ("Too many wrong passwords from browsers this desk does not know: wait a minute, or log "
                    "in from the browser that set the password or last logged in.")


def remember_browser(request: Request, response: Response, pwv: str) -> None:
    """Give `response`'s browser a known-browser cookie (auth.LoginThrottle): its wrong passwords
    count apart from then on, so no other program can lock it out. Sent back to /login only."""
    d = desk_of(request)
    response.set_cookie(auth.KNOWN_BROWSER_COOKIE, auth.known_browser_token(d.secret, pwv),
                        max_age=auth.KNOWN_BROWSER_AGE, path="/login", httponly=True, samesite="strict",
                        secure=d.https_only)


async def setup_page(request: Request) -> Response:
    """First start: set the organiser's password (only while none is set, only from this PC)."""
    store = desk_of(request).store
    if store.setting(auth.PASSWORD_KEY) is not None:
        return RedirectResponse("/login", status_code=303)
    # this PC, by its address AND by the name the browser used (DNS rebinding: web.on_this_pc)
    if not on_this_pc(request):
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
                if store.set_setting(auth.PASSWORD_KEY, hashed, only_if_unset=True):
                    response = RedirectResponse("/login", status_code=303)
                    remember_browser(request, response, hashed[-16:])  # this browser set it: known
                    return response
                return RedirectResponse("/login", status_code=303)
    return render(request, "setup.html", {"error": error}, status=400 if error else 200)


async def login_page(request: Request) -> Response:
    away = away_from_the_pc(request)
    if away is not None:
        return away
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
        browser = auth.known_browser(request.cookies.get(auth.KNOWN_BROWSER_COOKIE), d.secret, stored[-16:])
        key = d.throttle.key(browser)
        if d.throttle.blocked(key):
            error, status = (TOO_MANY if browser else TOO_MANY_UNKNOWN), 429
        else:
            # the try counts before the password is checked: tries sent together cannot all pass the
            # limit while the first are still being checked (the handler runs on the one event loop)
            d.throttle.failed(key)
            # a turn among MAX_CHECKS checks at once (memory): the throttle lets five a minute through
            # for unknown browsers and five for each known one, so the wait is short and bounded
            while d.checking >= MAX_CHECKS:
                await asyncio.sleep(CHECK_TURN_S)
            d.checking += 1
            try:
                ok = await run_in_threadpool(auth.verify_password, form.get("password", ""), stored)
            finally:
                d.checking -= 1
            if ok:
                d.throttle.succeeded(key)
                request.session.clear()
                request.session.update({"user": USER, "pwv": stored[-16:], "epoch": session_epoch(d.store),
                                        "csrf": auth.new_token()})
                response = RedirectResponse(nxt, status_code=303)
                remember_browser(request, response, stored[-16:])   # a new id: its count starts afresh
                return response
            error, status = "Wrong password.", 401
    return render(request, "login.html", {"error": error, "next": nxt}, status=status)


async def logout(request: Request) -> Response:
    """Log out: a new session epoch, so this session's cookie, any copy of it and the organiser's
    sessions in other browsers are refused from now on; then this browser's cookie emptied. Only the
    organiser's own session sets a new epoch: a form from a browser that is not logged in (any page
    can fetch the login page's token) just empties its own cookie."""
    await read_form(request)
    if logged_in(request):
        desk_of(request).store.set_setting(auth.SESSION_EPOCH_KEY, auth.new_epoch())
    request.session.clear()
    return RedirectResponse("/", status_code=303)


