"""Final places of knockouts and groups from their published rounds (issue 25). A knockout's bracket is
the one its pairing system reads (`event.knockout_of`: the lot the event keeps, each match decided by
its system's rule over the stored games, `knockout.placings`), the same reading that pairs its next
round. These rounds are published by hand, so the event keeps no lot: its lot is drawn again from
round 1's seed and made to agree with round 1's boards (a store from before issue 25); the seeds
option makes the hand-worked bracket the event's (1 v 4, 2 v 3; 1 v 8, 4 v 5, 2 v 7, 3 v 6), and a tie
decided by lot before lots were kept goes to the player the published rounds went on with.
Places: the final's winner 1, its loser 2; the semi-finals' losers share 3 unless a third-place match
is played (seeds 003 and 004 play none); the quarter-finals' losers share 5. Medals follow the places
(gold, silver, bronze; a shared third two bronzes): our decision, docs/rules.md. Groups (MH-7): each
ranked by MH-7's methods. Expected places worked by hand in each test's comments."""
from __future__ import annotations

import pytest
from finalkit import new_event, placings, publish, result, waiting

from gameclock.organiser import event as events
from gameclock.organiser.desk import i18n
from gameclock.organiser.standings.final import classify
from gameclock.organiser.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def n(pid: str) -> str:
    return f"Player {pid}"


def play_matches(store, ev: str, first_round: int, matches, kind: str, preset: str,
                 note: str = "{name}: game {k}") -> int:
    """Each match (name, left, right, games): games a list of (left, right, winner, draw given by) in
    game order; game k of every match in round first_round + k - 1, a match a table, its boards' note
    `note`. Returns the next round."""
    rnd = first_round
    longest = max(len(m[3]) for m in matches)
    for k in range(longest):
        boards, played = [], []
        for t, (name, _a, _b, games) in enumerate(matches, start=1):
            if k < len(games):
                left, right, winner, given = games[k]
                boards.append((t, left, right, k + 1, "final", note.format(name=name, k=k + 1)))
                played.append((t, left, right, winner, given, k + 1))
        publish(store, ev, rnd, boards)
        for t, left, right, winner, given, game in played:
            result(store, ev, rnd, t, n(left), n(right), winner, kind=kind, preset=preset, game=game, stage="final",
                   draw_loss=given, reason="draw-given" if given else None)
        rnd += 1
    return rnd


W, L, D = "left", "right", "draw"     # a game's outcome, from its left (starting) player


def sides(a: str, b: str, outcomes: str) -> list[tuple[str, str, str, None]]:
    """Games of a match, `a` starting game 1 and the sides swapping each game; `outcomes` one letter a
    game from `a`'s view: a (a wins), b (b wins), d (drawn)."""
    out = []
    for k, o in enumerate(outcomes):
        left, right = (a, b) if k % 2 == 0 else (b, a)
        winner = D if o == "d" else W if (o == "a") == (left == a) else L
        out.append((left, right, winner, None))
    return out


def test_mh8_eight_players_to_the_champion(store):
    """MH-8 (seed 004 §3.9.2), makhos-ko, 8 players: bracket 1 v 8, 4 v 5, 2 v 7, 3 v 6 (A..H the seeds).
    Quarter-finals, 6 games each (game points 2/1/0):
      QF1 A v H: A wins 4, 2 drawn -> 10-2;   QF2 D v E: E wins 3, D 1, 2 drawn -> E 8-4
      QF3 B v G: B wins 6 -> 12-0;            QF4 C v F: C wins 3, F 1, 2 drawn -> C 8-4
    Semi-finals: A v E: A wins 2, E 1, 3 drawn -> A 7-5;  B v C: C wins 2, B 0, 4 drawn -> C 8-4.
    Final A v C: 6 draws -> 6-6; then 4 draw-giving games, the starter gives the draw (a draw is its
    giver's loss): game 7 A starts, drawn -> C's win; game 8 C starts and wins; game 9 A starts, drawn
    -> C's win; game 10 C starts, drawn -> A's win. After 10: C 6 + 6 = 12, A 6 + 2 = 8: C champion.
    Places: 1 C, 2 A, =3 E and B (no third-place match, seed 004), =5 H, D, G, F (the quarter-finals' losers)."""
    new_event(store, "ko8", "makhos-ko", "ABCDEFGH", options={"seeds": list("ABCDEFGH")}, preset="makhos-30")
    rnd = play_matches(store, "ko8", 1, [
        ("quarter-final 1", "A", "H", sides("A", "H", "aaaadd")),
        ("quarter-final 2", "D", "E", sides("D", "E", "bbbadd")),
        ("quarter-final 3", "B", "G", sides("B", "G", "aaaaaa")),
        ("quarter-final 4", "C", "F", sides("C", "F", "aaabdd"))], "makhos", "makhos-30")
    fc = classify(store, "ko8")
    # the quarter-finals decided by their games; nobody placed 1-4 yet: the semi-finals are to come
    assert [(r.place, r.player) for r in fc.rows if r.rank] == [("=5", n("D")), ("=5", n("F")), ("=5", n("G")),
                                                              ("=5", n("H"))]
    assert {r.player for r in fc.rows if r.rank is None} == {n(x) for x in "ABCE"} and not fc.decided
    rnd = play_matches(store, "ko8", rnd, [("semi-final 1", "A", "E", sides("A", "E", "aabddd")),
                                           ("semi-final 2", "B", "C", sides("B", "C", "bbdddd"))], "makhos", "makhos-30")
    final = sides("A", "C", "dddddd") + [("A", "C", L, "left"), ("C", "A", W, None), ("A", "C", L, "left"),
                                         ("C", "A", L, "left")]
    play_matches(store, "ko8", rnd, [("final", "A", "C", final)], "makhos", "makhos-30")
    fc = classify(store, "ko8")
    assert fc.decided and waiting(fc) == []
    assert placings(fc) == [("1", n("C"), "gold"), ("2", n("A"), "silver"), ("=3", n("B"), "bronze"),
                            ("=3", n("E"), "bronze"), ("=5", n("D"), ""), ("=5", n("F"), ""), ("=5", n("G"), ""),
                            ("=5", n("H"), "")]
    assert [r.stage for r in fc.rows] == ["final", "final"] + ["semi-final"] * 2 + ["quarter-final"] * 4
    assert any("no match for third place" in x for x in fc.notes)


def test_mr12_four_players_a_lot_in_a_semi_final_and_the_finals_third_game(store):
    """MR-12 (seed 003 Makruk §1 and note), makruk-ko, 4 players W X Y Z (semi-finals W v Z, X v Y):
      SF1 W v Z: 1-1 in games (2-2): lots; the bracket went on with Z (the final's boards say so)
      SF2 X v Y: Y wins both -> 4-0
      final Z v Y: 1-1 after 2 games; the final plays a third game first (MR-12): Y wins it.
    Places: 1 Y, 2 Z, =3 W and X."""
    new_event(store, "mr", "makruk-ko", "WXYZ", options={"seeds": list("WXYZ")}, preset="makruk-30")
    rnd = play_matches(store, "mr", 1, [("semi-final 1", "W", "Z", sides("W", "Z", "ab")),
                                        ("semi-final 2", "X", "Y", sides("X", "Y", "bb"))], "makruk", "makruk-30")
    fc = classify(store, "mr")
    assert "semi-final 1: Player W v Player Z" in waiting(fc)   # the lot's winner shows once the final is out
    # and in Thai, the match's name too
    assert [w.say(lambda t: i18n.tr(t, "th")) for w in fc.waiting][0] == "รอบรองชนะเลิศ คู่ที่ 1: Player W พบ Player Z"
    play_matches(store, "mr", rnd, [("final", "Z", "Y", sides("Z", "Y", "ab") + [("Y", "Z", W, None)])],
                 "makruk", "makruk-30")
    fc = classify(store, "mr")
    assert fc.decided
    assert placings(fc) == [("1", n("Y"), "gold"), ("2", n("Z"), "silver"), ("=3", n("W"), "bronze"),
                            ("=3", n("X"), "bronze")]


def test_a_later_stage_noted_with_where_its_players_came_from(store):
    """A stage after the first may say where its players came from before the part: "final (the winners
    of tables 1 and 2): game 1 of 2". The same event as above (MR-12): W v Z 2-0 by games, X v Y 0-4;
    the final W v Y, Y wins both. Places: 1 Y, 2 W, =3 Z and X."""
    new_event(store, "mrw", "makruk-ko", "WXYZ", options={"seeds": list("WXYZ")}, preset="makruk-30")
    rnd = play_matches(store, "mrw", 1, [("semi-final 1", "W", "Z", sides("W", "Z", "aa")),
                                         ("semi-final 2", "X", "Y", sides("X", "Y", "bb"))], "makruk", "makruk-30")
    play_matches(store, "mrw", rnd, [("final", "W", "Y", sides("W", "Y", "bb"))], "makruk", "makruk-30",
                 note="{name} (the winners of tables 1 and 2): game {k} of 2")
    assert placings(classify(store, "mrw")) == [("1", n("Y"), "gold"), ("2", n("W"), "silver"),
                                                ("=3", n("X"), "bronze"), ("=3", n("Z"), "bronze")]


def test_mr12_with_a_third_place_match(store):
    """MR-12 with option third_place: the semi-finals' losers play for 3rd and 4th. W v X: W wins both
    -> W 3rd, X 4th; until it is played, both are third, provisionally."""
    new_event(store, "mr3", "makruk-ko", "WXYZ", preset="makruk-30",
              options={"seeds": list("WXYZ"), "third_place": True})
    rnd = play_matches(store, "mr3", 1, [("semi-final 1", "W", "Z", sides("W", "Z", "bb")),
                                         ("semi-final 2", "X", "Y", sides("X", "Y", "bb"))], "makruk", "makruk-30")
    fc = classify(store, "mr3")
    assert [(r.place, r.player, r.provisional) for r in fc.rows if r.rank] == [
        ("=3", n("W"), True), ("=3", n("X"), True)]
    # the bracket knows who meets in the final and for third place once the semi-finals are decided
    assert waiting(fc) == ["final: Player Z v Player Y", "third place: Player W v Player X"]
    play_matches(store, "mr3", rnd, [("final", "Z", "Y", sides("Z", "Y", "aa")),
                                     ("third place", "W", "X", sides("W", "X", "aa"))], "makruk", "makruk-30")
    fc = classify(store, "mr3")
    assert fc.decided
    assert placings(fc) == [("1", n("Z"), "gold"), ("2", n("Y"), "silver"), ("3", n("W"), "bronze"),
                            ("4", n("X"), "")]


def test_seed_003_makhos_knockout_third_game_and_the_final_playing_on(store):
    """Seed 003's Makhos note (makhos-ko-003): 2 games, a third if tied; the final plays on one game at a
    time until one leads, at most 6. 4 players P Q R S (semi-finals P v S, Q v R):
      SF1 P v S: 1-1 after 2; the third game: S wins -> S through
      SF2 Q v R: Q wins 2 -> through
      final S v Q: drawn, drawn, drawn, then Q wins game 4 -> Q leads: champion.
    Places: 1 Q, 2 S, =3 P and R."""
    new_event(store, "k3", "makhos-ko-003", "PQRS", options={"seeds": list("PQRS")}, preset="makhos-move")
    rnd = play_matches(store, "k3", 1, [("semi-final 1", "P", "S", sides("P", "S", "abb")),
                                        ("semi-final 2", "Q", "R", sides("Q", "R", "aa"))], "makhos", "makhos-move")
    play_matches(store, "k3", rnd, [("final", "S", "Q", sides("S", "Q", "dddb"))], "makhos", "makhos-move")
    fc = classify(store, "k3")
    assert fc.decided
    assert placings(fc) == [("1", n("Q"), "gold"), ("2", n("S"), "silver"), ("=3", n("P"), "bronze"),
                            ("=3", n("R"), "bronze")]


def test_a_final_decided_by_lot_agrees_with_the_pairing_system(store):
    """MR-12 played through the desk's Pair and Publish (`event.draw` with no seed, `event.publish`), the
    event's lot kept (option lot_seed): every game's starter wins, so each semi-final is 1-1 (a lot) and
    so is the final, whose third game is drawn: lots. The classification's champion is the one the
    pairing system names when asked for one more round, and the semi-finals' losers share third place."""
    new_event(store, "lot", "makruk-ko", "WXYZ", preset="makruk-30", options={"lot_seed": 7})
    while True:
        try:
            events.draw(store, "lot")
        except events.EventError as exc:
            over = str(exc)
            break
        r = events.publish(store, "lot")
        for b in r["boards"]:
            third = "third game" in b["note"]
            result(store, "lot", r["round"], b["table"], n(b["left"]), n(b["right"]), D if third else W,
                   kind="makruk", preset="makruk-30", game=b["game"], stage=b["stage"])
    fc = classify(store, "lot")
    assert fc.decided
    champion = fc.rows[0]
    assert champion.rank == 1 and f"the knockout is over: {champion.player[-1]} won the final" in over
    assert [r.place for r in fc.rows] == ["1", "2", "=3", "=3"]
    assert any(x.startswith("final: ") and "by lot" in x for x in fc.notes)


# ------------------------------------------------------------------------------------------ MH-7 groups
def match(a: str, b: str, outcomes: str) -> list[tuple[str, str, str]]:
    """A 4-game group match, `a` starting game 1, sides alternating (seed 004 §3.4.1); outcomes as sides()."""
    return [(left, right, winner) for left, right, winner, _ in sides(a, b, outcomes)]


def play_group(store, ev: str, rnd: int, tables: list[list[tuple[str, str, str]]], group: str = "A",
               note: str = "group {group}, game {k} of 4") -> None:
    boards, played = [], []
    for t, games in enumerate(tables, start=1):
        for k, (left, right, winner) in enumerate(games, start=1):
            boards.append((t, left, right, k, "qualifying", note.format(group=group, k=k, rnd=rnd)))
            played.append((t, left, right, winner, k))
    publish(store, ev, rnd, boards)
    for t, left, right, winner, k in played:
        result(store, ev, rnd, t, n(left), n(right), winner, kind="makhos", preset="makhos-30", game=k)


def test_mh7_one_group_of_four(store):
    """MH-7 (seed 004 §3.9.1): a group of K L M N, matches of 4 games (GP 2/1/0, MP 3/1/0):
      R1 K v N: K 3 wins, 1 draw -> 7-1 (K 3 MP);   L v M: 2 wins each -> 4-4 (1 MP each)
      R2 K v M: M 2 wins, 1 draw, K 1 win -> M 5-3; N v L: 1 win each, 2 draws -> 4-4
      R3 K v L: L 3 wins, K 1 -> L 6-2;             M v N: 1 win each, 2 draws -> 4-4
    MP: L 1+1+3 = 5, M 1+3+1 = 5, K 3+0+0 = 3, N 0+1+1 = 2. L and M level on MP; GP: L 4+4+6 = 14,
    M 4+5+4 = 13: L first on game points (MH-7's second method). Places: 1 L, 2 M, 3 K, 4 N."""
    new_event(store, "grp", "makhos-groups", "KLMN", preset="makhos-30")
    play_group(store, "grp", 1, [match("K", "N", "aaad"), match("L", "M", "aabb")])
    play_group(store, "grp", 2, [match("K", "M", "bbda"), match("N", "L", "abdd")])
    fc = classify(store, "grp")
    assert not fc.decided and waiting(fc) == ["group A: Player K v Player L, Player M v Player N"]
    assert all(r.provisional for r in fc.rows)
    # round 3's boards say the group's round too, as the kept-draw groups write it
    play_group(store, "grp", 3, [match("K", "L", "bbba"), match("M", "N", "abdd")],
               note="group {group}, round {rnd} of 3, game {k} of 4")
    fc = classify(store, "grp")
    assert fc.decided
    assert placings(fc) == [("1", n("L"), "gold"), ("2", n("M"), "silver"), ("3", n("K"), "bronze"), ("4", n("N"), "")]
    assert fc.row(n("L")).figures == {"MP": 5, "GP": 14, "Diff": 2}
    assert any("place 1: Player L above Player M on game points (14 v 13)" in x for x in fc.notes)


def test_mh7_two_groups_are_placed_within_each_and_get_no_medals(store):
    """Two groups of two (one match each): group A K v L, K 3 wins 1 loss -> K first; group B M v N, N wins
    all 4 -> N first. Places are each group's; the groups qualify for a knockout: no medals."""
    new_event(store, "grp2", "makhos-groups", "KLMN", preset="makhos-30")
    boards = [(1, "K", "L", k, "qualifying", f"group A, game {k} of 4") for k in range(1, 5)]
    boards += [(2, "M", "N", k, "qualifying", f"group B, game {k} of 4") for k in range(1, 5)]
    publish(store, "grp2", 1, boards)
    for k, (left, right, winner) in enumerate(match("K", "L", "aaab"), start=1):
        result(store, "grp2", 1, 1, n(left), n(right), winner, kind="makhos", preset="makhos-30", game=k)
    for k, (left, right, winner) in enumerate(match("M", "N", "bbbb"), start=1):
        result(store, "grp2", 1, 2, n(left), n(right), winner, kind="makhos", preset="makhos-30", game=k)
    fc = classify(store, "grp2")
    assert fc.decided and fc.medals == ""
    assert [(r.group, r.place, r.player, r.medal) for r in fc.rows] == [
        ("A", "1", n("K"), None), ("A", "2", n("L"), None), ("B", "1", n("N"), None), ("B", "2", n("M"), None)]


def test_a_knockout_before_its_draw_and_with_a_result_of_other_players(store):
    """Before round 1 is published there is no bracket: nobody placed, round 1 awaited. A result stored
    for a published table with other players than the table's (a clock set to the wrong pair) is not
    read as the match's: the classification places nobody and names what to correct (one line)."""
    new_event(store, "bad", "makruk-ko", "WXYZ", options={"seeds": list("WXYZ")}, preset="makruk-30")
    fc = classify(store, "bad")
    assert waiting(fc) == ["round 1"] and not fc.decided and all(r.rank is None for r in fc.rows)
    publish(store, "bad", 1, [(1, "W", "Z", 1, "final", "semi-final 1: game 1 of 2"),
                              (2, "X", "Y", 1, "final", "semi-final 2: game 1 of 2")])
    result(store, "bad", 1, 1, n("W"), n("X"), W, kind="makruk", preset="makruk-30", stage="final")
    fc = classify(store, "bad")
    assert not fc.decided and all(r.rank is None for r in fc.rows)
    (what,) = waiting(fc)
    assert what.startswith("the results to correct: ") and "published Player W v Player Z" in what
    assert "\n" not in what
