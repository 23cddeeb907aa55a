"""The desk serves a hall of phones (issue 28): with many live pages open, a result is computed and
rendered once for them all, not once a page.

Found by issue 28's measures (200 phones on a 500-player event: pages of 55 s, a result seen after
196 s): every open page recomputed the standings and rendered its own fragment for every result, and
each stream polled the store on its own. A test reproduces it: several streams open under uvicorn, a
result stored, each page fetching its fragment as desk.js does, the standings computed and the
fragment rendered counted (before the fix: once a stream)."""
from __future__ import annotations

import asyncio
import http.client
import re
import socket
import threading
import time

import pytest
from kit import xw

from bench.browser import serve
from gameclock.organiser.desk import views
from gameclock.organiser.desk.app import create_app
from gameclock.organiser.desk.hall import QUEUE, Poller, Shared
from gameclock.organiser.desk.live import Live
from gameclock.organiser.store import Store

STREAMS = 6


def read_until(sock: socket.socket, marker: bytes, timeout: float = 10.0) -> bytes:
    """What `sock` says until `marker` has come (AssertionError when it does not within `timeout`)."""
    sock.settimeout(timeout)
    got = b""
    end = time.monotonic() + timeout
    while marker not in got:
        assert time.monotonic() < end, f"no {marker!r} within {timeout} s: {got[-300:]!r}"
        chunk = sock.recv(4096)
        assert chunk, f"the stream closed before {marker!r}: {got[-300:]!r}"
        got += chunk
    return got


def open_stream(port: int) -> socket.socket:
    """A live page's stream, past its hello (from then on it hears of every change)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /e/t/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    read_until(s, b"event: hello")
    return s


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body as sent) of GET `path`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def first_place(body: bytes) -> str:
    m = re.search(r'data-testid="standings-row" data-player="([^"]+)" data-place="1"', body.decode())
    assert m, body[:500]
    return m.group(1)


@pytest.fixture
def counted(monkeypatch):
    """How many times the standings were computed (views.standings) since the fixture began."""
    calls = {"n": 0}
    real = views.standings

    def standings(*args, **kwargs):
        calls["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "standings", standings)
    return calls


def test_a_result_is_computed_once_for_every_open_page(db, counted):
    app = create_app(db, interval=0.05, stream_seconds=60.0)
    served = serve(app)
    socks: list[socket.socket] = []
    try:
        socks = [open_stream(served.port) for _ in range(STREAMS)]
        # round 3, t1: Anan 400 v Chai 300 (XW-6: Anan wins): a new result for event t
        with Store(db) as store:
            assert store.put_result(xw(5, "t", 3, 1, "Anan", "Chai", 400, 300), "0" * 64, "kid0", "test") == "stored"
        for s in socks:                     # every page told the standings changed ...
            read_until(s, b"event: standings")
        before = counted["n"]
        bodies: list[bytes] = []

        def fetch() -> None:                # ... and every page fetching them at once, as desk.js does
            status, _, body = get(served.port, "/e/t/part/standings?lang=en")
            assert status == 200
            bodies.append(body)

        threads = [threading.Thread(target=fetch) for _ in socks]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        assert len(bodies) == STREAMS and len(set(bodies)) == 1
        # once for all six pages (before the fix: six times)
        assert counted["n"] - before == 1
        # and they are the new standings: Anan 4 GP (XW-6: wins of rounds 1 and 3), spread +40-10+100 = +130,
        # ahead of Dao's 4 GP and +60 (XW-7: spread breaks the tie)
        assert first_place(bodies[0]) == "Anan"
    finally:
        for s in socks:
            s.close()
        served.stop()


def test_one_poller_for_every_stream(db):
    """Six streams open: one thread looks at the store for all of them (before: each stream polled)."""
    app = create_app(db, interval=0.05, stream_seconds=60.0)
    served = serve(app)
    socks: list[socket.socket] = []
    try:
        socks = [open_stream(served.port) for _ in range(STREAMS)]
        pollers = [t for t in threading.enumerate() if t.name == "desk-live-poller"]
        assert len(pollers) == 1 and app.state.desk.poller.listening == STREAMS
        for s in socks:
            s.close()
        # the pages gone: the poller stops by itself (nobody to poll for)
        end = time.monotonic() + 10
        while pollers[0].is_alive() and time.monotonic() < end:
            time.sleep(0.05)
        assert not pollers[0].is_alive() and app.state.desk.poller.listening == 0
    finally:
        for s in socks:
            s.close()
        served.stop()


def test_a_fragment_carries_an_etag_and_a_page_that_holds_it_gets_304(app, client, db):
    first = client.get("/e/t/part/standings?lang=en")
    etag = first.headers["etag"]
    assert first.status_code == 200 and etag.startswith('"') and first_place(first.content) == "Dao"
    again = client.get("/e/t/part/standings?lang=en", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    # the other language is other bytes (the headers translated): its own ETag
    assert client.get("/e/t/part/standings?lang=th").headers["etag"] != etag
    # a result stored: the page holding the old bytes gets the new ones (Anan first: test above's sums)
    app.state.desk.store.put_result(xw(5, "t", 3, 1, "Anan", "Chai", 400, 300), "0" * 64, "kid0", "test")
    new = client.get("/e/t/part/standings?lang=en", headers={"if-none-match": etag})
    assert new.status_code == 200 and new.headers["etag"] != etag and first_place(new.content) == "Anan"


def test_a_fragment_is_gzipped_when_the_client_takes_gzip(client):
    plain = client.get("/e/t/part/results?lang=en", headers={"accept-encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert b'data-testid="results-table"' in plain.content
    zipped = client.get("/e/t/part/results?lang=en", headers={"accept-encoding": "gzip, deflate"})
    # httpx unzips it: the same HTML, sent as gzip, with the same ETag (the bytes' own)
    assert zipped.headers["content-encoding"] == "gzip" and zipped.content == plain.content
    assert zipped.headers["etag"] == plain.headers["etag"] and zipped.headers["vary"] == "Accept-Encoding"
    refused = client.get("/e/t/part/results?lang=en", headers={"accept-encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused.headers and refused.content == plain.content


def test_a_stream_that_never_reads_keeps_at_most_its_queue(db):
    """A slow phone: its stream takes none of the versions the poller offers. Its queue holds QUEUE of
    them, the newest last; the older are dropped (and counted), never piled up."""
    live = Live(Store(db), interval=0.02)
    poller = Poller(live)

    async def hall() -> tuple[int, list[int], int, int]:
        listener = poller.listen()
        for n in range(5, 5 + 3 * QUEUE):     # each result seen by a poll of its own
            live.store.put_result(xw(n, "t", 3, n, "Anan", "Chai", 400, 300), "0" * 64, "kid0", "test")
            version = live.version
            end = time.monotonic() + 5
            while live.version == version and time.monotonic() < end:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)             # the last offer delivered to this loop
        held = [listener.queue.get_nowait() for _ in range(listener.queue.qsize())]
        poller.leave(listener)
        return len(held), held, listener.dropped, live.version

    try:
        size, held, dropped, version = asyncio.run(hall())
    finally:
        poller.stop()
        live.store.close()
    assert size == QUEUE and held[-1] == version == 3 * QUEUE and held == sorted(held)
    assert dropped == 3 * QUEUE - QUEUE


def test_shared_computes_once_a_stamp_and_within_max_age_not_again():
    shared = Shared()
    built: list[str] = []

    def build(what: str):
        return lambda: built.append(what) or what

    async def asks() -> list[str]:
        got = await asyncio.gather(*(shared.get("k", 1, build("one")) for _ in range(10)))   # ten pages at once
        got.append(await shared.get("k", 2, build("two")))            # the store changed: again
        got.append(await shared.get("k", 3, build("three"), max_age=60.0))   # changed, but "two" is recent
        got.append(await shared.get("k", 3, build("four")))           # without max_age: stamp 3's own
        return got

    try:
        got = asyncio.run(asks())
    finally:
        shared.close()
    assert got == ["one"] * 10 + ["two", "two", "four"] and built == ["one", "two", "four"]
    assert shared.builds["k"] == 3


def test_shared_fresh_builds_waiting_for_a_worker_serve_the_newer_stamps_too():
    """Results 0.2 s apart and a computation longer than that (issue 28's 5,000-player event): each stamp
    queued its own computation, and the phones waited behind them all. A `fresh` build reads the store
    when it runs, so stamps asked while one waits for a worker share it: one computation, not one a stamp."""
    shared = Shared(workers=1)
    gate = threading.Event()
    built: list[str] = []

    def build(what: str):
        return lambda: built.append(what) or what

    async def asks() -> list[str]:
        running = shared.future("other", 0, gate.wait)      # the one worker busy
        waiting = [shared.future("k", stamp, build(f"at {stamp}"), fresh=True) for stamp in (1, 2, 3)]
        assert len({id(f) for f in waiting}) == 1            # stamps 2 and 3 joined the one waiting
        gate.set()
        await asyncio.wrap_future(running)
        got = [await asyncio.wrap_future(f) for f in waiting]
        got.append(await shared.get("k", 3, build("again")))   # stamp 3's, computed: not again
        got.append(await shared.get("k", 4, build("at 4"), fresh=True))   # a new stamp, none waiting: its own
        return got

    try:
        got = asyncio.run(asks())
    finally:
        gate.set()
        shared.close()
    assert got == ["at 1"] * 3 + ["at 1", "at 4"] and built == ["at 1", "at 4"]


def test_the_standings_page_of_500_players_crosses_the_wire_under_100_kb(tmp_path):
    """Issue 28's acceptance: the public standings page's transfer under 100 kB at 500 players (its body
    as sent to a phone that takes gzip; the 500 rows all in it)."""
    import gzip

    from bench import standings as event_gen

    db_path = tmp_path / "pc.db"
    event_gen.load(str(db_path), 500, 7)
    served = serve(create_app(db_path))
    try:
        status, head, body = get(served.port, f"/e/{event_gen.EVENT}/standings", {"Accept-Encoding": "gzip"})
        assert status == 200 and head["content-encoding"] == "gzip"
        assert len(body) < 100 * 1024, len(body)
        assert gzip.decompress(body).decode().count('data-testid="standings-row"') == 500
        # the live area's fragment too (what every phone fetches at each result)
        status, head, body = get(served.port, f"/e/{event_gen.EVENT}/part/standings", {"Accept-Encoding": "gzip"})
        assert status == 200 and len(body) < 100 * 1024
    finally:
        served.stop()


def test_a_stream_tells_the_standings_at_most_once_a_spacing_and_the_last_change_always(db):
    """Results 5 a second to 200 phones were 1,000 standings fetches a second (issue 28): a stream tells
    `standings` at once, then at most once every STANDINGS_SPACING, the later changes in one event after
    it (the page fetches the newest standings once); every `result` is told at once."""
    from gameclock.organiser.desk.public import STANDINGS_SPACING

    app = create_app(db, interval=0.05, stream_seconds=60.0)
    served = serve(app)
    s = open_stream(served.port)
    try:
        with Store(db) as store:
            store.put_result(xw(5, "t", 3, 1, "Anan", "Chai", 400, 300), "0" * 64, "kid0", "test")
            got = read_until(s, b"event: standings")
            t0 = time.monotonic()
            # two more results at once after it, each a change the poller sees apart
            store.put_result(xw(6, "t", 3, 2, "Boon", "Dao", 350, 340), "0" * 64, "kid0", "test")
            time.sleep(0.15)
            store.put_result(xw(7, "t", 4, 1, "Dao", "Chai", 350, 340), "0" * 64, "kid0", "test")
        got += read_until(s, b"event: standings", timeout=10.0)   # the one after the spacing
        waited = time.monotonic() - t0
        got += read_until_quiet(s, 1.5)
    finally:
        s.close()
        served.stop()
    text = got.decode()
    assert text.count("event: result") == 3 and text.count("event: standings") == 2, text
    assert waited >= STANDINGS_SPACING * 0.9
    # the last standings event tells the version of the last result (three results: versions 1..3)
    assert text.rsplit("event: standings\ndata: ", 1)[1].startswith('{"v": 3}'), text


def read_until_quiet(sock: socket.socket, quiet: float) -> bytes:
    """What `sock` says until it has said nothing for `quiet` seconds."""
    sock.settimeout(quiet)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        pass
    return got
