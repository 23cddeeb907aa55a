"""Players during the event (issue 26): a withdrawal (not paired from the next round, past games kept), a
late entry (joins the next round; the rounds missed score nothing; refused by a system whose lot is kept
once round 1 is published), an edit of a player's name (the old name kept as an alias: the clocks
recorded it), school, level, rating, each audited; two players exchanged in one step; a draft's version.
Through `organiser/event.py` and the command line (`gameclock event player|late`, `gameclock pair
--exchange`). Expected boards are worked by hand from each system's rule (t-fold: evkit.py; XW-10:
pairing/crossword.py's module doc)."""
from __future__ import annotations

import csv
import io

import pytest
from evkit import NAMES, PLAYERS_CSV, store_results, xw_result

from gameclock import cli
from gameclock.organiser import event as events
from gameclock.organiser.exports.commands import export_outputs
from gameclock.organiser.pairing import model
from gameclock.organiser.store import Store

EV = "xw-open"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def players(*ids: str, prefix: str = "Player ") -> events.PlayerList:
    return events.PlayerList([model.Player(id=i, name=f"{prefix}{i}", level="secondary") for i in ids])


def pairs(r) -> set[frozenset[str | None]]:
    return {frozenset((b["left"], b["right"])) for b in r["boards"]}


# ------------------------------------------------------------------------------------------ the command line
def test_the_command_line_withdraws_enters_late_edits_and_exchanges(tmp_path, capsys, fold_system):
    """t-fold (evkit.py): round 1 in list order, 1 v 2, 3 v 4, 5's bye; later rounds by points, list order
    among equals. Round 1: 1 beats 2, 3 beats 4. Player 2 withdraws, 6 enters late, 3 is renamed. Round 2:
    the active players 1, 3, 4, 5, 6 with points 1 (1), 3 (1), 5 (1, the bye), 4 (0), 6 (0, round 1 missed)
    in that order: 1 v 3, 5 v 4, 6's bye."""
    db = str(tmp_path / "pc.db")
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS_CSV, encoding="utf-8")
    assert run(capsys, "event", "create", EV, "--system", fold_system, "--players", str(path), "--option",
               "shuffle=false", "--preset", "crossword", "--db", db)[0] == 0
    assert run(capsys, "pair", EV, "--publish", "--db", db)[0] == 0
    with Store(db) as store:
        store_results(store, [xw_result(1, EV, 1, 1, NAMES["1"], NAMES["2"], 400, 300),
                              xw_result(2, EV, 1, 2, NAMES["3"], NAMES["4"], 350, 320)])

    status, out, err = run(capsys, "event", "player", EV, "2", "--withdraw", "--db", db)
    assert (status, err) == (1, f"{EV}: round 1 is published: say why the player changes (--reason TEXT)\n")
    status, out, err = run(capsys, "event", "player", EV, "2", "--withdraw", "--reason", "ill", "--db", db)
    assert (status, out) == (0, f"{EV}: 2 มาลี ศรีสุข withdrawn after round 1\n"), err
    status, out, err = run(capsys, "event", "late", EV, "6", "--name", "Dao Dee", "--school", "Wat", "--rating",
                           "1300", "--reason", "the bus was late", "--db", db)
    assert (status, out) == (0, f"{EV}: 6 Dao Dee joins round 2 (round 1 missed: no points)\n"), err
    status, out, err = run(capsys, "event", "player", EV, "Anan Wong", "--name", "Anan Wongsa", "--rating", "1450",
                           "--reason", "typo", "--db", db)
    assert (status, out) == (0, f"{EV}: 3 Anan Wong: name Anan Wong » Anan Wongsa\n"
                                f"{EV}: 3 Anan Wongsa: rating 0 » 1450\n"), err

    status, out, err = run(capsys, "pair", EV, "--db", db)
    assert status == 0, err
    assert out.splitlines()[1:4] == [
        "  table   1: 1 สมชาย ใจดี (Somchai Jaidee) v 3 Anan Wongsa",
        "  table   2: 5 Chai Dee v 4 บุญมี มีสุข (Boonmee Meesuk)",
        "  table   3: 6 Dao Dee v bye"]
    status, out, err = run(capsys, "pair", EV, "--exchange", "1", "Dao Dee", "--db", db)
    assert status == 0, err
    assert out.splitlines()[1:4] == [
        "  table   1: 6 Dao Dee v 3 Anan Wongsa",
        "  table   2: 5 Chai Dee v 4 บุญมี มีสุข (Boonmee Meesuk)",
        "  table   3: 1 สมชาย ใจดี (Somchai Jaidee) v bye"]
    status, out, err = run(capsys, "pair", EV, "--again", "--db", db)
    assert status == 0 and err == f"{EV}: the organiser's edits of the draft are gone: 1 and 6 exchanged by the organiser\n"

    status, out, err = run(capsys, "standings", "--event", EV, "--db", db)
    assert status == 0, err
    # the standings say who withdrew (and who entered late, once they have a game)
    assert "note: มาลี ศรีสุข: withdrawn after round 1" in out.splitlines()
    assert "Anan Wongsa" in out and "Anan Wong " not in out   # round 1's "Anan Wong" read under the name now

    status, out, err = run(capsys, "event", "show", EV, "--db", db)
    assert status == 0, err
    lines = out.splitlines()
    assert "  2 มาลี ศรีสุข (Malee Srisuk) (Satit School, secondary, rating 1400, withdrawn after round 1)" in lines
    assert "  3 Anan Wongsa (Satit School, secondary, rating 1450, formerly Anan Wong)" in lines
    assert "  6 Dao Dee (Wat, rating 1300, joined in round 2)" in lines
    changes = lines[lines.index("player changes:") + 1:]
    assert [c.split()[0] for c in changes[:4]] == ["#1", "#2", "#3", "#4"]   # a withdrawal, a late entry, 2 edits
    assert changes[0].endswith(": 2 withdrawn: plays » withdrawn after round 1 (ill)")
    assert changes[2].endswith(": 3 name: Anan Wong » Anan Wongsa (typo)")


# ------------------------------------------------------------------------------------------ withdrawal
def test_a_withdrawal_is_audited_and_a_draft_holding_the_player_must_be_paired_again(store):
    events.create_event(store, EV, "xw10", players("A", "B", "C", "D"), preset="crossword", level="secondary")
    events.draw(store, EV, seed=1)
    done = events.withdraw(store, EV, "B", reason="did not come", by="arbiter Somchai")
    assert done.draft_round == 1 and [str(w) for w in done.said] == ["B Player B withdrawn before round 1"]
    with pytest.raises(events.EventError, match="round 1 table .: B Player B has withdrawn"):
        events.publish(store, EV)
    events.draw(store, EV)
    assert "B" not in {p for b in events.draft_of(store, EV)["boards"] for p in (b["left"], b["right"])}
    [e] = events.player_changes(store, EV)
    assert (e["player"], e["what"], e["before"], e["after"], e["reason"], e["by"]) == (
        "B", "withdrawn", None, 0, "did not come", "arbiter Somchai")
    assert (e["before_text"], e["after_text"]) == ("plays", "withdrawn before round 1")
    with pytest.raises(events.EventError, match="B Player B has withdrawn already"):
        events.withdraw(store, EV, "B", reason="again")


def test_a_round_robin_withdrawal_gives_the_opponents_byes(store):
    """MR-10's Berger table for 4 (pairing numbers by lot, kept): a withdrawn player's number stays in
    the table, their opponent of each later round has a bye (roundrobin.py)."""
    events.create_event(store, "rr", "makruk-rr", players("A", "B", "C", "D"), preset="makruk-45")
    events.draw(store, "rr", seed=5)
    r1 = events.publish(store, "rr")
    from playkit import play
    play(store, "rr", r1, lambda b: "left", kind="makruk")
    events.withdraw(store, "rr", "A", reason="left the venue", by="organiser")
    r2 = events.draw(store, "rr")
    byes = [b["left"] for b in r2["boards"] if b["right"] is None]
    assert len(byes) == 1 and byes[0] != "A" and "A" not in {p for b in r2["boards"] for p in (b["left"], b["right"])}


# ------------------------------------------------------------------------------------------ late entry
def test_a_late_entry_joins_an_xw10_change_over_round_in_the_last_table_group(store):
    """XW-10 games 3 and 5 change over within table groups of the game before; a late entrant had no
    table there: they join the last group (as the bye's player does) with the missed game as no win.

    Round 1 (set): P1 v P2 400-350 (P1 +50), P3 v P4 330-300 (P3 +30). Round 2 (set): P1 v P3 320-300
    (P1 +20), P2 v P4 300-340 (P4 +40). After round 2 (XW-6, XW-7): P1 4 +70, P3 2 +10, P4 2 +10 (entry
    order after P3), P2 0 -90; P5 enters late: 0, 0. Round 3: the bye (XW-9) to the lowest-ranked
    without one, P2; one table group (tables 1-2 of game 2): winners P1, P4 meet; the others P3 and P5."""
    ids = ("P1", "P2", "P3", "P4")
    events.create_event(store, EV, "xw10", players(*ids), preset="crossword", level="secondary")
    rounds = {1: [(1, "P1", "P2", 400, 350), (2, "P3", "P4", 330, 300)],
              2: [(1, "P1", "P3", 320, 300), (2, "P2", "P4", 300, 340)]}
    n = 0
    for rnd, boards in rounds.items():
        events.draw(store, EV, seed=1)
        events.edit(store, EV, fixes=[(t, a, b) for t, a, b, _, _ in boards])
        events.publish(store, EV)
        for t, a, b, sa, sb in boards:
            n += 1
            store_results(store, [xw_result(n, EV, rnd, t, f"Player {a}", f"Player {b}", sa, sb)])
    done = events.enter_late(store, EV, model.Player(id="P5", name="Player P5", level="secondary"), reason="late",
                             by="organiser")
    assert [str(w) for w in done.said] == ["P5 Player P5 joins round 3 (rounds 1-2 missed: no points)"]
    r3 = events.draw(store, EV)
    assert pairs(r3) == {frozenset(("P1", "P4")), frozenset(("P3", "P5")), frozenset(("P2", None))}
    assert any("P5 had no board in game 2 (a late entry): they join the last table group" in n for n in r3["notes"])


def test_a_late_entry_in_a_dutch_swiss(store):
    events.create_event(store, "sw", "dutch", players(*"ABCDEF"), rounds=5, preset="makruk-45")
    r1 = events.draw(store, "sw", seed=2)
    events.publish(store, "sw")
    from playkit import play
    play(store, "sw", r1, lambda b: "left", kind="makruk")
    events.enter_late(store, "sw", model.Player(id="G", name="Player G", rating=1500), reason="late", by="o")
    r2 = events.draw(store, "sw")
    seated = [p for b in r2["boards"] for p in (b["left"], b["right"]) if p is not None]
    assert sorted(seated) == list("ABCDEFG") and sum(b["right"] is None for b in r2["boards"]) == 1


@pytest.mark.parametrize("system, preset, refusal", [
    ("makruk-rr", "makruk-45", "a round robin's pairing numbers were drawn in round 1"),
    ("makruk-ko", "makruk-30", "a knockout's bracket was drawn in round 1"),
    ("makhos-groups", "makhos-move", "the groups were drawn in round 1"),
])
def test_a_system_keeping_its_lot_refuses_a_late_entry_once_round_1_is_published(store, system, preset, refusal):
    events.create_event(store, "e", system, players(*"ABCD"), preset=preset)
    events.draw(store, "e", seed=4)
    # before round 1 is published a late entry is simply one more player: the draft is paired again
    done = events.enter_late(store, "e", model.Player(id="E", name="Player E"), reason="late", by="o")
    assert done.draft_round == 1
    events.withdraw(store, "e", "E", reason="changed their mind", by="o")
    events.draw(store, "e", seed=4)
    events.publish(store, "e")
    assert events.late_entry_refusal(store, "e") is not None and refusal in events.late_entry_refusal(store, "e")
    with pytest.raises(events.EventError, match=refusal):
        events.enter_late(store, "e", model.Player(id="F", name="Player F"), reason="late", by="o")
    assert [p["id"] for p in store.event_players("e")] == list("ABCDE")


def test_a_late_entry_is_checked_as_the_list_is(store):
    events.create_event(store, EV, "xw10", players("A", "B"), preset="crossword")
    for player, says in ((model.Player(id="A", name="New"), "id A is taken"),
                         (model.Player(id="C", name="player a"), "Player A is a player of the event"),
                         (model.Player(id="C c", name="X"), "is not 1-16 letters"),
                         (model.Player(id="C", name="X", level="tertiary"), "level 'tertiary' is not one of"),
                         (model.Player(id="C", name="X", rating=10000), "rating 10000 is not a whole number 0-9999"),
                         (model.Player(id="C", name="a#b"), "'#'")):
        with pytest.raises(events.EventError, match=says):
            events.enter_late(store, EV, player, reason="x", by="o")
    assert len(store.event_players(EV)) == 2


# ------------------------------------------------------------------------------------------ edits
def test_a_renamed_player_keeps_the_games_recorded_under_the_old_name_everywhere(store):
    """Round 1 (set): A v B 400-300 (A +100), C v D 310-300 (C +10); A is renamed "Anan": the standings,
    the next Pair and the exports know the clocks' "Player A" as Anan; a second rename keeps both old names."""
    events.create_event(store, EV, "xw10", players(*"ABCD"), preset="crossword", level="secondary")
    events.draw(store, EV, seed=1)
    events.edit(store, EV, fixes=[(1, "A", "B"), (2, "C", "D")])
    events.publish(store, EV)
    store_results(store, [xw_result(1, EV, 1, 1, "Player A", "Player B", 400, 300),
                          xw_result(2, EV, 1, 2, "Player C", "Player D", 310, 300)])
    done = events.edit_player(store, EV, "A", {"name": "Anan"}, reason="his real name", by="o")
    assert [str(w) for w in done.said] == ["A Player A: name Player A » Anan"]
    from gameclock.organiser.standings.commands import event_standings
    [st] = event_standings(store, EV)
    assert [(r.player, r.values["GP"], r.values["Spread"]) for r in st.rows] == [
        ("Anan", 2, 100), ("Player C", 2, 10), ("Player D", 0, -10), ("Player B", 0, -100)]
    events.draw(store, EV)                       # games_of reads round 1 (no "result has Player A v ..." error)
    [out] = export_outputs(store, "csv", EV)
    names = {row[3] for row in csv.reader(io.StringIO(out.data.decode("utf-8-sig"))) if len(row) > 3}
    assert "Anan" in names and "Player A" not in names
    events.edit_player(store, EV, "A", {"name": "Anan Srisuk"}, reason="with his surname", by="o")
    p = next(p for p in store.event_players(EV) if p["id"] == "A")
    assert (p["name"], p["aliases"]) == ("Anan Srisuk", ["Player A", "Anan"])
    [st] = event_standings(store, EV)
    assert st.rows[0].player == "Anan Srisuk" and st.rows[0].values["GP"] == 2
    # a former name is nobody else's: refused for another player, and for a late entry
    with pytest.raises(events.EventError, match="Anan is a former name of A Anan Srisuk"):
        events.edit_player(store, EV, "B", {"name": "anan"}, reason="x", by="o")
    with pytest.raises(events.EventError, match="Player A is a former name of A Anan Srisuk"):
        events.enter_late(store, EV, model.Player(id="E", name="Player A"), reason="x", by="o")


def test_an_edit_is_checked_and_changes_only_what_differs(store):
    events.create_event(store, EV, "xw10", players("A", "B"), preset="crossword")
    for changes, says in (({"rating": 10000}, "rating 10000 is not a whole number 0-9999"),
                          ({"rating": "12a"}, "rating '12a' is not a whole number 0-9999"),
                          ({"level": "tertiary"}, "level 'tertiary' is not one of"),
                          ({"name": ""}, "no name"), ({"campus": "a\x07b"}, "control character"),
                          ({"team": "x"}, "team cannot be edited here"),
                          ({"name": "Player A"}, "changes nothing")):
        with pytest.raises(events.EventError, match=says):
            events.edit_player(store, EV, "A", changes, by="o")
    done = events.edit_player(store, EV, "A", {"name": "Player A", "rating": "1500", "campus": " Satit  School "},
                              by="o")
    assert [str(w) for w in done.said] == ["A Player A: campus  » Satit School", "A Player A: rating 0 » 1500"]
    assert [e["what"] for e in events.player_changes(store, EV)] == ["campus", "rating"]
    p = next(p for p in store.event_players(EV) if p["id"] == "A")
    assert (p["campus"], p["rating"], p["aliases"]) == ("Satit School", 1500, [])   # no round published: no alias


# ------------------------------------------------------------------------------------------ the draft
def test_exchange_two_players_in_one_step(store):
    """Two players change seats, every game of their matches with them, checked once: a bye too; a player
    not in the draft is refused; in a round continuing a kept lot who meets whom cannot change."""
    events.create_event(store, EV, "xw10", players(*"ABCDE"), preset="crossword")
    events.draw(store, EV, seed=1)
    events.edit(store, EV, fixes=[(1, "A", "B"), (2, "C", "D"), (3, "E", "bye")])
    r = events.edit(store, EV, exchanges=[("A", "D")])
    assert [(b["table"], b["left"], b["right"]) for b in r["boards"]] == [(1, "D", "B"), (2, "C", "A"), (3, "E", None)]
    assert r["notes"][-1] == "A and D exchanged by the organiser"
    r = events.edit(store, EV, exchanges=[("B", "Player E")])
    assert [(b["table"], b["left"], b["right"]) for b in r["boards"]] == [(1, "D", "E"), (2, "C", "A"), (3, "B", None)]
    for pair, says in ((("A", "A"), "two different players"), (("A", "nobody"), "no player 'nobody'"),
                       (("A", "bye"), "two players")):
        with pytest.raises(events.EventError, match=says):
            events.edit(store, EV, exchanges=[pair])
    events.withdraw(store, EV, "C", reason="x", by="o")
    with pytest.raises(events.EventError, match="C Player C has withdrawn"):
        events.edit(store, EV, exchanges=[("C", "A")])


def test_a_draft_carries_a_version_and_a_stale_one_is_refused_with_the_difference(store):
    events.create_event(store, EV, "xw10", players(*"ABCD"), preset="crossword")
    d = events.draw(store, EV, seed=1, by="tab B")
    assert d["version"] == 1
    events.edit(store, EV, fixes=[(1, "A", "B"), (2, "C", "D")], version=1, by="tab B")
    d = events.edit(store, EV, swaps=[(1, 2)], version=2, by="tab B")
    assert d["version"] == 3
    with pytest.raises(events.DraftChanged) as caught:
        events.publish(store, EV, version=1)
    diff = caught.value.diff
    assert (diff.round, diff.shown, diff.now) == (1, 1, 3)
    assert [(s["version"], s["what"], s["by"]) for s in diff.steps] == [
        (2, ["table 1 set by the organiser: A v B", "table 2 set by the organiser: C v D"], "tab B"),
        (3, ["tables 1 and 2 swapped by the organiser"], "tab B")]
    assert events.published_rounds(store, EV) == []
    with pytest.raises(events.DraftChanged):
        events.edit(store, EV, swaps=[(1, 2)], version=2)
    assert events.publish(store, EV, version=3)["round"] == 1


def test_the_rounds_paired_after_a_round(store):
    events.create_event(store, EV, "xw10", players(*"ABCD"), preset="crossword")
    events.draw(store, EV, seed=1)
    events.edit(store, EV, fixes=[(1, "A", "B"), (2, "C", "D")])
    events.publish(store, EV)
    assert events.paired_after(store, EV, 1) == []
    store_results(store, [xw_result(1, EV, 1, 1, "Player A", "Player B", 400, 300),
                          xw_result(2, EV, 1, 2, "Player C", "Player D", 310, 300)])
    events.draw(store, EV)
    assert [(r["round"], r["state"]) for r in events.paired_after(store, EV, 1)] == [(2, "draft")]


def test_a_version_9_database_gets_player_changes_and_draft_versions_keeping_its_rounds(tmp_path):
    """Migration 10: the rounds there were become their round's version (a number names one round's draft),
    each kept as that version's boards; the players get no alias, no withdrawal round, no late round."""
    import sqlite3

    from gameclock.organiser.store import MIGRATIONS, statements

    con = sqlite3.connect(tmp_path / "v9.db", isolation_level=None)
    for script in MIGRATIONS[:9]:
        for stmt in statements(script):
            con.execute(stmt)
    con.execute("PRAGMA user_version = 9")
    con.execute("INSERT INTO events (name, system, rounds, options, created_at) VALUES "
                "('ev', 'xw10', 0, '{}', '2025-01-01T00:00:00.000Z')")
    for n, pid in enumerate("ABCD", start=1):
        con.execute("INSERT INTO event_players VALUES ('ev', ?, ?, ?, '', '', '', '', 0, 0, '', 0)",
                    (n, pid, f"Player {pid}"))
    boards = ('[{"game":1,"left":"A","note":"","right":"B","stage":"qualifying","table":1},'
              '{"game":1,"left":"C","note":"","right":"D","stage":"qualifying","table":2}]')
    con.execute("INSERT INTO event_rounds (event, round, state, system, seed, boards, notes, drafted_at, published_at)"
                " VALUES ('ev', 1, 'published', 'xw10', 1, ?, '[]', '2025-01-01T00:00:01.000Z',"
                " '2025-01-01T00:00:02.000Z')", (boards,))
    con.execute("INSERT INTO event_rounds (event, round, state, system, seed, boards, notes, drafted_at)"
                " VALUES ('ev', 2, 'draft', 'xw10', 2, ?, '[]', '2025-01-01T00:00:03.000Z')", (boards,))
    con.close()
    with Store(tmp_path / "v9.db") as s:
        assert s.version() == 15  # 10, then 11 the clocks' tables, 12 hand entries, 13 the desk's accounts (issue 26), 14 the wall, 15 the event's header (issue 28)
        assert [(r["round"], r["version"]) for r in s.event_rounds("ev")] == [(1, 1), (2, 2)]
        assert [(v["round"], v["version"], v["kind"]) for v in s.draft_versions("ev")] == [(1, 1, "draw"), (2, 2, "draw")]
        p = s.event_players("ev")[0]
        assert (p["aliases"], p["withdrawn_after"], p["joined"]) == ([], None, None)
        with pytest.raises(events.DraftChanged, match="the draft of round 1 changed since"):
            events.publish(s, "ev", version=1)           # version 1 is round 1's, published
        d = events.edit(s, "ev", swaps=[(1, 2)], version=2)
        assert d["version"] == 3


def test_a_rename_never_changes_a_signed_record(store):
    """The clocks' records keep the names they recorded, byte for byte: the new name is the readers'."""
    import sqlite3

    events.create_event(store, EV, "xw10", players(*"ABCD"), preset="crossword", level="secondary")
    events.draw(store, EV, seed=1)
    events.edit(store, EV, fixes=[(1, "A", "B"), (2, "C", "D")])
    events.publish(store, EV)
    store_results(store, [xw_result(1, EV, 1, 1, "Player A", "Player B", 400, 300)])

    def rows():
        con = sqlite3.connect(store.path)
        try:
            return con.execute("SELECT id, record, summary, sig, kid, received_at FROM results ORDER BY id").fetchall()
        finally:
            con.close()

    before = rows()
    events.edit_player(store, EV, "A", {"name": "Anan"}, reason="his name", by="o")
    assert rows() == before and '"Player A"' in before[0][1]


@pytest.mark.parametrize("seed", range(6))
def test_xw10_to_its_final_with_withdrawals_late_entries_and_renames(tmp_path, seed):
    """A property over whole XW-10 events (19-21 players) where, after each qualifying round, a player may
    withdraw, a late one may enter and a player may be renamed: every round's draft seats exactly the players
    still in (an odd count: one bye, XW-9), never a withdrawn one, a late one from the round they joined;
    the qualifying standings list each player once, under the name now (the clocks' old names mapped)."""
    import random

    from gameclock.organiser.pairing.crossword import XW10_QUALIFYING
    from gameclock.organiser.standings.commands import event_standings

    rng = random.Random(seed)
    with Store(tmp_path / "pc.db") as s:
        n = rng.choice((19, 20, 21))
        events.create_event(s, "e", "xw10", players(*(f"p{i}" for i in range(1, n + 1))), preset="crossword",
                            level="secondary")
        done = 0
        for rnd in range(1, XW10_QUALIFYING + 1):
            r = events.draw(s, "e", seed=rng.randrange(10**6))
            rows = s.event_players("e")
            active = {p["id"] for p in rows if not p["withdrawn"]}
            seats = [x for b in r["boards"] for x in (b["left"], b["right"]) if x is not None]
            assert sorted(seats) == sorted(active), rnd
            assert sum(b["right"] is None for b in r["boards"]) == len(active) % 2
            events.publish(s, "e")
            names = {p["id"]: p["name"] for p in rows}
            for b in r["boards"]:
                if b["right"] is not None:
                    done += 1
                    store_results(s, [xw_result(done, "e", rnd, b["table"], names[b["left"]], names[b["right"]],
                                                rng.randrange(250, 450), rng.randrange(250, 450))])
            if rng.random() < 0.5:
                events.withdraw(s, "e", rng.choice(sorted(active)), reason="left", by="o")
            if rng.random() < 0.5:
                events.enter_late(s, "e", model.Player(id=f"L{rnd}", name=f"Late {rnd}", level="secondary"),
                                  reason="late", by="o")
            if rng.random() < 0.5:
                pid = rng.choice(sorted(active))
                events.edit_player(s, "e", pid, {"name": f"Renamed {pid} {rnd}"}, reason="spelling", by="o")
        [st] = event_standings(s, "e")
        now = {p["name"] for p in s.event_players("e")}
        assert len({r.player for r in st.rows}) == len(st.rows) and {r.player for r in st.rows} <= now
