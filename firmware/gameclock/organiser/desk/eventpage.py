"""The organiser's settings of the public pages (issue 28): the event's header (title, venue, dates,
arbiters, round times: like chess-results, atop every public page of the event) and the desk's public
address (the one phones reach the desk at: the QR codes carry it). Both on the event's admin page
(admin_event.html), the organiser's only (web.organiser)."""
from __future__ import annotations

import re
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from gameclock.organiser.desk.web import PUBLIC_URL_SETTING, back, desk_of, organiser, read_form, the_event, who
from gameclock.organiser.said import words
from gameclock.organiser.store import EVENT_HEADER

MAX_HEADER_TEXT = 200   # characters of a header's line (a title, the arbiters' names)
MAX_URL = 200
# an address a phone can open: http(s), a host (a name, an IPv4 or [IPv6] address), a port, a path; no spaces
URL_RE = re.compile(r"https?://(?:[A-Za-z0-9.\-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?(?:/[^\s?#]*)?")
LOOPBACK_URL = re.compile(r"https?://(?:localhost|127\.[0-9.]+|\[::1\])(?:[:/]|$)", re.IGNORECASE)


def header_from(form: dict[str, str]) -> dict[str, str]:
    """The header's texts from the form: each on one line (control characters out, spaces collapsed),
    at most MAX_HEADER_TEXT characters."""
    out = {}
    for key in EVENT_HEADER:
        text = "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in form.get(key, ""))
        out[key] = " ".join(text.split())[:MAX_HEADER_TEXT]
    return out


@organiser
async def set_header(request: Request) -> Response:
    """POST: the event's header as the form says (empty fields: not shown)."""
    event = the_event(request)
    form = await read_form(request)
    await run_in_threadpool(desk_of(request).store.set_event_header, event, header_from(form), who(request))
    return back(request, f"/admin/e/{quote(event)}", "success", words("the public pages' header is saved"))


@organiser
async def set_public_url(request: Request) -> Response:
    """POST (from an event's page, back to it): the desk's public address (the QR codes', every event's); empty: none. Refused (the page says why) when it is
    not an http(s) address or is this PC's own (127.0.0.1, localhost: a phone cannot reach it)."""
    event = the_event(request)
    form = await read_form(request)
    url = form.get("public_url", "").strip().rstrip("/")
    page = f"/admin/e/{quote(event)}"
    if url and (len(url) > MAX_URL or not URL_RE.fullmatch(url)):
        return back(request, page, "error", words("{url} is not an address a phone can open (http://HOST:PORT)",
                                                  url=repr(url[:60])))
    if LOOPBACK_URL.match(url):
        return back(request, page, "error", words("{url} is this PC's own address: a phone cannot reach it; give the "
                                                  "address of this PC on the hall's network (http://192.168.1.10:8017)",
                                                  url=repr(url[:60])))
    await run_in_threadpool(desk_of(request).store.set_setting, PUBLIC_URL_SETTING, url)
    return back(request, page, "success", words("the QR codes carry {url}", url=url) if url
                else words("the public address set at the desk is cleared"))
