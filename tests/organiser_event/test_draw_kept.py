"""The event owns its draw (issue 25): the first Pair draws the lot, every later Pair continues it,
whatever seed it gets. Each test plays an event as the desk does (`events.draw` with no seed: a new
random seed every Pair), publishes it and stores the results as the receiver stores a clock's record.
Found by issue 25: knockouts and the Makhos groups were drawn again every round, a Makruk round robin
could not get past round 1."""
from __future__ import annotations

from itertools import combinations

import pytest
from playkit import boards, new_event, pair_and_publish, pairs, play

from gameclock.organiser import event as events
from gameclock.organiser.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


@pytest.mark.parametrize("system, ids, games", [("makhos-ko", "ABCDEFGH", 6), ("makruk-ko", "ABCD", 2)])
def test_a_knockouts_second_round_is_game_2_of_the_same_matches_sides_swapped(store, system, ids, games):
    """MH-8 (seed 004 §3.9.2: 6 games) and MR-12 (seed 003 Makruk §1: 2 games, game 2 "สลับกันเดิน" the
    sides swapped): round 2 is game 2 of round 1's matches, each at its table, the other player starting."""
    new_event(store, "ko", system, ids)
    r1 = pair_and_publish(store, "ko")
    play(store, "ko", r1, lambda b: "draw", kind="makhos" if system.startswith("makhos") else "makruk")
    r2 = pair_and_publish(store, "ko")
    assert boards(r2) == [(t, right, left, 2) for t, left, right, _ in boards(r1)]
    assert all(f"game 2 of {games}" in b["note"] for b in r2["boards"])


def test_a_makhos_group_of_four_meets_every_pair_once_in_three_rounds(store):
    """MH-7 (seed 004 §3.9.1): a group is a round robin: 4 players, 3 rounds, each of the 6 pairs once."""
    new_event(store, "grp", "makhos-groups", "ABCD")
    met: list[frozenset[str]] = []
    for _ in range(3):
        r = pair_and_publish(store, "grp")
        met += pairs(r)
        play(store, "grp", r, lambda b: "left")
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations("ABCD", 2))))


def test_a_makruk_round_robin_pairs_round_2_from_the_desk(store):
    """MR-10 (seed 001 §5(2)): the lot pairs round one, the Berger table the rest; the desk's Pair has no
    option to give, and round 2 pairs from the kept lot."""
    new_event(store, "rr", "makruk-rr", "ABCDEF")
    r1 = pair_and_publish(store, "rr")
    play(store, "rr", r1, lambda b: "left", kind="makruk")
    r2 = pair_and_publish(store, "rr")
    assert not pairs(r2) & pairs(r1) and len(pairs(r2)) == 3
    assert events.draft_of(store, "rr") is None


def test_gameclock_pair_continues_a_makruk_knockout(tmp_path, capsys):
    """The same through the command line: `gameclock pair ko --publish` twice, results stored between
    (8 players: a bracket drawn again had 104 chances in 105 to pair round 2 otherwise)."""
    from gameclock import cli

    db = str(tmp_path / "pc.db")
    players = tmp_path / "players.csv"
    players.write_text("id,name\n" + "".join(f"{i},Player {i}\n" for i in "ABCDEFGH"), encoding="utf-8")
    assert cli.main(["event", "create", "ko", "--system", "makruk-ko", "--players", str(players), "--db", db]) == 0
    assert cli.main(["pair", "ko", "--publish", "--db", db]) == 0
    with Store(db) as s:
        r1 = events.round_of(s, "ko")
        play(s, "ko", r1, lambda b: "left", kind="makruk")
    capsys.readouterr()
    assert cli.main(["pair", "ko", "--publish", "--db", db]) == 0
    out = capsys.readouterr().out.splitlines()
    with Store(db) as s:
        r2 = events.round_of(s, "ko")
    assert boards(r2) == [(t, right, left, 2) for t, left, right, _ in boards(r1)]   # MR-12: game 2, swapped
    assert out[0] == f"ko round 2 (published; system makruk-ko, seed {r2['seed']})"
    assert out[1].startswith("  draw: continues the bracket drawn for round 1 (lot seed ")
    assert out[2] == "  draw: stage 1 of 3: the quarter-finals"
    # game 2 drawn: every quarter-final 3-1 to its game 1 winner, no lot; round 3's draft (the semi-finals)
    # continues the kept bracket: a new seed cannot change it, so --seed and --redraw on it are refused
    # saying so; --again pairs it again (the same)
    with Store(db) as s:
        play(s, "ko", r2, lambda b: "draw", kind="makruk")
    assert cli.main(["pair", "ko", "--db", db]) == 0
    capsys.readouterr()
    for flag in (["--seed", "5"], ["--redraw"]):
        assert cli.main(["pair", "ko", *flag, "--db", db]) == 1
        err = capsys.readouterr().err
        assert err.startswith("ko: round 3 draws nothing a new seed could change (continues the bracket drawn for "
                              "round 1 (lot seed "), err
        assert "stage 2 of 3: the semi-finals" in err
    assert cli.main(["pair", "ko", "--again", "--db", db]) == 0


def test_a_round_robin_continues_from_round_1_as_the_organiser_fixed_it(store):
    """MR-10: the organiser sets round 1's table 1 to other players (a campus clash the venue saw, say);
    the kept pairing numbers follow the boards as published, so the event is still a round robin: over
    its 5 rounds every pair of 6 meets once, round 1's fixed pairs included."""
    new_event(store, "rr", "makruk-rr", "ABCDEF")
    d1 = events.draw(store, "rr")
    (t1, a, b), (t2, c, d) = [(x["table"], x["left"], x["right"]) for x in d1["boards"][:2]]
    fixed = events.edit(store, "rr", fixes=[(t1, a, c), (t2, b, d)])     # a v c and b v d instead
    assert {frozenset((x["left"], x["right"])) for x in fixed["boards"][:2]} == {frozenset((a, c)), frozenset((b, d))}
    r1 = events.publish(store, "rr")
    met = list(pairs(r1))
    play(store, "rr", r1, lambda b: "left", kind="makruk")
    for _ in range(4):
        r = pair_and_publish(store, "rr")
        met += pairs(r)
        play(store, "rr", r, lambda b: "draw", kind="makruk")
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations("ABCDEF", 2))))


def test_a_knockout_continues_from_round_1_as_fixed_and_a_later_round_keeps_its_pairs(store):
    """MR-12: round 1's two semi-finals set by the organiser to other pairs: game 2 is those matches,
    sides swapped; in round 2 the organiser may swap tables or sides, not who meets whom."""
    new_event(store, "ko", "makruk-ko", "ABCD")
    d1 = events.draw(store, "ko")
    (a, b), (c, d) = [(x["left"], x["right"]) for x in d1["boards"]]
    events.edit(store, "ko", fixes=[(1, a, c), (2, b, d)])
    r1 = events.publish(store, "ko")
    assert boards(r1) == [(1, a, c, 1), (2, b, d, 1)]
    play(store, "ko", r1, lambda b: "left", kind="makruk")
    d2 = events.draw(store, "ko")
    assert boards(d2) == [(1, c, a, 2), (2, d, b, 2)]                   # MR-12: game 2 of the fixed matches
    with pytest.raises(events.EventError, match="round 2 continues the lot kept since round 1"):
        events.edit(store, "ko", fixes=[(1, c, b), (2, d, a)])
    assert boards(events.edit(store, "ko", swaps=[(1, 2)])) == [(1, d, b, 2), (2, c, a, 2)]
    assert boards(events.edit(store, "ko", fixes=[(1, b, d)])) == [(1, b, d, 2), (2, c, a, 2)]   # sides only


def test_fixing_a_makhos_groups_draft_keeps_every_game_of_its_matches(store):
    """MH-7: a match is 4 games at one table; swapping two tables moves all 4, setting a table sets all
    4 (the start alternating as before); a pair across two groups is refused (a group plays its own
    round robin). Found by issue 25: a fix kept one game a table (the draft lost games 1-3)."""
    new_event(store, "grp", "makhos-groups", "ABCDEFGH", options={"groups": 2})
    d1 = events.draw(store, "grp")
    games = {t: [(x["left"], x["right"], x["game"]) for x in d1["boards"] if x["table"] == t] for t in (1, 2, 3, 4)}
    assert all(len(g) == 4 for g in games.values())
    swapped_ = events.edit(store, "grp", swaps=[(1, 2)])
    assert [(x["table"], x["left"], x["right"], x["game"]) for x in swapped_["boards"] if x["table"] in (1, 2)] == (
        [(1, *g) for g in games[2]] + [(2, *g) for g in games[1]])
    left, right, _ = games[2][0]
    fixed = events.edit(store, "grp", fixes=[(1, right, left)])       # table 1 (group A's match) other way round
    assert [(x["left"], x["right"], x["game"]) for x in fixed["boards"] if x["table"] == 1] == [
        (right, left, 1), (left, right, 2), (right, left, 3), (left, right, 4)]
    lot = store.event("grp")["lot"]
    assert lot is None                                                   # nothing kept before round 1 is out
    group = events.draft_of(store, "grp")["lot"]["groups"]
    a_player, b_player = group["A"][0], group["B"][0]
    t_a = next(x["table"] for x in fixed["boards"] if a_player in (x["left"], x["right"]))
    t_b = next(x["table"] for x in fixed["boards"] if b_player in (x["left"], x["right"]))
    other_a = next(p for x in fixed["boards"] if x["table"] == t_a for p in (x["left"], x["right"]) if p != a_player)
    other_b = next(p for x in fixed["boards"] if x["table"] == t_b for p in (x["left"], x["right"]) if p != b_player)
    with pytest.raises(events.EventError, match="are in different groups"):
        events.edit(store, "grp", fixes=[(t_a, a_player, b_player), (t_b, other_a, other_b)])


def test_an_event_from_before_kept_lots_continues_from_round_1s_seed(tmp_path):
    """A store from before issue 25 (migration 9): round 1 published, no lot kept. The next Pair draws the
    lot again from round 1's stored seed, makes it agree with round 1 as published (here fixed by the
    organiser), keeps it, and pairs round 2 from it: MR-10, round 2 of the Berger table, no pair again."""
    import sqlite3

    db = tmp_path / "old.db"
    with Store(db) as s:
        new_event(s, "rr", "makruk-rr", "ABCDEF")
        d1 = events.draw(s, "rr", seed=77)
        (t1, a, b), (t2, c, d) = [(x["table"], x["left"], x["right"]) for x in d1["boards"][:2]]
        events.edit(s, "rr", fixes=[(t1, a, c), (t2, b, d)])
        r1 = events.publish(s, "rr")
        play(s, "rr", r1, lambda b: "left", kind="makruk")
    con = sqlite3.connect(db)
    con.execute("UPDATE events SET lot = NULL, lot_at = NULL")
    con.execute("UPDATE event_rounds SET lot = NULL, words = NULL")
    con.commit()
    con.close()
    with Store(db) as s:
        assert s.event("rr")["lot"] is None
        r2 = pair_and_publish(s, "rr")
        kept = s.event("rr")["lot"]
        assert kept is not None and kept["seed"] == 77
        assert len(pairs(r2)) == 3 and not pairs(r2) & pairs(r1)
        # the kept numbers give round 1 as published: Berger round 1 is k v 7-k
        order = kept["order"]
        assert {frozenset((order[k], order[5 - k])) for k in range(3)} == pairs(r1)


def test_a_tie_decided_before_lots_were_kept_is_read_from_the_rounds_published(tmp_path):
    """MR-12 in a store from before issue 25: semi-final 2 tied 2-2 went to lots, and round 3 (the final's
    game 1) was published with the lot's winner. The lot was not kept; the published round says who won
    it, so every later Pair, whatever its seed, pairs the same final (game 2, sides swapped)."""
    import sqlite3

    db = tmp_path / "old.db"
    with Store(db) as s:
        new_event(s, "ko", "makruk-ko", "ABCD")
        r1 = pair_and_publish(s, "ko")
        play(s, "ko", r1, lambda b: "left", kind="makruk")
        r2 = pair_and_publish(s, "ko")
        play(s, "ko", r2, lambda b: "draw" if b["table"] == 1 else "left", kind="makruk")   # SF1 3-1, SF2 2-2
        r3 = pair_and_publish(s, "ko")
        final = next(b for b in r3["boards"] if b["note"].startswith("final"))
    con = sqlite3.connect(db)
    con.execute("UPDATE events SET lot = NULL, lot_at = NULL")
    con.execute("UPDATE event_rounds SET lot = NULL, words = NULL")
    con.commit()
    con.close()
    with Store(db) as s:
        play(s, "ko", r3, lambda b: "left", kind="makruk")
        for seed in range(1, 21):
            d4 = events.draw(s, "ko", seed)
            f4 = next(b for b in d4["boards"] if b["note"].startswith("final"))
            assert (f4["left"], f4["right"], f4["game"]) == (final["right"], final["left"], 2), seed
