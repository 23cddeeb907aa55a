"""`python -m bench standings`: the organiser's end of a big crossword event -- its standings
and every export -- from a real store, at two sizes (issue 14).

The event (fixed seed): P players (Thai and English names) over R rounds of the `crossword` preset,
secondary level. Each round pairs the players Swiss-fashion (by game points, then spread, adjacent
pairs, avoiding a rematch when the next player allows), after giving two byes (XW-9: the
lowest-ranked players who have not had one), so (P - 2) / 2 games and 2 byes a round: 500 x 7 is
1743 results and 14 byes, 5000 x 9 is 22,491 results and 18 byes. Scores are random (250-550 on the
board); about one side in eight runs over its time (XW-3: 1 s to 5 min over, 10 points per started
minute off), the spread is capped (XW-8: 250, 200 in the last round, `stage` last). Each record is
a real-size one: a copy of a `record_from_log` crossword record (bench_dock's template: every move's
duration, ~1.9 kB) with its id, event, round, table, players, first mover, scores, penalties,
spread, game points and entry lines set to this game's.

The store: a real `organiser.store.Store` (SQLite, WAL, synchronous FULL) in a temp folder. Each
record is signed and all are stored with `Store.put_results` in one transaction (a bulk import:
one fsync, not one a result), then the byes. The records (22,491 full dicts at 5000 x 9) are
generated first and dropped before anything is timed, so the timed commands' garbage collections do
not walk them; the garbage collector is frozen (`gc.freeze`) over the load for the same reason.

Timed, three runs of each, in this process (process start-up and Python imports are not included:
one import each in the first run):
- the standings: `gameclock standings --event E --format json` (standings.commands.run: open the
  store, stream the results' summaries and read the byes, build the Games, standings.compute, the
  JSON text, printed to memory);
- the exports: `gameclock export tsh|trf|csv|jsonl --event E`, each as its command does it
  (exports.commands.export_outputs, streamed: each opens the store and reads it again; tsh, trf
  and csv are built in memory, the TRF ranks run standings.compute again; jsonl is streamed into a
  temp file row by row).

Figures (SIZE is PLAYERSxROUNDS: 500x7, and the large 5000x9):
  standings_ms_SIZE     the standings: the median of the three runs, ms (issue 14: <= 250 at
                        500x7, <= 2000 at 5000x9)
  export_ms_SIZE        the four exports together: the median of the three runs, ms
  standings_ms_min, standings_ms_max    the fastest and slowest standings run (500x7)
  standings_rss_mib_5000x9   peak RSS of a fresh Python process running `gameclock standings --event E
                        --format json --db FILE` on the large store (start-up and imports included):
                        its VmHWM, MiB (issue 14: < 200)
  bulk_load_s_5000x9    building the large store: signing every record, `put_results`, the byes, s
  standings_players, standings_rounds, standings_games, standings_byes   the 500x7 event's size
  standings_tsh_lines    the .t file's lines (one per player)
  standings_trf_players  the TRF's 001 lines
  standings_csv_rows     the CSV's lines after its header (a game or a bye each)
  standings_jsonl_lines  the JSON Lines (one per stored result)
  standings_rows         the standings' rows (players)
  standings_large_games  the large event's results (22,491)

Shorter runs (tests): GAMECLOCK_BENCH_STANDINGS_PLAYERS and _ROUNDS (the 500x7 size),
GAMECLOCK_BENCH_STANDINGS_LARGE (`PxR`, the large size; 0 leaves it out), or the arguments of
`bench_standings()`; the figures are then named by those sizes.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import io
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

ENV_PLAYERS = "GAMECLOCK_BENCH_STANDINGS_PLAYERS"
ENV_ROUNDS = "GAMECLOCK_BENCH_STANDINGS_ROUNDS"
ENV_LARGE = "GAMECLOCK_BENCH_STANDINGS_LARGE"
LARGE = "5000x9"   # the large size (issue 14's measurements)
EVENT = "bench-open"
SERIAL = "00000000be7c4001"
KEY = bytes(range(40, 72))
BYES_PER_ROUND = 2
RUNS = 3
GIVEN = ("สมชาย", "มาลี", "ประเสริฐ", "วิชัย", "สุดารัตน์", "Anan", "Boon", "Chai", "Dao", "Ek", "Fah", "Gun",
         "Ham", "Ice", "Jan", "Kai", "Lek", "Mai", "Nok", "Oil", "Pim", "Rung", "Som", "Tan", "Wan")
FAMILY = ("ใจดี", "ศรีสุข", "วงศ์ใหญ่", "แก้วมณี", "Jaidee", "Srisuk", "Wongyai", "Kaewmanee", "Boonmee",
          "Chaiyo", "Dechapol", "Intarasuk", "Kongkaew", "Meesuk", "Nakorn", "Phromma", "Rattana",
          "Saelim", "Thongdee", "Yodying")


def player_names(n: int) -> list[str]:
    """n distinct names, given and family (tsh-safe: none ends in a number); past 500, a letter after."""
    base = [f"{g} {f}" for f in FAMILY for g in GIVEN]
    return [base[i % len(base)] + ("" if i < len(base) else f" {chr(ord('A') + i // len(base))}")
            for i in range(n)]


def _penalty(rng: random.Random) -> tuple[int, int]:
    """(overtime_ms, XW-3 penalty points) of one side: mostly none, about 1 in 8 over."""
    if rng.random() >= 0.125:
        return 0, 0
    over = rng.randint(1_000, 300_000)
    return over, 10 * math.ceil(over / 60_000)


def game_record(template: dict, seq: int, rnd: int, table: int, left: str, right: str, last: bool,
                rng: random.Random) -> dict:
    """One real-size crossword record (module doc) for this game."""
    from gameclock.core.scoring import capped_spread
    from gameclock.record import record_id

    rec = copy.deepcopy(template)
    rec["id"] = record_id(SERIAL, seq)
    rec["clock"]["serial"], rec["clock"]["seq"] = SERIAL, seq
    rec["event"], rec["round"], rec["table"] = EVENT, rnd, table
    rec["stage"] = "last" if last else "qualifying"
    rec["players"] = {"left": left, "right": right}
    rec["first"] = rng.choice(("left", "right"))
    entered = {"left": rng.randint(250, 550), "right": rng.randint(250, 550)}
    penalties, final = {}, {}
    for side in ("left", "right"):
        over, pen = _penalty(rng)
        s = rec["sides"][side]
        s["overtime_ms"], s["penalty_points"] = over, pen
        if over:
            s["remaining_ms"] = -over
        penalties[side] = pen
        final[side] = entered[side] - pen
    cap = 200 if last else 250
    d = final["left"] - final["right"]
    outcome = "left" if d > 0 else "right" if d < 0 else "draw"
    rec["outcome"], rec["reason"] = outcome, "score"
    rec["scores"].update(entered=entered, penalties=penalties, final=final, cap=cap,
                         spread={"left": capped_spread(final["left"], final["right"], cap),
                                 "right": capped_spread(final["right"], final["left"], cap)},
                         game_points={s: 1 if outcome == "draw" else 2 if outcome == s else 0
                                      for s in ("left", "right")})
    t = rec["entries"][0]["t_ms"]
    rec["entries"] = [{"t_ms": t, "line": f"score left {entered['left']}"},
                      {"t_ms": t + 2000, "line": f"score right {entered['right']}"},
                      {"t_ms": t + 5000, "line": "confirm left"}, {"t_ms": t + 6000, "line": "confirm right"}]
    return rec


def tournament(players: int, rounds: int, seed: int = 7) -> tuple[list[dict], list[dict]]:
    """The event's records and byes ({"event", "round", "player"}), module doc."""
    from bench.dock import _template

    template = json.loads(_template(0))  # a crossword game's record (even templates are crossword)
    rng = random.Random(seed)
    names = player_names(players)
    gp = {p: 0 for p in names}
    spread = {p: 0 for p in names}
    met: set[frozenset] = set()
    had_bye: set[str] = set()
    records: list[dict] = []
    byes: list[dict] = []
    seq = 0
    for rnd in range(1, rounds + 1):
        order = sorted(names, key=lambda p: (-gp[p], -spread[p], rng.random()))
        out = [p for p in reversed(order) if p not in had_bye][:BYES_PER_ROUND if players % 2 == 0 else 1]
        if (players - len(out)) % 2:
            out = out[:-1]
        for p in out:
            had_bye.add(p)
            byes.append({"event": EVENT, "round": rnd, "player": p})
            gp[p] += 2
            spread[p] += 100
        waiting = [p for p in order if p not in out]
        table = 0
        while waiting:
            a = waiting.pop(0)
            j = next((i for i, b in enumerate(waiting[:8]) if frozenset((a, b)) not in met), 0)
            b = waiting.pop(j)
            met.add(frozenset((a, b)))
            table += 1
            seq += 1
            left, right = (a, b) if rng.random() < 0.5 else (b, a)
            rec = game_record(template, seq, rnd, table, left, right, rnd == rounds, rng)
            records.append(rec)
            for side, p in (("left", left), ("right", right)):
                gp[p] += rec["scores"]["game_points"][side]
                spread[p] += rec["scores"]["spread"][side]
    return records, byes


def build_store(path: str, records: list[dict], byes: list[dict]) -> None:
    """The store of `records` and `byes` (module doc: signed, one transaction)."""
    from gameclock.dock.sign import key_id, sign_result
    from gameclock.organiser.store import Store

    kid = key_id(KEY)
    with Store(path) as store:
        store.add_key(SERIAL, KEY)
        store.put_results((rec, sign_result(KEY, rec), kid, "bench", None) for rec in records)
        store.put_byes(byes)


def load(path: str, players: int, rounds: int) -> tuple[int, int, float]:
    """Generate the event and build its store at `path`: (results, byes, seconds the store took to
    build). The records are dropped on return; the collector is frozen while they live."""
    gc.collect()
    gc.freeze()   # the records are long-lived: collections need not walk them again and again
    try:
        records, byes = tournament(players, rounds)
        t0 = time.perf_counter()
        build_store(path, records, byes)
        seconds = time.perf_counter() - t0
        counts = len(records), len(byes)
        del records, byes
    finally:
        gc.unfreeze()
        gc.collect()
    return *counts, seconds


def run_standings(path: str) -> tuple[float, str]:
    """`gameclock standings --event E --format json`'s work (module doc): (seconds, its output)."""
    from gameclock.organiser.standings import commands as standings_commands

    t0 = time.perf_counter()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = standings_commands.run(argparse.Namespace(event=EVENT, round=None, format="json", db=path,
                                                         teams=None))
    elapsed = time.perf_counter() - t0
    if code != 0:
        raise RuntimeError("bench standings: gameclock standings failed")
    return elapsed, printed.getvalue()


def run_exports(path: str, tmp: str) -> tuple[float, dict[str, bytes]]:
    """The four exports' work (module doc): (seconds, each format's file; jsonl's read back after)."""
    from gameclock.organiser.exports.commands import export_outputs
    from gameclock.organiser.store import Store

    jsonl_path = os.path.join(tmp, "results.jsonl")
    files: dict[str, bytes] = {}
    t0 = time.perf_counter()
    for fmt in ("tsh", "trf", "csv", "jsonl"):
        with Store(path, readonly=True) as store:
            (out,) = export_outputs(store, fmt, EVENT, streamed=True)
            if fmt == "jsonl":
                with open(jsonl_path, "wb") as f:
                    out.write(f)
            else:
                files[fmt] = out.data
    elapsed = time.perf_counter() - t0
    with open(jsonl_path, "rb") as f:
        files["jsonl"] = f.read()
    return elapsed, files


# The child: `gameclock standings` as `python -m gameclock` runs it, then its own peak RSS (VmHWM,
# kB) on stderr's last line. Not the child's rusage: Linux counts in ru_maxrss the memory the child
# shared with this (big) process between fork and exec.
_RSS_CHILD = """
import sys
from gameclock.cli import main
code = main(sys.argv[1:])
with open("/proc/self/status") as f:
    print(next(line for line in f if line.startswith("VmHWM:")), file=sys.stderr)
sys.exit(code)
"""


def standings_peak_rss_mib(path: str) -> float:
    """Peak RSS (MiB) of a fresh Python process running `gameclock standings --event E --format
    json --db path` (start-up and imports included)."""
    proc = subprocess.run([sys.executable, "-c", _RSS_CHILD, "standings", "--event", EVENT, "--format", "json",
                           "--db", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=600)
    last = proc.stderr.strip().splitlines()[-1:] or [""]
    if proc.returncode != 0 or not last[0].startswith("VmHWM:"):
        raise RuntimeError(f"bench standings: gameclock standings exited {proc.returncode}: {proc.stderr.strip()}")
    return round(int(last[0].split()[1]) / 1024, 1)  # kB


def _median_ms(times: list[float]) -> float:
    return round(statistics.median(times) * 1000, 1)


@dataclass
class SizeRun:
    """One size's run (module doc): the timings (s) and what the last run produced."""
    results: int
    byes: int
    load_s: float
    standings_s: list[float]
    export_s: list[float]
    made: dict[str, Any]                  # "standings" (its JSON text), "tsh", "trf", "csv", "jsonl" (bytes)
    rss_mib: float | None = None          # the standings command's peak RSS in a fresh process


def bench_size(players: int, rounds: int, runs: int, rss: bool = False) -> SizeRun:
    """Build one size's store, time `runs` standings and exports on it; `rss`: measure a fresh
    standings process's peak RSS too."""
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-standings-") as tmp:
        path = os.path.join(tmp, "pc.db")
        results, byes, load_s = load(path, players, rounds)
        standings_s, export_s = [], []
        for _ in range(runs):
            seconds, printed = run_standings(path)
            standings_s.append(seconds)
            seconds, files = run_exports(path, tmp)
            export_s.append(seconds)
        return SizeRun(results, byes, load_s, standings_s, export_s, {"standings": printed, **files},
                       standings_peak_rss_mib(path) if rss else None)


def _size(text: str) -> tuple[int, int] | None:
    """`PxR` -> (P, R); "0" or "" -> None."""
    if text.strip() in ("", "0"):
        return None
    players, rounds = text.lower().split("x")
    return int(players), int(rounds)


def bench_standings(players: int | None = None, rounds: int | None = None, runs: int = RUNS,
                    large: tuple[int, int] | None | str = "env") -> dict:
    players = int(os.environ.get(ENV_PLAYERS, "500")) if players is None else players
    rounds = int(os.environ.get(ENV_ROUNDS, "7")) if rounds is None else rounds
    if large == "env":
        large = _size(os.environ.get(ENV_LARGE, LARGE))
    small = bench_size(players, rounds, runs)
    made = small.made
    trf_lines = made["trf"].decode("utf-8").split("\r\n")
    out = {
        f"standings_ms_{players}x{rounds}": _median_ms(small.standings_s),
        f"export_ms_{players}x{rounds}": _median_ms(small.export_s),
        "standings_ms_min": round(min(small.standings_s) * 1000, 1),
        "standings_ms_max": round(max(small.standings_s) * 1000, 1),
        "standings_players": players,
        "standings_rounds": rounds,
        "standings_games": small.results,
        "standings_byes": small.byes,
        "standings_tsh_lines": len(made["tsh"].decode("utf-8").splitlines()),
        "standings_trf_players": sum(1 for line in trf_lines if line.startswith("001")),
        "standings_csv_rows": len(made["csv"].decode("utf-8-sig").splitlines()) - 1,
        "standings_jsonl_lines": len(made["jsonl"].decode("utf-8").splitlines()),
        "standings_rows": sum(len(t["rows"]) for t in json.loads(made["standings"])),
    }
    if isinstance(large, tuple):
        p, r = large
        big = bench_size(p, r, runs, rss=True)
        out.update({f"standings_ms_{p}x{r}": _median_ms(big.standings_s),
                    f"export_ms_{p}x{r}": _median_ms(big.export_s),
                    f"standings_rss_mib_{p}x{r}": big.rss_mib,
                    f"bulk_load_s_{p}x{r}": round(big.load_s, 3),
                    "standings_large_games": big.results})
    return out
