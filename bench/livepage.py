"""`desk_live_update_ms_p95`'s measure: from a row stored to the page showing it (issue 17).

`live_update_ms(browser, page_url, store, selector)` opens the page once, then SAMPLES times stores a
row carrying a fresh token (`store(token)`: the desk's own way of storing a result, e.g. its receiver's
database write) and waits for the page to show it WITHOUT a reload. The time shown is taken inside the
page: a MutationObserver on `selector` sees the token arrive and the next animation frame (the one that
paints it) stamps it, on the same wall clock that stamped the store (`performance.timeOrigin +
performance.now()`, `time.time()`): no WebDriver round trip is counted.

Figures (PREFIX is "desk" for the desk; "demo" for the page below):
  PREFIX_live_update_ms_p95      the 95th percentile of the SAMPLES stored-to-shown times, ms
  PREFIX_live_update_ms_median   their median, ms
  PREFIX_live_update_samples     SAMPLES

`DemoApp` is a bare ASGI app that does what the desk's pages do, to prove the harness (tests/browser/)
and this measure before the desk exists: a page in Thai or English set in the shipped Loma font (served
by the app as a web font), a form that POSTs a row, and a server-sent-events stream that adds each stored
row to the page as it is stored. `python -m bench.livepage` prints the demo's figures.
"""
from __future__ import annotations

import asyncio
import html
import json
import statistics
import sys
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from bench.browser import Browser, fonts_dir, post_form, serve

SAMPLES = 40
DEMO_READY = "document.body.dataset.live === 'open'"  # the demo page's EventSource is open

# the family name is the page's own: a system font called "Loma" can never stand in for the served one
FONT_FAMILY = "GameclockLoma"

TEXT = {
    "th": {"title": "ผลการแข่งขัน", "lead": "ผู้เล่นที่ส่งผลแล้ว: ปู่ น้ำ กุ้ง ฤดู ญาติ ฐาน ฎีกา",
           "player": "ผู้เล่น", "send": "ส่งผล", "live": "ผลล่าสุด"},
    "en": {"title": "Results", "lead": "Players whose results are in",
           "player": "Player", "send": "Send", "live": "Latest results"},
}

_OBSERVE = """
const [selector] = arguments;
window.__seen = {};
window.__want = new Set();
const target = document.querySelector(selector);
if (!target) return false;
new MutationObserver(() => {
  const text = target.textContent;
  for (const token of window.__want) {
    if (text.includes(token)) {
      window.__want.delete(token);
      requestAnimationFrame(() => { window.__seen[token] = performance.timeOrigin + performance.now(); });
    }
  }
}).observe(target, {childList: true, subtree: true, characterData: true});
return true;
"""


def p95(values: list[float]) -> float:
    """The 95th percentile of `values` by nearest rank (one of the values: no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-95 * len(ordered) // 100) - 1))]


def live_update_ms(browser: Browser, page_url: str, store: Callable[[str], None], selector: str,
                   samples: int = SAMPLES, prefix: str = "desk", ready: str = "true",
                   timeout: float = 5.0) -> dict[str, Any]:
    """Store `samples` rows one after another (each once the page showed the one before), and time each
    from the store to the frame that shows it. `ready`: a JavaScript expression true once the page listens
    (e.g. its EventSource is open). See the module's docstring."""
    browser.get(page_url)
    browser.wait_for(ready, timeout)
    assert browser.js(_OBSERVE, selector), f"no {selector!r} on {page_url}"
    times = []
    for i in range(samples):
        token = f"live-{i}-{time.monotonic_ns()}"
        browser.js("window.__want.add(arguments[0]);", token)
        t0 = time.time() * 1000
        store(token)
        end = time.monotonic() + timeout
        while (seen := browser.js("return window.__seen[arguments[0]] ?? null;", token)) is None:
            if time.monotonic() > end:
                raise AssertionError(f"row {token} was stored but {selector!r} did not show it in {timeout} s")
            time.sleep(0.002)
        times.append(float(seen) - t0)
    return {f"{prefix}_live_update_ms_p95": round(p95(times), 2),
            f"{prefix}_live_update_ms_median": round(statistics.median(times), 2),
            f"{prefix}_live_update_samples": samples}


class DemoApp:
    """The bare ASGI app described in the module's docstring. `requests` lists the paths it served."""

    def __init__(self) -> None:
        self.rows: list[str] = []
        self.requests: list[str] = []
        self._listeners: set[asyncio.Queue[str]] = set()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        self.requests.append(f"{method} {path}")
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode())
        lang = query.get("lang", ["th"])[0]
        if method == "GET" and path == "/":
            await _respond(send, 200, "text/html; charset=utf-8", self.page(lang if lang in TEXT else "th"))
        elif method == "GET" and path in ("/fonts/Loma.ttf", "/fonts/Loma-Bold.ttf"):
            await _respond(send, 200, "font/ttf", (fonts_dir() / path.removeprefix("/fonts/")).read_bytes())
        elif method == "POST" and path == "/rows":
            body = b""
            while True:
                msg = await receive()
                body += msg.get("body", b"")
                if not msg.get("more_body"):
                    break
            player = urllib.parse.parse_qs(body.decode()).get("player", [""])[0].strip()
            if not player:
                await _respond(send, 400, "text/plain; charset=utf-8", "player?")
                return
            self.store(player)
            await _respond(send, 303, "text/plain", "", [(b"location", f"/?lang={lang}".encode())])
        elif method == "GET" and path == "/events":
            await self._events(receive, send)
        else:
            await _respond(send, 404, "text/plain", "not found")

    def store(self, player: str) -> None:
        """Store a row (on the server's loop) and push it to every open page."""
        self.rows.append(player)
        for q in self._listeners:
            q.put_nowait(player)

    async def _events(self, receive: Any, send: Any) -> None:
        q: asyncio.Queue[str] = asyncio.Queue()
        self._listeners.add(q)
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": b": hello\n\n", "more_body": True})
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            while True:
                got = asyncio.ensure_future(q.get())
                done, _ = await asyncio.wait({got, gone}, return_when=asyncio.FIRST_COMPLETED)
                if gone in done:
                    got.cancel()
                    return
                data = json.dumps({"player": got.result()}, ensure_ascii=False)
                await send({"type": "http.response.body", "body": f"data: {data}\n\n".encode(), "more_body": True})
        finally:
            self._listeners.discard(q)
            gone.cancel()

    def page(self, lang: str) -> str:
        t = TEXT[lang]
        rows = "".join(f"<li>{html.escape(r)}</li>" for r in self.rows)
        return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t["title"]}</title>
<style>
@font-face {{ font-family: "{FONT_FAMILY}"; src: url("/fonts/Loma.ttf") format("truetype"); }}
@font-face {{ font-family: "{FONT_FAMILY}"; font-weight: bold; src: url("/fonts/Loma-Bold.ttf") format("truetype"); }}
html, input, button {{ font-family: "{FONT_FAMILY}", sans-serif; }}
/* 20 px at least: at 16-18 px Loma's low tone mark beside a tall consonant (ปู่, ป่า) touches its stem */
body {{ margin: 1.5rem; font-size: 20px; line-height: 1.8; }}
input, button {{ font-size: 20px; }}
h1 {{ font-size: 32px; }}
</style></head>
<body>
<h1 id="title">{t["title"]}</h1>
<p id="lead">{t["lead"]}</p>
<form method="post" action="/rows?lang={lang}">
  <label>{t["player"]} <input name="player" id="player"></label>
  <button type="submit" id="send">{t["send"]}</button>
</form>
<h2>{t["live"]}</h2>
<ul id="rows">{rows}</ul>
<script>
const events = new EventSource("/events");
events.onmessage = (e) => {{
  const li = document.createElement("li");
  li.textContent = JSON.parse(e.data).player;
  document.getElementById("rows").appendChild(li);
}};
events.onopen = () => document.body.dataset.live = "open";
</script>
</body></html>"""


async def _disconnected(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _respond(send: Any, status: int, ctype: str, body: str | bytes,
                   headers: list[tuple[bytes, bytes]] | None = None) -> None:
    data = body.encode() if isinstance(body, str) else body
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", ctype.encode()), (b"content-length", str(len(data)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": data})


def bench_demo_live(samples: int = SAMPLES) -> dict[str, Any]:
    """The measure run against DemoApp: rows stored through its form's POST."""
    app = DemoApp()
    served = serve(app)
    browser = Browser("laptop")
    try:
        def store(token: str) -> None:
            assert post_form(served.url + "/rows", {"player": token}) == 303

        return live_update_ms(browser, served.url + "/?lang=th", store, "#rows", samples, prefix="demo",
                              ready=DEMO_READY)
    finally:
        browser.quit()
        served.stop()


if __name__ == "__main__":
    print(json.dumps(bench_demo_live(int(sys.argv[1]) if len(sys.argv) > 1 else SAMPLES)))
