"""`python -m bench device`, shortened (GAMECLOCK_BENCH_DEVICE_S / _PRESSES): one JSON
object with the device figures. Correctness is checked (every press reached the bus, the ratio is
a ratio, the percentiles are ordered); how fast this machine is, never."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PRESSES = 20
RUN_S = 2


@pytest.mark.xdist_group("wallclock")  # real time: each press's frame must reach the bus (tests/conftest.py)
def test_device_bench_short_run():
    env = dict(os.environ, GAMECLOCK_BENCH_DEVICE_S=str(RUN_S), GAMECLOCK_BENCH_DEVICE_PRESSES=str(PRESSES))
    proc = subprocess.run([sys.executable, "-m", "bench", "device"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for key in ("press_to_bus_ms_p50", "press_to_bus_ms_p99", "press_to_bus_ms_max",
                "cpu_percent_running", "bus_bytes_per_running_s", "bus_ratio_vs_full_frames",
                "device_frames", "device_presses", "device_presses_on_bus", "device_run_s"):
        value = out[key]
        assert isinstance(value, (int, float)) and not isinstance(value, bool), key
        assert math.isfinite(value) and value > 0, key
    assert out["device_presses"] == PRESSES
    assert out["device_presses_on_bus"] == PRESSES  # every switch reached the bus
    assert out["press_to_bus_ms_p50"] <= out["press_to_bus_ms_p99"] <= out["press_to_bus_ms_max"]
    assert 0 < out["bus_ratio_vs_full_frames"] < 1
    assert out["device_run_s"] >= RUN_S
    assert out["device_frames"] > PRESSES  # a frame per switch, and the ticking seconds
    assert out["cpu_percent_running"] <= 100 * (os.cpu_count() or 1)
    assert out["bus_khz_simulated"] == 400
    assert out["device_preset"] == "makruk-45"


def test_device_bench_is_registered():
    import bench
    from bench.device import bench_device

    assert bench.BENCHES["device"] is bench_device
