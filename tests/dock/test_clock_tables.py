"""The clocks' tables in the organiser's store (issue 26, schema version 11): the organiser assigns a clock to a
table of an event, one clock a table; "in docking order" gives each docked clock the lowest free table; every
change the docked clocks must hear of (pairings written, a table assigned) moves `dock_stamp`, which the
receiver's ports watch."""
from __future__ import annotations

import sqlite3

import pytest

from gameclock.organiser.store import MIGRATIONS, Store, statements

THAI = "ครอสเวิร์ด-ม.ปลาย-2568"
A, B, C, D = "00000000c10c000a", "00000000c10c000b", "00000000c10c000c", "00000000c10c000d"


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def tables(store: Store) -> dict[str, tuple[str, int]]:
    return {a["serial"]: (a["event"], a["table"]) for a in store.assignments()}


def test_a_table_of_an_event_is_one_clocks(store):
    assert store.assignment(A) is None and store.assignments() == []
    assert store.assign_clock(A, THAI, 5, by="organiser") is None
    got = store.assignment(A)
    assert (got["event"], got["table"], got["by"]) == (THAI, 5, "organiser") and got["at"].endswith("Z")
    # a spare clock takes table 5 over: the dead clock A has no table any more
    assert store.assign_clock(B, THAI, 5, by="arbiter") == A
    assert tables(store) == {B: (THAI, 5)}
    # B moves to table 6; then to another event's table 5
    assert store.assign_clock(B, THAI, 6, by="organiser") is None
    assert store.assign_clock(B, "OPEN", 5, by="organiser") is None
    assert store.assign_clock(A, THAI, 5, by="organiser") is None
    assert tables(store) == {A: (THAI, 5), B: ("OPEN", 5)}
    assert [a["serial"] for a in store.assignments(THAI)] == [A]
    assert store.unassign_clock(B, by="organiser") is True
    assert store.unassign_clock(B, by="organiser") is False
    assert tables(store) == {A: (THAI, 5)}


def test_in_docking_order_each_clock_gets_the_lowest_free_table(store):
    store.assign_clock(D, THAI, 2, by="organiser")   # a clock not docked now keeps its table 2
    store.assign_clock(B, "OPEN", 1, by="organiser")  # B served another event: it serves THAI now
    got = store.assign_in_order(THAI, [C, A, B], by="organiser")
    assert got == [(C, 1), (A, 3), (B, 4)]           # table 2 is D's
    assert tables(store) == {C: (THAI, 1), D: (THAI, 2), A: (THAI, 3), B: (THAI, 4)}
    # A and B again, from table 1: C keeps 1 and D 2 (not in this batch); A's 3 and B's 4 are free for them
    assert store.assign_in_order(THAI, [B, A], by="organiser", first=1) == [(B, 3), (A, 4)]
    assert store.assign_in_order(THAI, [A], by="organiser", first=10) == [(A, 10)]
    assert store.assign_in_order(THAI, [], by="organiser") == []


@pytest.mark.parametrize("event, table, words", [
    ("two words", 1, "has spaces"), ("", 1, "needs an event"), (None, 1, "needs an event"),
    ("OPEN", 0, "1-999"), ("OPEN", 1000, "1-999"), ("OPEN", True, "1-999"), ("ev#1", 1, "holds '#'"),
    ("x" * 65, 1, "longer than 64"), ("a\u202eb", 1, "control character"),
])
def test_what_a_clock_could_not_keep_is_refused(store, event, table, words):
    with pytest.raises(ValueError, match=words):
        store.assign_clock(A, event, table, by="organiser")
    with pytest.raises(ValueError, match=words):
        store.assign_in_order(event, [A], by="organiser", first=table)
    assert store.assignments() == [] and store.dock_stamp() == 0


def test_every_change_the_clocks_must_hear_of_moves_the_stamp(store):
    assert store.dock_stamp() == 0
    store.put_pairings([{"event": THAI, "round": 1, "table": 1, "players": {"left": "Anan", "right": "Boon"}}])
    one = store.dock_stamp()
    assert one > 0
    store.assign_clock(A, THAI, 1, by="organiser")
    two = store.dock_stamp()
    assert two > one
    store.assign_clock(A, THAI, 1, by="organiser")  # the same table again: nothing to tell
    store.put_byes([{"event": THAI, "round": 1, "player": "Chai"}])  # a bye reaches no clock
    assert store.dock_stamp() == two
    store.unassign_clock(A, by="organiser")
    assert store.dock_stamp() > two
    said = store.dock_changes()
    assert [c["what"] for c in said] == [f"clock {A}: no table (was {THAI} table 1)", f"clock {A}: {THAI} table 1",
                                         f"pairings {THAI} round 1"]
    assert [c["by"] for c in said] == ["organiser", "organiser", ""]


def test_a_version_10_database_gets_the_tables_empty(tmp_path):
    con = sqlite3.connect(tmp_path / "v10.db", isolation_level=None)
    for script in MIGRATIONS[:10]:
        for stmt in statements(script):
            con.execute(stmt)
    con.execute("PRAGMA user_version = 10")
    con.close()
    with Store(tmp_path / "v10.db") as s:
        assert s.version() == 15   # 11 these tables, 12 hand entries, 13 the desk's accounts (issue 26), 14 the wall, 15 the event's header (issue 28)
        assert s.assignments() == [] and s.dock_stamp() == 0
        s.assign_clock(A, THAI, 1, by="organiser")
        assert s.assignment(A)["table"] == 1
