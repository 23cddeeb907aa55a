"""`python -m bench hall` (bench/hall.py) run tiny: a real `gameclock desk` process, three phones from their
own addresses, results stored while they listen. What it measures is the desk's: every result stored
reaches every phone, no stream is dropped, the desk's RSS is read. How fast, never asserted."""
from __future__ import annotations

import math

import bench
from bench import hall


def test_the_hall_bench_drives_phones_that_each_have_every_result(monkeypatch):
    for name, value in {"players": "12", "rounds": "2", "phones": "3", "rate": "5", "minutes": "0.1",
                        "reload": "2", "large": "16", "large_rounds": "3", "large_phones": "2"}.items():
        monkeypatch.setenv(f"GAMECLOCK_BENCH_HALL_{name.upper()}", value)
    out = hall.bench_hall()
    assert bench.BENCHES["hall"] is hall.bench_hall
    # 5 results a second for 6 s: 30 results, each had by all three phones (their fetches after the stream
    # told them; the reloads' pages)
    assert (out["hall_results"], out["hall_results_unseen"], out["hall_phones"]) == (30, 0, 3)
    assert out["hall_streams_dropped"] == 0 and out["hall_fetch_errors"] == 0 and out["hall_page_errors"] == 0
    assert out["hall_fetches"] > 0 and out["hall_page_loads"] > 0
    for key in ("hall_page_ms_p50", "hall_page_ms_p95", "hall_live_ms_p50", "hall_live_ms_p95",
                "hall_rss_mb_start", "hall_rss_mb_middle", "hall_rss_mb_end", "hall_fragment_kb"):
        assert isinstance(out[key], float) and math.isfinite(out[key]) and out[key] > 0, (key, out)
    assert out["hall_live_ms_p50"] <= out["hall_live_ms_p95"]
    # the page as sent with gzip is smaller than as HTML
    assert 0 < out["hall_page_wire_kb"] < out["hall_page_kb"]
    # then the large event's run, its figures named by its size: 16 players x 3 rounds, two phones
    assert (out["hall_players_16"], out["hall_rounds_16"], out["hall_phones_16"]) == (16, 3, 2)
    assert (out["hall_results_16"], out["hall_results_unseen_16"], out["hall_streams_dropped_16"]) == (30, 0, 0)
    assert out["hall_live_ms_p95_16"] > 0 and out["hall_page_ms_p95_16"] > 0


def test_the_command_line_sets_the_hall_options(monkeypatch):
    seen = {}
    for variable in hall.OPTIONS.values():   # main sets them: put back as they were after the test
        monkeypatch.setenv(variable, "")
    monkeypatch.setitem(bench.BENCHES, "hall", lambda: seen.update(hall.parameters()) or {"hall_x": 1})
    assert bench.main(["hall", "--phones", "50", "--minutes", "1", "--large-rounds", "3"]) == 0
    assert seen["phones"] == 50.0 and seen["minutes"] == 1.0 and seen["players"] == 500.0
    assert seen["large_rounds"] == 3.0 and seen["large"] == 5000.0 and seen["large_phones"] == 50.0
    assert bench.main(["hall", "--phones"]) == 2
