"""What every page handler of the desk shares: the app's state (`Desk`), path parts checked, the
event looked up, the session's login and CSRF token, bounded form reading, rendering in the reader's
language, and the `admin` guard. The handlers are in public.py, login.py, admin.py and their
neighbours; app.py puts them together.

Every byte from outside is hostile: path parts are length-checked and only ever SQL parameters or
escaped text; a POSTed form is url-encoded, bounded (413 over MAX_FORM, 415 for another type) and
carries the session's CSRF token (403 otherwise).
"""
from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, quote

from markupsafe import escape
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gameclock.organiser.desk import auth, i18n, views
from gameclock.organiser.desk.live import Live
from gameclock.organiser.store import Store

MAX_FORM = 64 * 1024        # bytes of a POSTed form
MAX_FIELDS = 50
MAX_PATH_PART = 80          # an event name, a result id, a player id in a path
SESSION_COOKIE = "gameclock_desk"
SESSION_AGE = 12 * 3600     # a tournament day
LANG_COOKIE = "gameclock_lang"
FONTS = {"Loma.ttf", "Loma-Bold.ttf"}
LOOPBACK = {"127.0.0.1", "::1", "localhost"}
ADMIN_HERE_ONLY = ("The organiser's pages open only on the organiser's PC (start the desk with "
                   "--admin-from-network to allow them from the hall's network).")
SAFE_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:\d{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?")
NEXT_RE = re.compile(r"/admin(/[A-Za-z0-9_.\-/%]{0,200})?")
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; font-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
USER = "organiser"
AMEND_OUTCOMES = ("left", "right", "draw")
MAX_REASON = 500
NOT_LOGGED_IN = "Refused: the organiser is not logged in here (log in, then send the form again)."


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
    """The app's state: the store, the live poller, the templates, the login throttle, the secret."""

    def __init__(self, store: Store, templates: Jinja2Templates, live: Live, public_url: str | None,
                 stream_seconds: float, admin_from_network: bool = False, secret: str = "",
                 https_only: bool = False):
        self.store, self.templates, self.live = store, templates, live
        self.public_url = public_url.rstrip("/") if public_url else None
        self.stream_seconds = stream_seconds
        self.throttle = auth.LoginThrottle()
        self.checking = 0   # logins whose password is being checked now (login.py)
        self.secret = secret            # the session cookie's, also signing the known-browser cookies
        self.https_only = https_only    # cookies marked Secure
        self.admin_from_network = admin_from_network
        self.streams: dict[str, int] = {}   # live streams open now, by client address (public.stream)


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


class LazyToken:
    """A page's `csrf`: the session's token, made only when the page shows a form. A page without one
    leaves the session as it came, so a visit that came without the session cookie (a link or a form
    on another site: SameSite=Strict keeps the cookie behind) answers without a cookie of its own
    instead of replacing the organiser's session with an empty one (logging them out)."""

    def __init__(self, request: Request) -> None:
        self._request = request

    def __str__(self) -> str:
        return csrf_token(self._request)

    def __html__(self) -> str:
        return str(escape(csrf_token(self._request)))


def password_hash(request: Request) -> str | None:
    return desk_of(request).store.setting(auth.PASSWORD_KEY)


def logged_in(request: Request) -> bool:
    """Whether the request's session is the organiser's: its signed cookie says so, for the password
    in effect (`pwv`), AND carries the session epoch the store holds now. The cookie alone is not
    enough: logging out sets a new epoch, so a copy of the cookie taken before the logout (another
    program reading the browser's cookies, a shared PC) is refused after it (issue 24, B8)."""
    stored = password_hash(request)
    if stored is None or request.session.get("user") != USER or request.session.get("pwv") != stored[-16:]:
        return False
    return auth.same_token(request.session.get("epoch"), desk_of(request).store.setting(auth.SESSION_EPOCH_KEY))


def who(request: Request) -> str:
    """The person the request's session is logged in as: the name every audit entry and hand entry
    records (`USER`, the organiser, until named accounts exist)."""
    return str(request.session.get("user") or USER)


def session_epoch(store: Store) -> str:
    """The session epoch new logins carry: the store's, made at the first login."""
    store.set_setting(auth.SESSION_EPOCH_KEY, auth.new_epoch(), only_if_unset=True)
    return str(store.setting(auth.SESSION_EPOCH_KEY))


def require_admin(request: Request) -> Response | None:
    """None when the organiser is logged in; else the 303 to the login page (a page asked for), or a
    403 for a form sent without a session (from another site, or after the session ended: the login
    page would write a session over the organiser's, and its `next` would be a POST-only address)."""
    if logged_in(request):
        return None
    if request.method not in ("GET", "HEAD"):
        return render(request, "message.html", {"message": NOT_LOGGED_IN}, status=403)
    return RedirectResponse(f"/login?next={quote(request.url.path)}", status_code=303)


async def read_body(request: Request, limit: int) -> bytes:
    """A request's body of at most `limit` bytes: HTTPException 413 as soon as the declared length or
    the bytes streamed pass it (a body without a length is read no further than that)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > limit):
        raise HTTPException(413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413)
    return bytes(body)


async def read_form(request: Request, limit: int = MAX_FORM) -> dict[str, str]:
    """A POSTed url-encoded form of at most `limit` bytes, with the session's CSRF token checked
    (HTTPException 403, 413, 415, 400). The first value of each field."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/x-www-form-urlencoded":
        raise HTTPException(415, "a form is sent url-encoded")
    body = await read_body(request, limit)
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


def lang_of_page(request: Request, event: str | None) -> str:
    """The language `render` gives a page of `event`: the reader's choice, else the event's own."""
    ev = desk_of(request).store.event(event) if event else None
    return lang_for(request, ev.get("language") if ev else None)


def render(request: Request, template: str, ctx: dict[str, Any], *, event: str | None = None,
           status: int = 200) -> Response:
    d = desk_of(request)
    lang = lang_of_page(request, event)
    context = {"lang": lang, "t": lambda text: i18n.tr(text, lang), "event": event,
               "said": lambda outcome: i18n.say_outcome(outcome, lang), "when": i18n.when,
               "say": lambda words: words.say(lambda text: i18n.tr(text, lang)),   # Said, model.Words
               "csrf": LazyToken(request), "admin": template.startswith("admin"),
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



# ------------------------------------------------------------------------------------------ admin
Handler = Callable[[Request], Awaitable[Response]]


def host_name(request: Request) -> str:
    """The Host header's name without its port ("" when there is none)."""
    host = request.headers.get("host", "")
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else ""
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def on_this_pc(request: Request) -> bool:
    """Whether the request comes from this PC by its address AND by the name the browser used: a page
    of another site whose name was re-resolved to 127.0.0.1 (DNS rebinding) comes from this PC too,
    under its own name."""
    client = request.client.host if request.client else ""
    return client in LOOPBACK and host_name(request) in LOOPBACK | {"[::1]"}


def away_from_the_pc(request: Request) -> Response | None:
    """The organiser's pages (login included) open only on this PC (on_this_pc: a page of another
    site on this PC cannot try passwords either) unless the desk was started with
    --admin-from-network: the hall's network is plain HTTP on a shared Wi-Fi, where the password and
    the session cookie would travel readable. The 403 page when the request comes from elsewhere."""
    if desk_of(request).admin_from_network or on_this_pc(request):
        return None
    return render(request, "message.html", {"message": ADMIN_HERE_ONLY}, status=403)


def admin(handler: Handler) -> Handler:
    """The organiser's pages: 403 away from this PC (away_from_the_pc), 303 to the login page
    without a session."""
    async def guarded(request: Request) -> Response:
        refused = away_from_the_pc(request) or require_admin(request)
        if refused is not None:
            return refused
        return await handler(request)
    guarded.__name__ = handler.__name__
    return guarded

