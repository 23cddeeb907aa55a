"""The static export of an event's public pages (issue 28): a folder the organiser copies to any web
host after each round, so parents away from the hall see what the hall sees.

The pages are the desk's own: each is asked of the desk's app in this process (an ASGI GET, no
network, no session: exactly what a phone in the hall gets), so the export shows the same templates
as the desk, whatever they become. Then each page is made to stand alone:
- every link to a page of the export becomes a relative link to its file (`players/3.html`); a link to
  anything else of the desk (the projector, another event, a language switch, a login) loses its href
  (its text stays); a form (a search, which needs the desk) is left out;
- no JavaScript (the scripts and the live areas' sources are left out: nothing live, no stream);
- the stylesheet and the fonts it names are copied in (`static/`, `fonts/`);
- the players' QR codes are left out: they point at the desk, which the readers of the copy cannot reach;
- the address the pages were asked at (EXPORT_HOST) and the desk's public address, anywhere left in a
  page's text, become the relative link too;
- each page says it is a copy, made when (this PC's time): it does not update itself.

The pages found: the index, the event's standings, pairings of each round, players, each player's card,
crosstable and final standings (when the desk has them), and any page of the event they link to (a
page another part of the desk adds is exported once a public page links to it), at most MAX_PAGES.
"""
from __future__ import annotations

import asyncio
import hashlib
import html
import io
import posixpath
import re
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message

from gameclock.organiser.desk import i18n, views
from gameclock.organiser.desk.web import attachment, lang_of_page, organiser, the_event
from gameclock.organiser.store import now_utc

EXPORT_HOST = "export.invalid"      # the Host the pages are asked with (.invalid: never a real address)
EXPORT_CLIENT = ("192.0.2.1", 0)    # a documentation address: a reader away from this PC, as a phone is
MAX_PAGES = 20_000                  # pages in one export (a 5,000-player event has ~5,020)
# the desk's pages that are never exported: live, per reader, or the organiser's
NOT_EXPORTED = re.compile(r"/(projector|stream|part)(/|$)")
SAFE_PART = re.compile(r"[A-Za-z0-9_-]{1,64}")
ATTR = re.compile(r'(?<![\w-])(href|src|action)="([^"]*)"')
CSS_URL = re.compile(r'url\("?(/[^")]+)"?\)')


class SiteError(Exception):
    """The export could not be made (one line: why)."""


async def asgi_get(app: ASGIApp, path: str, query: str = "") -> tuple[int, dict[str, str], bytes]:
    """GET `path` of `app` in this process: (status, headers lower-cased, body)."""
    scope: dict[str, Any] = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": quote(path).encode("ascii"), "query_string": query.encode("ascii"),
        "root_path": "", "headers": [(b"host", EXPORT_HOST.encode("ascii"))], "client": EXPORT_CLIENT,
        "server": (EXPORT_HOST, 80), "state": {}}
    status, headers, body = 0, {}, []
    asked = False
    done = asyncio.Event()

    async def receive() -> Message:
        # the request's (empty) body once; then "disconnected" only once the whole answer is sent: a file
        # response listens for a disconnect while it sends, and one told at once stops before its body
        nonlocal asked
        if asked:
            await done.wait()
            return {"type": "http.disconnect"}
        asked = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            headers.update({k.decode("latin-1").lower(): v.decode("latin-1") for k, v in message.get("headers", [])})
        elif message["type"] == "http.response.body":
            body.append(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)
    return status, headers, b"".join(body)


def file_for(path: str, event_prefix: str) -> str:
    """The export's file for the desk's page `path` (unquoted): `/` index.html, the event's pages under
    their own names (`/e/E/players/3` players/3.html), a path part that is not plain ASCII (a Thai name,
    anything hostile: `..`, a slash) a hash of it, so no file lands outside the folder."""
    if path == "/":
        return "index.html"
    rest = path[len(event_prefix):].strip("/") if path.startswith(event_prefix) else path.strip("/")
    parts = [p if SAFE_PART.fullmatch(p) else "x-" + hashlib.blake2b(p.encode("utf-8"), digest_size=8).hexdigest()
             for p in rest.split("/") if p] or ["event"]
    return "/".join(parts) + ".html"


class Export:
    """One export in the making: the pages found (`files`: file -> bytes) and the desk paths they answer."""

    def __init__(self, app: ASGIApp, event: str, lang: str, desk_urls: tuple[str, ...] = ()) -> None:
        self.app, self.event, self.lang = app, event, lang
        self.prefix = f"/e/{event}/"
        self.desk_urls = ("http://" + EXPORT_HOST, "https://" + EXPORT_HOST,
                          *(u.rstrip("/") for u in desk_urls if u))
        self.files: dict[str, bytes] = {}
        self.pages: dict[str, str] = {}      # desk path (unquoted) -> file
        self.redirects: dict[str, str] = {}  # desk path -> the path it sends to
        self.missing: set[str] = set()
        self.made = i18n.tr("A copy of the desk's pages, made at", lang) + " " + i18n.when(now_utc())

    def exported(self, path: str) -> bool:
        return (path == "/" or path.startswith(self.prefix)) and not NOT_EXPORTED.search(path[len(self.prefix) - 1:])

    async def build(self, seeds: list[str]) -> dict[str, bytes]:
        """Every page from `seeds` and what they link to, made to stand alone (module doc)."""
        raw: dict[str, str] = {}
        todo = list(seeds)
        while todo:
            path = todo.pop(0)
            if path in self.pages or path in self.missing or path in self.redirects:
                continue
            if len(self.pages) >= MAX_PAGES:
                raise SiteError(f"more than {MAX_PAGES} pages: not exported")
            status, headers, body = await asgi_get(self.app, path, f"lang={self.lang}")
            if status in (301, 302, 303, 307, 308):
                target = self._desk_path(headers.get("location", ""))
                if target is not None and self.exported(target):
                    self.redirects[path] = target
                    todo.append(target)
                continue
            if status != 200 or not headers.get("content-type", "").startswith("text/html"):
                self.missing.add(path)
                continue
            text = body.decode("utf-8")
            self.pages[path] = file_for(path, self.prefix)
            raw[path] = text
            for _attr, value in ATTR.findall(text):
                target = self._desk_path(html.unescape(value))
                if target is not None and self.exported(target):
                    todo.append(target)
        for path, text in raw.items():
            self.files[self.pages[path]] = self._stand_alone(text, self.pages[path]).encode("utf-8")
        await self._stylesheet()
        return self.files

    def _desk_path(self, url: str) -> str | None:
        """The desk's path a link names (unquoted, without query or fragment), or None: not the desk's."""
        for base in self.desk_urls:
            if url.startswith(base + "/"):
                url = url[len(base):]
                break
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path.startswith("/"):
            return None
        return unquote(parts.path)

    def _file_of(self, path: str | None) -> str | None:
        if path is None:
            return None
        path = self.redirects.get(path, path)
        return self.pages.get(path) or {"/static/desk.css": "static/desk.css"}.get(path) or (
            "fonts/" + path[len("/fonts/"):] if path.startswith("/fonts/") and SAFE_FONT.fullmatch(path[7:]) else None)

    def _relative(self, target: str, here: str) -> str:
        return quote(posixpath.relpath(target, posixpath.dirname(here) or "."))

    def _stand_alone(self, text: str, here: str) -> str:
        text = re.sub(r"<script\b[^>]*>.*?</script>", "", text, flags=re.S | re.I)
        text = re.sub(r"<form\b.*?</form>", "", text, flags=re.S | re.I)
        text = re.sub(r'<svg\b[^>]*class="segno".*?</svg>', "", text, flags=re.S)
        text = re.sub(r'\sdata-src="[^"]*"', "", text)

        def attr(m: re.Match[str]) -> str:
            name, value = m.group(1), html.unescape(m.group(2))
            if value.startswith("#") and name == "href":
                return m.group(0)
            target = self._file_of(self._desk_path(value))
            if target is None:
                return ""    # a link the copy cannot follow: its text stays, no href
            fragment = urlsplit(value).fragment
            return f'{name}="{html.escape(self._relative(target, here))}{"#" + html.escape(fragment) if fragment else ""}"'
        text = ATTR.sub(attr, text)
        # a reader of the copy is told it is one, and of when: it does not change by itself as the desk's pages do
        text = text.replace("<main>", f'<main>\n<p class="note" data-testid="exported">{html.escape(self.made)}</p>', 1)

        def address(m: re.Match[str]) -> str:   # the desk's address left in the page's text
            target = self._file_of(self._desk_path(m.group(0)))
            return html.escape(self._relative(target, here)) if target else ""
        for base in self.desk_urls:
            text = re.sub(re.escape(base) + r"(/[^\s\"'<>]*)?", address, text)
        return text

    async def _stylesheet(self) -> None:
        """desk.css with its fonts copied in, their url()s relative to static/."""
        status, _h, body = await asgi_get(self.app, "/static/desk.css")
        if status != 200:
            raise SiteError(f"the desk's stylesheet: HTTP {status}")
        css = body.decode("utf-8")
        for path in dict.fromkeys(CSS_URL.findall(css)):
            target = self._file_of(path)
            if target is None:
                continue
            status, _h, data = await asgi_get(self.app, path)
            if status == 200:
                self.files[target] = data
        self.files["static/desk.css"] = CSS_URL.sub(
            lambda m: f'url("{self._relative(t, "static/desk.css")}")' if (t := self._file_of(m.group(1))) else "none",
            css).encode("utf-8")


SAFE_FONT = re.compile(r"[A-Za-z0-9_-]{1,64}\.(ttf|otf|woff2?)")


def seeds(store: Any, event: str) -> list[str]:
    """The desk paths every export starts from (module doc)."""
    e = f"/e/{event}"
    out = ["/", f"{e}/standings", f"{e}/pairings", f"{e}/players", f"{e}/crosstable", f"{e}/final"]
    out += [f"{e}/pairings/{r}" for r in views.rounds(store, event)]
    out += [f"{e}/players/{p['id']}" for p in views.players(store, event)]
    return out


async def export_site(app: Any, event: str, lang: str) -> dict[str, bytes]:
    """The export of `event` in `lang` from the desk `app` (create_app's): file -> bytes. SiteError when
    the desk does not show the event."""
    d = app.state.desk
    if event not in views.event_names(d.store):
        raise SiteError(f"no event {event!r} in {d.store.name}")
    files = await Export(app, event, lang, (d.public_url,) if d.public_url else ()).build(seeds(d.store, event))
    if "standings.html" not in files:
        raise SiteError(f"event {event!r}: the desk shows no standings page")
    return files


def write_folder(files: Mapping[str, bytes], folder: Path) -> int:
    """The export written under `folder` (made if new; files of an earlier export replaced): files written."""
    root = folder.resolve()
    for name, data in files.items():
        path = (root / name).resolve()
        if root not in path.parents:   # file_for never makes one; a guard all the same
            raise SiteError(f"{name}: outside the folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return len(files)


def zip_of(files: Mapping[str, bytes], top: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in sorted(files.items()):
            z.writestr(f"{top}/{name}", data)
    return buf.getvalue()


@organiser
async def export_zip(request: Request) -> Response:
    """The admin exports page's "Public pages (static site)": the export as a zip to download."""
    from gameclock.organiser.exports import file_stem

    event = the_event(request)
    lang = lang_of_page(request, event)
    files = await export_site(request.app, event, lang)
    top = f"{file_stem(event)}-site"
    return Response(zip_of(files, top), media_type="application/zip",
                    headers={"content-disposition": attachment(f"{top}.zip")})
