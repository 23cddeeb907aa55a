"""The organiser PC's SQLite store (gameclock.organiser.store): results stored once by id (a duplicate is
recognised by its canonical content, a conflict kept aside), durable across a reopen and a killed
process, refusals, the key history, the pairing a clock is sent, and the schema version checks."""
from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

import gameclock
from gameclock.organiser.store import (
    DEFAULT_DB,
    MIGRATIONS,
    SCHEMA_VERSION,
    Store,
    StoreError,
    canonical,
    default_db_path,
    statements,
)
from gameclock.organiser.summary import PATHS, summary_of
from gameclock.record import record_from_log, schema_errors

WALL = 1_700_000_000.25  # 2023-11-14T22:13:20.250Z


@functools.cache
def _record(serial: str, seq: int, event: str | None, rnd: int | None, table: int | None) -> str:
    head = "preset crossword\nlevel secondary\n" + (f"event {event}\n" if event else "")
    head += (f"round {rnd}\n" if rnd else "") + (f"table {table}\n" if table else "")
    head += "player left สมชาย\nplayer right Malee\n"
    game = ("0 start left\n600 press left\n900 press right\n2400 finish\n"
            "2410 score left 412\n2411 score right 388\n2412 confirm left\n2413 confirm right\n")
    return json.dumps(record_from_log(head + game, "t.log", serial, seq, WALL, WALL + 2400))


def make_record(serial="clockA", seq=1, event="3", rnd=2, table=5) -> dict:
    """A real record (built from an event log as the clock does), a fresh copy each time."""
    return json.loads(_record(serial, seq, event, rnd, table))


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def test_the_test_record_is_valid():
    rec = make_record()
    assert schema_errors(rec) == []
    assert rec["id"] == "clockA-000001"
    assert (rec["event"], rec["round"], rec["table"]) == ("3", 2, 5)


# ------------------------------------------------------------------------------------------ results

def test_the_same_result_twice_is_one_row_and_a_duplicate(store):
    rec = make_record()
    assert store.put_result(rec, "a" * 64, "kid1", "serial:/dev/ttyACM0") == "stored"
    assert store.put_result(make_record(), "a" * 64, "kid1", "serial:/dev/ttyACM0") == "duplicate"
    assert store.count_results() == 1
    got = store.result("clockA-000001")
    assert got["record"] == rec
    assert (got["id"], got["serial"], got["sig"], got["kid"], got["source"]) == \
        ("clockA-000001", "clockA", "a" * 64, "kid1", "serial:/dev/ttyACM0")
    assert got["received_at"].endswith("Z") and got["received_at"][10] == "T"
    assert store.result("clockA-000002") is None


def test_a_duplicate_is_recognised_by_content_not_key_order_or_signature(store):
    rec = make_record()
    assert store.put_result(rec, "a" * 64, "kid1", "p") == "stored"
    reordered = dict(reversed(list(rec.items())))
    assert list(reordered) != list(rec)
    # the same content re-sent after a re-enrollment (another key, another signature)
    assert store.put_result(reordered, "b" * 64, "kid2", "q") == "duplicate"
    assert store.result(rec["id"])["sig"] == "a" * 64  # the first stays as it was


def test_the_record_column_holds_the_canonical_text(store, tmp_path):
    rec = make_record()
    store.put_result(rec, "a" * 64, "k", "p")
    con = sqlite3.connect(tmp_path / "pc.db")
    (text,) = con.execute("SELECT record FROM results").fetchone()
    con.close()
    # keys sorted ("seq" before "serial"), no spaces
    assert text.startswith(f'{{"clock":{{"firmware":"{gameclock.__version__}","seq":1,"serial":"clockA"}},'
                           '"complete":true,')
    assert '"players":{"left":"สมชาย","right":"Malee"}' in text  # UTF-8, not \\u escapes
    assert ", " not in text and ": " not in text


def test_a_conflict_keeps_the_first_and_sets_the_other_aside(store):
    first = make_record()
    other = make_record()
    other["scores"]["entered"]["left"] = 999
    assert store.put_result(first, "a" * 64, "k", "port1") == "stored"
    assert store.put_result(other, "c" * 64, "k", "port2") == "conflict"
    assert store.put_result(other, "c" * 64, "k", "port2") == "conflict"  # again: still a conflict
    assert store.count_results() == 1
    assert store.result(first["id"])["record"]["scores"]["entered"]["left"] == 412
    kept = store.conflicts()
    assert len(kept) == 1  # the same conflicting content is kept once
    assert kept[0]["id"] == first["id"] and kept[0]["source"] == "port2"
    assert kept[0]["record"]["scores"]["entered"]["left"] == 999
    # the original re-sent is still a duplicate
    assert store.put_result(first, "a" * 64, "k", "port1") == "duplicate"


def test_results_are_filtered_and_ordered_by_event_round_table_id(store):
    # put in a scrambled order; expected order worked out by hand:
    # event null first, then "3" before "4"; within "3": round 1, then round 2 tables 1, 5, 5 (by id)
    for serial, seq, event, rnd, table in [("clockB", 1, "3", 2, 5), ("clockA", 3, "4", 1, 1),
                                           ("clockC", 1, "3", 2, 1), ("clockA", 1, "3", 2, 5),
                                           ("clockA", 2, "3", 1, 9), ("clockD", 1, None, None, None)]:
        assert store.put_result(make_record(serial, seq, event, rnd, table), "a" * 64, "k", "p") == "stored"
    assert [r["id"] for r in store.results()] == [
        "clockD-000001", "clockA-000002", "clockC-000001", "clockA-000001", "clockB-000001",
        "clockA-000003"]
    assert [r["id"] for r in store.results(event="3", round=2)] == [
        "clockC-000001", "clockA-000001", "clockB-000001"]
    assert [r["id"] for r in store.results(round=1)] == ["clockA-000002", "clockA-000003"]
    assert store.results(event="9") == []
    assert store.count_results() == 6


def test_export_writes_one_line_per_result_ordered_by_id(store):
    store.put_result(make_record("clockB", 1), "b" * 64, "kb", "p2")
    store.put_result(make_record("clockA", 2), "a" * 64, "ka", "p1")
    out = io.StringIO()
    assert store.export_jsonl(out) == 2
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert sorted(first) == ["id", "kid", "received_at", "record", "serial", "sig", "source"]
    assert (first["id"], first["kid"], first["sig"], first["serial"], first["source"]) == \
        ("clockA-000002", "ka", "a" * 64, "clockA", "p1")
    assert first["record"] == make_record("clockA", 2)
    assert json.loads(lines[1])["id"] == "clockB-000001"


def test_export_lines_are_what_json_dumps_of_the_parsed_result_writes(store):
    """export_jsonl writes each line from the stored texts without parsing the record: the same bytes
    as json.dumps of `result()` (the shape `gameclock import` reads), Thai names and all."""
    for serial, seq, event in [("clockB", 1, "3"), ("clockA", 2, "4"), ("clockA", 1, None)]:
        store.put_result(make_record(serial, seq, event), "a" * 64, "k\"1", "พอร์ต /dev/ttyACM0")
    out = io.StringIO()
    assert store.export_jsonl(out) == 3
    ids = ["clockA-000001", "clockA-000002", "clockB-000001"]
    assert out.getvalue() == "".join(json.dumps(store.result(rid), ensure_ascii=False, separators=(",", ":"))
                                     + "\n" for rid in ids)
    only = io.StringIO()
    assert store.export_jsonl(only, event="3") == 1
    assert only.getvalue() == out.getvalue().splitlines(keepends=True)[2]


def test_a_summary_is_stored_with_each_result_as_summary_of_computes_it(store):
    """The summary SQLite's json_extract makes when the result is stored (organiser/summary.py) holds
    what summary_of finds in the record dict: real records, and hand-made ones with keys missing,
    null, or of another type on the way (a value is None then, as json_extract gives NULL)."""
    real = make_record()
    odd = {"id": "clockZ-000001", "clock": {"serial": "clockZ", "seq": 1}, "event": "3", "round": 1,
           "players": ["not", "an object"], "preset": {"name": "no id"}, "scores": None,
           "sides": {"left": {"time_used_ms": 12}, "right": 7}, "tiebreak": 0, "ended": "2024-11-02T03:50:00.125Z",
           "material_value": {"left": 1.5, "right": -2}, "first": True}
    for rec in (real, odd):
        assert store.put_result(rec, "a" * 64, "k", "p") == "stored"
    assert list(store.summaries()) == [summary_of(odd), summary_of(real)]  # round 1 before round 2
    assert len(summary_of(real)) == len(PATHS)
    assert summary_of(odd)[PATHS.index("sides.left.time_used_ms")] == 12
    assert summary_of(real)[PATHS.index("players.left")] == "สมชาย"
    assert list(store.summaries(event="3", round=1)) == [summary_of(odd)]


def test_put_results_stores_many_in_one_transaction_like_put_result(store):
    first, other = make_record(), make_record()
    other["scores"]["entered"]["left"] = 999
    # the second at another table: two results of one game are held for the organiser (issue 26)
    counts = store.put_results([(first, "a" * 64, "k", "p", None),
                                (make_record("clockA", 2, table=6), "b" * 64, "k", "p", "2024-11-02T03:50:00.125Z"),
                                (make_record(), "a" * 64, "k", "p", None),    # the same again
                                (other, "c" * 64, "k", "p", None)])           # same id, other content
    assert counts == {"stored": 2, "duplicate": 1, "conflict": 1}
    assert store.count_results() == 2 and len(store.conflicts()) == 1
    assert store.result("clockA-000002")["received_at"] == "2024-11-02T03:50:00.125Z"
    assert list(store.summaries()) == [summary_of(first), summary_of(make_record("clockA", 2, table=6))]
    with pytest.raises(ValueError):  # all or none
        store.put_results([(make_record("clockA", 3), "a" * 64, "k", "p", None), ({"no": "id"}, "", "", "", None)])
    assert store.count_results() == 2


def test_a_put_result_survives_a_reopen(tmp_path):
    with Store(tmp_path / "pc.db") as s:
        s.put_result(make_record(), "a" * 64, "k", "p")
    with Store(tmp_path / "pc.db") as s:
        assert s.count_results() == 1
        assert s.result("clockA-000001")["record"] == make_record()
        assert s.put_result(make_record(), "a" * 64, "k", "p") == "duplicate"


def test_a_put_result_is_durable_when_the_process_dies_right_after(tmp_path):
    # the writer never closes the store: it is killed (os._exit) as soon as put_result returns
    (tmp_path / "rec.json").write_text(json.dumps(make_record()))
    script = (
        "import json, os, sys\n"
        "from gameclock.organiser.store import Store\n"
        "s = Store(sys.argv[1])\n"
        "print(s.put_result(json.load(open(sys.argv[2])), 'a' * 64, 'k', 'p'), flush=True)\n"
        "os._exit(0)\n")
    run = subprocess.run([sys.executable, "-c", script, str(tmp_path / "pc.db"), str(tmp_path / "rec.json")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "stored\n"
    with Store(tmp_path / "pc.db") as s:
        assert s.result("clockA-000001")["record"] == make_record()


def test_the_store_can_be_shared_between_threads(store):
    statuses = []

    def put(seq):
        statuses.append(store.put_result(make_record("clockT", seq), "a" * 64, "k", "p"))

    threads = [threading.Thread(target=put, args=(n % 4 + 1,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # 4 distinct ids, each sent 3 times
    assert sorted(statuses) == ["duplicate"] * 8 + ["stored"] * 4
    assert store.count_results() == 4


def test_puts_from_many_threads_share_commits_and_each_returns_once_committed(store, tmp_path, monkeypatch):
    """Group commit (issue 14: one receiver for 200 clocks): while one commit is under way the other
    threads' results queue up and the next commit takes them all; a call returns only when its result
    is committed (another connection sees it: the ack never precedes durability, CL-5)."""
    real_tx, commits = store._tx, []

    @contextlib.contextmanager
    def slow_tx():
        with real_tx() as db:
            yield db
            time.sleep(0.05)  # a slow fsync: the others queue meanwhile
        commits.append(time.monotonic())

    monkeypatch.setattr(store, "_tx", slow_tx)
    seen_by_another: dict[str, bool] = {}
    other = Store(tmp_path / "pc.db", readonly=True)

    def put(seq):
        rec = make_record("clockG", seq)
        assert store.put_result(rec, "a" * 64, "k", "p") == "stored"
        seen_by_another[rec["id"]] = other.result(rec["id"]) is not None

    threads = [threading.Thread(target=put, args=(n + 1,)) for n in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert store.count_results() == 40 and all(seen_by_another.values()) and len(seen_by_another) == 40
    assert len(commits) < 20  # 40 results, far fewer transactions


def test_a_failed_group_commit_fails_every_put_of_the_group(store, monkeypatch):
    real_tx = store._tx
    fail = threading.Event()

    @contextlib.contextmanager
    def flaky_tx():
        with real_tx() as db:
            yield db
            time.sleep(0.05)
            if fail.is_set():
                raise StoreError("pc.db: disk I/O error")

    monkeypatch.setattr(store, "_tx", flaky_tx)
    fail.set()
    errors = []

    def put(seq):
        try:
            store.put_result(make_record("clockF", seq), "a" * 64, "k", "p")
        except StoreError as exc:
            errors.append(str(exc))

    threads = [threading.Thread(target=put, args=(n + 1,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == ["pc.db: disk I/O error"] * 10 and store.count_results() == 0  # nothing half-stored
    fail.clear()  # the disk is back: the clocks offer them again
    assert store.put_result(make_record("clockF", 1), "a" * 64, "k", "p") == "stored"


# ------------------------------------------------------------------------------------------ refusals

def test_refusals_are_stored_in_order(store):
    store.refusal("bad-signature", "mac does not match", serial="clockA", rid="clockA-000001",
                  source="serial:/dev/ttyACM0")
    store.refusal("unenrolled")
    got = store.refusals()
    assert [(r["reason"], r["detail"], r["serial"], r["rid"], r["source"]) for r in got] == [
        ("bad-signature", "mac does not match", "clockA", "clockA-000001", "serial:/dev/ttyACM0"),
        ("unenrolled", "", None, None, "")]
    assert all(r["at"].endswith("Z") for r in got)
    assert store.count_results() == 0


# ------------------------------------------------------------------------------------------ keys, clocks

def test_keys_keep_their_history(store):
    old, new = bytes(range(32)), bytes(range(32, 64))
    old_kid = store.add_key("clockA", old)
    assert old_kid == hashlib.sha256(old).hexdigest()[:16]
    assert store.latest_key("clockA") == (old_kid, old)
    new_kid = store.add_key("clockA", new)
    assert new_kid != old_kid
    assert store.latest_key("clockA") == (new_kid, new)
    assert store.key("clockA", old_kid) == old  # results signed before the re-enrollment still verify
    assert store.key("clockA", new_kid) == new
    assert store.key("clockA", None) is None
    assert store.key("clockA", "0" * 16) is None
    assert store.key("clockB", old_kid) is None  # a kid belongs to its clock
    assert store.latest_key("clockB") is None
    # enrolled with the old key again: it becomes the newest, nothing is lost
    assert store.add_key("clockA", old) == old_kid
    assert store.latest_key("clockA") == (old_kid, old)
    assert store.key("clockA", new_kid) == new
    assert store.clocks()[0]["kids"] == [new_kid, old_kid]


def test_add_key_refuses_a_non_key(store):
    with pytest.raises(ValueError):
        store.add_key("clockA", b"")
    with pytest.raises(ValueError):
        store.add_key("clockA", "not bytes")


def test_clocks_lists_keys_hellos_and_result_counts(store):
    kid = store.add_key("clockA", bytes(32))
    store.seen("clockB", {"fw": "0.1.0", "kid": None, "event": "3", "round": 2, "table": 7, "pending": 1})
    store.put_result(make_record("clockA", 1), "a" * 64, kid, "p")
    store.put_result(make_record("clockA", 2), "a" * 64, kid, "p")
    store.put_result(make_record("clockC", 1), "a" * 64, "x", "p")
    a, b, c = store.clocks()
    assert (a["serial"], a["kids"], a["results"], a["first_seen"], a["last_seen"]) == \
        ("clockA", [kid], 2, None, None)
    assert (b["serial"], b["kids"], b["results"], b["firmware"], b["event"], b["round"], b["table"]) == \
        ("clockB", [], 0, "0.1.0", "3", 2, 7)
    assert b["first_seen"] == b["last_seen"]
    assert (c["serial"], c["results"]) == ("clockC", 1)
    store.seen("clockB", {"fw": "0.2.0", "table": 8})
    b2 = store.clocks()[1]
    assert b2["first_seen"] == b["first_seen"] and b2["last_seen"] >= b["last_seen"]
    assert (b2["firmware"], b2["table"]) == ("0.2.0", 8)


def test_keys_are_copied_from_another_pc_read_only(tmp_path):
    with Store(tmp_path / "other.db") as other:
        k1 = other.add_key("clockA", bytes(32))
        k2 = other.add_key("clockB", bytes([1]) * 32)
    before = (tmp_path / "other.db").read_bytes()
    with Store(tmp_path / "pc.db") as s:
        s.add_key("clockA", bytes(32))
        assert s.copy_keys_from(tmp_path / "other.db") == 1  # clockA's key was here already
        assert s.key("clockA", k1) == bytes(32)
        assert s.key("clockB", k2) == bytes([1]) * 32
        assert s.copy_keys_from(tmp_path / "other.db") == 0
    assert (tmp_path / "other.db").read_bytes() == before


def test_keys_from_a_file_that_is_not_a_gameclock_database_are_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("not a database")
    with Store(tmp_path / "pc.db") as s:
        with pytest.raises(StoreError, match=r"notes.txt: not a gameclock database"):
            s.copy_keys_from(tmp_path / "notes.txt")
        with pytest.raises(StoreError, match=r"missing.db: no such database file"):
            s.copy_keys_from(tmp_path / "missing.db")


# ------------------------------------------------------------------------------------------ pairings

def pairing(event, rnd, table, left, right):
    return {"event": event, "round": rnd, "table": table, "players": {"left": left, "right": right}}


def test_pairing_for_takes_the_highest_round_unless_one_is_given(store):
    assert store.put_pairings([pairing(None, 1, 1, "Anan", "Boon"), pairing(None, 1, 2, "Chai", "Dao"),
                               pairing(None, 2, 1, "Anan", "Chai")]) == 3
    assert store.pairing_for(None, 1) == pairing(None, 2, 1, "Anan", "Chai")
    # table 2 has no game in round 2: nothing (round 1's names would be stale)
    assert store.pairing_for(None, 2) is None
    assert store.pairing_for(None, 2, round=1) == pairing(None, 1, 2, "Chai", "Dao")
    assert store.pairing_for(None, 1, round=3) is None
    assert store.pairing_for(None, None) is None
    assert store.pairing_for("3", 1) is None  # no pairings for event 3


def test_put_pairings_replaces_the_same_event_round_and_table(store):
    store.put_pairings([pairing(None, 1, 1, "Anan", "Boon"), pairing("3", 1, 1, "Eak", "Fah")])
    assert store.put_pairings([pairing(None, 1, 1, "Anan", "Dao")]) == 1
    assert store.pairings() == [pairing(None, 1, 1, "Anan", "Dao"), pairing("3", 1, 1, "Eak", "Fah")]


def test_pairing_for_an_event(store):
    store.put_pairings([pairing("A", 3, 1, "Anan", "Boon"), pairing("A", 2, 1, "Chai", "Dao")])
    # only event A has pairings: a clock without an event gets A's
    assert store.pairing_for(None, 1) == pairing("A", 3, 1, "Anan", "Boon")
    assert store.pairing_for("A", 1) == pairing("A", 3, 1, "Anan", "Boon")
    assert store.pairing_for("B", 1) is None
    # event B is at round 5: A's highest round stays 3
    store.put_pairings([pairing("B", 5, 1, "Eak", "Fah")])
    assert store.pairing_for("A", 1) == pairing("A", 3, 1, "Anan", "Boon")
    assert store.pairing_for("B", 1) == pairing("B", 5, 1, "Eak", "Fah")
    # two events: a clock without an event cannot be told which
    assert store.pairing_for(None, 1) is None
    # pairings loaded without an event are the ones for a clock without one
    store.put_pairings([pairing(None, 1, 1, "Gun", "Hom")])
    assert store.pairing_for(None, 1) == pairing(None, 1, 1, "Gun", "Hom")


def test_put_pairings_is_all_or_nothing(store):
    with pytest.raises(ValueError, match="round"):
        store.put_pairings([pairing(None, 1, 1, "Anan", "Boon"), pairing(None, 0, 2, "Chai", "Dao")])
    with pytest.raises(ValueError, match="players"):
        store.put_pairings([{"event": None, "round": 1, "table": 1, "players": {"left": "Anan"}}])
    with pytest.raises(ValueError, match="table"):
        store.put_pairings([pairing(None, 1, True, "Anan", "Boon")])
    assert store.pairings() == []


def bye(event, rnd, player) -> dict:
    return {"event": event, "round": rnd, "player": player}


def test_byes_are_stored_replaced_and_listed_by_event(store):
    assert store.byes() == []
    # the rows a pairings file gives carry the file's line too: it is not stored
    assert store.put_byes([{**bye("3", 2, "Chai"), "line": 4}, bye(None, 1, "Eak"), bye("3", 1, "Dao")]) == 3
    assert store.put_byes([bye("3", 2, "Chai"), bye("", 1, "Eak")]) == 2   # the same again: replaced
    got = store.byes()
    assert [(b["event"], b["round"], b["player"]) for b in got] == [(None, 1, "Eak"), ("3", 1, "Dao"),
                                                                    ("3", 2, "Chai")]
    assert all(b["loaded_at"].endswith("Z") for b in got)
    assert [b["player"] for b in store.byes("3")] == ["Dao", "Chai"]
    assert store.byes("4") == []


def test_put_byes_is_all_or_nothing(store):
    for bad, what in ((bye("3", 0, "Chai"), "round"), (bye("3", 1, " "), "player"),
                      (bye(3, 1, "Chai"), "event"), (bye("3", True, "Chai"), "round")):
        with pytest.raises(ValueError, match=what):
            store.put_byes([bye("3", 1, "Anan"), bad])
    assert store.byes() == []


def test_pairings_and_their_byes_load_together_and_a_table_cancels_a_stale_bye(store):
    store.put_pairings([pairing("3", 2, 1, "Anan", "Boon")], byes=[bye("3", 2, "Chai")])
    assert [b["player"] for b in store.byes()] == ["Chai"]
    # the round corrected: Chai plays at table 2, Dao has the bye
    store.put_pairings([pairing("3", 2, 2, "Chai", "Eak")], byes=[bye("3", 2, "Dao")])
    assert [(b["round"], b["player"]) for b in store.byes()] == [(2, "Dao")]
    # a bad bye loads no pairing either
    with pytest.raises(ValueError, match="bye: round"):
        store.put_pairings([pairing("3", 3, 1, "Anan", "Dao")], byes=[bye("3", None, "Chai")])
    assert [p["round"] for p in store.pairings()] == [2, 2]


# ------------------------------------------------------------------------------------------ the file

def test_a_new_database_is_versioned_and_marked_as_ours(tmp_path):
    with Store(tmp_path / "pc.db") as s:
        assert s.version() == SCHEMA_VERSION == len(MIGRATIONS) == 15   # 10 players, 11 clocks' tables, 12 hand entries, 13 accounts (issue 26), 14 the wall, 15 the event's header (issue 28)
    head = (tmp_path / "pc.db").read_bytes()[:100]
    assert head[:16] == b"SQLite format 3\x00"
    assert head[68:72] == b"GCLK"             # application_id, big-endian at offset 68
    assert head[60:64] == (15).to_bytes(4, "big")  # user_version at offset 60
    assert (tmp_path / "pc.db").stat().st_mode & 0o077 == 0  # it holds keys: owner only
    con = sqlite3.connect(tmp_path / "pc.db")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    con.close()
    assert {"clocks", "clock_keys", "results", "conflicts", "refusals", "pairings", "byes"} <= tables


def test_reopening_is_idempotent(tmp_path):
    with Store(tmp_path / "pc.db") as s:
        s.add_key("clockA", bytes(32))
        s.put_result(make_record(), "a" * 64, "k", "p")

    def schema():
        con = sqlite3.connect(tmp_path / "pc.db")
        try:
            return sorted(con.execute("SELECT type, name, sql FROM sqlite_master").fetchall(),
                          key=lambda r: (r[0], r[1]))
        finally:
            con.close()

    before = schema()
    for _ in range(2):
        with Store(tmp_path / "pc.db") as s:
            assert s.version() == 15
            assert s.count_results() == 1 and len(s.clocks()) == 1
    assert schema() == before


def test_a_database_built_by_hand_from_migration_1_opens(tmp_path):
    con = sqlite3.connect(tmp_path / "v1.db", isolation_level=None)
    con.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    con.execute("INSERT INTO clock_keys (serial, kid, key, added_at) VALUES ('clockA', ?, ?, '2024-01-01T00:00:00.000Z')",
                (hashlib.sha256(bytes(32)).hexdigest()[:16], bytes(32)))
    con.close()
    with Store(tmp_path / "v1.db") as s:
        assert s.version() == 15  # upgraded on opening
        assert s.latest_key("clockA") == (hashlib.sha256(bytes(32)).hexdigest()[:16], bytes(32))


def test_a_version_1_database_with_data_is_upgraded_keeping_it(tmp_path):
    # built by hand as the first release left it: migration 1 only, a key, a result and a pairing
    con = sqlite3.connect(tmp_path / "v1.db", isolation_level=None)
    for stmt in statements(MIGRATIONS[0]):
        con.execute(stmt)
    con.execute("PRAGMA user_version = 1")
    rec = make_record()
    con.execute("INSERT INTO results (id, serial, seq, event, round, table_no, record, sig, kid, received_at,"
                " source) VALUES (?, 'clockA', 1, '3', 2, 5, ?, ?, 'kid1', '2024-11-02T03:50:00.125Z', 'p')",
                (rec["id"], canonical(rec), "a" * 64))
    con.execute("INSERT INTO pairings VALUES ('3', 2, 5, 'สมชาย', 'Malee', '2024-11-02T03:00:00.000Z')")
    assert "byes" not in {n for (n,) in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    with Store(tmp_path / "v1.db") as s:
        assert s.version() == 15
        assert s.results() == [rec]
        assert list(s.summaries()) == [summary_of(rec)]  # migration 4 computed its summary
        assert s.result(rec["id"])["received_at"] == "2024-11-02T03:50:00.125Z"
        assert s.pairing_for("3", 5) == pairing("3", 2, 5, "สมชาย", "Malee")
        assert s.byes() == []
        s.put_byes([bye("3", 2, "Chai")])
    with Store(tmp_path / "v1.db") as s:  # and it stays at 4 with its new data
        assert s.version() == 15
        assert [b["player"] for b in s.byes("3")] == ["Chai"]
        assert s.count_results() == 1


def test_a_newer_schema_version_is_refused(tmp_path):
    with Store(tmp_path / "pc.db") as s:
        s.put_result(make_record(), "a" * 64, "k", "p")
    con = sqlite3.connect(tmp_path / "pc.db")
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    with pytest.raises(StoreError) as info:
        Store(tmp_path / "pc.db")
    msg = str(info.value)
    assert "pc.db" in msg and f"schema version {SCHEMA_VERSION + 1} is newer" in msg and f"({SCHEMA_VERSION})" in msg
    assert "\n" not in msg


def test_files_that_are_not_our_database_are_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("Round 1 pairings, table 1: Anan v Boon\n" * 10)
    with pytest.raises(StoreError, match=r"notes.txt: not a gameclock database \(not an SQLite file\)"):
        Store(tmp_path / "notes.txt")
    assert (tmp_path / "notes.txt").read_text().startswith("Round 1 pairings")  # left untouched
    con = sqlite3.connect(tmp_path / "other.sqlite")
    con.execute("CREATE TABLE photos (name TEXT)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=r"other.sqlite: not a gameclock database \(an SQLite file of another program\)"):
        Store(tmp_path / "other.sqlite")
    with pytest.raises(StoreError, match="is a folder"):
        Store(tmp_path)
    # a damaged file: our header, the rest overwritten
    with Store(tmp_path / "pc.db") as s:
        s.put_result(make_record(), "a" * 64, "k", "p")
    data = bytearray((tmp_path / "pc.db").read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    (tmp_path / "pc.db").write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"pc.db{suffix}").unlink(missing_ok=True)
    with pytest.raises(StoreError, match=r"^pc.db: |/pc.db: "):
        Store(tmp_path / "pc.db")


def test_an_empty_file_becomes_a_new_database(tmp_path):
    (tmp_path / "pc.db").write_bytes(b"")
    with Store(tmp_path / "pc.db") as s:
        assert s.version() == 15 and s.count_results() == 0


def test_a_closed_store_says_so(tmp_path):
    s = Store(tmp_path / "pc.db")
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.count_results()


def test_statements_split_where_sqlite_says(tmp_path):
    assert statements("CREATE TABLE a (x TEXT DEFAULT 'a;b');\nCREATE TABLE b (y);\n") == [
        "CREATE TABLE a (x TEXT DEFAULT 'a;b');", "CREATE TABLE b (y);"]
    with pytest.raises(ValueError, match="incomplete"):
        statements("CREATE TABLE a (x);\nCREATE TABLE b (y)")


def test_the_default_database(monkeypatch, tmp_path):
    monkeypatch.delenv("GAMECLOCK_DB", raising=False)
    assert DEFAULT_DB == "gameclock.db"
    assert str(default_db_path()) == "gameclock.db"
    monkeypatch.setenv("GAMECLOCK_DB", str(tmp_path / "event.db"))
    assert default_db_path() == tmp_path / "event.db"



def test_a_version_2_database_gets_revocation_keeping_its_keys(tmp_path):  # issue 13 hole 1
    con = sqlite3.connect(tmp_path / "v2.db", isolation_level=None)
    for script in MIGRATIONS[:2]:
        for stmt in statements(script):
            con.execute(stmt)
    con.execute("PRAGMA user_version = 2")
    kid = hashlib.sha256(bytes(32)).hexdigest()[:16]
    con.execute("INSERT INTO clock_keys (serial, kid, key, added_at) VALUES ('clockA', ?, ?, '2024-01-01T00:00:00.000Z')",
                (kid, bytes(32)))
    con.close()
    with Store(tmp_path / "v2.db") as s:
        assert s.version() == 15
        assert s.key("clockA", kid) == bytes(32) and s.revoked("clockA", kid) is None
        new = s.add_key("clockA", bytes([7]) * 32, revoke_others=True)
        assert s.key("clockA", kid) is None and s.revoked("clockA", kid) is not None
        assert s.latest_key("clockA") == (new, bytes([7]) * 32)
