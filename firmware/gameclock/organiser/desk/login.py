"""First start (the password, from this PC only), logging in (throttled) and out."""
from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gameclock.organiser.desk import auth
from gameclock.organiser.desk.web import (
    LOOPBACK,
    NEXT_RE,
    USER,
    away_from_the_pc,
    desk_of,
    logged_in,
    read_form,
    render,
    session_epoch,
)

# ------------------------------------------------------------------------------------------ login
MAX_CHECKS = 2      # passwords checked at once (scrypt: ~50 ms and 16 MiB each); more get 429


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _host_name(request: Request) -> str:
    """The Host header's name without its port ("" when there is none)."""
    host = request.headers.get("host", "")
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else ""
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def setup_page(request: Request) -> Response:
    """First start: set the organiser's password (only while none is set, only from this PC)."""
    store = desk_of(request).store
    if store.setting(auth.PASSWORD_KEY) is not None:
        return RedirectResponse("/login", status_code=303)
    # this PC, by its address AND by the name the browser used: a page from another site that had its
    # own name re-resolved to 127.0.0.1 (DNS rebinding) comes from this PC too, under its own name
    if _client(request) not in LOOPBACK or _host_name(request) not in LOOPBACK | {"[::1]"}:
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
        client = _client(request)
        if d.throttle.blocked(client) or d.checking >= MAX_CHECKS:
            error, status = "Too many tries: wait a minute.", 429
        else:
            # the try counts before the password is checked: tries sent together cannot all pass the
            # limit while the first are still being checked (the handler runs on the one event loop)
            d.throttle.failed(client)
            d.checking += 1
            try:
                ok = await run_in_threadpool(auth.verify_password, form.get("password", ""), stored)
            finally:
                d.checking -= 1
            if ok:
                d.throttle.succeeded(client)
                request.session.clear()
                request.session.update({"user": USER, "pwv": stored[-16:], "epoch": session_epoch(d.store),
                                        "csrf": auth.new_token()})
                return RedirectResponse(nxt, status_code=303)
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


