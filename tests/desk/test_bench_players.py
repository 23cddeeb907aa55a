"""`python -m bench players` (bench/players.py) run tiny: it measures the real desk's players page of an event
the PC pairs (every player's row there) and its find page; how fast is never asserted."""
from __future__ import annotations

import math

import bench
from bench import players as players_bench


def test_the_players_bench_times_the_whole_list_and_the_search():
    out = players_bench.bench_players(players=12, requests=3, warmups=1, cold=2)
    assert bench.BENCHES["players"] is players_bench.bench_players
    for key in ("players_page_ms_p95", "players_page_ms_median", "players_page_cold_ms_p95",
                "players_page_cold_ms_median", "players_page_kb", "find_ms_p95", "find_ms_median"):
        assert isinstance(out[key], float) and math.isfinite(out[key]) and out[key] > 0, (key, out)
    assert out["players_page_ms_median"] <= out["players_page_ms_p95"]
    assert out["players_page_rows"] == out["players_players"] == 12   # every player's row was in the page timed
