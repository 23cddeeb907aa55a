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
