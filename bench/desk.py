"""`python -m bench desk`: the desk's public pages under a 500-player event, served by the real desk
(issue 17's acceptance).

The event: bench/standings.py's 500 x 7 crossword event (its generator and its store: 1743 signed
results and 14 byes, `standings.load`), in a temp folder. The desk: `create_app(db)` with its
defaults (the live poll every 0.2 s: what the organiser gets), under uvicorn on 127.0.0.1 in a
thread of this process (bench/browser.py's `serve`).

Timed over HTTP, one keep-alive connection (as a browser keeps one), WARMUPS requests first, then
REQUESTS sequential requests, each from its request sent to the last byte of its body read:
- the standings page, `GET /e/EVENT/standings` (the full HTML: every player's row);
- the projector's standings fragment, `GET /e/EVENT/part/standings` (the projector refetches it on
  every result and amendment).

Then the projector in headless Chromium (bench/livepage.py's `live_update_ms`): SAMPLES times, a new
result is stored the way the receiver stores one (a separate `Store` on the same file, as `gameclock
receive` is a separate process, `Store.put_result` of a signed record: ReceiverEndpoint's call) -- a
game of a fresh round (R + 1) whose right-hand player is a fresh token -- and the time runs from just
before that store to the animation frame after the token arrived in the projector's latest-results
area (`[data-testid=live-results]`), without a reload. The page counts as listening once its event
stream said `hello` (from then on the desk sees every result stored: public.stream).

Figures:
  desk_page_ms_p95, desk_page_ms_median          the standings page's wall time a request, ms (p95:
                                                 nearest rank; issue 17: p95 under 200 ms)
  desk_fragment_ms_p95, desk_fragment_ms_median  the same for the projector's standings fragment, ms
  desk_page_rows        the standings rows in the last page measured (the event's players)
  desk_page_kb          that page's size, kB
  desk_live_update_ms_p95, desk_live_update_ms_median, desk_live_update_samples   stored-to-shown on
                        the projector (bench/livepage.py; issue 17: p95 under 1000 ms)
  desk_players, desk_rounds, desk_games   the event's size

Shorter runs (tests): the arguments of `bench_desk()`.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from bench import standings as event_gen
from bench.browser import Browser, serve
from bench.livepage import live_update_ms, p95

PLAYERS, ROUNDS = 500, 7
REQUESTS, WARMUPS, SAMPLES = 200, 5, 40
RESULTS_AREA = "[data-testid=live-results]"
FIRST_LIVE_SEQ = 1_000_000   # the live results' clock sequence numbers: past every generated game's

# The projector says nothing when its event stream opens, so the bench listens to it: every
# EventSource a desk page makes marks <html data-bench-live="hello"> at the stream's `hello`, which
# the desk sends once it holds its place in the store's changes (a result stored after it is seen).
HELLO_HOOK = """
(() => {
  const Original = window.EventSource;
  if (!Original) return;
  window.EventSource = function (url, options) {
    const source = new Original(url, options);
    source.addEventListener("hello", () => { document.documentElement.dataset.benchLive = "hello"; });
    return source;
  };
  window.EventSource.prototype = Original.prototype;
})();
"""
HELLO_READY = "document.documentElement.dataset.benchLive === 'hello'"


def request_times_ms(base_url: str, path: str, requests: int, warmups: int) -> tuple[list[float], str]:
    """GET `path` `warmups` + `requests` times on one keep-alive connection: the timed requests' wall
    times (ms, request sent to body read) and the last body."""
    url = urllib.parse.urlsplit(base_url)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
    times: list[float] = []
    body = b""
    try:
        for i in range(warmups + requests):
            t0 = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
            elapsed_ms = (time.perf_counter() - t0) * 1000
            if response.status != 200:
                raise RuntimeError(f"bench desk: GET {path} answered {response.status}")
            if i >= warmups:
                times.append(elapsed_ms)
    finally:
        conn.close()
    return times, body.decode("utf-8")


def standings_rows(html: str) -> int:
    """The standings rows a page or fragment holds (part_standings.html's rows)."""
    return html.count('data-testid="standings-row"')


def page_figures(base_url: str, event: str, requests: int, warmups: int) -> dict[str, Any]:
    """The standings page's and the standings fragment's times (module doc)."""
    quoted = urllib.parse.quote(event)
    page_ms, page = request_times_ms(base_url, f"/e/{quoted}/standings", requests, warmups)
    part_ms, _ = request_times_ms(base_url, f"/e/{quoted}/part/standings", requests, warmups)
    return {"desk_page_ms_p95": round(p95(page_ms), 2),
            "desk_page_ms_median": round(statistics.median(page_ms), 2),
            "desk_fragment_ms_p95": round(p95(part_ms), 2),
            "desk_fragment_ms_median": round(statistics.median(part_ms), 2),
            "desk_page_rows": standings_rows(page),
            "desk_page_kb": round(len(page.encode("utf-8")) / 1024, 1)}


def result_writer(db_path: str, players: int, rounds: int) -> tuple[Callable[[str], None], Callable[[], None]]:
    """(store, close): `store(token)` stores a new signed result the way the receiver does (module
    doc) -- round R + 1, the next table, a player of the event against `token` -- on a connection of
    its own; `close()` closes it."""
    from bench.dock import _template
    from gameclock.dock.sign import key_id, sign_result
    from gameclock.organiser.store import Store

    template = json.loads(_template(0))
    names = event_gen.player_names(players)
    rng = random.Random(17)
    kid = key_id(event_gen.KEY)
    store = Store(db_path)
    table = 0

    def put(token: str) -> None:
        nonlocal table
        table += 1
        rec = event_gen.game_record(template, FIRST_LIVE_SEQ + table, rounds + 1, table,
                                    names[table % players], token, False, rng)
        status = store.put_result(rec, sign_result(event_gen.KEY, rec), kid, "bench-desk")
        if status != "stored":
            raise RuntimeError(f"bench desk: the live result {rec['id']} was {status}, not stored")

    return put, store.close


def live_figures(base_url: str, db_path: str, event: str, players: int, rounds: int,
                 samples: int) -> dict[str, Any]:
    """Stored-to-shown on the projector in headless Chromium (module doc)."""
    put, close = result_writer(db_path, players, rounds)
    browser = Browser("laptop")
    try:
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HELLO_HOOK})
        return live_update_ms(browser, f"{base_url}/e/{urllib.parse.quote(event)}/projector", put, RESULTS_AREA,
                              samples, prefix="desk", ready=HELLO_READY)
    finally:
        browser.quit()
        close()


def bench_desk(players: int = PLAYERS, rounds: int = ROUNDS, requests: int = REQUESTS, warmups: int = WARMUPS,
               samples: int = SAMPLES) -> dict[str, Any]:
    from gameclock.organiser.desk.app import create_app

    with tempfile.TemporaryDirectory(prefix="gameclock-bench-desk-") as tmp:
        db_path = os.path.join(tmp, "pc.db")
        games, _byes, _load_s = event_gen.load(db_path, players, rounds)
        app = create_app(db_path)  # the desk's defaults: its live poll is what the organiser gets
        served = serve(app)
        try:
            out = page_figures(served.url, event_gen.EVENT, requests, warmups)
            if samples:
                out.update(live_figures(served.url, db_path, event_gen.EVENT, players, rounds, samples))
        finally:
            served.stop()
        out.update(desk_players=players, desk_rounds=rounds, desk_games=games)
        return out
