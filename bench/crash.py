"""The crash bench (`make bench`, registered in bench.py as "crash"): bench.crashdrill's
kill -9 drill, 200 trials by default ($GAMECLOCK_CRASH_TRIALS for another number), seed 1.

Figures:
  crash_trials          clocks killed with SIGKILL at random moments (play, result entry, outbox writes)
  results_lost          confirmed results missing from outbox/ + sent/ after the restarts (must be 0)
  results_duplicated    a game with two records, or one id in both folders (must be 0)
  max_time_lost_ms      the worst |restored - true| remaining time of a side after a restart, the truth
                        being what the drill's own inputs imply at the kill instant (CL-6, about 1 s,
                        with a margin: at most 900; the checkpoint interval 0.5 s + its 0.1 s grace
                        bound the running side's loss, the rest is room for a late wake and the write)
  crash_max_idle_diff_ms   the same for a side that was not running (0: events carry exact stamps)
  crash_inputs_lost     inputs older than 250 ms at the kill that did not come back (must be 0)
  crash_inputs_in_flight    inputs sent in the last 250 ms before a kill that did not (allowed)
  crash_kills_play, crash_kills_entry, crash_kills_outbox   where the kills landed
  crash_records, crash_games_confirmed    records found; games whose both confirmations were sent
  crash_restores_running, crash_restores_entry, crash_restores_confirmed   what came back: a running
                        game (paused), a game in result entry, one confirmed whose record was stored again
  crash_seconds         wall time (4 chains of trials side by side)
  crash_repair_kills, crash_repair_lost, crash_repair_changed, crash_repairs_done   SIGKILL during the
                        outbox's repair of a damaged record (bench/repaircrash.py; lost and changed 0)
  enroll_kills, enroll_kills_after_code, enroll_key_mismatch, enroll_recover_failed, enroll_results_lost,
  enroll_seconds        SIGKILL of the clock's or the PC's program during an enrollment
                        (bench/enrollcrash.py, 20 kills, $GAMECLOCK_ENROLL_KILLS; mismatch, failed
                        recoveries and results lost 0)
"""
from __future__ import annotations

import os


def bench_crash() -> dict:
    from bench.crashdrill import drill
    from bench.enrollcrash import bench_enrollcrash
    from bench.repaircrash import bench_repaircrash

    out = drill(trials=int(os.environ.get("GAMECLOCK_CRASH_TRIALS", "200")), seed=1, chains=4)
    return {
        "crash_trials": out["crash_trials"],
        "results_lost": out["results_lost"],
        "results_duplicated": out["results_duplicated"],
        "max_time_lost_ms": out["max_time_lost_ms"],
        "crash_max_idle_diff_ms": out["max_idle_diff_ms"],
        "crash_inputs_lost": out["inputs_lost"] + out["games_lost"],
        "crash_inputs_in_flight": out["inputs_in_flight_lost"],
        "crash_kills_play": out["kills_play"],
        "crash_kills_entry": out["kills_entry"],
        "crash_kills_outbox": out["kills_outbox"],
        "crash_records": out["records"],
        "crash_games_confirmed": out["games_confirmed"],
        "crash_restores_running": out["restores_running"],
        "crash_restores_entry": out["restores_entry"],
        "crash_restores_confirmed": out["restores_confirmed"],
        "crash_problems": len(out["problems"]),
        "crash_seconds": out["crash_seconds"],
        **bench_repaircrash(),
        **bench_enrollcrash(),
    }
