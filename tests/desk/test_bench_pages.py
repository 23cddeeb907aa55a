"""`python -m bench desk`'s HTTP half and its live results (bench/desk.py), run tiny: what it measures is
the real desk's standings of the generated event, and the results it stores for the projector are new,
signed results the desk shows. How fast, never asserted (the browser half: tests/browser/)."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from deskhelp import LOCAL, LOCAL_URL
from starlette.testclient import TestClient

import bench
from bench import desk as desk_bench
from bench import standings as event_gen
from bench.browser import serve
from bench.livepage import p95
from gameclock.dock.sign import sign_result
from gameclock.organiser.desk.app import create_app
from gameclock.organiser.store import Store

PLAYERS, ROUNDS = 12, 2
GAMES = ROUNDS * (PLAYERS - 2) // 2   # two byes a round (bench/standings.py)
EVENT = event_gen.EVENT


@pytest.fixture
def event_db(tmp_path: Path) -> str:
    path = str(tmp_path / "pc.db")
    event_gen.load(path, PLAYERS, ROUNDS)
    return path


def test_pages_bench_times_the_whole_standings_of_the_event():
    out = desk_bench.bench_desk(players=PLAYERS, rounds=ROUNDS, requests=5, warmups=1, samples=0)
    assert bench.BENCHES["desk"] is desk_bench.bench_desk
    for key in ("desk_page_ms_p95", "desk_page_ms_median", "desk_fragment_ms_p95", "desk_fragment_ms_median",
                "desk_page_kb"):
        assert isinstance(out[key], float) and math.isfinite(out[key]) and out[key] > 0, (key, out)
    assert out["desk_page_ms_median"] <= out["desk_page_ms_p95"]
    assert out["desk_fragment_ms_median"] <= out["desk_fragment_ms_p95"]
    assert out["desk_page_rows"] == PLAYERS   # the full standings page was measured: every player's row
    assert (out["desk_players"], out["desk_rounds"], out["desk_games"]) == (PLAYERS, ROUNDS, GAMES)
    assert not any(k.startswith("desk_live") for k in out)   # samples=0: no browser


def test_request_times_count_the_timed_requests_and_refuse_an_error_page(event_db):
    served = serve(create_app(event_db))
    try:
        times, body = desk_bench.request_times_ms(served.url, f"/e/{EVENT}/standings", 3, 2)
        assert len(times) == 3 and all(t > 0 for t in times)   # the 2 warm-ups are not among them
        assert desk_bench.standings_rows(body) == PLAYERS and body.lstrip().startswith("<!doctype html>")
        with pytest.raises(RuntimeError, match="answered 404"):
            desk_bench.request_times_ms(served.url, "/e/no-such-event/standings", 1, 0)
    finally:
        served.stop()


def test_live_results_are_new_signed_results_the_desk_shows(event_db):
    put, close = desk_bench.result_writer(event_db, PLAYERS, ROUNDS)
    try:
        put("live-token-one")
        put("live-token-two")
    finally:
        close()
    with Store(event_db, readonly=True) as store:
        assert len(store.results(event=EVENT)) == GAMES + 2
        live = [store.result(rec["id"]) for rec in store.results(event=EVENT, round=ROUNDS + 1)]
        key = store.key(event_gen.SERIAL, live[0]["kid"])
    assert [r["record"]["table"] for r in live] == [1, 2]                     # a fresh round, table by table
    assert [r["record"]["players"]["right"] for r in live] == ["live-token-one", "live-token-two"]
    assert all(r["sig"] == sign_result(key, r["record"]) for r in live)       # signed as a clock signs
    app = create_app(event_db)
    try:
        client = TestClient(app, client=LOCAL, base_url=LOCAL_URL)
        results = client.get(f"/e/{EVENT}/part/results").text
        assert "live-token-one" in results and "live-token-two" in results    # the projector's results area
        page = client.get(f"/e/{EVENT}/standings").text
        assert desk_bench.standings_rows(page) == PLAYERS + 2                  # the two new players are in
    finally:
        app.state.desk.store.close()


def test_p95_is_a_value_by_nearest_rank():
    assert p95([3.0]) == 3.0
    assert p95([float(v) for v in range(100, 0, -1)]) == 95.0
    assert p95([float(v) for v in range(1, 21)]) == 19.0   # rank ceil(0.95 * 20) = 19
    assert p95([1.0, 2.0, 3.0, 4.0, 5.0]) == 5.0
