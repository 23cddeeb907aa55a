"""`python -m bench hall`: a hall of phones holding the live standings open while results arrive, against
the real desk (issue 28's "the desk serves a hall").

The event: bench/standings.py's PLAYERS x ROUNDS crossword event (its generator and its store), in a
temp folder. The desk: `gameclock desk --db FILE --port P`, a process of its own under uvicorn (as
the organiser starts it), on 127.0.0.1.

The phones: PHONES clients of this process (asyncio, raw HTTP/1.1 over its streams: the bench's own
cost kept small on a machine it shares with the desk), each from its own loopback address
(127.0.x.y: the desk allows 16 live pages an address), doing what desk.js does on the standings page:
load the page (`GET /e/EVENT/standings`, timed: request sent to body read), open the event's stream,
and at its hello and on each `standings` event fetch the shared fragment (`GET /e/EVENT/part/standings`, If-None-Match
the ETag it holds, Accept-Encoding gzip), one fetch at a time (a change told meanwhile is fetched
once the fetch in flight ends). The phones come in one every RAMP seconds; then results are stored at RATE
a second for MINUTES minutes, the way the receiver stores them (a Store of its own on the same file,
`put_result` of a signed record), games of the event's players in the rounds after ROUNDS; and each
phone loads its page again every RELOAD seconds or so (a phone waking, a parent arriving: a new
page, a new stream).

A phone HAS a result once a fetch it began after it knew of the result (the stream's `result` event
told it, or the result was stored before its page was asked for or before its stream's hello) has ended: the desk reads the
store's state when the request comes, so the bytes it answers hold the result.

Figures:
  hall_page_ms_p50, hall_page_ms_p95   a page load while results arrive (the reloads), ms
  hall_first_page_ms_p95               the phones' first page loads (as they come in, no result yet), ms
  hall_page_loads, hall_page_errors    the page loads timed; those failed or over PAGE_TIMEOUT
  hall_live_ms_p50, hall_live_ms_p95   a result stored (put_result called) -> every phone has it, ms
  hall_results, hall_results_unseen    results stored; those some phone did not have DRAIN s after the last
  hall_streams_dropped                 streams refused or ended by an error (not the desk's planned end
                                       after its stream_seconds, which a browser reconnects from)
  hall_fetches, hall_fetches_304, hall_fetch_errors   the fragment fetches, those answered 304, failed
  hall_fragment_kb, hall_fragment_gz_kb               the standings fragment's size, plain and as sent
  hall_page_kb, hall_page_wire_kb      the standings page's size, plain and its body as sent (gzip), at the end
  hall_rss_mb_start, hall_rss_mb_middle, hall_rss_mb_end   the desk's RSS: phones in, half-way, the end
  hall_desk_cpu_pct, hall_bench_cpu_pct  CPU used while results arrive (% of one core): the desk's, this
                                       bench's (its phones share the machine with the desk)
  hall_players, hall_rounds, hall_phones, hall_rate, hall_minutes   the run's size

Then the same again on a large event (LARGE players x LARGE_ROUNDS rounds, LARGE_PHONES phones, the same
rate, minutes and reloads), its figures named with its size: hall_page_ms_p95_5000, hall_live_ms_p95_5000, ...
(`--large 0`: not run).

Parameters: GAMECLOCK_BENCH_HALL_PLAYERS, _ROUNDS, _PHONES, _RATE, _MINUTES, _RELOAD, _LARGE, _LARGE_ROUNDS,
_LARGE_PHONES (env) or `python -m bench hall --players 500 --rounds 7 --phones 200 --rate 5 --minutes 10
--reload 60 --large 5000 --large-rounds 9 --large-phones 50`; the defaults are issue 28's acceptance runs.
"""
from __future__ import annotations

import asyncio
import gzip
import json
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from bench import standings as event_gen
from bench.livepage import p95

DEFAULTS = {"players": 500, "rounds": 7, "phones": 200, "rate": 5.0, "minutes": 10.0, "reload": 60.0,
            # the large event's run after the first (0 players: none); figures named hall_*_PLAYERS
            "large": 5000, "large_rounds": 9, "large_phones": 50}
# bench/__init__.py's main: `--large-rounds 9` sets GAMECLOCK_BENCH_HALL_LARGE_ROUNDS
OPTIONS = {f"--{k.replace('_', '-')}": f"GAMECLOCK_BENCH_HALL_{k.upper()}" for k in DEFAULTS}
RAMP = 0.05            # seconds between two phones coming in (200 phones: 10 s)
DRAIN = 15.0           # seconds to wait, after the last result, for every phone to have it
PAGE_TIMEOUT = 60.0    # seconds a page load or a fetch may take before it counts as failed
FIRST_LIVE_SEQ = 2_000_000   # the live results' clock sequence numbers: past every generated game's


def parameters() -> dict[str, float]:
    out: dict[str, float] = {}
    for name, default in DEFAULTS.items():
        raw = os.environ.get(f"GAMECLOCK_BENCH_HALL_{name.upper()}")
        out[name] = float(raw) if raw else float(default)
    return out


def median(values: list[float]) -> float:
    return round(statistics.median(values), 1) if values else -1.0


def pct95(values: list[float]) -> float:
    return round(p95(values), 1) if values else -1.0


# ------------------------------------------------------------------------------------------ HTTP
class Closed(Exception):
    """The desk closed the connection (or answered what HTTP/1.1 does not allow)."""


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    line = await reader.readline()
    if not line:
        raise Closed("no status line")
    status = int(line.split(b" ", 2)[1])
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return status, headers
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def read_body(reader: asyncio.StreamReader, status: int, headers: dict[str, str]) -> bytes:
    if status == 304 or status < 200:
        return b""
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                return bytes(body)
            body += await reader.readexactly(size)
            await reader.readline()
    raise Closed("a body without a length")


def request_bytes(port: int, path: str, headers: dict[str, str]) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"] + [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class Connection:
    """One keep-alive connection of a phone (from its own address), opened again when the desk closes it."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):   # a keep-alive connection the desk closed meanwhile: once more on a new one
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                                         local_addr=(self.address, 0))
            assert self.reader is not None
            try:
                self.writer.write(request_bytes(self.port, path, headers))
                await self.writer.drain()
                status, head = await read_head(self.reader)
                return status, head, await read_body(self.reader, status, head)
            except (Closed, ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# ------------------------------------------------------------------------------------------ the hall
@dataclass
class Tally:
    """What the phones saw, shared by them all (one event loop: no lock)."""
    phones: int
    stored_at: list[float] = field(default_factory=list)    # result i's put_result call (perf_counter)
    index: dict[str, int] = field(default_factory=dict)     # result id -> i
    remaining: list[int] = field(default_factory=list)      # phones not yet having result i
    all_have: dict[int, float] = field(default_factory=dict)   # result i -> ms until every phone had it
    first_pages: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    page_errors: int = 0
    streams_dropped: int = 0
    fetches: int = 0
    fetches_304: int = 0
    fetch_errors: int = 0
    fragment_kb: float = 0.0
    fragment_gz_kb: float = 0.0
    results_on: bool = False
    committed: int = -1      # the newest result whose put_result has returned (an index)

    def has(self, old: int, new: int) -> None:
        """A phone had results up to `old` (an index, -1: none) and has them up to `new` now."""
        now = time.perf_counter()
        for i in range(old + 1, new + 1):
            self.remaining[i] -= 1
            if self.remaining[i] == 0:
                self.all_have[i] = (now - self.stored_at[i]) * 1000


class Phone:
    """A phone holding the live standings page (module doc)."""

    def __init__(self, tally: Tally, port: int, event: str, address: str, reload: float, rng: random.Random):
        self.tally, self.port, self.address, self.reload, self.rng = tally, port, address, reload, rng
        self.quoted = urllib.parse.quote(event)
        self.pager = Connection(port, address)     # page loads
        self.fetcher = Connection(port, address)   # fragment fetches (one at a time), as a browser's second connection
        self.known = -1      # the newest result the phone knows was stored (an index)
        self.have = -1       # the newest result whose fetch ended (every one before it held too)
        self.etag = ""
        self.fetching = False
        self.again = False
        self.stopping = False

    async def run(self) -> None:
        first = True
        while not self.stopping:
            await self.load_page(first)
            first = False
            stream = asyncio.create_task(self.listen())
            try:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.reload)
            finally:
                stream.cancel()
                try:
                    await stream
                except (asyncio.CancelledError, Exception):
                    pass

    async def load_page(self, first: bool) -> None:
        known = self.tally.committed   # every result stored before the page is asked for is in it
        t0 = time.perf_counter()
        try:
            status, head, body = await asyncio.wait_for(
                self.pager.get(f"/e/{self.quoted}/standings", {"Accept-Encoding": "gzip"}), PAGE_TIMEOUT)
        except (OSError, Closed, asyncio.IncompleteReadError, TimeoutError):
            self.pager.close()
            self.tally.page_errors += 1
            return
        if status != 200:
            self.tally.page_errors += 1
            return
        ms = (time.perf_counter() - t0) * 1000
        (self.tally.first_pages if first else self.tally.pages if self.tally.results_on else []).append(ms)
        # the ETag of the standings the page holds (its live area's data-etag): desk.js asks with it at the hello
        if head.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        held = re.search(rb'data-testid="live-standings"[^>]*data-etag="&#34;([0-9a-f]+)&#34;"', body)
        self.etag = f'"{held.group(1).decode()}"' if held else ""
        self.known = max(self.known, known)
        self.tally.has(self.have, max(self.have, known))
        self.have = max(self.have, known)

    async def listen(self) -> None:
        """The page's stream: `result` tells which results are stored, `standings` asks for a fetch."""
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.address, 0))
            writer.write(request_bytes(self.port, f"/e/{self.quoted}/stream", {"Accept": "text/event-stream"}))
            await writer.drain()
            status, _ = await read_head(reader)
            if status != 200:
                self.tally.streams_dropped += 1
                return
            buffer = b""
            while True:
                size = int((await reader.readline()).split(b";")[0], 16)
                if size == 0:
                    return            # the desk's planned end (stream_seconds): a browser opens a new one
                buffer += await reader.readexactly(size)
                await reader.readline()
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self.event(block.decode("utf-8"))
        except asyncio.CancelledError:
            raise
        except (OSError, Closed, asyncio.IncompleteReadError, ValueError):
            self.tally.streams_dropped += 1
        finally:
            if writer is not None:
                writer.close()

    def event(self, block: str) -> None:
        kind, data = "", ""
        for line in block.split("\n"):
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
        if kind == "hello":          # desk.js fetches every live area at a hello: what was stored before it is in
            self.known = max(self.known, self.tally.committed)
            self.fetch()
        elif kind == "result":
            i = self.tally.index.get(json.loads(data).get("id"))
            if i is not None:
                self.known = max(self.known, i)
        elif kind == "standings":
            self.fetch()

    def fetch(self) -> None:
        if self.fetching:
            self.again = True
            return
        self.fetching, self.again = True, False
        asyncio.create_task(self._fetch())

    async def _fetch(self) -> None:
        covers = self.known
        headers = {"Accept-Encoding": "gzip"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        try:
            status, head, body = await asyncio.wait_for(
                self.fetcher.get(f"/e/{self.quoted}/part/standings", headers), PAGE_TIMEOUT)
            self.tally.fetches += 1
            if status == 304:
                self.tally.fetches_304 += 1
            elif status == 200:
                self.etag = head.get("etag", "")
                self.tally.fragment_gz_kb = round(len(body) / 1024, 1)
            else:
                raise Closed(f"status {status}")
            if covers > self.have:
                self.tally.has(self.have, covers)
                self.have = covers
        except (OSError, Closed, asyncio.IncompleteReadError, TimeoutError):
            self.fetcher.close()
            self.tally.fetch_errors += 1
        finally:
            self.fetching = False
            if self.again and not self.stopping:
                self.fetch()


# ------------------------------------------------------------------------------------------ the desk
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return -1.0


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def start_desk(db_path: str, port: int) -> subprocess.Popen[bytes]:
    """`gameclock desk` on `port`, answering (RuntimeError when it does not within 60 s)."""
    desk = subprocess.Popen([sys.executable, "-m", "gameclock", "desk", "--db", db_path, "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if desk.poll() is not None:
            raise RuntimeError(f"bench hall: gameclock desk ended: {desk.stderr.read().decode() if desk.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return desk
        except OSError:
            time.sleep(0.1)
    desk.kill()
    raise RuntimeError("bench hall: gameclock desk did not answer within 60 s")


def live_games(players: int, rounds: int, count: int) -> list[tuple[int, int, str, str]]:
    """(round, table, left, right) of `count` games of the event's players in the rounds after `rounds`."""
    names = event_gen.player_names(players)
    rng = random.Random(28)
    out: list[tuple[int, int, str, str]] = []
    rnd = rounds
    while len(out) < count:
        rnd += 1
        order = names[:]
        rng.shuffle(order)
        for t in range(len(order) // 2):
            out.append((rnd, t + 1, order[2 * t], order[2 * t + 1]))
    return out[:count]


async def hall(db_path: str, port: int, pid: int, p: dict[str, float]) -> dict[str, Any]:
    from bench.dock import _template
    from gameclock.dock.sign import key_id, sign_result
    from gameclock.organiser.store import Store

    phones_n = int(p["phones"])
    count = max(1, int(p["rate"] * p["minutes"] * 60))
    tally = Tally(phones_n)
    rng = random.Random(1)
    phones = [Phone(tally, port, event_gen.EVENT, f"127.0.{1 + i // 250}.{1 + i % 250}", p["reload"],
                    random.Random(i)) for i in range(phones_n)]
    tasks = []
    for ph in phones:                      # the phones come in, one every RAMP seconds
        tasks.append(asyncio.create_task(ph.run()))
        await asyncio.sleep(RAMP)
    await asyncio.sleep(2.0)
    rss = {"start": rss_mb(pid)}
    template = json.loads(_template(0))
    kid = key_id(event_gen.KEY)
    store = Store(db_path)
    games = live_games(int(p["players"]), int(p["rounds"]), count)
    cpu0, own0, t0 = cpu_s(pid), own_cpu_s(), time.perf_counter()
    tally.results_on = True
    try:
        for i, (rnd, table, left, right) in enumerate(games):
            due = t0 + i / p["rate"]
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            rec = event_gen.game_record(template, FIRST_LIVE_SEQ + i, rnd, table, left, right, False, rng)
            tally.index[rec["id"]] = i
            tally.remaining.append(phones_n)
            tally.stored_at.append(time.perf_counter())
            status = await asyncio.to_thread(store.put_result, rec, sign_result(event_gen.KEY, rec), kid, "bench-hall")
            if status != "stored":
                raise RuntimeError(f"bench hall: the live result {rec['id']} was {status}, not stored")
            tally.committed = i
            if i == count // 2:
                rss["middle"] = rss_mb(pid)
        end = time.perf_counter() + DRAIN
        while len(tally.all_have) < count and time.perf_counter() < end:
            await asyncio.sleep(0.1)
        seconds = time.perf_counter() - t0
        cpu = {"desk": (cpu_s(pid) - cpu0) / seconds * 100, "bench": (own_cpu_s() - own0) / seconds * 100}
        rss["end"] = rss_mb(pid)
    finally:
        tally.results_on = False
        for ph in phones:
            ph.stopping = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for ph in phones:
            ph.fetcher.close()
            ph.pager.close()
        store.close()
    live = list(tally.all_have.values())
    return {"hall_page_ms_p50": median(tally.pages), "hall_page_ms_p95": pct95(tally.pages),
            "hall_first_page_ms_p95": pct95(tally.first_pages),
            "hall_page_loads": len(tally.pages), "hall_page_errors": tally.page_errors,
            "hall_live_ms_p50": median(live), "hall_live_ms_p95": pct95(live),
            "hall_results": count, "hall_results_unseen": count - len(live),
            "hall_streams_dropped": tally.streams_dropped, "hall_fetches": tally.fetches,
            "hall_fetches_304": tally.fetches_304, "hall_fetch_errors": tally.fetch_errors,
            "hall_fragment_gz_kb": tally.fragment_gz_kb,
            "hall_rss_mb_start": rss["start"], "hall_rss_mb_middle": rss.get("middle", -1.0),
            "hall_rss_mb_end": rss["end"], "hall_desk_cpu_pct": round(cpu["desk"], 1),
            "hall_bench_cpu_pct": round(cpu["bench"], 1)}


def body_kb(port: int, path: str, headers: dict[str, str] | None = None) -> float:
    """The body of GET `path` as sent (no decoding: with Accept-Encoding gzip, the bytes on the wire), kB."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers=headers or {})
        return round(len(conn.getresponse().read()) / 1024, 1)
    finally:
        conn.close()


def one_run(p: dict[str, float]) -> dict[str, Any]:
    """One hall (module doc) of p["players"] x p["rounds"] with p["phones"] phones: its figures."""
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-hall-") as tmp:
        db_path = os.path.join(tmp, "pc.db")
        event_gen.load(db_path, int(p["players"]), int(p["rounds"]))
        port = free_port()
        desk = start_desk(db_path, port)
        try:
            out = asyncio.run(hall(db_path, port, desk.pid, p))
            quoted = urllib.parse.quote(event_gen.EVENT)
            out["hall_fragment_kb"] = body_kb(port, f"/e/{quoted}/part/standings")
            out["hall_page_kb"] = body_kb(port, f"/e/{quoted}/standings")
            out["hall_page_wire_kb"] = body_kb(port, f"/e/{quoted}/standings", {"Accept-Encoding": "gzip"})
        finally:
            desk.terminate()
            try:
                desk.wait(10)
            except subprocess.TimeoutExpired:
                desk.kill()
                desk.wait()
    out.update(hall_players=int(p["players"]), hall_rounds=int(p["rounds"]), hall_phones=int(p["phones"]),
               hall_rate=p["rate"], hall_minutes=p["minutes"])
    return out


def bench_hall() -> dict[str, Any]:
    p = parameters()
    out = one_run(p)
    large = int(p["large"])
    if large > 0:   # the large event: its figures named by its size (hall_live_ms_p95_5000)
        big = one_run({**p, "players": p["large"], "rounds": p["large_rounds"], "phones": p["large_phones"]})
        out.update({f"{k}_{large}": v for k, v in big.items()})
    return out
