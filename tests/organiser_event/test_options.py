"""The pairing systems' options given typed (issue 25): `gameclock event create --option`, `gameclock event
set` after creation (audited like amendments: who, when, before, after, reason), `gameclock event show`.
Every option a system documents can be given, list-valued ones too (a Makruk round robin's `order`, the
Makhos tie-break games `tiebreak`, a knockout's `seeds` and `lots`, MH-8's `gives_first`), each checked
with a one-line error naming the option. The boards expected are worked by hand from the rules cited."""
from __future__ import annotations

import os

import pytest

from gameclock import cli
from gameclock.organiser import event as events
from gameclock.organiser.pairing import load_systems, model
from gameclock.organiser.store import Store

# four Makruk players of four campuses (MR-10 keeps a campus apart only in round one: none to keep here)
RR_CSV = "id,name,campus\nP1,Anan,A\nP2,Boon,B\nP3,Chai,C\nP4,Dao,D\n"
# a Makhos group of four (MH-7): no `group` column, so options decide the groups
MG_CSV = "id,name\nW,Wan\nX,Xiang\nY,Yai\nZ,Zom\n"
# eight for a knockout (MR-12, MH-8)
KO_CSV = "id,name\n" + "".join(f"P{i},Player {i}\n" for i in range(1, 9))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "pc.db")


def create(capsys, tmp_path, db, name, system, csv, *options: str) -> tuple[int, str, str]:
    path = tmp_path / f"{name}.csv"
    path.write_text(csv, encoding="utf-8")
    argv = ["event", "create", name, "--system", system, "--players", str(path), "--db", db]
    for o in options:
        argv += ["--option", o]
    return run(capsys, *argv)


def options_of(db, name) -> dict:
    with Store(db) as s:
        return s.event(name)["options"]


def publish(db, name, rnd: int, boards: list[tuple[int, str, str | None, int]]) -> None:
    """Round `rnd` published with these (table, left, right, game) boards, as a draft published would be
    (the options' checks read the published rounds, not how they were drawn)."""
    with Store(db) as s:
        ev = s.event(name)
        s.put_draft(name, rnd, ev["system"], 1, [{"table": t, "left": a, "right": b, "game": g, "stage": "final",
                                                  "note": ""} for t, a, b, g in boards], [])
        s.publish_round(name, rnd, [], [])


# ------------------------------------------------------------------------------------------ create
def test_create_gives_a_list_option_typed_and_the_round_robin_pairs_by_it(capsys, tmp_path, db):
    status, _, err = create(capsys, tmp_path, db, "rr", "makruk-rr", RR_CSV, "order=P3,P1,P4,P2")
    assert status == 0, err
    assert options_of(db, "rr") == {"order": ["P3", "P1", "P4", "P2"]}   # a list of ids, not the text
    # MR-10: the pairing numbers as given: 1 P3, 2 P1, 3 P4, 4 P2. FIDE's Berger table for 4, round 1:
    # 1-4, 2-3 (C.05 Annex 1), so P3 meets P2 and P1 meets P4 (who starts: a coin toss, seed 001 §5(3))
    with Store(db) as s:
        draft = events.draw(s, "rr", seed=5)
    assert {frozenset((b["left"], b["right"])) for b in draft["boards"]} == {frozenset(("P3", "P2")),
                                                                            frozenset(("P1", "P4"))}


def test_create_takes_a_long_order_from_a_file_one_id_a_line(capsys, tmp_path, db):
    order = tmp_path / "order.txt"
    order.write_text("# the lot drawn at the venue\nP4\nP2\n\nP1\nP3\n", encoding="utf-8")
    status, _, err = create(capsys, tmp_path, db, "rr", "makruk-rr", RR_CSV, f"order=@{order}")
    assert status == 0, err
    assert options_of(db, "rr") == {"order": ["P4", "P2", "P1", "P3"]}


def test_an_option_file_is_read_with_limits(capsys, tmp_path, db):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)   # a reader that would wait for ever on a pipe: refused, never opened for a blocking read
    status, out, err = create(capsys, tmp_path, db, "rr", "makruk-rr", RR_CSV, f"order=@{fifo}")
    assert (status, out) == (1, "")
    assert err.startswith("option order: ") and "not a regular file (a pipe (FIFO))" in err and err.count("\n") == 1
    big = tmp_path / "big.txt"
    big.write_text("P1\n" * 100_000, encoding="utf-8")
    status, _, err = create(capsys, tmp_path, db, "rr", "makruk-rr", RR_CSV, f"order=@{big}")
    assert status == 1 and err.startswith("option order: ") and "too large" in err
    with Store(db) as s:
        assert s.events() == []   # nothing created


@pytest.mark.parametrize(("system", "csv", "option", "error"), [
    # an option the system does not have, and the one meant
    ("makruk-rr", RR_CSV, "oder=P3,P1,P4,P2", "option oder is not an option of makruk-rr: did you mean order?"),
    ("makruk-ko", KO_CSV, "gives_first=P1>P2",
     "option gives_first is not an option of makruk-ko (its options: first_round, lot_seed, lots, seeds, "
     "third_place)"),
    # a player id that is not in the event
    ("makruk-rr", RR_CSV, "order=P3,P1,P9,P2", "option order: P9 is not a player of the event"),
    # a list with a repeat
    ("makruk-rr", RR_CSV, "order=P3,P1,P3,P2", "option order: P3 is listed twice"),
    # a wrong length
    ("makruk-rr", RR_CSV, "order=P3,P1,P4", "option order: 3 ids for the event's 4 players: P2 is missing"),
    ("makruk-ko", KO_CSV, "seeds=P1,P2,P3,P4,P5,P6,P7,P8,P1", "option seeds: P1 is listed twice"),
    ("makruk-ko", KO_CSV, "seeds=P1,P2", "option seeds: 2 ids for the event's 8 players: P3, P4, P5, P6, P7, P8 "
                                         "are missing"),
    # whole numbers, their range, true/false, a choice
    ("makhos-groups", MG_CSV, "groups=3", "option groups: 3 is not a whole number from 1 to 2"),
    ("makhos-groups", MG_CSV, "groups=two", "option groups: 'two' is not a whole number from 1 to 2"),
    ("xw10", RR_CSV, "koth_rounds=3", "option koth_rounds: 3 is not a whole number from 1 to 2"),
    ("makruk-ko", KO_CSV, "third_place=maybe", "option third_place: 'maybe' is not true or false"),
    ("dutch", RR_CSV, "initial_colour=red", "option initial_colour: 'red' is not one of white, black"),
    # MH-7's tie-break games: lists of two or more, a player in one list only
    ("makhos-groups", MG_CSV, "tiebreak=W", "option tiebreak: W alone: a tie-break list has 2 or more players"),
    ("makhos-groups", MG_CSV, "tiebreak=W-X,X-Y", "option tiebreak: X is in two lists"),
    ("makhos-groups", MG_CSV, "tiebreak=W-Q", "option tiebreak: Q is not a player of the event"),
    # lots drawn at the venue: WINNER>LOSER, or winner and loser in turn (an even count)
    ("makruk-ko", KO_CSV, "lots=P3,P1,P4", "option lots: 3 ids: give each lot as WINNER>LOSER (or the winner "
                                           "and the loser in turn: an even count)"),
    ("makruk-ko", KO_CSV, "lots=P3>P3", "option lots: P3>P3: two different players"),
    ("makruk-ko", KO_CSV, "lots=P3>P1,P1>P3", "option lots: P1 and P3's match is given twice"),
    # MH-8's coin-toss winner's choice: a player alone means their match now, and there is none yet
    ("makhos-ko", KO_CSV, "gives_first=P7", "option gives_first: P7 has no published game yet: give P7>OPPONENT"),
    ("makhos-ko", KO_CSV, "gives_first=P7>P7", "option gives_first: P7>P7: two different players"),
])
def test_each_bad_option_is_one_line_naming_it_and_creates_nothing(capsys, tmp_path, db, system, csv, option, error):
    status, out, err = create(capsys, tmp_path, db, "ev", system, csv, option)
    assert (status, out, err) == (1, "", error + "\n")
    with Store(db) as s:
        assert s.events() == []


def test_create_through_the_python_api_checks_typed_values(tmp_path):
    """What a caller hands create_event (the desk, a test, the draw) is checked like the command line's."""
    path = tmp_path / "p.csv"
    path.write_text(RR_CSV, encoding="utf-8")
    players = events.load_players(path)
    with Store(tmp_path / "pc.db") as s:
        with pytest.raises(events.EventError, match=r"^option order: P3 is listed twice$"):
            events.create_event(s, "rr", "makruk-rr", players, options={"order": ["P3", "P3", "P1", "P2"]})
        with pytest.raises(events.EventError, match=r"^option lot_seed: 'x' is not a whole number from 0 to 999999999$"):
            events.create_event(s, "rr", "makruk-rr", players, options={"lot_seed": "x"})
        ev = events.create_event(s, "rr", "makruk-rr", players, options={"order": ("P2", "P1", "P4", "P3")})
        assert ev["options"] == {"order": ["P2", "P1", "P4", "P3"]} == s.event("rr")["options"]


# ------------------------------------------------------------------------------------------ set
def test_set_gives_the_tiebreak_games_after_creation_audited(capsys, tmp_path, db):
    assert create(capsys, tmp_path, db, "mg", "makhos-groups", MG_CSV)[0] == 0
    status, out, err = run(capsys, "event", "set", "mg", "--option", "tiebreak=W-X,Y-Z", "--reason",
                           "committee: W and X tied, Y and Z tied (MH-7 (3))", "--db", db)
    assert status == 0, err
    assert out.splitlines() == ["mg: tiebreak: (not given) » W-X,Y-Z"]
    assert options_of(db, "mg") == {"tiebreak": [["W", "X"], ["Y", "Z"]]}
    with Store(db) as s:
        trail = s.event_option_changes("mg")
    assert [(e["n"], e["key"], e["before"], e["after"], e["reason"]) for e in trail] == [
        (1, "tiebreak", None, [["W", "X"], ["Y", "Z"]], "committee: W and X tied, Y and Z tied (MH-7 (3))")]
    assert trail[0]["by"] and trail[0]["at"].endswith("Z")
    # MH-7 (3): 4 more games for each tied pair, numbered on from the match (5-8). A group of 4 plays 3
    # rounds (Berger: n-1), so round 4 is the tie-break round
    state = model.EventState(players=tuple(model.Player(i, i) for i in "WXYZ"), games=(),
                             options=options_of(db, "mg"))
    draft = load_systems()["makhos-groups"](state, 4, 7)
    assert sorted((b.table, frozenset((b.left, b.right)), b.game) for b in draft.boards) == [
        (1, frozenset("WX"), g) for g in (5, 6, 7, 8)] + [(2, frozenset("YZ"), g) for g in (5, 6, 7, 8)]

    status, out, err = run(capsys, "event", "show", "mg", "--db", db)
    assert status == 0, err
    lines = out.splitlines()
    assert "options of makhos-groups:" in lines
    assert "  tiebreak=W-X,Y-Z" in lines
    assert "  groups: not given (1)" in lines
    assert "option changes:" in lines
    change = next(line for line in lines if line.startswith("  #1 "))
    assert change.endswith(": tiebreak: (not given) » W-X,Y-Z (committee: W and X tied, Y and Z tied (MH-7 (3)))")


def test_set_replaces_a_value_and_empty_gives_the_default_back(capsys, tmp_path, db):
    assert create(capsys, tmp_path, db, "ko", "makhos-ko", KO_CSV, "seeds=P1,P2,P3,P4,P5,P6,P7,P8")[0] == 0
    status, out, err = run(capsys, "event", "set", "ko", "--option", "seeds=P2,P1,P3,P4,P5,P6,P7,P8",
                           "--option", "third_place=true", "--db", db)
    assert status == 0, err
    assert out.splitlines() == ["ko: seeds: P1,P2,P3,P4,P5,P6,P7,P8 » P2,P1,P3,P4,P5,P6,P7,P8",
                                "ko: third_place: (not given) » true"]
    assert options_of(db, "ko") == {"seeds": ["P2", "P1", "P3", "P4", "P5", "P6", "P7", "P8"], "third_place": True}
    status, out, err = run(capsys, "event", "set", "ko", "--option", "seeds=", "--db", db)
    assert status == 0, err
    assert out.splitlines() == ["ko: seeds: P2,P1,P3,P4,P5,P6,P7,P8 » (not given)"]
    assert options_of(db, "ko") == {"third_place": True}
    status, out, err = run(capsys, "event", "set", "ko", "--option", "third_place=true", "--db", db)
    assert (status, err) == (1, "ko: the options change nothing\n")
    with Store(db) as s:
        assert [e["key"] for e in s.event_option_changes("ko")] == ["seeds", "third_place", "seeds"]


def test_set_checks_like_create(capsys, tmp_path, db):
    assert create(capsys, tmp_path, db, "rr", "makruk-rr", RR_CSV)[0] == 0
    status, _, err = run(capsys, "event", "set", "rr", "--option", "order=P3,P1,P9,P2", "--db", db)
    assert (status, err) == (1, "option order: P9 is not a player of the event\n")
    status, _, err = run(capsys, "event", "set", "rr", "--option", "ordr=P1", "--db", db)
    assert (status, err) == (1, "option ordr is not an option of makruk-rr: did you mean order?\n")
    status, _, err = run(capsys, "event", "set", "rr", "--db", db)
    assert status == 1 and "give the options to set: --option KEY=VALUE" in err
    status, _, err = run(capsys, "event", "set", "nope", "--option", "order=P1", "--db", db)
    assert (status, err) == (1, f"no event 'nope' in {db} (events: rr)\n")
    assert options_of(db, "rr") == {}


def test_a_lot_option_is_refused_once_round_one_is_published(capsys, tmp_path, db):
    """MR-10: the lot pairs round one and the rotation the rest: once round one is out, a new order
    would re-pair the published round. Before, it may change (the draft is drawn again)."""
    assert create(capsys, tmp_path, db, "rr", "makruk-rr", RR_CSV, "order=P3,P1,P4,P2")[0] == 0
    with Store(db) as s:
        events.draw(s, "rr", seed=3)
    status, out, err = run(capsys, "event", "set", "rr", "--option", "order=P4,P1,P3,P2", "--db", db)
    assert status == 0, err
    assert out.splitlines() == ["rr: order: P3,P1,P4,P2 » P4,P1,P3,P2",
                                "rr: the draft of round 1 was drawn before: pair it again (gameclock pair rr --seed N)"]
    with Store(db) as s:
        events.draw(s, "rr", seed=3)
        events.publish(s, "rr")
    status, _, err = run(capsys, "event", "set", "rr", "--option", "order=P3,P1,P4,P2", "--reason", "typo", "--db", db)
    assert (status, err) == (1, "option order: round 1 is published: the lot it drew cannot change\n")
    status, _, err = run(capsys, "event", "set", "rr", "--option", "lot_seed=8", "--reason", "x", "--db", db)
    assert (status, err) == (1, "option lot_seed: round 1 is published: the lot it drew cannot change\n")
    assert options_of(db, "rr") == {"order": ["P4", "P1", "P3", "P2"]}


def test_a_change_once_under_way_needs_a_reason(capsys, tmp_path, db):
    assert create(capsys, tmp_path, db, "mg", "makhos-groups", MG_CSV)[0] == 0
    publish(db, "mg", 1, [(1, "W", "X", 1), (2, "Y", "Z", 1)])
    status, _, err = run(capsys, "event", "set", "mg", "--option", "tiebreak=W-X", "--db", db)
    assert (status, err) == (1, "mg: round 1 is published: say why the options change (--reason TEXT)\n")
    status, _, err = run(capsys, "event", "set", "mg", "--option", "tiebreak=W-X", "--reason", "tied", "--db", db)
    assert status == 0, err


def test_a_venue_lot_is_refused_once_a_published_round_plays_on_from_it(capsys, tmp_path, db):
    """MR-12: a tied match is decided by lots; once the next stage with the lot's winner is published, the
    recorded lot cannot change (it would re-pair that round). A lot of a match still open can be set."""
    assert create(capsys, tmp_path, db, "ko", "makruk-ko", KO_CSV, "seeds=P1,P2,P3,P4,P5,P6,P7,P8")[0] == 0
    # rounds 1-2: the quarter-finals' two games (1 v 8, 4 v 5, 2 v 7, 3 v 6); round 3: the semi-finals
    qf = [(1, "P1", "P8"), (2, "P4", "P5"), (3, "P2", "P7"), (4, "P3", "P6")]
    publish(db, "ko", 1, [(t, a, b, 1) for t, a, b in qf])
    publish(db, "ko", 2, [(t, b, a, 2) for t, a, b in qf])
    status, _, err = run(capsys, "event", "set", "ko", "--option", "lots=P5>P4", "--reason", "the lot at 14.05",
                         "--db", db)
    assert status == 0, err
    assert options_of(db, "ko")["lots"] == {"P5 v P4": "P5"}
    publish(db, "ko", 3, [(1, "P1", "P5", 1), (2, "P2", "P3", 1)])
    status, _, err = run(capsys, "event", "set", "ko", "--option", "lots=P4>P5", "--reason", "misread", "--db", db)
    assert (status, err) == (1, "option lots: P4 v P5: round 3 is published with the match's winner playing on: "
                                "its lot cannot change now\n")
    # the lot of a semi-final still being played can still be given (both forms: WINNER>LOSER, in turn)
    status, _, err = run(capsys, "event", "set", "ko", "--option", "lots=P5,P4,P3,P2", "--reason", "lot", "--db", db)
    assert status == 0, err
    assert options_of(db, "ko")["lots"] == {"P5 v P4": "P5", "P3 v P2": "P3"}


def test_who_gives_first_is_the_current_match_of_a_player_and_fixed_once_game_7_is_published(capsys, tmp_path, db):
    """MH-8 (seed 004 §3.9.2): after 6 games tied, a coin toss; its winner chooses who gives the draw first.
    `gives_first=P7` names the toss winner's choice for P7's match now; once its game 7 is out, it stays."""
    assert create(capsys, tmp_path, db, "ko", "makhos-ko", KO_CSV, "seeds=P1,P2,P3,P4,P5,P6,P7,P8")[0] == 0
    qf = [(1, "P1", "P8"), (2, "P4", "P5"), (3, "P2", "P7"), (4, "P3", "P6")]
    for g in range(1, 7):
        publish(db, "ko", g, [(t, a, b, g) if g % 2 else (t, b, a, g) for t, a, b in qf])
    status, out, err = run(capsys, "event", "set", "ko", "--option", "gives_first=P7", "--reason", "P2 won the toss, "
                           "lets P7 give first", "--db", db)
    assert status == 0, err
    assert out.splitlines() == ["ko: gives_first: (not given) » P7>P2"]
    assert options_of(db, "ko")["gives_first"] == {"P7 v P2": "P7"}
    publish(db, "ko", 7, [(3, "P7", "P2", 7)])
    status, _, err = run(capsys, "event", "set", "ko", "--option", "gives_first=P2>P7", "--reason", "x", "--db", db)
    assert (status, err) == (1, "option gives_first: P2 v P7: game 7 is published (round 7): who gives the draw "
                                "first cannot change now\n")


def test_show_lists_every_option_of_the_system_in_effect(capsys, tmp_path, db):
    assert create(capsys, tmp_path, db, "xw", "xw10", RR_CSV, "table_group=4")[0] == 0
    status, out, err = run(capsys, "event", "show", "xw", "--db", db)
    assert status == 0, err
    lines = out.splitlines()
    at = lines.index("options of xw10:")
    assert lines[at + 1:at + 3] == ["  table_group=4", "  koth_rounds: not given (1)"]
    assert "option changes: none" in lines


def test_a_version_7_database_gets_the_options_trail_keeping_its_events(tmp_path):
    """Migration 8 adds the options' audit trail; an event made before it keeps its options."""
    import sqlite3

    from gameclock.organiser.store import MIGRATIONS, statements

    con = sqlite3.connect(tmp_path / "v7.db", isolation_level=None)
    for script in MIGRATIONS[:7]:
        for stmt in statements(script):
            con.execute(stmt)
    con.execute("PRAGMA user_version = 7")
    con.execute("INSERT INTO events VALUES ('rr', 'makruk-rr', 0, '{\"lot_seed\":5}', NULL, NULL, NULL, "
                "'2025-01-01T00:00:00.000Z')")
    for n, pid in enumerate(("P1", "P2"), start=1):
        con.execute("INSERT INTO event_players VALUES ('rr', ?, ?, ?, '', '', '', '', 0, 0, '', 0)", (n, pid, pid))
    con.close()
    with Store(tmp_path / "v7.db") as s:
        assert s.version() == 15  # 8 the options' trail, 9 the event's kept lot (issue 25), 10-13 issue 26, 14-15 issue 28
        assert s.event("rr")["options"] == {"lot_seed": 5} and s.event_option_changes("rr") == []
        assert s.event("rr")["lot"] is None
        events.set_options(s, "rr", {"lot_seed": 6}, by="test")
        assert s.event("rr")["options"] == {"lot_seed": 6}
        assert [(e["key"], e["before"], e["after"], e["by"]) for e in s.event_option_changes("rr")] == [
            ("lot_seed", 5, 6, "test")]


def test_the_knockouts_read_the_lots_and_the_choice_as_stored(capsys, tmp_path, db):
    """What `event set` stores is what the systems read: MR-12, a quarter-final tied 1-1 in games (2-2 in
    game points) goes to lots: the lot drawn at the venue decides it; MH-8, a match tied after 6 games:
    the draw-giving game 1 (game 7) starts with the player the coin-toss winner chose (seed 004 §3.9.2)."""
    from gameclock.organiser.pairing.knockout import bracket, mr12
    from gameclock.organiser.pairing.makhos import mh8

    players = tuple(model.Player(f"P{i}", f"Player {i}") for i in range(1, 9))
    assert create(capsys, tmp_path, db, "ko", "makruk-ko", KO_CSV, "seeds=P1,P2,P3,P4,P5,P6,P7,P8")[0] == 0
    assert run(capsys, "event", "set", "ko", "--option", "lots=P5>P4", "--db", db)[0] == 0
    # the quarter-finals (1 v 8, 4 v 5, 2 v 7, 3 v 6), two games each, sides swapped: the higher seed wins
    # both, but P4 and P5 win one each
    games = []
    for t, (a, b) in enumerate((("P1", "P8"), ("P4", "P5"), ("P2", "P7"), ("P3", "P6")), start=1):
        games.append(model.Game(1, a, b, 1.0, table=t, game=1))
        games.append(model.Game(2, b, a, 1.0 if (a, b) == ("P4", "P5") else 0.0, table=t, game=2))
    br = bracket(model.EventState(players, tuple(games), options=options_of(db, "ko")), mr12, seed=1)
    qf = next(m for m in br.matches if {m.a, m.b} == {"P4", "P5"})
    assert (qf.winner, qf.outcome.reason) == ("P5", "lot")
    assert "the lot drawn at the venue: P5" in qf.outcome.detail

    assert create(capsys, tmp_path, db, "mk", "makhos-ko", KO_CSV, "seeds=P1,P2,P3,P4,P5,P6,P7,P8")[0] == 0
    assert run(capsys, "event", "set", "mk", "--option", "gives_first=P7>P2", "--db", db)[0] == 0
    tied = [model.Game(g, "P2" if g % 2 else "P7", "P7" if g % 2 else "P2", 0.5, table=3, game=g)
            for g in range(1, 7)]
    decided = [model.Game(g, a, b, 1.0, table=t, game=g) for t, (a, b) in enumerate(
        (("P1", "P8"), ("P4", "P5"), ("P3", "P6")), start=1) for g in range(1, 7)]
    br = bracket(model.EventState(players, tuple(tied + decided), options=options_of(db, "mk")), mh8, seed=1)
    m = next(m for m in br.matches if {m.a, m.b} == {"P2", "P7"})
    assert (m.outcome.game, m.outcome.left, m.outcome.right) == (7, "P7", "P2")
    assert "P7 gives first (option 'gives_first')" in m.outcome.part


def test_a_team_round_robin_takes_its_teams_order(capsys, tmp_path, db):
    """MR-11: the lot numbers the teams (complete ones: board 1 and board 2)."""
    csv = ("id,name,team,board\n" "a1,A one,Red,1\n" "a2,A two,Red,2\n" "b1,B one,Blue,1\n" "b2,B two,Blue,2\n"
           "c1,C one,Green,1\n" "c2,C two,Green,2\n" "d1,D one,Grey,1\n")
    status, _, err = create(capsys, tmp_path, db, "mt", "makruk-team", csv, "order=Green,red,Blue")
    assert status == 0, err
    assert options_of(db, "mt") == {"order": ["Green", "Red", "Blue"]}
    for order, says in (("Green,Red", "option order: 2 teams for the event's 3: Blue is missing"),
                        ("Green,Red,Blue,Grey", "option order: team Grey is not a team: it has not every board "
                                                "(MR-11)"),
                        ("Green,Red,Red", "option order: team Red is listed twice"),
                        ("Green,Red,Pink", "option order: Pink is not a team of the event")):
        status, _, err = run(capsys, "event", "set", "mt", "--option", f"order={order}", "--db", db)
        assert (status, err) == (1, says + "\n"), order
    # the boards given in the same change are read first: with 3 boards a team, none is complete
    status, _, err = run(capsys, "event", "set", "mt", "--option", "order=Green,Red,Blue", "--option", "boards=3",
                         "--db", db)
    assert (status, err) == (1, "option order: team Green is not a team: it has not every board (MR-11)\n")
    status, _, err = run(capsys, "event", "set", "mt", "--option", "order=Blue,Green,Red", "--db", db)
    assert status == 0, err
    assert options_of(db, "mt") == {"order": ["Blue", "Green", "Red"]}
