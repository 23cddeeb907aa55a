"""What every page handler of the desk shares: the app's state (`Desk`), path parts checked, the
event looked up, the session's account and CSRF token, bounded form reading, rendering in the
reader's language with its notices, and the `admin` and `organiser` guards. The handlers are in
public.py, login.py, admin.py and their neighbours; app.py puts them together.

Accounts (issue 26; login.py, accounts.py): each person at the desk logs in with their own account,
whose name every audit entry records (`who`). Two roles:

- an **organiser** runs the event and the desk: everything below, and events (creating them, their
  options and player list), pairing, fixing and publishing drafts, exports, the clocks' enrollment,
  the accounts. Guard: `organiser`.
- an **arbiter** works the hall: every page under /admin that shows the events, their rounds,
  progress and results, and the forms that correct a game's result (amendments and their
  withdrawal, a result entered by hand); nothing that changes the event's set-up, its draw, what
  the clocks are pushed, what leaves the PC or who may log in. Guard: `admin`.

A new handler takes `organiser` unless it is one of the arbiter's (docs/desk.md has the table).

Notices: a form's handler says what it did or why not with `back(request, url, kind, said)` (or
`notify`); a form shown again passes `error` to `render`. `said` is Words, a SaidError or a text,
shown in the page's language (i18n.say); `kind` is success, notice or error, each with its own word
and mark (base.html, desk.css), never colour alone.

Every byte from outside is hostile: path parts are length-checked and only ever SQL parameters or
escaped text; a POSTed form is url-encoded, bounded (413 over MAX_FORM, 415 for another type) and
carries the session's CSRF token (403 otherwise).
"""
from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote

from markupsafe import escape
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gameclock.organiser.desk import auth, i18n, thaiwrap, views
from gameclock.organiser.desk.eventgames import EventGames
from gameclock.organiser.desk.hall import Poller, Shared
from gameclock.organiser.desk.live import Live
from gameclock.organiser.said import words
from gameclock.organiser.store import ACCOUNT_ROLES, Store

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
USER = "organiser"           # issue 24's one login; the name the first account of a migrated desk has
ROLES = ACCOUNT_ROLES       # an account's role: the module doc says what each may do
ORGANISER, ARBITER = ROLES
AMEND_OUTCOMES = ("left", "right", "draw")
MAX_REASON = 500
NOT_LOGGED_IN = "Refused: this browser is not logged in (log in, then send the form again)."


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
    """The app's state: the store, the live changes and their poller, the shared public fragments, the
    templates, the login throttle, the secret."""

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
        self.notices: OrderedDict[str, list[Notice]] = OrderedDict()   # waiting for a session's next page (notify)
        self.shared = Shared()          # the public pages' figures and fragments, once per store stamp (hall.py)
        self.poller = Poller(live)      # the one poll of the store for every live stream (hall.py)
        self.games = EventGames()       # each event's games, read again only where the store changed


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


def account_of(request: Request) -> dict[str, Any] | None:
    """The account the request's session is logged in as (Store.account's dict), or None. The signed
    cookie alone is not enough: the account must exist and be enabled, the cookie must be for its
    password in effect (`pwv`) AND carry its session epoch as the store holds it now. Logging out,
    disabling the account or a new password set a new epoch, so a copy of the cookie taken before
    (another program reading the browser's cookies, a shared PC) is refused after it (issue 24, B8;
    per account, issue 26)."""
    name = request.session.get("user")
    if not isinstance(name, str) or not name:
        return None
    account = desk_of(request).store.account(name)
    if (account is None or account["disabled"] or account["name"] != name
            or request.session.get("pwv") != auth.pwv_of(account["password"])
            or not auth.same_token(request.session.get("epoch"), account["epoch"])):
        return None
    return account


def logged_in(request: Request) -> bool:
    """Whether the request's session is an account's (account_of)."""
    return account_of(request) is not None


def who(request: Request) -> str:
    """The person the request's session is logged in as: the account's name, which every audit entry
    and hand entry records (`by`). Called from the handlers `admin` and `organiser` guard, where the
    session is an account's; USER otherwise."""
    name = request.session.get("user")
    return name if isinstance(name, str) and name else USER


def require_admin(request: Request) -> Response | None:
    """None when an account is logged in; else the 303 to the login page (a page asked for), or a
    403 for a form sent without a session (from another site, or after the session ended: the login
    page would write a session over the account's, and its `next` would be a POST-only address)."""
    if logged_in(request):
        return None
    if request.method not in ("GET", "HEAD"):
        return render(request, "message.html", {"error": NOT_LOGGED_IN}, status=403)
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


def lang_of_page(request: Request, event: str | None, language: str | None = None) -> str:
    """The language `render` gives a page of `event`: the reader's choice, else the event's own (else
    `language`: a page of no one event, the events' own, e.g. the public index)."""
    ev = desk_of(request).store.event(event) if event else None
    return lang_for(request, ev.get("language") if ev else language)


# ------------------------------------------------------------------------------------------ notices
NOTICE_KINDS = ("success", "notice", "error")   # done as asked; worth knowing; refused or failed
MAX_WAITING = 256        # sessions whose notices wait for their next page (Desk.notices), the oldest dropped
MAX_NOTICES = 4          # notices one session keeps waiting


@dataclass(frozen=True)
class Notice:
    """What a page tells its reader above its content: `kind` (NOTICE_KINDS: each shown with its own
    word and mark, not by colour alone) and what it says (i18n.say: Words, a SaidError, a text)."""
    kind: str
    said: object


def notify(request: Request, kind: str, said: object) -> None:
    """Keep a notice for the next page this session shows: after a form, the page it redirects to
    (Post/Redirect/Get). Kept in the desk's memory (Desk.notices, bounded) under a random key the
    session holds, so the session cookie stays small whatever the notice says, and no link can put
    a message on an account's page (issue 26: the `?msg=` of a redirect could be any text)."""
    if kind not in NOTICE_KINDS:
        raise ValueError(f"a notice is one of {NOTICE_KINDS}")
    d = desk_of(request)
    if isinstance(said, BaseException):   # its words or its line, not the exception (nor its traceback)
        said = i18n.words_of(said) or str(said)
    key = request.session.get("notices")
    if not isinstance(key, str) or key not in d.notices:
        key = request.session["notices"] = auth.new_epoch()
    waiting = d.notices.setdefault(key, [])
    waiting.append(Notice(kind, said))
    del waiting[:-MAX_NOTICES]
    d.notices.move_to_end(key)
    while len(d.notices) > MAX_WAITING:
        d.notices.popitem(last=False)


def back(request: Request, url: str, kind: str, said: object, notes: Iterable[object] = ()) -> Response:
    """The 303 to `url` after a form, with a notice for that page (notify), then `notes` (notices of
    kind "notice": what is worth knowing about what was done)."""
    notify(request, kind, said)
    for note in notes:
        notify(request, "notice", note)
    return RedirectResponse(url, status_code=303)


def _notices(request: Request, ctx: dict[str, Any]) -> list[Notice]:
    """The notices a page shows: those waiting for this session (taken), then the page's own
    `error` (a form shown again with why it was refused)."""
    out: list[Notice] = []
    key = request.session.get("notices") if "session" in request.scope else None
    if isinstance(key, str):
        out += desk_of(request).notices.pop(key, [])
    if ctx.get("error"):
        out.append(Notice("error", ctx["error"]))
    return out


def words_context(lang: str, event: str | None) -> dict[str, Any]:
    """What every template has to say things in `lang`: the part of a page's context that depends on
    no request, so a public fragment rendered once serves every reader of that language (hall.py)."""
    return {"lang": lang, "t": lambda text: i18n.tr(text, lang), "event": event,
            "said": lambda outcome: i18n.say_outcome(outcome, lang), "when": i18n.when,
            "say": lambda said: i18n.say(said, lang),   # Words (model.Words), a SaidError, a text
            "entry": lambda line: i18n.say_entry(line, lang),   # a record's entry line (`score left 412`)
            # issue 28, the public pages: a name whose Thai parts never wrap inside; the page's own Thai words
            # unbreakable, a break between them (thaiwrap.py); a note said without the results' internal ids
            "pname": thaiwrap.name_html, "w": lambda text, names=frozenset(): thaiwrap.words_html(text, lang, names),
            "say_public": lambda said: i18n.say_public(said, lang)}


def render_shared(d: Desk, template: str, lang: str, event: str | None, ctx: dict[str, Any]) -> str:
    """A public fragment's HTML in `lang`, the same for every reader (no session, no notices, no
    form): rendered once and shared (hall.py). Call it off the event loop."""
    context = {**words_context(lang, event), "csrf": "", "admin": False, "logged_in": False, "path": "",
               "account": None, "is_organiser": False, "notices": [],
               "page_header": d.store.event_header(event) if event else None, **ctx}
    return d.templates.env.get_template(template).render(context)


def render(request: Request, template: str, ctx: dict[str, Any], *, event: str | None = None,
           status: int = 200, language: str | None = None) -> Response:
    """The page `template` in its reader's language (lang_of_page) with `ctx`, the account logged in
    (`account`: its name and role, or None) and the notices (`notices`: base.html shows them; a
    `ctx["error"]` is one, a form's refusal)."""
    d = desk_of(request)
    lang = lang_of_page(request, event, language)
    account = account_of(request)
    context = {**words_context(lang, event),
               "csrf": LazyToken(request), "admin": template.startswith("admin"),
               "logged_in": account is not None, "path": request.url.path,
               "account": {"name": account["name"], "role": account["role"]} if account else None,
               "is_organiser": account is not None and account["role"] == ORGANISER,
               "notices": _notices(request, ctx),
               # issue 28: the event's header (title, venue, dates...) atop its public pages (part_event_header.html)
               "page_header": d.store.event_header(event) if event and not template.startswith("admin") else None,
               **ctx}
    response = d.templates.TemplateResponse(request, template, context, status_code=status)
    q = request.query_params.get("lang")
    if q in i18n.LANGUAGES:
        response.set_cookie(LANG_COOKIE, q, max_age=365 * 86400, samesite="lax", httponly=True)
    return response


PUBLIC_URL_SETTING = "public_url"   # desk_settings: the address phones reach the desk at (issue 28)


def public_address(d: Desk) -> str | None:
    """The address the organiser set for the QR codes (the desk's setting, else --public-url), or None."""
    return d.store.setting(PUBLIC_URL_SETTING) or d.public_url


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
    return render(request, "message.html", {"error": ADMIN_HERE_ONLY}, status=403)


def admin(handler: Handler) -> Handler:
    """The pages of any account, an organiser's or an arbiter's (module doc: what each may do): 403
    away from this PC (away_from_the_pc), 303 to the login page without a session."""
    async def guarded(request: Request) -> Response:
        refused = away_from_the_pc(request) or require_admin(request)
        if refused is not None:
            return refused
        return await handler(request)
    guarded.__name__ = handler.__name__
    return guarded


def organiser(handler: Handler) -> Handler:
    """The organiser's own pages and forms (module doc): as `admin`, then 403 for an arbiter's
    account, before anything of the request is read or done."""
    async def guarded(request: Request) -> Response:
        refused = away_from_the_pc(request) or require_admin(request)
        if refused is not None:
            return refused
        account = account_of(request)
        if account is None or account["role"] != ORGANISER:
            return render(request, "message.html", {"error": words(
                "Only an organiser's account may do this ({name} is an arbiter's).",
                name=account["name"] if account else "?")}, status=403)
        return await handler(request)
    guarded.__name__ = handler.__name__
    return guarded


def attachment(name: str) -> str:
    """A download's Content-Disposition (RFC 6266): `filename*` the name as it is, UTF-8 percent-encoded
    (RFC 8187: only its attr-chars left as they are), and `filename` an ASCII stand-in for a browser
    that reads only that: the name's ASCII letters, digits, '.' and '-', every other run one '_'
    (issue 26: a Thai name's marks were dropped from both)."""
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    plain = re.sub(r"[^A-Za-z0-9.-]+", "_", stem).strip("_.-") or "export"
    plain += "." + re.sub(r"[^A-Za-z0-9]+", "_", ext) if ext else ""
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"
