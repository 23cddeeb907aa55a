"""The accounts page (/admin/accounts, an organiser's only: web.organiser): every account of the desk
with its role and state, a new account (a name, a role, a password typed twice), an account disabled
(its sessions end at once, copies of its cookie too) or enabled again, a new password for an account
(its sessions end), and the trail of these changes (who did what, when). Passwords are hashed with
scrypt (auth.py) off the event loop. web.py's module doc says what each role may do.
"""
from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from gameclock.organiser.desk import auth
from gameclock.organiser.desk.web import ROLES, back, desk_of, organiser, read_form, render, who
from gameclock.organiser.said import words
from gameclock.organiser.store import Store, StoreError

PAGE = "/admin/accounts"


def _page(request: Request, error: object = None, form: dict[str, str] | None = None, status: int = 200) -> Response:
    store = desk_of(request).store
    return render(request, "admin_accounts.html", {
        "accounts": store.accounts(), "changes": list(reversed(store.account_changes())), "roles": ROLES,
        "error": error, "form": {k: v for k, v in (form or {}).items() if k in ("name", "role")},
        "max_name": auth.MAX_NAME, "min_password": auth.MIN_PASSWORD}, status=status)


@organiser
async def accounts_page(request: Request) -> Response:
    return _page(request)


def _new_password(form: dict[str, str]) -> str:
    """The hash of the form's password (typed twice); AuthError why not."""
    if form.get("password", "") != form.get("again", ""):
        raise auth.AuthError(words("The two passwords differ."))
    return auth.hash_password(form.get("password", ""))


def _create(store: Store, form: dict[str, str], by: str) -> tuple[str, str]:
    """The account of the new-account form, made `by` that person: (its name, its role)."""
    name = auth.clean_name(form.get("name", ""))
    role = form.get("role", "")
    if role not in ROLES:
        raise auth.AuthError(words("the role is organiser or arbiter"))
    store.add_account(name, role, _new_password(form), auth.new_epoch(), by)
    return name, role


@organiser
async def new_account(request: Request) -> Response:
    form = await read_form(request)
    try:
        name, role = await run_in_threadpool(_create, desk_of(request).store, form, who(request))
    except (auth.AuthError, StoreError) as exc:
        return _page(request, exc, form, status=400)
    return back(request, PAGE, "success", words("account {name} made ({role}): it logs in with its own password",
                                                name=name, role=words(role)))


def _account(request: Request, form: dict[str, str]) -> dict[str, Any]:
    """The account the form names (`account`); StoreError when there is none."""
    account = desk_of(request).store.account(form.get("account", "")[:auth.MAX_NAME + 1])
    if account is None:
        raise StoreError(words("no account {name}", name=form.get("account", "")[:auth.MAX_NAME + 1]))
    return account


async def _disable(request: Request, disabled: bool) -> Response:
    form = await read_form(request)
    store = desk_of(request).store
    try:
        account = _account(request, form)
        store.set_account_disabled(account["name"], disabled, auth.new_epoch(), who(request))
    except StoreError as exc:
        return _page(request, exc, status=400)
    said = ("account {name} disabled: its sessions have ended" if disabled
            else "account {name} enabled: it logs in again with its password")
    return back(request, PAGE, "success", words(said, name=account["name"]))


@organiser
async def disable_account(request: Request) -> Response:
    return await _disable(request, True)


@organiser
async def enable_account(request: Request) -> Response:
    return await _disable(request, False)


@organiser
async def reset_password(request: Request) -> Response:
    """A new password for an account (its sessions end: the new hash's tag and a new epoch); the
    organiser's own included."""
    form = await read_form(request)
    store = desk_of(request).store
    try:
        account = _account(request, form)
        hashed = await run_in_threadpool(_new_password, form)
        store.set_account_password(account["name"], hashed, auth.new_epoch(), who(request))
    except (auth.AuthError, StoreError) as exc:
        return _page(request, exc, status=400)
    return back(request, PAGE, "success", words("a new password for {name}: its sessions have ended",
                                                name=account["name"]))
