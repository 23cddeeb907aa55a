"""`python -m gameclock.bench engine` prints one JSON object with the engine's figures.

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
    return subprocess.run([sys.executable, "-m", "gameclock.bench", *names], cwd=REPO,
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
    from gameclock import bench

    monkeypatch.setitem(bench.BENCHES, "one", lambda: {"a": 1})
    monkeypatch.setitem(bench.BENCHES, "two", lambda: {"b": 2.5})
    monkeypatch.setitem(bench.BENCHES, "again", lambda: {"a": 3})
    assert bench.run(["one", "two"]) == {"a": 1, "b": 2.5}
    assert bench.run(["two"]) == {"b": 2.5}
    with pytest.raises(ValueError, match="'a'"):
        bench.run(["one", "again"])
