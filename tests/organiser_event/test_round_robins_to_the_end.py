"""Round robins played to their end through the desk's path (issue 25): a Pair with a new random seed
every round (`events.draw(store, name)`), Publish, the results stored as the receiver stores them. The
pairing numbers are the lot the first Pair drew (kept by the event: `store.event(...)["lot"]`); every
expected board is the published FIDE Berger table (Handbook C.05 Annex 1, typed here by hand) over those
numbers: MR-10 (seed 001 §5(2)), MH-7 (seed 004 §3.9.1)."""
from __future__ import annotations

from itertools import combinations

import pytest
from playkit import new_event, pair_and_publish, play, pushed_rows

from gameclock.organiser import event as events
from gameclock.organiser.store import Store

# FIDE Handbook C.05 Annex 1, "3 or 4 players" and "9 or 10 players", by pairing number (White first)
FIDE_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
FIDE_10 = [
    [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
    [(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)],
    [(2, 10), (3, 1), (4, 9), (5, 8), (6, 7)],
    [(10, 7), (8, 6), (9, 5), (1, 4), (2, 3)],
    [(3, 10), (4, 2), (5, 1), (6, 9), (7, 8)],
    [(10, 8), (9, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 10), (5, 3), (6, 2), (7, 1), (8, 9)],
    [(10, 9), (1, 8), (2, 7), (3, 6), (4, 5)],
    [(5, 10), (6, 4), (7, 3), (8, 2), (9, 1)],
]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def test_a_ten_player_makruk_round_robin_to_round_9(store):
    """MR-10 (seed 001 §5(2)): round one by lot, players of one campus kept apart in it; then the Berger
    table "จนครบทุกคน" (until all have met): 10 players, 9 rounds, every pair once. Option colours=berger:
    White (who starts, left) as the table gives it, so each player's colours alternate but where the
    table says otherwise (player 10 strictly: B W B W ...; the others break it at most once, player 1
    in rounds 1-2: 1-10 then 1-2, White twice)."""
    campus = dict(zip("ABCDEFGHIJ", "KKSSNNUURR", strict=True))   # five campuses of two
    new_event(store, "rr", "makruk-rr", "ABCDEFGHIJ", options={"colours": "berger"}, campus=campus,
              preset="makruk-45")
    met: list[frozenset[str]] = []
    colours: dict[str, list[str]] = {p: [] for p in campus}
    for rnd in range(1, 10):
        r = pair_and_publish(store, "rr")
        number = {k: pid for k, pid in enumerate(store.event("rr")["lot"]["order"], 1)}
        assert [(b["table"], b["left"], b["right"]) for b in r["boards"]] == [
            (t, number[w], number[b]) for t, (w, b) in enumerate(FIDE_10[rnd - 1], 1)]
        if rnd == 1:
            assert all(campus[b["left"]] != campus[b["right"]] for b in r["boards"])   # MR-10
            assert [w["text"] for w in r["words"]][0].startswith("round 1 of {rounds} of the Berger table: pairing "
                                                                "numbers drawn by lot")
        else:
            assert str(events.words_of(r)[0]).startswith(f"round {rnd} of 9 of the Berger table, from the pairing "
                                                          "numbers of round 1 (lot seed ")
        for b in r["boards"]:
            met.append(frozenset((b["left"], b["right"])))
            colours[b["left"]].append("W")
            colours[b["right"]].append("B")
        play(store, "rr", r, lambda b: "left" if b["table"] % 2 else "draw", kind="makruk")
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations("ABCDEFGHIJ", 2))))
    # player 10 of the table: B W B W B W B W B (rounds 1-9: Black in odd rounds, White in even ones)
    ten = store.event("rr")["lot"]["order"][9]
    assert "".join(colours[ten]) == "BWBWBWBWB"
    repeats = {p: sum(1 for a, b in zip(c, c[1:], strict=False) if a == b) for p, c in colours.items()}
    assert all(n <= 1 for n in repeats.values())            # the table's one break at most
    with pytest.raises(events.EventError, match="rr: the round robin is over: all 9 rounds of the Berger table "
                                                "are published"):
        events.draw(store, "rr")


def test_a_four_player_makhos_group_over_three_rounds_then_the_ordered_tie_break(store):
    """MH-7 (seed 004 §3.9.1): a group of 4 is a round robin of 4-game matches on one table, the starter
    alternating from a coin toss (seed 004 §3.4.1): 3 rounds, each of the 6 pairs once. Then the tie-break
    games the committee ordered (option tiebreak: A and B, ค.(3)): games 5-8 at 20:00 a side (the clock's
    preset makhos-tiebreak-20), then nothing more to pair."""
    new_event(store, "grp", "makhos-groups", "ABCD", options={"tiebreak": [["A", "B"]]}, preset="makhos-30")
    met = []
    for rnd in (1, 2, 3):
        r = pair_and_publish(store, "grp")
        number = {k: pid for k, pid in enumerate(store.event("grp")["lot"]["groups"]["A"], 1)}
        by_table: dict[int, list[dict]] = {}
        for b in r["boards"]:
            by_table.setdefault(b["table"], []).append(b)
        assert sorted(by_table) == [1, 2]
        for t, (w, bl) in enumerate(FIDE_4[rnd - 1], 1):
            games = by_table[t]
            assert [g["game"] for g in games] == [1, 2, 3, 4]
            assert {games[0]["left"], games[0]["right"]} == {number[w], number[bl]}
            assert [g["left"] for g in games] == [games[0]["left"], games[0]["right"]] * 2   # the start alternates
            assert all(g["note"] == f"group A, round {rnd} of 3, game {g['game']} of 4" for g in games)
            met.append(frozenset((number[w], number[bl])))
        play(store, "grp", r, lambda b: "left" if b["game"] % 2 else "draw")
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations("ABCD", 2))))
    r4 = pair_and_publish(store, "grp")
    assert [(b["game"], {b["left"], b["right"]}) for b in r4["boards"]] == [(g, {"A", "B"}) for g in (5, 6, 7, 8)]
    assert [b["left"] for b in r4["boards"]][:2] == [r4["boards"][0]["left"], r4["boards"][0]["right"]]
    assert all(b["preset"] == "makhos-tiebreak-20" for b in r4["boards"])
    assert [(p["table"], p["game"], p["preset"]) for p in pushed_rows(store, "grp", 4)] == [(1, 5, "makhos-tiebreak-20")]
    assert [(p["game"], p["preset"]) for p in pushed_rows(store, "grp", 1)] == [(1, "makhos-30")] * 2
    play(store, "grp", r4, lambda b: "draw")
    with pytest.raises(events.EventError, match=r"grp: the groups' round robins \(3 round\(s\)\) and the tie-break "
                                                "games ordered are over"):
        events.draw(store, "grp")
