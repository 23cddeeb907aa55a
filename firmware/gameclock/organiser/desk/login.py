"""First start (the organiser's account: a name and a password, from this PC only), logging in with
an account's name and password (throttled: auth.LoginThrottle says how nobody can lock an account
out) and out."""
from __future__ import annotations

import asyncio
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gameclock.organiser.desk import auth
from gameclock.organiser.desk.web import (
    NEXT_RE,
    ORGANISER,
    account_of,
    away_from_the_pc,
    desk_of,
    on_this_pc,
    read_form,
    render,
)
from gameclock.organiser.said import words
from gameclock.organiser.store import Store, StoreError

# ------------------------------------------------------------------------------------------ login
MAX_CHECKS = 2      # passwords checked at once (scrypt: ~50 ms and 16 MiB each); more wait their turn
CHECK_TURN_S = 0.01  # how often a waiting check looks for its turn
TOO_MANY = "Too many tries: wait a minute."
TOO_MANY_UNKNOWN = ("Too many wrong passwords for this account from browsers this desk does not know: wait a "
                    "minute, or log in from a browser you logged in from before.")
WRONG = "Wrong name or password."
DISABLED = "This account is disabled: ask an organiser to enable it."


def _tags(store: Store) -> list[tuple[str, str]]:
    """(folded name, password tag) of every enabled account: what a known-browser cookie is checked against."""
    return [(store.fold(a["name"]), auth.pwv_of(a["password"])) for a in store.accounts() if not a["disabled"]]


def remember_browser(request: Request, response: Response, account: dict[str, Any]) -> None:
    """Give `response`'s browser a known-browser cookie for `account` (auth.LoginThrottle), keeping
    the other accounts it was known for: its wrong passwords for them count apart from then on, so
    no other program can lock it out. Sent back to /login only."""
    d = desk_of(request)
    token = auth.known_browser_token(d.secret, d.store.fold(account["name"]), auth.pwv_of(account["password"]),
                                     request.cookies.get(auth.KNOWN_BROWSER_COOKIE), _tags(d.store))
    response.set_cookie(auth.KNOWN_BROWSER_COOKIE, token, max_age=auth.KNOWN_BROWSER_AGE, path="/login",
                        httponly=True, samesite="strict", secure=d.https_only)


def _first_start(store: Store, name: str, pw: str, again: str) -> dict[str, Any] | None:
    """The organiser's account of the first start (AuthError, StoreError say why not); None when
    another browser made the first account meanwhile."""
    name = auth.clean_name(name)
    if pw != again:
        raise auth.AuthError(words("The two passwords differ."))
    hashed = auth.hash_password(pw)
    if not store.add_account(name, ORGANISER, hashed, auth.new_epoch(), by=name, first=True):
        return None
    return store.account(name)


async def setup_page(request: Request) -> Response:
    """First start: the organiser's account, a name and a password (only while there is no account,
    only from this PC)."""
    store = desk_of(request).store
    if store.accounts():
        return RedirectResponse("/login", status_code=303)
    # this PC, by its address AND by the name the browser used (DNS rebinding: web.on_this_pc)
    if not on_this_pc(request):
        return render(request, "message.html", {"error": "Only the organiser's PC can open these pages."},
                      status=403)
    error: object = None
    name = ""
    if request.method == "POST":
        form = await read_form(request)
        name = form.get("name", "")
        try:
            account = await run_in_threadpool(_first_start, store, name, form.get("password", ""),
                                              form.get("again", ""))
        except (auth.AuthError, StoreError) as exc:
            error = exc
        else:
            response = RedirectResponse("/login", status_code=303)
            if account is not None:
                remember_browser(request, response, account)   # this browser made it: known
            return response
    return render(request, "setup.html", {"error": error, "name": name[:auth.MAX_NAME]}, status=400 if error else 200)


async def login_page(request: Request) -> Response:
    away = away_from_the_pc(request)
    if away is not None:
        return away
    d = desk_of(request)
    if not d.store.accounts():
        return RedirectResponse("/setup", status_code=303)
    nxt = request.query_params.get("next", "/admin")
    nxt = nxt if NEXT_RE.fullmatch(nxt) else "/admin"
    error: object = None
    status = 200
    cookie = request.cookies.get(auth.KNOWN_BROWSER_COOKIE)
    # the name offered: the account this browser logged in as last (its known-browser cookie)
    known = auth.known_accounts(cookie, d.secret, _tags(d.store))
    account = d.store.account(known[0]) if known else None
    name = account["name"] if account else ""
    if request.method == "POST":
        form = await read_form(request)
        nxt = form.get("next", "/admin")
        nxt = nxt if NEXT_RE.fullmatch(nxt) else "/admin"
        name = " ".join(form.get("name", "").split())[:auth.MAX_NAME + 1]
        account = d.store.account(name) if name else None
        folded = d.store.fold(account["name"]) if account else None
        pwv = auth.pwv_of(account["password"]) if account else ""
        browser = auth.known_browser(cookie, d.secret, folded, pwv) if folded else None
        key = d.throttle.key(folded, browser)
        if d.throttle.blocked(key):
            error, status = (TOO_MANY if browser else TOO_MANY_UNKNOWN), 429
        else:
            # the try counts before the password is checked: tries sent together cannot all pass the
            # limit while the first are still being checked (the handler runs on the one event loop)
            d.throttle.failed(key)
            # a turn among MAX_CHECKS checks at once (memory): the throttle lets five a minute through
            # for each account's unknown browsers and five for each known one, so the wait is short
            while d.checking >= MAX_CHECKS:
                await asyncio.sleep(CHECK_TURN_S)
            d.checking += 1
            try:
                # a name that is no account's is checked against a hash too: the same time either way
                stored = account["password"] if account else auth.no_account_hash()
                ok = await run_in_threadpool(auth.verify_password, form.get("password", ""), stored)
            finally:
                d.checking -= 1
            if ok and account is not None and account["disabled"]:
                d.throttle.succeeded(key)
                error, status = DISABLED, 403      # said only to whoever knows its password
            elif ok and account is not None:
                d.throttle.succeeded(key)
                request.session.clear()
                request.session.update({"user": account["name"], "pwv": pwv, "epoch": account["epoch"],
                                        "csrf": auth.new_token()})
                response = RedirectResponse(nxt, status_code=303)
                remember_browser(request, response, account)
                return response
            else:
                error, status = WRONG, 401
    return render(request, "login.html", {"error": error, "next": nxt, "name": name}, status=status)


async def logout(request: Request) -> Response:
    """Log out: a new session epoch for the account, so this session's cookie, any copy of it and
    the account's sessions in other browsers are refused from now on (other accounts' go on); then
    this browser's cookie emptied. Only a logged-in session sets a new epoch: a form from a browser
    that is not logged in (any page can fetch the login page's token) just empties its own cookie."""
    await read_form(request)
    account = account_of(request)
    if account is not None:
        desk_of(request).store.set_account_epoch(account["name"], auth.new_epoch())
    request.session.clear()
    return RedirectResponse("/", status_code=303)
