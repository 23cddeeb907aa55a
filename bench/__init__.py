"""`python -m bench [NAME ...]`: run benchmarks and print ONE JSON object of figures on stdout.

Benchmarks are registered by name in `BENCHES`; each is a function taking no argument and returning a
dict of figures, and the output is all their dicts merged (a figure name may appear only once). With
names on the command line only those run; `--list` prints the registered names. To add one:

    def bench_display() -> dict:
        ...
        return {"render_ms_median": 3.1}

    BENCHES["display"] = bench_display

Benchmarks print figures; they never assert. Tests decide what a figure must be (tests/test_bench.py).
Random inputs come from fixed seeds, so a figure changes only when the code does (or the machine's speed).

Figures of "engine" (the clock core):
  charge_error_ns_max   a simulated 10,000-press game with pauses, driven like the device loop drives
                        the core (advance at every `next_wake`, apply each event at its edge time):
                        the largest |charged - exact| over both sides, where "exact" is each side's
                        press-to-press intervals minus paused spans, summed here independently (CL-1).
  charge_presses, charge_pauses, charge_wakes, charge_game_s    the size of that simulated game.
  replay_events_per_s   parse + fold of a 10,000-event log text (written with format_event): events per
                        second, from the median of several runs; replay_10k_ms is that median.

The other benches' figures are explained in their modules' docstrings; those of the hostile-wire benches
(issue 13), by name:
  receiver (receiver.py)  receiver_hellos, receiver_hellos_answered, receiver_hellos_per_s,
                          receiver_hello_flood_rss_mb, receiver_hello_flood_db_kb, receiver_log_kb,
                          receiver_ports_lost, receiver_genuine_stored, receiver_refused_results,
                          receiver_tracebacks, receiver_alive, receiver_exit_status, receiver_seconds
                          (GAMECLOCK_BENCH_HELLOS: the flood's size, 50,000)
  wirefuzz (wirefuzz.py)  fuzz_lines, fuzz_crashes, fuzz_hangs, fuzz_threads_lost, fuzz_rss_growth_mb,
                          fuzz_accepted_forgeries, fuzz_genuine_sent, fuzz_genuine_delivered,
                          fuzz_db_refusals, fuzz_pushes, fuzz_pushes_taken, fuzz_seconds
                          (GAMECLOCK_BENCH_WIRE: the lines, 100,000)
and of issue 14's many docked clocks:
  manyclocks (manyclocks.py)  receiver_clocks, receiver_results, receiver_results_per_s, receiver_errors,
                          receiver_rss_mib, receiver_upload_s, receiver_ports_open_s (GAMECLOCK_BENCH_CLOCKS:
                          200 clocks, GAMECLOCK_BENCH_RESULTS: 10 results each)
and of issue 16's pairing (and issue 25's Dutch open):
  pair (pair.py)          pair_ms_500 (round 5 of a 500-player XW-10 event; issue 16: under 2 s),
                          pair_swiss_ms_500 (its round 4, the whole field's Swiss), pair_players,
                          pair_boards, pair_repeats (GAMECLOCK_BENCH_PAIR_PLAYERS: 500);
                          dutch_ms_300 (round 5 of a 300-player FIDE Dutch open; issue 25: under 5,000 ms),
                          dutch_boards_300, dutch_differing_300 (boards unlike the reference: 0),
                          dutch_matchings_300, dutch_networkx_300 (GAMECLOCK_BENCH_DUTCH_RUNS: 3)
and of issue 26's pushes:
  push (push.py)          push_receive_ms_median, push_receive_ms_max (a round published -> a docked clock's loop
                          has it, through `gameclock receive`), push_desk_ms_median, push_desk_ms_max (through the
                          desk's dock, nudged), push_runs, push_missed (GAMECLOCK_BENCH_PUSHES: 10 rounds)
and of issue 17's desk:
  desk (desk.py)          desk_page_ms_p95 (the standings page of a 500-player event over HTTP; issue 17:
                          under 200 ms), desk_page_ms_median, desk_fragment_ms_p95, desk_fragment_ms_median,
                          desk_page_rows, desk_page_kb, desk_live_update_ms_p95 (a result stored -> the
                          projector shows it, headless Chromium; issue 17: under 1000 ms),
                          desk_live_update_ms_median, desk_live_update_samples, desk_players, desk_rounds,
                          desk_games
and of issue 28's hall of phones:
  hall (hall.py)          hall_page_ms_p50/p95, hall_live_ms_p50/p95 (a result stored -> every phone has the
                          new standings), hall_streams_dropped, hall_rss_mb_start/middle/end, ... (its module
                          doc); options: `python -m bench hall --phones 50 --minutes 1` (hall.OPTIONS)
  players (players.py)    players_page_ms_p95 (the public players page of a 500-player event; issue 28: under
                          100 ms), players_page_ms_median, players_page_cold_ms_p95/median (right after a store
                          change), players_page_kb, players_page_rows, find_ms_p95, find_ms_median, players_players
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

from bench.crash import bench_crash
from bench.desk import bench_desk
from bench.device import bench_device
from bench.dock import bench_dock
from bench.filefuzz import bench_files
from bench.hall import OPTIONS as HALL_OPTIONS
from bench.hall import bench_hall
from bench.manyclocks import bench_manyclocks
from bench.pair import bench_pair
from bench.players import bench_players
from bench.push import bench_push
from bench.receiver import bench_receiver
from bench.standings import bench_standings
from bench.startup import bench_startup
from bench.wirefuzz import bench_wirefuzz
from gameclock.core.clock import Rejected, advance, apply, new_game, next_wake
from gameclock.core.control import NS_PER_MIN, NS_PER_MS, NS_PER_S, Control, Stage
from gameclock.core.events import Event, Pause, Press, Resume, Start
from gameclock.core.log import format_event, parse_log

# XW-2 / XW-3: 22:00 per side, running on below zero, so a long simulated game never flags; tenths below
# 0:10 make the display (and so the wake-ups) as busy as any preset's.
ENGINE_CONTROL = Control(stages_left=(Stage(22 * NS_PER_MIN),), stages_right=(Stage(22 * NS_PER_MIN),),
                         negative=True, penalty_points_per_minute=10, low_time_ns=(NS_PER_MIN,),
                         tenths_below_ns=10 * NS_PER_S)


def _interval_ns(rng: random.Random) -> int:
    """A press-to-press interval: mostly a normal move, some blitz-fast ones, some bounce-short, a few long."""
    r = rng.random()
    if r < 0.02:
        return rng.randint(1, NS_PER_MS)                       # sub-millisecond
    if r < 0.20:
        return rng.randint(NS_PER_MS, 500 * NS_PER_MS)
    if r < 0.97:
        return rng.randint(500 * NS_PER_MS, 5 * NS_PER_S)
    return rng.randint(5 * NS_PER_S, 60 * NS_PER_S)


def simulated_game(presses: int, seed: int) -> tuple[list[Event], list[int]]:
    """Events of a game of `presses` presses (left starts) with a few pauses inside turns, and each side's
    exact charged time: the sum of its turns' running time, computed from the intervals drawn here."""
    rng = random.Random(seed)
    events: list[Event] = [Start(0, 0)]
    expected = [0, 0]
    t = 0
    side = 0
    for _ in range(presses):
        turn = _interval_ns(rng)
        if rng.random() < 0.02:  # a pause (challenge, arbiter) somewhere inside this turn
            before = rng.randint(0, turn)
            paused = rng.randint(1, 120 * NS_PER_S)
            events += [Pause(t + before), Resume(t + before + paused)]
            t += paused
        t += turn
        expected[side] += turn
        events.append(Press(t, side))
        side = 1 - side
    return events, expected


def drive_like_the_loop(control: Control, events: list[Event]) -> tuple[object, int]:
    """Feed events the way the device loop does: sleep until the core's next wake or the next input,
    whichever is first; at a wake advance the state (render, beep), at an input apply it at its stamp."""
    state = new_game(control)
    wakes = 0
    for ev in events:
        while True:
            w = next_wake(state)
            if w is None or w >= ev.at_ns:
                break
            state = advance(state, w)
            wakes += 1
        try:
            state = apply(state, ev)
        except Rejected:
            pass
    return state, wakes


def bench_charge(presses: int = 10_000, seed: int = 1) -> dict:
    events, expected = simulated_game(presses, seed)
    state, wakes = drive_like_the_loop(ENGINE_CONTROL, events)
    charged = [state.sides[s].used_ns for s in (0, 1)]
    return {
        "charge_error_ns_max": max(abs(charged[s] - expected[s]) for s in (0, 1)),
        "charge_presses": sum(isinstance(e, Press) for e in events),
        "charge_pauses": sum(isinstance(e, Pause) for e in events),
        "charge_wakes": wakes,
        "charge_game_s": round(events[-1].at_ns / NS_PER_S, 3),
    }


def replay_log_text(n_events: int = 10_000, seed: int = 2) -> str:
    """A log of exactly `n_events` events (a start, presses, some pauses), written with format_event."""
    events, _ = simulated_game(n_events, seed)
    events = events[:n_events]
    return "preset crossword\nlevel secondary\n" + "\n".join(format_event(e) for e in events) + "\n"


def bench_replay(n_events: int = 10_000, runs: int = 5) -> dict:
    text = replay_log_text(n_events)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        log = parse_log(text)
        state = new_game(ENGINE_CONTROL)
        for ev in log.events:
            state = apply(state, ev)
        times.append(time.perf_counter() - t0)
        n_parsed = len(log.events)
    median = statistics.median(times)
    return {
        "replay_events": n_parsed,
        "replay_10k_ms": round(median * 1000 * 10_000 / n_parsed, 3),
        "replay_events_per_s": round(n_parsed / median, 1),
    }


def bench_engine() -> dict:
    out = bench_charge()
    out.update(bench_replay())
    return out


BENCHES: dict[str, Callable[[], dict]] = {
    "engine": bench_engine,
    "device": bench_device,  # bench_device.py: one clock with both displays (its docstring)
    "crash": bench_crash,    # crash.py: kill -9 at 200 random moments, restart, check (CL-5, CL-6); and
                             # during enrollment (enrollcrash.py) and outbox repair (repaircrash.py)
    "dock": bench_dock,      # bench_dock.py: 1000 results uploaded clock -> PC over a pty (CL-5)
    "standings": bench_standings,  # standings.py: standings and all exports, 500x7 and 5000x9 (issue 14)
    "files": bench_files,    # filefuzz.py: 20,000 hostile files and lines into every file reader (issue 13)
    "receiver": bench_receiver,  # receiver.py: gameclock receive under a 50,000-hello flood and hostile frames
    "wirefuzz": bench_wirefuzz,  # wirefuzz.py: 100,000 hostile lines into the receiver and a clock's DockThread
    "manyclocks": bench_manyclocks,  # manyclocks.py: 200 clocks docked at once into one gameclock receive
    "startup": bench_startup,    # startup.py: `gameclock run` spawn -> READY=1 (the clock on the bus), new and
                                 # after restoring a 2-hour game (issue 14)
    "pair": bench_pair,          # pair.py: pairing round 5 (and 4) of a 500-player XW-10 event (issue 16)
    "desk": bench_desk,          # desk.py: the desk's standings page and projector, 500 players (issue 17)
    "push": bench_push,          # push.py: a round published -> a docked clock has it, receive and desk (issue 26)
    "hall": bench_hall,          # hall.py: 200 phones on the live standings while results arrive (issue 28)
    "players": bench_players,    # players.py: the players page and find-my-table, 500 players (issue 28)
}
# a bench's options on the command line (`--phones 50`), each an environment variable the bench reads
OPTIONS: dict[str, str] = {**HALL_OPTIONS}


def run(names: list[str]) -> dict:
    out: dict = {}
    for name in names:
        figures = BENCHES[name]()
        clash = set(out) & set(figures)
        if clash:
            raise ValueError(f"bench {name!r} repeats figure(s) {sorted(clash)}")
        out.update(figures)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    while any(a in OPTIONS for a in args):   # `--phones 50`: the bench's environment variable set
        at = next(i for i, a in enumerate(args) if a in OPTIONS)
        if at + 1 >= len(args):
            print(f"bench: {args[at]} needs a value", file=sys.stderr)
            return 2
        os.environ[OPTIONS[args[at]]] = args[at + 1]
        args = args[:at] + args[at + 2:]
    if args == ["--list"]:
        print("\n".join(BENCHES))
        return 0
    unknown = [a for a in args if a not in BENCHES]
    if unknown:
        print(f"bench: unknown bench {', '.join(unknown)} (known: {', '.join(BENCHES)})", file=sys.stderr)
        return 2
    print(json.dumps(run(args or list(BENCHES)), sort_keys=True))
    return 0

