"""`python -m bench players`: the public players page and find-my-table of a 500-player event, served by the
real desk (issue 28: the players page drew 40 full-size QR codes on every request, 620 ms and 235 kB at 40
players; 835 kB and a 1.4 s median at 500; acceptance: under 100 ms p95 at 500 players).

The event: PLAYERS players (bench/standings.py's names, a school each of 40), an XW-10 event the PC pairs
(`event.create_event`), round 1 drawn and published (`event.draw`, `event.publish`), in a temp folder. The
desk: `create_app(db)` with its defaults under uvicorn on 127.0.0.1 in a thread of this process
(bench/browser.py's `serve`).

Timed over HTTP, one keep-alive connection, WARMUPS requests first, each from its request sent to the last
byte of its body read (plain, no gzip asked):
- `GET /e/EVENT/players` REQUESTS times while the store stays as it is (the page rendered once for its
  store stamp and shared: what a hall of phones gets);
- the same COLD times, each right after the store changed (a clock's hello: a new stamp, so the list is
  built and rendered again: what the first phone after a result gets);
- `GET /e/EVENT/find?q=...` REQUESTS times, cycling through a part of a Thai name, a Latin name and a school.

Figures:
  players_page_ms_p95, players_page_ms_median        the shared page, ms (p95: nearest rank)
  players_page_cold_ms_p95, players_page_cold_ms_median   the page after each store change, ms
  players_page_kb, players_page_rows                 its size (kB, uncompressed) and its rows (the players)
  find_ms_p95, find_ms_median                        a search's page, ms
  players_players                                    the event's size
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time
import urllib.parse
from typing import Any

from bench import standings as event_gen
from bench.browser import serve
from bench.desk import request_times_ms
from bench.livepage import p95

PLAYERS = 500
REQUESTS, WARMUPS, COLD = 200, 5, 30
EVENT = "bench-players"
SCHOOLS = 40
QUERIES = ("สมชาย", "saelim", "โรงเรียนที่ 7")   # a part of a Thai name, a Latin name (any case), a school


def build_event(db_path: str, players: int) -> None:
    """The event of the module doc, round 1 published."""
    from gameclock.organiser import event as events
    from gameclock.organiser.pairing import model
    from gameclock.organiser.store import Store

    names = event_gen.player_names(players)
    plist = events.PlayerList([model.Player(id=str(i + 1), name=name, latin=f"Player {i + 1}",
                                            campus=f"โรงเรียนที่ {i % SCHOOLS + 1}", level="secondary")
                               for i, name in enumerate(names)])
    with Store(db_path) as store:
        events.create_event(store, EVENT, "xw10", plist, rounds=6, language="th", preset="crossword",
                            level="secondary")
        events.draw(store, EVENT, seed=28)
        events.publish(store, EVENT)


def cold_times_ms(base_url: str, db_path: str, path: str, count: int) -> list[float]:
    """`path` fetched `count` times, each right after a clock's hello moved the store's stamp (a new connection
    each: the page's first reader after a change)."""
    import http.client

    from gameclock.organiser.store import Store

    url = urllib.parse.urlsplit(base_url)
    times = []
    with Store(db_path) as store:
        for i in range(count):
            store.seen("bench00000000c01", {"fw": "0.2.0", "kid": None, "event": EVENT, "round": 1, "table": 1,
                                            "pending": i})
            time.sleep(0.01)   # the stamp is read per request (no stream listens): the next one sees it
            conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
            try:
                t0 = time.perf_counter()
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                times.append((time.perf_counter() - t0) * 1000)
                if response.status != 200:
                    raise RuntimeError(f"bench players: GET {path} answered {response.status}")
            finally:
                conn.close()
    return times


def bench_players(players: int = PLAYERS, requests: int = REQUESTS, warmups: int = WARMUPS,
                  cold: int = COLD) -> dict[str, Any]:
    from gameclock.organiser.desk.app import create_app

    with tempfile.TemporaryDirectory(prefix="gameclock-bench-players-") as tmp:
        db_path = os.path.join(tmp, "pc.db")
        build_event(db_path, players)
        served = serve(create_app(db_path))
        try:
            path = f"/e/{urllib.parse.quote(EVENT)}/players"
            warm, page = request_times_ms(served.url, path, requests, warmups)
            cold_ms = cold_times_ms(served.url, db_path, path, cold)
            find_ms: list[float] = []
            for i in range(requests):
                q = urllib.parse.quote(QUERIES[i % len(QUERIES)])
                find_ms += request_times_ms(served.url, f"/e/{urllib.parse.quote(EVENT)}/find?q={q}", 1,
                                            warmups if i == 0 else 0)[0]
        finally:
            served.stop()
    return {"players_page_ms_p95": round(p95(warm), 2), "players_page_ms_median": round(statistics.median(warm), 2),
            "players_page_cold_ms_p95": round(p95(cold_ms), 2),
            "players_page_cold_ms_median": round(statistics.median(cold_ms), 2),
            "players_page_kb": round(len(page.encode("utf-8")) / 1024, 1),
            "players_page_rows": page.count('data-testid="player-row"'),
            "find_ms_p95": round(p95(find_ms), 2), "find_ms_median": round(statistics.median(find_ms), 2),
            "players_players": players}
