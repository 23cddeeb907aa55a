"""`python -m bench standings`: the organiser's end of a big crossword event -- its standings
and every export -- from a real store.

The event (fixed seed): 500 players (Thai and English names) over 7 rounds of the `crossword`
preset, secondary level. Each round pairs the players Swiss-fashion (by game points, then spread,
adjacent pairs, avoiding a rematch when the next player allows), after giving two byes (XW-9: the
lowest-ranked players who have not had one), so 249 games and 2 byes a round: 1743 results, 14
byes. Scores are random (250-550 on the board); about one side in eight runs over its time (XW-3:
1 s to 5 min over, 10 points per started minute off), the spread is capped (XW-8: 250, 200 in the
last round, `stage` last). Each record is a real-size one: a copy of a `record_from_log` crossword
record (bench_dock's template: every move's duration, ~1.9 kB) with its id, event, round, table,
players, first mover, scores, penalties, spread, game points and entry lines set to this game's.
They are signed and stored in a real `dock.store.Store` (SQLite, WAL, synchronous FULL) in a temp
folder, with the byes; the store is built once, untimed.

Then, timed, three runs; each does what the organiser's five commands do, in this process:
`gameclock standings --event E --format json` (standings.commands.run: open the store, read the
results and byes from SQLite, build the Games, standings.compute, the JSON text) and `gameclock export tsh|trf|
csv|jsonl --event E` (exports.commands.export_outputs: each opens the store and reads it again,
builds the Games and divisions, and writes its files to memory: the TRF ranks run
standings.compute again). Not included: process start-up and Python imports (one import each in the
first run), writing the files to disk.

Figures:
  standings_ms_500x7     the median of the three runs' wall times, ms (target <= 1000)
  standings_ms_min, standings_ms_max    the fastest and slowest run
  standings_players, standings_rounds, standings_games, standings_byes   the event's size
  standings_tsh_lines    the .t file's lines (one per player)
  standings_trf_players  the TRF's 001 lines
  standings_csv_rows     the CSV's lines after its header (a game or a bye each)
  standings_jsonl_lines  the JSON Lines (one per stored result)
  standings_rows         the standings' rows (players)

Shorter runs (tests): GAMECLOCK_BENCH_STANDINGS_PLAYERS and _ROUNDS, or the arguments of
`bench_standings()`; the timing figure is then named standings_ms_{PLAYERS}x{ROUNDS}.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import math
import os
import random
import statistics
import tempfile
import time

ENV_PLAYERS = "GAMECLOCK_BENCH_STANDINGS_PLAYERS"
ENV_ROUNDS = "GAMECLOCK_BENCH_STANDINGS_ROUNDS"
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
    from gameclock.dock.sign import key_id, sign_result
    from gameclock.organiser.store import Store

    with Store(path) as store:
        store.add_key(SERIAL, KEY)
        kid = key_id(KEY)
        # the PC's durable writes, one transaction a result, as `gameclock receive` does -- untimed
        for rec in records:
            store.put_result(rec, sign_result(KEY, rec), kid, "bench")
        store.put_byes(byes)


def one_run(path: str) -> tuple[float, dict]:
    """The five commands' work (module doc); (seconds, what they produced)."""
    from gameclock.organiser.exports.commands import export_outputs
    from gameclock.organiser.standings import commands as standings_commands
    from gameclock.organiser.store import Store

    t0 = time.perf_counter()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = standings_commands.run(argparse.Namespace(event=EVENT, round=None, format="json", db=path,
                                                         teams=None))
    outputs = {}
    for fmt in ("tsh", "trf", "csv", "jsonl"):
        with Store(path) as store:
            outputs[fmt] = export_outputs(store, fmt, EVENT)
    elapsed = time.perf_counter() - t0
    if code != 0:
        raise RuntimeError("bench standings: gameclock standings failed")
    return elapsed, {"standings": printed.getvalue(), **outputs}


def bench_standings(players: int | None = None, rounds: int | None = None, runs: int = RUNS) -> dict:
    players = int(os.environ.get(ENV_PLAYERS, "500")) if players is None else players
    rounds = int(os.environ.get(ENV_ROUNDS, "7")) if rounds is None else rounds
    records, byes = tournament(players, rounds)
    with tempfile.TemporaryDirectory(prefix="gameclock-bench-standings-") as tmp:
        path = os.path.join(tmp, "pc.db")
        build_store(path, records, byes)
        times = []
        for _ in range(runs):
            seconds, made = one_run(path)
            times.append(seconds)
    (tsh_out,), (trf_out,), (csv_out,), (jsonl_out,) = (made[f] for f in ("tsh", "trf", "csv", "jsonl"))
    trf_lines = trf_out.data.decode("utf-8").split("\r\n")
    return {
        f"standings_ms_{players}x{rounds}": round(statistics.median(times) * 1000, 1),
        "standings_ms_min": round(min(times) * 1000, 1),
        "standings_ms_max": round(max(times) * 1000, 1),
        "standings_players": players,
        "standings_rounds": rounds,
        "standings_games": len(records),
        "standings_byes": len(byes),
        "standings_tsh_lines": len(tsh_out.data.decode("utf-8").splitlines()),
        "standings_trf_players": sum(1 for line in trf_lines if line.startswith("001")),
        "standings_csv_rows": len(csv_out.data.decode("utf-8-sig").splitlines()) - 1,
        "standings_jsonl_lines": len(jsonl_out.data.decode("utf-8").splitlines()),
        "standings_rows": sum(len(t["rows"]) for t in json.loads(made["standings"])),
    }
