"""`python -m bench engine` prints one JSON object with the engine's figures.

The charge error is a correctness figure (CL-1: charged time is exact to the ns), so it must be 0; the
speed figures only have to be positive numbers: a test never asserts how fast this machine is.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run_bench(*names: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *names], cwd=REPO,
                          capture_output=True, text=True, timeout=600)


def test_engine_bench_prints_one_json_object():
    proc = run_bench("engine")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)  # the whole of stdout is one JSON document
    assert isinstance(out, dict)
    for key in ("charge_error_ns_max", "replay_events_per_s", "replay_10k_ms"):
        assert key in out
    assert out["charge_error_ns_max"] == 0
    assert out["charge_presses"] == 10_000
    assert out["replay_events"] == 10_000
    for key in ("replay_events_per_s", "replay_10k_ms"):
        rate = out[key]
        assert isinstance(rate, (int, float)) and not isinstance(rate, bool)
        assert math.isfinite(rate) and rate > 0


def test_unknown_bench_name_is_an_error():
    proc = run_bench("no-such-bench")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "no-such-bench" in proc.stderr


def test_registry_runs_a_subset_and_refuses_repeated_figures(monkeypatch):
    import bench

    monkeypatch.setitem(bench.BENCHES, "one", lambda: {"a": 1})
    monkeypatch.setitem(bench.BENCHES, "two", lambda: {"b": 2.5})
    monkeypatch.setitem(bench.BENCHES, "again", lambda: {"a": 3})
    assert bench.run(["one", "two"]) == {"a": 1, "b": 2.5}
    assert bench.run(["two"]) == {"b": 2.5}
    with pytest.raises(ValueError, match="'a'"):
        bench.run(["one", "again"])


def test_dock_bench_short_run_figures_are_consistent():
    """`bench dock` on 50 results (GAMECLOCK_BENCH_DOCK_RESULTS): every result arrives, and
    the figures are the ratios their docstring defines; how fast this machine is, never asserted."""
    import os

    import bench
    from bench.dock import bench_dock, sample_records

    assert bench.BENCHES["dock"] is bench_dock
    n = 50
    env = dict(os.environ, GAMECLOCK_BENCH_DOCK_RESULTS=str(n))
    proc = subprocess.run([sys.executable, "-m", "bench", "dock"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["dock_results"] == n
    # the records' compact JSON, summed here independently of the bench
    json_bytes = sum(len(json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
                     for r in sample_records(n))
    assert out["dock_record_json_bytes"] == json_bytes
    wire = out["dock_wire_bytes"]
    assert wire > json_bytes  # every record crossed the wire at least once, in a frame
    assert out["wire_bytes_per_result"] == round(wire / n, 1)
    assert out["wire_overhead_ratio"] == round(wire / json_bytes, 4)
    assert out["seconds_for_1000_at_115200"] == round(wire / n * 1000 * 10 / 115200, 2)
    for key in ("upload_results_per_s", "dock_upload_s"):
        assert isinstance(out[key], (int, float)) and math.isfinite(out[key]) and out[key] > 0
    assert out["upload_results_per_s"] == pytest.approx(n / out["dock_upload_s"], rel=0.01)


def test_standings_bench_short_run_figures_are_consistent():
    """`bench standings` on 40 players over 5 rounds (GAMECLOCK_BENCH_STANDINGS_PLAYERS,
    _ROUNDS) and a "large" 60 x 3 (_LARGE): the timing figures are named by the sizes, and what the
    five commands produced adds up to the synthetic event: 2 byes a round, 19 games a round; one .t
    line and one TRF 001 line per player, a CSV row per game and bye, a JSON line per result, a
    standings row per player; the large size's 29 games a round, its load time and the standings
    process's peak RSS are there (how fast or big, never asserted)."""
    import os

    import bench
    from bench.standings import bench_standings, tournament

    assert bench.BENCHES["standings"] is bench_standings
    env = dict(os.environ, GAMECLOCK_BENCH_STANDINGS_PLAYERS="40", GAMECLOCK_BENCH_STANDINGS_ROUNDS="5",
               GAMECLOCK_BENCH_STANDINGS_LARGE="60x3")
    proc = subprocess.run([sys.executable, "-m", "bench", "standings"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert "standings_ms_500x7" not in out and "standings_ms_5000x9" not in out
    median = out["standings_ms_40x5"]
    for key in ("standings_ms_40x5", "standings_ms_min", "standings_ms_max", "export_ms_40x5", "standings_ms_60x3",
                "export_ms_60x3", "standings_rss_mib_60x3", "bulk_load_s_60x3"):
        assert isinstance(out[key], (int, float)) and math.isfinite(out[key]) and out[key] > 0
    assert out["standings_ms_min"] <= median <= out["standings_ms_max"]
    games, byes = 5 * (40 - 2) // 2, 5 * 2
    assert (out["standings_players"], out["standings_rounds"]) == (40, 5)
    assert (out["standings_games"], out["standings_byes"]) == (games, byes)
    assert out["standings_tsh_lines"] == out["standings_trf_players"] == out["standings_rows"] == 40
    assert out["standings_csv_rows"] == games + byes
    assert out["standings_jsonl_lines"] == games
    assert out["standings_large_games"] == 3 * (60 - 2) // 2
    # the synthetic event itself: every player has one game or one bye in every round
    records, bye_rows = tournament(40, 5)
    for rnd in range(1, 6):
        seated = [p for r in records if r["round"] == rnd for p in r["players"].values()]
        seated += [b["player"] for b in bye_rows if b["round"] == rnd]
        assert len(seated) == len(set(seated)) == 40


def test_files_bench_short_run_finds_no_crash_or_hang():
    """`bench files` on 400 inputs (GAMECLOCK_BENCH_FILES): issue 13 asks file_crashes and file_hangs 0;
    every input is counted once (accepted or refused), and the non-file inputs (/dev/zero, a FIFO) are
    among them (input 0 is /dev/zero for the pairing reader)."""
    import os

    import bench
    from bench.filefuzz import bench_files

    assert bench.BENCHES["files"] is bench_files
    env = dict(os.environ, GAMECLOCK_BENCH_FILES="400")
    proc = subprocess.run([sys.executable, "-m", "bench", "files"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["file_inputs"] == 400
    assert (out["file_crashes"], out["file_hangs"]) == (0, 0), proc.stderr  # issue 13: both 0
    assert 0 < out["file_accepted"] < 400  # the unmutated seeds (every 50th input) are accepted
    assert 0 < out["file_read_ms_p99"] <= out["file_read_ms_max"] < 2000


def test_files_bench_counts_an_undocumented_exception_as_a_crash(monkeypatch):
    """The figure counts what it says: a pairing reader that raises KeyError (not PairingError) on every
    input is a crash on every pairing input -- every 5th input of 40 (five readers), so 8."""
    import bench.filefuzz as filefuzz

    def broken(path):
        raise KeyError("bug")

    monkeypatch.setattr(filefuzz, "load_pairings", broken)
    out = filefuzz.bench_files(40)
    assert (out["file_inputs"], out["file_crashes"], out["file_hangs"]) == (40, 8, 0)


def test_receiver_bench_short_run_keeps_serving_and_bounded():
    """`bench receiver` with a 2,000-hello flood (GAMECLOCK_BENCH_HELLOS): every hello answered, the
    receiver still serving both ports after the flood and the hostile frames (both genuine clocks' 5
    results each stored), still running, and stopping cleanly on SIGTERM; no traceback in its output."""
    import os

    import bench
    from bench.receiver import bench_receiver

    assert bench.BENCHES["receiver"] is bench_receiver
    env = dict(os.environ, GAMECLOCK_BENCH_HELLOS="2000")
    proc = subprocess.run([sys.executable, "-m", "bench", "receiver"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["receiver_hellos"] == out["receiver_hellos_answered"] == 2000
    assert out["receiver_ports_lost"] == 0, out
    assert out["receiver_alive"] == 1, out
    assert out["receiver_genuine_stored"] == 10, out
    assert out["receiver_exit_status"] == 0, out
    assert out["receiver_tracebacks"] == 0, out
    assert out["receiver_refused_results"] > 0  # the forged results were refused, and kept as such
    assert out["receiver_hellos_per_s"] > 0
    # a port remembers 32 dockings, and a serial without a key leaves no row: the flood leaves nothing
    assert out["receiver_hello_flood_rss_mb"] < 5, out
    assert out["receiver_hello_flood_db_kb"] < 64, out


def test_manyclocks_bench_short_run_stores_everything_through_one_receiver():
    """`bench manyclocks` with 20 clocks x 5 results (GAMECLOCK_BENCH_CLOCKS, _RESULTS): one receiver
    serves all 20 ports, every result is acked and in the database, no nak, every clock done (issue 14;
    the speed itself is `make bench`'s figure, never asserted here)."""
    import os

    import bench
    from bench.manyclocks import bench_manyclocks

    assert bench.BENCHES["manyclocks"] is bench_manyclocks
    env = dict(os.environ, GAMECLOCK_BENCH_CLOCKS="20", GAMECLOCK_BENCH_RESULTS="5")
    proc = subprocess.run([sys.executable, "-m", "bench", "manyclocks"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["receiver_clocks"], out["receiver_results"], out["receiver_errors"]) == (20, 100, 0), out
    for key in ("receiver_results_per_s", "receiver_upload_s", "receiver_rss_mib"):
        assert isinstance(out[key], (int, float)) and math.isfinite(out[key]) and out[key] > 0
    assert out["receiver_results_per_s"] == pytest.approx(100 / out["receiver_upload_s"], rel=0.01)


def test_wirefuzz_bench_short_run_finds_no_crash_hang_or_forgery():
    """`bench wirefuzz` on 3,000 hostile lines (GAMECLOCK_BENCH_WIRE) into a real receiver and a real
    DockThread: issue 13 asks 0 crashes, hangs, threads lost and forgeries accepted, and every genuine
    result (into the receiver, and acked to the clock) delivered."""
    import os

    import bench
    from bench.wirefuzz import bench_wirefuzz

    assert bench.BENCHES["wirefuzz"] is bench_wirefuzz
    env = dict(os.environ, GAMECLOCK_BENCH_WIRE="3000")
    proc = subprocess.run([sys.executable, "-m", "bench", "wirefuzz"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["fuzz_lines"] == 3000
    assert out["fuzz_crashes"] == 0, proc.stderr
    assert out["fuzz_hangs"] == 0, out
    assert out["fuzz_threads_lost"] == 0, out
    assert out["fuzz_accepted_forgeries"] == 0, out
    assert out["fuzz_genuine_delivered"] == out["fuzz_genuine_sent"] > 0, out
    assert out["fuzz_rss_growth_mb"] < 5, out
    assert out["fuzz_db_refusals"] > 0  # forged results reached the signature check and were refused
    assert 0 < out["fuzz_pushes_taken"] <= out["fuzz_pushes"], out  # genuine pushes taken, each once (issue 26)


def test_wirefuzz_bench_counts_a_clock_that_takes_forged_macs(monkeypatch):
    """The figure counts what it says: a clock whose MAC check passes any string takes forged acks
    (results moved to sent/ without a genuine ack) and forged pairings."""
    import bench.wirefuzz as wirefuzz
    from gameclock.dock import clockside

    monkeypatch.setattr(clockside.sign, "same", lambda mac, expected: isinstance(mac, str))
    out = wirefuzz.bench_wirefuzz(1000)
    assert out["fuzz_lines"] == 1000
    assert out["fuzz_accepted_forgeries"] > 0, out


def test_wirefuzz_bench_counts_a_clock_that_takes_an_old_push_again(monkeypatch):
    """Issue 26: a clock that checks a pushed pairing's MAC but not its number takes the genuine pushes the
    fuzz sends again (round 2's after round 3's, within one docking): the figure counts them."""
    import bench.wirefuzz as wirefuzz
    from gameclock.dock import clockside

    def no_number(self, now, msg):
        key = self.keys.key
        if key is None or not clockside.sign.same(msg["mac"], clockside.sign.pairing_mac(key, self.nonce, msg["m"],
                                                                                           msg["pairing"])):
            return self._reply(now, msg, False, "bad-mac")
        self.on_pairing(msg["pairing"])
        return self._reply(now, msg, True)

    monkeypatch.setattr(clockside.ClockEndpoint, "_on_pairing", no_number)
    out = wirefuzz.bench_wirefuzz(3000)
    assert out["fuzz_pushes_taken"] > out["fuzz_pushes"] > 0, out
    assert out["fuzz_accepted_forgeries"] > 0, out
    assert wirefuzz.pairing_forgeries([], 0) == 0


def test_kills_during_an_outbox_repair_lose_and_change_nothing():
    """bench/repaircrash.py on 6 kills (issue 13 hole 7): the damaged record is always read back (built
    again from its journal) with the game's content; the children did repairs before being killed."""
    from bench.repaircrash import bench_repaircrash

    out = bench_repaircrash(6)
    assert out["crash_repair_kills"] == 6
    assert (out["crash_repair_lost"], out["crash_repair_changed"]) == (0, 0)
    assert out["crash_repairs_done"] > 0


@pytest.mark.xdist_group("wallclock")  # real daemons with bounded waits (tests/conftest.py)
def test_startup_bench_short_run_gets_ready_every_time():
    """`bench startup` with one run of each kind and a 10-minute game: every daemon says READY=1
    (spawn_to_ready raises otherwise), the figures are positive, and the game's journal is there."""
    from bench.startup import bench_startup

    out = bench_startup(runs=1, game_s=600)
    for name in ("ready_ms", "ready_ms_restored_2h", "ready_ms_no_display"):
        for key in (name, f"{name}_min", f"{name}_max"):
            assert isinstance(out[key], float) and math.isfinite(out[key]) and out[key] > 0, (key, out)
        assert out[f"{name}_min"] <= out[name] <= out[f"{name}_max"]
    assert out["startup_runs"] == 1 and out["startup_game_s"] == 600
    # a side runs all 600 s: a checkpoint every 0.5 s of it (1,200), less those a press made needless
    assert 500 <= out["startup_journal_checkpoints"] < out["startup_journal_lines"]


def test_pair_bench_short_run_prints_finite_figures():
    """`bench pair` on 40 players (GAMECLOCK_BENCH_PAIR_PLAYERS) and one run of the Dutch open
    (GAMECLOCK_BENCH_DUTCH_RUNS): the figures are there and finite; how fast this machine is, never
    asserted (issue 16's pair_ms_500 and issue 25's dutch_ms_300 are read from `make bench`)."""
    import os

    import bench
    from bench.pair import bench_pair

    assert bench.BENCHES["pair"] is bench_pair
    env = dict(os.environ, GAMECLOCK_BENCH_PAIR_PLAYERS="40", GAMECLOCK_BENCH_DUTCH_RUNS="1")
    proc = subprocess.run([sys.executable, "-m", "bench", "pair"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["pair_players"] == 40 and out["pair_boards"] == 20
    for key in ("pair_ms_40", "pair_swiss_ms_40"):
        assert isinstance(out[key], (int, float)) and math.isfinite(out[key]) and out[key] > 0
    assert out["pair_repeats"] == 0  # XW-10: no repeat pairing while one is avoidable (40 players, game 5)
    # issue 25: round 5 of the 300-player open, all by rustworkx, board by board the reference
    assert out["dutch_boards_300"] == 150 and out["dutch_differing_300"] == 0
    assert out["dutch_matchings_300"] > 100 and out["dutch_networkx_300"] == 0
    assert math.isfinite(out["dutch_ms_300"]) and out["dutch_ms_300"] > 0


@pytest.mark.xdist_group("wallclock")  # real processes, timed
def test_push_bench_short_run_reaches_the_docked_clock_each_time():
    """`bench push` with 3 rounds (GAMECLOCK_BENCH_PUSHES): every round reaches the docked clock through
    `gameclock receive` and through the desk; the receiver's look at the store is once a second (pcside
    CHECK_NS), so a round takes at most about that plus its way (a loaded machine: 3 s allowed), the desk's
    nudged worker a step (0.1 s; 1 s allowed). issue 26."""
    import os

    import bench
    from bench.push import bench_push

    assert bench.BENCHES["push"] is bench_push
    env = dict(os.environ, GAMECLOCK_BENCH_PUSHES="3")
    proc = subprocess.run([sys.executable, "-m", "bench", "push"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["push_runs"] == 3 and out["push_missed"] == 0, out
    assert 0 < out["push_receive_ms_median"] <= out["push_receive_ms_max"] < 3000, out
    assert 0 < out["push_desk_ms_median"] <= out["push_desk_ms_max"] < 1000, out
