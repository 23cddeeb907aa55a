"""Where each result counts (issue 26, organiser/counting.py through Store.summaries): the organiser's
hand entries (a trail per game, never in `results`), a signed result held under a hand entry, two
results for one game, a result whose players are not its table's, results moved or set aside by an
amendment, the phantom event of a wrong upload, deleting an event, and the JSON Lines export and
`gameclock import` of hand entries (never signed). Every operation leaves the signed rows' bytes as
they were."""
from __future__ import annotations

import hashlib
import hmac
import io
import json
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "standings"))
from kit import xw  # noqa: E402

from gameclock.cli import main  # noqa: E402
from gameclock.organiser import amendments, counting  # noqa: E402
from gameclock.organiser.handentry import Entered, Seat, hand_record  # noqa: E402
from gameclock.organiser.standings.games import game_from_summary  # noqa: E402
from gameclock.organiser.store import Store, StoreError  # noqa: E402
from gameclock.rules.loader import find_preset  # noqa: E402

WHY = "clock 2 died"


def signed_rows(path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT id, record, sig, kid, summary, received_at, source FROM results ORDER BY id").fetchall()
    finally:
        con.close()


def ids(store: Store, **where) -> list[str]:
    return [v[0] for v in store.summaries(**where)]


def hand(event="e", rnd=1, table=2, left="Chai", right="Dao", scores=(300, 350)) -> dict:
    """A crossword hand entry (XW-6/XW-8 secondary: 300-350, right +50)."""
    return hand_record(find_preset("crossword"), Seat(event, rnd, table, {"left": left, "right": right}),
                       Entered(scores={"left": scores[0], "right": scores[1]}, level="secondary"))


@pytest.fixture
def store(tmp_path):
    """Event e, round 1 loaded from a file: table 1 Anan v Boon, table 2 Chai v Dao; table 1's result in."""
    s = Store(tmp_path / "pc.db")
    s.put_pairings([{"event": "e", "round": 1, "table": 1, "players": {"left": "Anan", "right": "Boon"}},
                    {"event": "e", "round": 1, "table": 2, "players": {"left": "Chai", "right": "Dao"}}])
    assert s.put_result(xw(1, "e", 1, 1, "Anan", "Boon", 420, 380), "a" * 64, "k", "p") == "stored"
    yield s
    s.close()


def test_a_hand_entry_counts_beside_the_signed_results_and_its_trail_only_grows(store, tmp_path):
    before = signed_rows(tmp_path / "pc.db")
    hid = store.put_hand_result(hand(), WHY, "Kanya")
    assert hid == "hand:000001" and store.result(hid) is None and store.count_results() == 1
    [h] = store.hand_results("e")
    assert (h["by"], h["reason"], h["source"], h["record"]["entered"]) == ("Kanya", WHY, "desk", "hand")
    games = [game_from_summary(v) for v in store.summaries(event="e")]
    assert [(g.id, g.table, g.hand is not None) for g in games] == [("clock1-000001", 1, False), (hid, 2, True)]
    assert games[1].hand["by"] == "Kanya" and games[1].spread == {"left": -50, "right": 50}   # XW-8
    # a second tab that did not see this entry is refused; correcting it names the one it replaces
    with pytest.raises(StoreError, match="has the hand entry hand:000001 now"):
        store.put_hand_result(hand(scores=(360, 350)), "slip recounted", "Somchai")
    fixed = store.put_hand_result(hand(scores=(360, 350)), "slip recounted", "Somchai", replaces=hid)
    assert [h["id"] for h in store.hand_results()] == [fixed]
    assert game_from_summary(list(store.summaries(event="e"))[1]).spread == {"left": 10, "right": -10}
    gone = store.withdraw_hand_result(fixed, "entered at the wrong table", "Kanya")
    assert store.hand_results() == [] and ids(store, event="e") == ["clock1-000001"]
    trail = store.hand_trail("e", 1, 2)
    assert [(t["id"], t["withdraws"], t["by"], t["reason"]) for t in trail] == [
        (hid, None, "Kanya", WHY), (fixed, None, "Somchai", "slip recounted"), (gone, fixed, "Kanya",
                                                                               "entered at the wrong table")]
    assert store.hand_result(hid)["in_effect"] is False
    with pytest.raises(ValueError, match="not the one in effect"):
        store.withdraw_hand_result(hid, "again", "Kanya")
    # a game with the clock's result takes no hand entry
    with pytest.raises(StoreError, match="has the clock's result clock1-000001: amend it"):
        store.put_hand_result(hand(table=1, left="Anan", right="Boon"), WHY, "Kanya")
    assert signed_rows(tmp_path / "pc.db") == before


def test_a_signed_result_after_a_hand_entry_is_held_until_decided(store, tmp_path):
    hid = store.put_hand_result(hand(), WHY, "Kanya")
    late = xw(2, "e", 1, 2, "Chai", "Dao", 310, 350)
    store.put_result(late, "b" * 64, "k", "p")
    assert ids(store, event="e") == ["clock1-000001", hid]
    assert [(v[0], why) for v, why in store.held("e")] == [("clock1-000002", counting.HAND)]
    before = signed_rows(tmp_path / "pc.db")
    # keep the hand entry: the clock's result set aside (an amendment); it is no longer held, it is aside
    n = store.add_amendment("clock1-000002", {amendments.ASIDE: True}, "the clock was reset", "Kanya")
    assert store.held("e") == [] and [e["n"] for _, e in store.set_aside()] == [n]
    # changed the mind: put it back (the aside withdrawn), take the clock's (the hand entry withdrawn)
    store.withdraw_amendment("clock1-000002", n, "the clock was right after all", "Kanya")
    store.withdraw_hand_result(hid, "the clock's own record", "Kanya")
    assert ids(store, event="e") == ["clock1-000001", "clock1-000002"] and store.held() == []
    assert signed_rows(tmp_path / "pc.db") == before


def test_two_results_for_one_game_wait_and_a_move_untangles_them(store, tmp_path):
    """A clock set to table 1 (pushed table 1's names) for table 2's game: table 1 has two results."""
    store.put_result(xw(2, "e", 1, 1, "Anan", "Boon", 300, 350), "b" * 64, "k", "p")
    assert ids(store, event="e") == []
    assert sorted((v[0], why) for v, why in store.held("e")) == [("clock1-000001", counting.DOUBLE),
                                                                  ("clock1-000002", counting.DOUBLE)]
    before = signed_rows(tmp_path / "pc.db")
    changes = {"event": "e", "round": 1, "table": 2, "players.left": "Chai", "players.right": "Dao"}
    store.add_amendment("clock1-000002", changes, "table 2's game", "Kanya")
    assert ids(store, event="e") == ["clock1-000001", "clock1-000002"] and store.held() == []
    [g] = [game_from_summary(v) for v in store.summaries(event="e", round=1) if v[0] == "clock1-000002"]
    assert (g.table, g.players, g.winner) == (2, {"left": "Chai", "right": "Dao"}, "right")
    # a move onto a game that has its result is refused, naming it
    with pytest.raises(StoreError, match=r"round 1 table 1 of e has its result already \(clock1-000001\)"):
        store.add_amendment("clock1-000002", {**changes, "table": 1, "players.left": "Anan",
                                              "players.right": "Boon"}, "back", "Kanya")
    with pytest.raises(ValueError, match="a move sets event, round, table, players.left, players.right together"):
        store.add_amendment("clock1-000002", {"table": 1}, "half a move", "Kanya")
    assert signed_rows(tmp_path / "pc.db") == before


def test_a_result_whose_players_are_not_its_tables_or_at_no_table_is_held(store):
    store.put_result(xw(2, "e", 1, 2, "Anan", "Dao", 300, 350), "b" * 64, "k", "p")     # not table 2's
    store.put_result(xw(3, "e", 1, 7, "Chai", "Dao", 300, 350), "c" * 64, "k", "p")     # no table 7
    store.put_result(xw(4, "e", 2, 1, "Anan", "Dao", 300, 350), "d" * 64, "k", "p")     # round 2: not loaded yet
    assert ids(store, event="e") == ["clock1-000001", "clock1-000004"]
    assert [(v[0], why) for v, why in store.held("e")] == [("clock1-000002", counting.PLAYERS),
                                                            ("clock1-000003", counting.TABLE)]


def test_a_wrong_events_result_is_moved_and_its_phantom_event_goes(store, tmp_path):
    store.put_result(xw(2, "1", 1, 2, "Chai", "Dao", 300, 350), "b" * 64, "k", "p")
    assert store.result_events() == ["1", "e"]
    store.add_amendment("clock1-000002", {"event": "e", "round": 1, "table": 2, "players.left": "Chai",
                                          "players.right": "Dao"}, "event left at 1", "Kanya")
    assert store.result_events() == ["e"]
    assert ids(store, event="e") == ["clock1-000001", "clock1-000002"] and ids(store, event="1") == []
    assert ids(store) == ["clock1-000001", "clock1-000002"]          # the order of `results`, where it counts
    assert [v[0] for v in store.latest_results("e")] == ["clock1-000002", "clock1-000001"]
    # the JSON Lines export of e has it (its amendment beside it); of "1" not
    out = io.StringIO()
    assert store.export_jsonl(out, "e") == 2
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["id"] for x in lines] == ["clock1-000001", "clock1-000002"]
    assert lines[1]["record"]["event"] == "1" and lines[1]["amendments"][0]["changes"]["event"] == "e"
    assert store.export_jsonl(io.StringIO(), "1") == 0


def test_delete_an_event_only_without_real_games(store, tmp_path):
    from gameclock.organiser import event as events
    from gameclock.organiser.pairing import model

    with pytest.raises(StoreError, match=r"e has 1 result \(clock1-000001\): move it"):
        store.delete_event("e", "typo", "Kanya")
    events.create_event(store, "typo", "xw10", events.PlayerList([model.Player("1", "A"), model.Player("2", "B")]),
                        rounds=5, preset="crossword", level="secondary")
    events.draw(store, "typo", seed=1)
    events.publish(store, "typo")
    store.put_result(xw(5, "typo", 1, 1, "A", "B", 300, 200), "e" * 64, "k", "p")
    with pytest.raises(StoreError, match="typo has 1 result"):
        store.delete_event("typo", "typo", "Kanya")
    store.add_amendment("clock1-000005", {amendments.ASIDE: True}, "a test game", "Kanya")
    store.assign_clock("clockT", "typo", 1, by="Kanya")
    stamp = store.dock_stamp()
    before = signed_rows(tmp_path / "pc.db")
    n = store.delete_event("typo", "made with a typo", "Kanya")
    assert "typo" not in store.events() and not [p for p in store.pairings() if p["event"] == "typo"]
    # its clock's table goes with it, and the docked clocks are told (a dock change: issue 26's clocks side)
    assert store.assignment("clockT") is None and store.dock_stamp() > stamp
    [d] = store.deleted_events()
    assert (d["n"], d["event"], d["by"], d["reason"]) == (n, "typo", "Kanya", "made with a typo")
    assert d["before"]["event"]["system"] == "xw10" and len(d["before"]["players"]) == 2
    assert [r["state"] for r in d["before"]["rounds"]] == ["published"] and len(d["before"]["pairings"]) == 1
    assert [c["serial"] for c in d["before"]["clock_tables"]] == ["clockT"]
    assert signed_rows(tmp_path / "pc.db") == before              # the set-aside result stays, as signed
    with pytest.raises(StoreError, match="no event nothing"):
        store.delete_event("nothing", "x", "Kanya")


# ------------------------------------------------------------------------------------------ export, import
KEY = bytes(range(32))


def _sign(record: dict) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(KEY, b"result\n" + text.encode("utf-8"), hashlib.sha256).hexdigest()


def test_a_hand_entry_travels_in_the_jsonl_but_never_becomes_signed(tmp_path, capsys):
    from gameclock.record import record_from_log

    log = ("preset crossword\nlevel secondary\nevent e\nround 1\ntable 1\nplayer left Anan\nplayer right Boon\n"
           "0 start left\n600 press left\n900 press right\n1300 finish\n1310 score left 412\n1311 score right 388\n"
           "1312 confirm left\n1313 confirm right\n")
    rec = record_from_log(log, "t.log", "clockA", 1, 1_700_000_000.25, 1_700_001_300.25)
    with Store(tmp_path / "other.db") as other:
        kid = other.add_key("clockA", KEY)
        other.put_result(rec, _sign(rec), kid, "serial:/dev/ttyACM0")
        first = other.put_hand_result(hand(), WHY, "Kanya")
        other.put_hand_result(hand(scores=(360, 350)), "recounted", "Kanya", replaces=first)
        out = tmp_path / "other.jsonl"
        with open(out, "w", encoding="utf-8") as f:
            assert other.export_jsonl(f) == 3
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert set(lines[1]) == {"hand"} and "sig" not in lines[1]["hand"] and lines[1]["hand"]["by"] == "Kanya"

    # without --hand: the signed result is taken, the hand entries are named and not taken
    db = tmp_path / "pc.db"
    assert main(["import", str(out), "--db", str(db), "--keys-from", str(tmp_path / "other.db")]) == 0
    said = capsys.readouterr()
    assert said.out == ("1 stored, 0 duplicates, 0 conflicts, 0 refused; 2 hand entry rows not taken (entered by "
                        "hand on the other PC: --hand takes them)\n")
    assert "other.jsonl:2: entered by hand on the other PC (not signed): not taken" in said.err
    with Store(db) as s:
        assert s.hand_results() == [] and s.count_results() == 1
    # with --hand: the trail replayed as this PC's hand entries (source import:...), never a result
    assert main(["import", str(out), "--db", str(db), "--hand"]) == 0
    assert capsys.readouterr().out == "0 stored, 1 duplicates, 0 conflicts, 0 refused; 2 hand entry rows taken\n"
    with Store(db) as s:
        assert s.count_results() == 1 and [r["id"] for r in s.results()] == ["clockA-000001"]
        [h] = s.hand_results()
        assert (h["record"]["scores"]["final"], h["by"], h["source"]) == ({"left": 360, "right": 350}, "Kanya",
                                                                          f"import:{out}:3")
        assert h["at"] == lines[2]["hand"]["at"]                     # entered then, on the other PC
    # again: nothing new
    assert main(["import", str(out), "--db", str(db), "--hand"]) == 0
    assert capsys.readouterr().out == "0 stored, 3 duplicates, 0 conflicts, 0 refused\n"
    # a forged hand line that claims to be signed stays a hand line: refused as one, never a result
    forged = tmp_path / "forged.jsonl"
    row = dict(lines[1]["hand"], record={**lines[1]["hand"]["record"], "entered": None})
    forged.write_text(json.dumps({"hand": row}) + "\n", encoding="utf-8")
    assert main(["import", str(forged), "--db", str(db), "--hand"]) == 1
    assert "bad-hand: the record is not marked entered by hand" in capsys.readouterr().err
    with Store(db) as s:
        assert s.count_results() == 1
