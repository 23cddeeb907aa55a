"""`python -m bench desk` run tiny with its browser half (bench/desk.py): the projector in headless
Chromium shows each result stored, without a reload, and every figure is there. How fast, never asserted."""
from __future__ import annotations

import math

from bench.desk import bench_desk

PLAYERS, ROUNDS, SAMPLES = 10, 2, 3


def test_desk_bench_tiny_run_has_every_figure():
    out = bench_desk(players=PLAYERS, rounds=ROUNDS, requests=5, warmups=1, samples=SAMPLES)
    for key in ("desk_page_ms_p95", "desk_page_ms_median", "desk_fragment_ms_p95", "desk_fragment_ms_median",
                "desk_live_update_ms_p95", "desk_live_update_ms_median", "desk_page_kb"):
        assert isinstance(out[key], float) and math.isfinite(out[key]) and out[key] > 0, (key, out)
    assert out["desk_live_update_ms_median"] <= out["desk_live_update_ms_p95"]
    assert out["desk_live_update_samples"] == SAMPLES   # each sample waited for its token on the page
    assert out["desk_page_rows"] == PLAYERS
    assert (out["desk_players"], out["desk_rounds"], out["desk_games"]) == (PLAYERS, ROUNDS, ROUNDS * (PLAYERS - 2) // 2)
